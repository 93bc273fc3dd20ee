# MQTT link over umqtt.simple, with its own reconnect loop and backoff.
# Nothing here may hold up counting: connection attempts and publishes (QoS 1
# waits for PUBACK) run only when the device says it is quiet, and a failed
# attempt just schedules the next one, doubling the wait up to a ceiling.
from time import ticks_add, ticks_diff

from link import Link

TOPICS = {
    # message type: (topic leaf, retained, qos)
    "hello": ("hello", True, 1),
    "totals": ("totals", True, 1),
    "drop": ("drop", False, 1),
    "hb": ("hb", False, 0),
    "fault": ("fault", False, 1),
    "cal": ("cal", False, 1),
    "ok": ("reply", False, 1),
}


class MqttLink(Link):
    def __init__(
        self,
        device,
        make_client,
        clock,
        prefix="elgrande/tower/",
        backoff_min_ms=1000,
        backoff_max_ms=60000,
        keepalive_s=30,
        budget=4,
        jitter=None,
        describe=None,
        report=None,
    ):
        # make_client() -> an unconnected umqtt.simple.MQTTClient (or a fake);
        # it may raise OSError (no Wi-Fi yet). describe(error) -> one line;
        # report(line) is told why the link is down each time the reason changes
        # (main.py: a fault frame on USB serial), and None once it is up again.
        super().__init__(device, "mqtt")
        self.make_client = make_client
        self.clock = clock
        self.base = prefix + device.device_id + "/"
        self.backoff_min_ms = backoff_min_ms
        self.backoff_max_ms = backoff_max_ms
        self.keepalive_ms = keepalive_s * 1000
        self.budget = budget
        self.jitter = jitter  # jitter(n) -> 0..n-1, spreads reconnects of many towers
        self.client = None
        self.failures = 0
        self.next_attempt = clock.ticks_ms()
        self.last_io = self.next_attempt
        self.connects = 0
        self.last_error = None
        self.describe = describe
        self.report = report
        self.reported = None  # the last reason told to report()

    def topic(self, leaf):
        return self.base + leaf

    def send(self, kind, frame):
        # While the broker is away nothing is queued: the reconnection starts afresh (hello,
        # totals, then the ring), so heartbeats of a 10-minute outage would only fill the heap.
        if self.client is not None:
            Link.send(self, kind, frame)

    @property
    def up(self):
        return self.client is not None

    def step(self, quiet):
        now = self.clock.ticks_ms()
        if self.client is None:
            if quiet and ticks_diff(now, self.next_attempt) >= 0:
                self._connect(now)
            return
        try:
            self.client.check_msg()  # non-blocking; commands arrive via _on_message
            if quiet:
                self._publish_some()
                if ticks_diff(self.clock.ticks_ms(), self.last_io) >= self.keepalive_ms // 2:
                    self.client.ping()
                    self.last_io = self.clock.ticks_ms()
        except Exception as e:  # OSError, or umqtt's MQTTException / assertion
            self._down(e)

    def _connect(self, now):
        client = None
        try:
            client = self.make_client()
            client.set_callback(self._on_message)
            client.set_last_will(self.topic("status"), b"offline", retain=True, qos=1)
            client.connect()
            client.subscribe(self.topic("cmd"), qos=1)
            client.publish(self.topic("status"), b"online", retain=True, qos=1)
        except Exception as e:
            self.client = client
            self._down(e)
            return
        self.client = client
        self.failures = 0
        self.connects += 1
        if self.reported is not None:
            self.reported = None
            if self.report:
                self.report(None)
        self.last_io = self.clock.ticks_ms()
        # Fresh retained state, then every drop no host has acknowledged yet.
        with self.lock:
            self.queue = []
            self.device.emit(self.device.hello(), self)
            self.device.emit(self.device.totals_frame(), self)
            self.rewind(max(self.acked + 1, self.device.ring.oldest_seq))

    def _down(self, error):
        if self.client is not None:
            try:
                self.client.sock.close()
            except Exception:
                pass
        self.client = None
        self.failures += 1
        self.last_error = error
        self._tell(error)
        delay = min(self.backoff_max_ms, self.backoff_min_ms << min(self.failures - 1, 16))
        if self.jitter:
            delay += self.jitter(delay // 4 + 1)
        self.next_attempt = ticks_add(self.clock.ticks_ms(), delay)

    def _tell(self, error):
        if self.report is None:
            return
        try:
            text = self.describe(error) if self.describe else repr(error)
        except Exception:
            text = repr(error)
        if text != self.reported:
            self.reported = text
            self.report(text)

    def _publish_some(self):
        for _ in range(self.budget):
            with self.lock:
                item = self.next_frame()
            if item is None:
                return
            kind, frame = item
            leaf, retain, qos = TOPICS.get(kind, ("reply", False, 1))
            try:
                self.client.publish(self.topic(leaf), frame.encode(), retain=retain, qos=qos)
            except Exception:
                with self.lock:
                    self.unread(item)  # goes out again after the reconnect
                raise
            self.last_io = self.clock.ticks_ms()

    def _on_message(self, topic, payload):
        with self.lock:
            self.device.handle_line(payload, self)
