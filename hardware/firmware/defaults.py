# Tunables with their defaults; a board file (config/pins_*.json) adds the pin
# map and may override any of them, and settings.json on the device (Wi-Fi,
# MQTT broker, device id) overrides both.
import json

FIRMWARE_VERSION = "1.2.0"  # 1.1: the 2023 box's colours (PROTOCOL.md 3.8); 1.2: calibrate keeps, cal learnt

DEFAULTS = {
    "board": "host",
    "device_id": None,  # None: derived from the chip's unique id
    "ring_size": 256,
    "serial_budget_bytes": 512,  # bytes written per loop pass, keeps the loop short
    # beam
    "debounce_us": 1500,  # clear gaps shorter than this are edge flicker
    "min_block_us": 1000,  # blocks shorter than this are glitches
    "multi_us": 11000,  # longer blocks may hold several cubes (calibration refines it)
    "typical_us": 6500,
    "stuck_us": 1000000,
    # colour sensor
    "sensor_gain": 16,
    "read_slack_us": 1000,  # loop latency allowed when matching reads to a block
    "ambient_ms": 250,  # idle reading of the empty shroud, tracks ambient drift
    "ambient_alpha": 0.3,
    "min_conf": 0.995,
    "max_distance": 4.5,
    "calibration_drops": 5,
    # housekeeping
    "heartbeat_ms": 5000,
    "quiet_ms": 300,  # persist totals only after this much beam silence
    # MQTT (hardware/README.md, "A locked-down broker")
    "mqtt_server": None,
    "mqtt_port": None,  # None: 8883 with mqtt_tls, else 1883
    "mqtt_user": None,  # None with a password: the device id (one broker user per tower)
    "mqtt_password": None,
    "mqtt_tls": False,
    "mqtt_ca_file": None,  # with mqtt_tls: the CA that signed the broker's certificate (DER)
    "mqtt_cert_file": None,  # optional client certificate (DER) ...
    "mqtt_key_file": None,  # ... and its key (DER, no passphrase)
    "ntp_server": "pool.ntp.org",  # with mqtt_tls: sets the clock, so certificate dates can be checked
    "mqtt_prefix": "elgrande/tower/",
    "mqtt_keepalive_s": 30,
    "backoff_min_ms": 1000,
    "backoff_max_ms": 60000,
    "wifi_ssid": None,
    "wifi_password": None,
}


def load(*paths):
    # Later files override earlier ones; a missing file is skipped. A file that
    # is not a JSON object is skipped too, and said in cfg["settings_errors"]
    # (main.py sends it as a fault): a typo must not stop the tower from booting.
    cfg = dict(DEFAULTS)
    errors = []
    for path in paths:
        try:
            with open(path) as f:
                data = json.load(f)
        except OSError:
            continue
        except ValueError as e:
            errors.append(path + " is not valid JSON (" + str(e) + "); its settings were not used")
            continue
        if isinstance(data, dict):
            cfg.update(data)
        else:
            errors.append(path + " must hold a JSON object {...}; its settings were not used")
    cfg["settings_errors"] = errors
    return cfg
