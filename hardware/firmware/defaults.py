# Tunables with their defaults; a board file (config/pins_*.json) adds the pin
# map and may override any of them, and settings.json on the device (Wi-Fi,
# MQTT broker, device id) overrides both.
import json

FIRMWARE_VERSION = "1.0.0"

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
    # MQTT
    "mqtt_server": None,
    "mqtt_port": 1883,
    "mqtt_user": None,
    "mqtt_password": None,
    "mqtt_prefix": "elgrande/tower/",
    "mqtt_keepalive_s": 30,
    "backoff_min_ms": 1000,
    "backoff_max_ms": 60000,
    "wifi_ssid": None,
    "wifi_password": None,
}


def load(*paths):
    # Later files override earlier ones; a missing file is skipped.
    cfg = dict(DEFAULTS)
    for path in paths:
        try:
            with open(path) as f:
                cfg.update(json.load(f))
        except OSError:
            pass
    return cfg
