# Runs on the host's MicroPython (tests/hardware/test_tower_mqtt_tls.py):
#   micropython mqtt_probe.py FIRMWARE_DIR SETTINGS_JSON DEVICE_ID OTHER_DEVICE_ID
# Builds the MQTT client's settings with the firmware's own mqtt_setup.py (the
# real ssl module: the CA, the client certificate), then connects to a real
# broker the way umqtt.simple 1.4+ does (socket, ssl_context.wrap_socket with
# server_hostname, CONNECT with user, password and Last Will, CONNACK) and
# publishes on its own topic and on another tower's. umqtt.simple itself is not
# installed here (micropython-lib comes from mip); this stands in for it, so the
# firmware's TLS settings meet a real TLS handshake and a real ACL.
# Prints CONNECTED, or ERROR <the firmware's one-line reason>.
import json
import socket
import struct
import sys

sys.path.insert(0, sys.argv[1])
import ssl

import mqtt_setup


class MQTTException(Exception):
    pass


class Probe:
    def __init__(self, client_id, server, port=0, user=None, password=None, keepalive=0, ssl=None):
        self.client_id, self.server, self.port = client_id, server, port
        self.user, self.password, self.keepalive, self.ssl = user, password, keepalive, ssl
        self.sock = None

    def _str(self, s):
        b = s.encode() if isinstance(s, str) else s
        return struct.pack("!H", len(b)) + b

    def _packet(self, head, body):
        n, size = len(body), b""
        while True:
            byte = n & 0x7F
            n >>= 7
            size += bytes([byte | (0x80 if n else 0)])
            if not n:
                return bytes([head]) + size + body

    def connect(self, will_topic):
        sock = socket.socket()
        sock.connect(socket.getaddrinfo(self.server, self.port)[0][-1])
        if self.ssl:
            sock = self.ssl.wrap_socket(sock, server_hostname=self.server)
        self.sock = sock
        flags = 0x02 | 0x04 | 0x08 | 0x20  # clean session, will, will QoS 1, will retained
        if self.user:
            flags |= 0xC0
        body = b"\x00\x04MQTT\x04" + bytes([flags]) + struct.pack("!H", self.keepalive) + self._str(self.client_id)
        body += self._str(will_topic) + self._str(b"offline")
        if self.user:
            body += self._str(self.user) + self._str(self.password or "")
        sock.write(self._packet(0x10, body))
        resp = sock.read(4)
        if not resp or len(resp) < 4:
            raise OSError("the broker closed the connection without answering")
        if resp[3] != 0:
            raise MQTTException(resp[3])

    def publish(self, topic, payload):  # QoS 0: a denied publish is dropped silently by the broker
        self.sock.write(self._packet(0x30, self._str(topic) + payload))

    def disconnect(self):
        self.sock.write(b"\xe0\x00")
        self.sock.close()


def main():
    with open(sys.argv[2]) as f:
        cfg = json.load(f)
    dev = sys.argv[3]
    try:
        args = mqtt_setup.client_args(cfg, dev, ssl)
    except mqtt_setup.ConfigError as e:
        print("CONFIG", str(e))
        return
    probe = Probe(**args)
    base = "elgrande/tower/" + dev + "/"
    try:
        probe.connect(base + "status")
    except Exception as e:
        print(
            "ERROR",
            mqtt_setup.describe_error(
                e, args["server"], args["port"], args["user"], args["ssl"] is not None, bool(cfg.get("mqtt_cert_file"))
            ),
        )
        return
    probe.publish(base + "status", b"online")
    probe.publish(base + "hello", b"probe-hello")
    other = "elgrande/tower/" + sys.argv[4] + "/"  # another tower's topics: the ACL says no
    probe.publish(other + "drop", b"forged-drop")
    probe.publish(other + "cmd", b"forged-cmd")
    probe.publish(base + "cmd", b"forged-cmd")  # not even its own command topic
    probe.disconnect()
    print("CONNECTED")


main()
