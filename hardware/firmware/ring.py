# Numbered ring buffer of encoded drop frames.
# The sensing path pushes; each link reads by sequence number at its own pace,
# so a slow or absent link never holds up counting. When full, the oldest
# frame is overwritten; if nobody had acknowledged it, it is counted as lost
# (the host then resynchronises from a totals snapshot).

MIN_CAPACITY = 256


class EventRing:
    def __init__(self, capacity=MIN_CAPACITY):
        if capacity < MIN_CAPACITY:
            raise ValueError("ring capacity must be at least %d" % MIN_CAPACITY)
        self.capacity = capacity
        self._slots = [None] * capacity
        self.last_seq = 0  # sequence numbers start at 1 in every boot
        self.acked = 0  # highest sequence number acknowledged by any host
        self.lost = 0  # frames overwritten before anyone acknowledged them

    @property
    def oldest_seq(self):
        # Oldest sequence number still held (last_seq + 1 when empty).
        return max(1, self.last_seq - self.capacity + 1)

    def __len__(self):
        return self.last_seq - self.oldest_seq + 1

    def push(self, make_frame):
        # make_frame(seq) -> encoded frame; returns the new sequence number.
        seq = self.last_seq + 1
        evicted = seq - self.capacity
        if evicted >= 1 and evicted > self.acked:
            self.lost += 1
        self._slots[seq % self.capacity] = make_frame(seq)
        self.last_seq = seq
        return seq

    def get(self, seq):
        # The frame numbered seq, or None when it is not (or no longer) held.
        if seq < self.oldest_seq or seq > self.last_seq:
            return None
        return self._slots[seq % self.capacity]

    def ack(self, seq):
        # Acks never go backwards and never past what exists.
        if seq > self.last_seq:
            seq = self.last_seq
        if seq > self.acked:
            self.acked = seq
