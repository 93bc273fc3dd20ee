# A stand-in for umqtt.simple.MQTTClient and the broker behind it.
# The broker can be up or down, can make connect() take (simulated) time, can
# want TLS and a user name and password, and records every publish, retained
# message and Last Will.


class MQTTException(Exception):
    # umqtt.simple's: args[0] is the CONNACK return code (5: not authorised)
    pass


class FakeBroker:
    def __init__(self):
        self.up = False
        self.connect_ms = 0  # simulated duration of a connect attempt
        self.on_block = None  # called with ms when connect "takes" time
        self.log = []  # ("connect", ok) / ("pub", topic, payload, retain, qos)
        self.retained = {}
        self.inbox = []  # (topic, payload) waiting for the device
        self.client = None
        self.users = None  # {user: password}: refuse others with CONNACK 5
        self.tls = False  # True: a client without an SSLContext is cut off
        # Sizes of the blocks a TLS session takes from the heap while it is open (the memory
        # bench: mbedTLS on the Pico W allocates from MicroPython's heap), or None.
        self.session_blocks = None

    def deliver(self, topic, payload):
        self.inbox.append((topic, payload))

    def drop_client(self):
        # The connection breaks: the broker publishes the Last Will.
        c = self.client
        if c is not None and c.will:
            topic, msg, retain, qos = c.will
            self.log.append(("pub", topic, msg, retain, qos))
            if retain:
                self.retained[topic] = msg
        self.client = None


class _Sock:
    def close(self):
        pass


class FakeMQTTClient:
    # The constructor of umqtt.simple 1.4+: ssl is an SSLContext or None.
    def __init__(self, broker, client_id, server="broker", port=0, user=None, password=None, keepalive=0, ssl=None):
        self.broker = broker
        self.client_id = client_id
        self.server = server
        self.port = port or (8883 if ssl else 1883)
        self.user = user
        self.password = password
        self.ssl = ssl
        self.cb = None
        self.will = None
        self.connected = False
        self.sock = _Sock()
        self.subs = []
        self.session = None  # the TLS session's heap blocks while connected (session_blocks)

    def set_callback(self, f):
        self.cb = f

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.will = (topic, msg, retain, qos)

    def _alive(self):
        if not self.connected or not self.broker.up or self.broker.client is not self:
            self.connected = False
            self.session = None
            raise OSError(104)  # ECONNRESET

    def connect(self, clean_session=True):
        if self.broker.connect_ms and self.broker.on_block:
            self.broker.on_block(self.broker.connect_ms)
        broker = self.broker
        if broker.session_blocks and broker.up:  # the handshake allocates them, the session keeps them
            self.session = [bytearray(n) for n in broker.session_blocks]
        refusal = None
        if not broker.up:
            refusal = OSError(113)  # EHOSTUNREACH
        elif broker.tls and self.ssl is None:
            refusal = OSError(104)  # ECONNRESET: a TLS port hangs up on plain MQTT
        elif broker.users is not None and (self.user not in broker.users or broker.users[self.user] != self.password):
            refusal = MQTTException(5)  # CONNACK: not authorised
        broker.log.append(("connect", refusal is None))
        if refusal is not None:
            raise refusal
        self.connected = True
        self.broker.client = self
        return 0

    def subscribe(self, topic, qos=0):
        self._alive()
        self.subs.append(topic)

    def publish(self, topic, msg, retain=False, qos=0):
        self._alive()
        self.broker.log.append(("pub", topic, msg, retain, qos))
        if retain:
            self.broker.retained[topic] = msg

    def check_msg(self):
        self._alive()
        if self.broker.inbox:
            topic, payload = self.broker.inbox.pop(0)
            if topic in self.subs:
                self.cb(topic.encode(), payload)

    def ping(self):
        self._alive()

    def disconnect(self):
        self.connected = False
        self.session = None
