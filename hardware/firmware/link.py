# What every link (serial, MQTT) shares: a bounded queue of control frames,
# a cursor into the drop ring, and assembly of incoming bytes into lines.
from protocol import MAX_LINE

MAX_QUEUE = 64


class NoLock:
    # Stands in for a _thread lock when sensing and links share one loop.
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Link:
    def __init__(self, device, name):
        self.device = device
        self.name = name
        self.queue = []  # (message type, frame) waiting to go out
        self.cursor = device.ring.last_seq + 1  # next drop to send
        self.acked = 0
        self.overflowed = 0  # control frames dropped because the queue was full
        self.lock = NoLock()  # main.py swaps in a real lock when sensing has its own core
        device.links.append(self)

    def send(self, kind, frame):
        if len(self.queue) >= MAX_QUEUE:
            self.queue.pop(0)
            self.overflowed += 1
        self.queue.append((kind, frame))

    def rewind(self, seq):
        # Send drops again from seq on (replay, reconnect).
        self.cursor = seq

    def next_frame(self):
        # Control frames first (they are few and answer the host), then drops.
        if self.queue:
            return self.queue.pop(0)
        device = self.device
        ring = device.ring
        if self.cursor < ring.oldest_seq:
            self.cursor = ring.oldest_seq
        if self.cursor > ring.last_seq:
            return None
        # An older drop's frame is made again from its record only while no cube falls.
        frame = device.drop_frame(self.cursor, device.quiet())
        if frame is None:
            return None
        self.cursor += 1
        return "drop", frame

    def peek_frame(self):
        frame = self.next_frame()
        if frame is not None:
            self.unread(frame)
        return frame

    def unread(self, item):
        # Put back a frame that could not be sent.
        kind, frame = item
        if kind == "drop":
            self.cursor -= 1
        else:
            self.queue.insert(0, item)


class LineAssembler:
    # Bytes in, complete lines out. An over-long line is discarded up to its
    # newline and reported once, so one bad line never swallows the next.
    def __init__(self, max_line=MAX_LINE):
        self.max_line = max_line
        self.buf = bytearray()
        self.discarding = False

    def feed(self, data, lines):
        # Appends ("line", bytes) or ("too_long", None) items to lines.
        for byte in data:
            if byte == 10:  # "\n"
                if self.discarding:
                    self.discarding = False
                else:
                    lines.append(("line", bytes(self.buf)))
                self.buf = bytearray()
            elif self.discarding:
                continue
            elif len(self.buf) >= self.max_line + 1:  # +1: a trailing "\r" is allowed
                self.discarding = True
                self.buf = bytearray()
                lines.append(("too_long", None))
            else:
                self.buf.append(byte)
