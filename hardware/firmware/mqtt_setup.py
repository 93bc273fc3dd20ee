# MQTT settings (settings.json) turned into umqtt.simple's MQTTClient arguments:
# TLS with an ssl.SSLContext that checks the broker's certificate against
# mqtt_ca_file (and the broker's name), an optional client certificate, and a
# user name and password. Every way the link can fail is said in one line, sent
# as a fault frame on USB serial (the MQTT link being the thing that is down).
# Board-free: tested on the host's MicroPython (tests/hardware).
#
# umqtt.simple 1.4 or later (what `mpremote mip install umqtt.simple` fetches)
# takes `ssl=<SSLContext>` and wraps the socket with server_hostname=server.
from time import ticks_add, ticks_diff

REFUSALS = {
    1: "unacceptable protocol version",
    2: "client id rejected",
    3: "server unavailable",
    4: "bad user name or password",
    5: "not authorised",
}
FILE_KEYS = ("mqtt_ca_file", "mqtt_cert_file", "mqtt_key_file")


class ConfigError(Exception):
    pass


def _text(cfg, key):
    value = cfg.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(key + ": a string in settings.json")
    return value or None


def client_args(cfg, device_id, ssl_mod):
    # The keyword arguments of MQTTClient; ConfigError names the setting that is wrong.
    server = _text(cfg, "mqtt_server")
    if not server:
        raise ConfigError('mqtt_server: the broker\'s address, e.g. "192.168.1.10"')
    tls = cfg.get("mqtt_tls", False)
    if tls not in (True, False, None):
        raise ConfigError("mqtt_tls: true or false")
    port = cfg.get("mqtt_port") or (8883 if tls else 1883)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ConfigError("mqtt_port: a number from 1 to 65535")
    password = _text(cfg, "mqtt_password")
    # A locked-down broker knows each tower by its device id (hardware/mosquitto/acl).
    user = _text(cfg, "mqtt_user") or (device_id if password else None)
    ctx = None
    if tls:
        ctx = tls_context(cfg, ssl_mod)
    else:
        for key in FILE_KEYS:
            if cfg.get(key):
                raise ConfigError(key + ' is for TLS: set "mqtt_tls": true')
    return {
        "client_id": device_id,
        "server": server,
        "port": port,
        "user": user,
        "password": password,
        "keepalive": cfg.get("mqtt_keepalive_s", 30),
        "ssl": ctx,
    }


def tls_context(cfg, ssl_mod):
    ca = _text(cfg, "mqtt_ca_file")
    if not ca:
        raise ConfigError(
            "mqtt_tls needs mqtt_ca_file: the CA that signed the broker's certificate (ca.der), copied to the board"
        )
    cert = _text(cfg, "mqtt_cert_file")
    key = _text(cfg, "mqtt_key_file")
    if bool(cert) != bool(key):
        raise ConfigError("mqtt_cert_file and mqtt_key_file go together: a client certificate and its key")
    ctx = ssl_mod.SSLContext(ssl_mod.PROTOCOL_TLS_CLIENT)
    ctx.verify_mode = ssl_mod.CERT_REQUIRED  # MicroPython's default checks nothing
    _load("mqtt_ca_file", ca, lambda: ctx.load_verify_locations(cafile=ca))
    if cert:
        _load("mqtt_cert_file / mqtt_key_file", cert + " / " + key, lambda: ctx.load_cert_chain(cert, key))
    return ctx


def _load(key, path, load):
    try:
        load()
    except OSError as e:
        if e.args and e.args[0] == 2:  # ENOENT
            # `from None`: MicroPython prints a warning (on the serial link) for any other cause
            raise ConfigError(key + " " + path + ": no such file on the board (mpremote fs cp FILE :FILE)") from None
        raise ConfigError(key + " " + path + ": cannot be read (" + _brief(e) + ")") from None
    except ValueError as e:
        raise ConfigError(
            key
            + " "
            + path
            + ": not usable ("
            + _brief(e)
            + "); give DER files: openssl x509 -outform der / openssl pkey -outform der"
        ) from None


def _brief(error):
    text = " ".join(str(a) for a in error.args) if error.args else type(error).__name__
    return " ".join(text.split())[:120]  # mbedtls' messages come with newlines


def describe_error(error, server, port, user, tls=False, client_cert=False):
    # One line for a failed connection attempt (an exception of umqtt.simple,
    # the socket, ssl, or this firmware's own OSError("...") messages).
    where = server + ":" + str(port)
    name = type(error).__name__
    code = error.args[0] if error.args else None
    if name == "MQTTException" and code in REFUSALS:
        text = "the broker at " + where + " refused the connection: " + REFUSALS[code]
        if code in (4, 5):
            who = ("user " + repr(user)) if user else "anonymous: no mqtt_user / mqtt_password"
            text += " (" + who + "; check mqtt_user and mqtt_password)"
        return text
    if isinstance(code, str) and (isinstance(error, OSError) or name == "ConfigError"):
        return code  # this firmware's own reasons: Wi-Fi not connected, clock not set, old umqtt
    detail = _brief(error)
    upper = detail.upper()
    if isinstance(error, OSError) and code == 111:  # ECONNREFUSED
        return "nothing listens at " + where + " (is the broker running? TLS brokers usually listen on 8883)"
    if "X509" in upper or "VERIFY" in upper or "CERTIFICATE" in upper or code == -9984:
        return (
            "TLS: the broker's certificate was not accepted at "
            + where
            + " ("
            + detail
            + "): check mqtt_ca_file, that the certificate names "
            + server
            + ", and the clock (ntp_server)"
        )
    hint = ""
    if tls and not client_cert:  # a broker that wants a client certificate hangs up one of these ways
        hint = ": a broker that wants a client certificate hangs up like this (mqtt_cert_file, mqtt_key_file)"
    if "SSL" in upper or "TLS" in upper or (isinstance(code, int) and code < -1000):
        return (
            "TLS handshake with the broker at "
            + where
            + " failed ("
            + detail
            + ")"
            + (hint if "ALERT" in upper else "")
        )
    if isinstance(error, OSError) and isinstance(code, int) and code > 0:
        text = "lost or no connection to the broker at " + where + " (errno " + str(code) + ")"
        return text + (hint if code in (32, 104) else "")  # EPIPE, ECONNRESET
    return "MQTT link down at " + where + " (" + name + ": " + detail + ")"


class ClockSync:
    # mbedtls checks certificate dates, and a board without a battery-backed
    # clock starts in 2021 (Pico W) or 2000 (ESP32), before any certificate made
    # today: set the clock from NTP before the first TLS connection.
    def __init__(self, server, settime, clock, retry_ms=30000):
        self.server = server  # None: the clock is trusted as it is
        self.settime = settime  # settime(server) sets the RTC or raises
        self.clock = clock
        self.retry_ms = retry_ms
        self.synced = server is None
        self.next_try = clock.ticks_ms()

    def ensure(self):
        # True once the clock is set; otherwise raises OSError with the reason.
        if self.synced:
            return True
        now = self.clock.ticks_ms()
        if ticks_diff(now, self.next_try) < 0:
            raise OSError(
                "clock not set yet (NTP " + self.server + " did not answer); "
                "TLS cannot check certificate dates: set ntp_server to a server on this network"
            )
        self.next_try = ticks_add(now, self.retry_ms)
        try:
            self.settime(self.server)
        except Exception as e:
            raise OSError(
                "clock not set: NTP " + self.server + " did not answer (" + _brief(e) + "); "
                "TLS cannot check certificate dates: set ntp_server to a server on this network"
            ) from None
        self.synced = True
        return True


def client_factory(cfg, device_id, make_mqtt_client, ssl_mod, wifi_ok=None, clock_sync=None):
    # make_client() for MqttLink. The settings are checked now (ConfigError);
    # each attempt then needs the Wi-Fi and, with TLS, a clock that is set.
    args = client_args(cfg, device_id, ssl_mod)

    def make_client():
        if wifi_ok is not None and not wifi_ok():
            raise OSError("Wi-Fi not connected (wifi_ssid " + repr(cfg.get("wifi_ssid")) + ")")
        if args["ssl"] is not None and clock_sync is not None:
            clock_sync.ensure()
        client = make_mqtt_client(**args)
        if args["ssl"] is not None and hasattr(client, "ssl_params"):
            # umqtt.simple before 1.4 takes ssl=True and never checks the certificate
            raise ConfigError("umqtt.simple is too old for a checked TLS link: mpremote mip install umqtt.simple")
        return client

    def describe(error):
        return describe_error(
            error, args["server"], args["port"], args["user"], args["ssl"] is not None, bool(cfg.get("mqtt_cert_file"))
        )

    return make_client, describe


def make_link(device, cfg, make_mqtt_client, ssl_mod, clock, report, wifi_ok=None, clock_sync=None, jitter=None):
    # (MqttLink, None), or (None, why) when the settings cannot work: the caller
    # sends that reason as an mqtt_config fault once the device has said hello.
    from link_mqtt import MqttLink

    try:
        make_client, describe = client_factory(cfg, device.device_id, make_mqtt_client, ssl_mod, wifi_ok, clock_sync)
    except ConfigError as e:
        return None, str(e)
    link = MqttLink(
        device,
        make_client,
        clock,
        cfg["mqtt_prefix"],
        cfg["backoff_min_ms"],
        cfg["backoff_max_ms"],
        cfg["mqtt_keepalive_s"],
        jitter=jitter,
        describe=describe,
        report=report,
    )
    return link, None
