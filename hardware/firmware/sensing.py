# Beam sensing: edge capture (interrupt-safe) and block tracking.
# The beam's pin interrupt timestamps every edge into EdgeQueue without
# allocating; the main loop feeds those edges to BeamTracker, which debounces
# flicker, measures transit time, and flags blocks too long for one cube.
from array import array


class EdgeQueue:
    # Fixed-size queue written from an interrupt handler: no allocation there.
    def __init__(self, size=128):
        self.size = size
        self._times = array("i", [0] * size)
        self._levels = bytearray(size)
        self._head = 0  # next slot to write (interrupt side)
        self._tail = 0  # next slot to read (loop side)
        self.overflows = 0

    def put(self, t_us, blocked):
        nxt = (self._head + 1) % self.size
        if nxt == self._tail:
            self.overflows += 1  # loop stalled for >size edges; drop the newest
            return
        # array("i") holds 32-bit values: keep ticks in range, ticks_diff copes.
        self._times[self._head] = t_us & 0x3FFFFFFF
        self._levels[self._head] = 1 if blocked else 0
        self._head = nxt

    def get(self):
        # (t_us, blocked) or None when empty.
        if self._tail == self._head:
            return None
        i = self._tail
        self._tail = (i + 1) % self.size
        return self._times[i], self._levels[i]


def tdiff(a, b):
    # ticks_diff for 30-bit ticks as stored by EdgeQueue.
    d = (a - b) & 0x3FFFFFFF
    if d >= 0x20000000:
        d -= 0x40000000
    return d


class Block:
    # One beam interruption: a cube, or several cubes too close to tell apart.
    def __init__(self, start, end, transit_us, multi, estimate, flickers):
        self.start = start
        self.end = end
        self.transit_us = transit_us
        self.multi = multi
        self.estimate = estimate  # estimated number of cubes (1 unless multi)
        self.flickers = flickers  # chatter edges merged into this block


CLEAR, BLOCKED, RELEASING = 0, 1, 2


class BeamTracker:
    def __init__(self, debounce_us=1500, min_block_us=1000, multi_us=11000, typical_us=6500, stuck_us=1000000):
        self.debounce_us = debounce_us  # clear gaps shorter than this are flicker
        self.min_block_us = min_block_us  # shorter blocks are glitches, not cubes
        self.multi_us = multi_us  # longer blocks may hold several cubes
        self.typical_us = typical_us
        self.stuck_us = stuck_us
        self.state = CLEAR
        self.start = 0
        self.release = 0
        self.flickers = 0
        self.glitches = 0
        self.stuck = False  # set while a block has lasted longer than stuck_us
        self.started = False  # set by edge() when a new block begins; caller clears
        self.last_activity = None  # ticks of the last edge seen

    def edge(self, t, blocked, done):
        # Feed one raw edge; completed blocks are appended to done.
        self.last_activity = t
        if self.state == CLEAR:
            if blocked:
                self._begin(t)
        elif self.state == BLOCKED:
            if not blocked:
                self.state = RELEASING
                self.release = t
        else:  # RELEASING
            if blocked:
                if tdiff(t, self.release) < self.debounce_us:
                    self.state = BLOCKED
                    self.flickers += 2
                else:
                    self._finish(done)
                    self._begin(t)

    def poll(self, now, done):
        # Time-driven part: ends a block once the beam stayed clear long enough.
        if self.state == RELEASING and tdiff(now, self.release) >= self.debounce_us:
            self._finish(done)
        elif self.state == BLOCKED and not self.stuck:
            if tdiff(now, self.start) > self.stuck_us:
                self.stuck = True

    @property
    def blocked(self):
        return self.state != CLEAR

    def _begin(self, t):
        self.state = BLOCKED
        self.start = t
        self.flickers = 0
        self.started = True

    def _finish(self, done):
        self.state = CLEAR
        transit = tdiff(self.release, self.start)
        was_stuck = self.stuck
        self.stuck = False
        if transit < self.min_block_us:
            self.glitches += 1
            return
        multi = was_stuck or transit > self.multi_us
        estimate = 1
        if multi:
            estimate = max(2, (transit + self.typical_us // 2) // self.typical_us)
        done.append(Block(self.start, self.release, transit, multi, estimate, self.flickers))
