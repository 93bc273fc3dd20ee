# Board entry point (Raspberry Pi Pico W reference, ESP32 alternative).
# Wires real pins, I2C, USB serial, Wi-Fi and umqtt.simple to the board-free
# logic in device.py, then runs the loop forever. Copy with mpremote (README).
import os
import sys
import time

import defaults
import machine
from device import Device
from link_serial import SerialLink
from sensing import EdgeQueue
from status_led import StatusLed
from store import Store
from tcs34725 import TCS34725


def board_file():
    impl = sys.implementation._machine.lower()
    if "esp32" in impl:
        return "config/pins_esp32.json"
    return "config/pins_pico_w.json"


def make_serial_io():
    # Non-blocking reads from USB serial (stdin) with select.poll.
    import select

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
    stdout = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else sys.stdout

    def read():
        data = b""
        while len(data) < 256 and poller.poll(0):
            data += stdin.read(1)
        return data

    def write(data):
        stdout.write(data)

    return read, write


def make_wifi(cfg):
    import network

    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    state = {"next": time.ticks_ms()}

    def ensure():
        # Asks the radio to (re)join now and then; connect() returns at once.
        if wlan.isconnected():
            return True
        now = time.ticks_ms()
        if time.ticks_diff(now, state["next"]) >= 0:
            state["next"] = time.ticks_add(now, 10000)
            try:
                wlan.connect(cfg["wifi_ssid"], cfg["wifi_password"])
            except OSError:
                pass
        return False

    return ensure


def make_mqtt_link(device, cfg, serial):
    # umqtt.simple with TLS and a password as settings.json asks (mqtt_setup.py);
    # why the link cannot connect goes out as a fault frame on USB serial.
    import ssl

    from mqtt_setup import ClockSync, make_link
    from umqtt.simple import MQTTClient

    wifi_ok = make_wifi(cfg)

    def settime(server):
        import ntptime

        ntptime.host = server
        ntptime.settime()

    def report(text):
        if text:
            with serial.lock:  # sensing may hold the device on the other core
                device.fault("mqtt_error", text, serial)

    def jitter(n):
        return int.from_bytes(os.urandom(2), "big") % n

    clock_sync = ClockSync(cfg.get("ntp_server"), settime, time)
    return make_link(device, cfg, MQTTClient, ssl, time, report, wifi_ok, clock_sync, jitter)


def main():
    cfg = defaults.load(board_file(), "settings.json")
    safe = machine.Pin(cfg["safe_pin"], machine.Pin.IN, machine.Pin.PULL_UP)
    if safe.value() == 0:
        print("safe pin held low: firmware not started, REPL free for mpremote")
        return
    # A host's garbage must not stop the loop: Ctrl-C (0x03) on USB serial would
    # raise KeyboardInterrupt. Reflash with the safe pin jumpered to GND.
    import micropython

    micropython.kbd_intr(-1)
    if not cfg["device_id"]:
        cfg["device_id"] = "castillo-" + "".join(f"{b:02x}" for b in machine.unique_id()[-3:])

    edges = EdgeQueue()
    beam = machine.Pin(cfg["beam_pin"], machine.Pin.IN, machine.Pin.PULL_UP if cfg["beam_pull_up"] else None)
    blocked_level = cfg["beam_blocked_level"]

    def on_edge(pin):  # interrupt handler: timestamp only, no allocation
        edges.put(time.ticks_us(), pin.value() == blocked_level)

    beam.irq(on_edge, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING)
    if cfg.get("emitter_pin") is not None:
        machine.Pin(cfg["emitter_pin"], machine.Pin.OUT, value=1)
    if cfg.get("sensor_led_pin") is not None:  # the breakout's white LED lights the cube
        machine.Pin(cfg["sensor_led_pin"], machine.Pin.OUT, value=1)

    i2c = machine.I2C(
        cfg["i2c_id"], sda=machine.Pin(cfg["i2c_sda"]), scl=machine.Pin(cfg["i2c_scl"]), freq=cfg["i2c_freq"]
    )
    sensor = TCS34725(i2c, gain=cfg["sensor_gain"])
    led = StatusLed([machine.Pin(p, machine.Pin.OUT, value=0) for p in cfg["led_pins"]])

    device = Device(cfg, time, edges, sensor, Store("/"), led, os.urandom)
    read, write = make_serial_io()
    serial = SerialLink(device, read, write, cfg["serial_budget_bytes"])
    mqtt, mqtt_problem = None, None
    if cfg["mqtt_server"] and cfg["wifi_ssid"]:
        try:
            mqtt, mqtt_problem = make_mqtt_link(device, cfg, serial)
        except ImportError as e:  # umqtt.simple not installed (mpremote mip install umqtt.simple)
            mqtt_problem = "MQTT needs umqtt.simple: mpremote mip install umqtt.simple (" + str(e) + ")"
    device.start()
    for problem in cfg["settings_errors"]:
        device.fault("bad_settings", problem, serial)
    if mqtt_problem:  # the tower counts on, over serial; the settings say what to fix
        device.fault("mqtt_config", mqtt_problem, serial)

    if cfg.get("sense_thread"):
        run_two_cores(device, serial, mqtt)
    while True:
        device.step()
        serial.step()
        if mqtt:
            mqtt.step(device.quiet())


def run_two_cores(device, serial, mqtt):
    # Pico W: sensing owns the second core, so umqtt.simple's blocking connect
    # and QoS 1 publishes cannot delay a colour reading. One lock guards the
    # shared state; it is held only for short work without I/O waits.
    import _thread

    lock = _thread.allocate_lock()
    for link in device.links:
        link.lock = lock

    def sense():
        while True:
            with lock:
                device.step()

    _thread.start_new_thread(sense, ())
    while True:
        with lock:
            serial.step()
        if mqtt:
            mqtt.step(True)
        time.sleep_ms(1)


main()
