# A stand-in for umqtt.simple.MQTTClient and the broker behind it.
# The broker can be up or down, can make connect() take (simulated) time, and
# records every publish, retained message and Last Will.


class FakeBroker:
    def __init__(self):
        self.up = False
        self.connect_ms = 0  # simulated duration of a connect attempt
        self.on_block = None  # called with ms when connect "takes" time
        self.log = []  # ("connect", ok) / ("pub", topic, payload, retain, qos)
        self.retained = {}
        self.inbox = []  # (topic, payload) waiting for the device
        self.client = None

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
    def __init__(self, broker, client_id):
        self.broker = broker
        self.client_id = client_id
        self.cb = None
        self.will = None
        self.connected = False
        self.sock = _Sock()
        self.subs = []

    def set_callback(self, f):
        self.cb = f

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.will = (topic, msg, retain, qos)

    def _alive(self):
        if not self.connected or not self.broker.up or self.broker.client is not self:
            self.connected = False
            raise OSError(104)  # ECONNRESET

    def connect(self, clean_session=True):
        if self.broker.connect_ms and self.broker.on_block:
            self.broker.on_block(self.broker.connect_ms)
        ok = self.broker.up
        self.broker.log.append(("connect", ok))
        if not ok:
            raise OSError(113)  # EHOSTUNREACH
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
