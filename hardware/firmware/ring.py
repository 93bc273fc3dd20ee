# Numbered ring of drop records, in one buffer allocated at start-up.
# The sensing path pushes; each link reads by sequence number at its own pace,
# so a slow or absent link never holds up counting. When full, the oldest
# record is overwritten; if nobody had acknowledged it, it is counted as lost
# (the host then resynchronises from a totals snapshot).
# A record is a few packed bytes (device.py DROP_RECORD), not the drop's frame:
# 256 frames as strings took about 60 KB of a board's heap, and one string per
# drop fragmented it; the records take capacity x record_size bytes, once.

MIN_CAPACITY = 256


class EventRing:
    def __init__(self, capacity=MIN_CAPACITY, record_size=32):
        if capacity < MIN_CAPACITY:
            raise ValueError(f"ring capacity must be at least {MIN_CAPACITY}")
        self.capacity = capacity
        self.record_size = record_size
        self.records = bytearray(capacity * record_size)
        self.last_seq = 0  # sequence numbers start at 1 in every boot
        self.acked = 0  # highest sequence number acknowledged by any host
        self.lost = 0  # records overwritten before anyone acknowledged them

    @property
    def oldest_seq(self):
        # Oldest sequence number still held (last_seq + 1 when empty).
        return max(1, self.last_seq - self.capacity + 1)

    def __len__(self):
        return self.last_seq - self.oldest_seq + 1

    def push(self, pack):
        # pack(buffer, offset) writes the new record there; returns its sequence number.
        seq = self.last_seq + 1
        evicted = seq - self.capacity
        if evicted >= 1 and evicted > self.acked:
            self.lost += 1
        pack(self.records, (seq % self.capacity) * self.record_size)
        self.last_seq = seq
        return seq

    def offset(self, seq):
        # Where the record numbered seq starts in self.records, or None when it is
        # not (or no longer) held.
        if seq < self.oldest_seq or seq > self.last_seq:
            return None
        return (seq % self.capacity) * self.record_size

    def ack(self, seq):
        # Acks never go backwards and never past what exists.
        if seq > self.last_seq:
            seq = self.last_seq
        if seq > self.acked:
            self.acked = seq
