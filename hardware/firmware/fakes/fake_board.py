# Host stand-ins for the board: a clock the harness moves, a beam pin that
# fires its interrupt handler when the harness changes it, and a TCS34725 on a
# fake I2C bus that integrates the simulated scene in 2.4 ms cycles.
# MicroPython-compatible: the tests run these on the real `micropython`.
import math
import random

CYCLE_US = 2400
FULL_SCALE = 1024  # ATIME=0xFF: one cycle counts up to 1024


class FakeClock:
    def __init__(self, start_us=0):
        self.now_us = start_us

    def ticks_us(self):
        return self.now_us

    def ticks_ms(self):
        return self.now_us // 1000


class FakePin:
    def __init__(self, value=0):
        self._value = value
        self._handler = None

    def irq(self, handler=None, trigger=None):
        self._handler = handler

    def value(self, v=None):
        if v is None:
            return self._value
        changed = v != self._value
        self._value = v
        if changed and self._handler:
            self._handler(self)


class Scene:
    # What the colour sensor looks at: ambient light leaking into the shroud
    # (piecewise constant, from the trace) plus any cube in its field.
    def __init__(self):
        self.ambient = [(0, (0, 0, 0, 0))]  # (from t, rgbc), newest last
        self.cubes = []  # (t0, t1, rgbc)

    def set_ambient(self, t, rgbc):
        self.ambient.append((t, rgbc))
        if len(self.ambient) > 8:
            self.ambient.pop(0)

    def add_cube(self, t0, t1, rgbc):
        self.cubes.append((t0, t1, rgbc))
        if len(self.cubes) > 16:
            self.cubes.pop(0)

    def integrate(self, start, end):
        # Mean signal per channel over [start, end).
        amb = self.ambient[0][1]
        for t, rgbc in self.ambient:
            if t <= (start + end) // 2:
                amb = rgbc
        out = [float(v) for v in amb]
        span = end - start
        for t0, t1, rgbc in self.cubes:
            overlap = min(end, t1) - max(start, t0)
            if overlap > 0:
                f = overlap / span
                for i in range(4):
                    out[i] += f * rgbc[i]
        return out


def gauss(rng):
    # Box-Muller: MicroPython's random has no gauss().
    u = rng.random() or 1e-12
    return math.sqrt(-2 * math.log(u)) * math.cos(2 * math.pi * rng.random())


class FakeTCS34725Bus:
    # Speaks the TCS34725 register protocol used by tcs34725.py.
    def __init__(self, clock, scene, seed=1, present=True, read_noise=1.2, shot=0.35):
        self.clock = clock
        self.scene = scene
        self.present = present
        self.rng = random.Random(seed) if hasattr(random, "Random") else None
        if self.rng is None:
            random.seed(seed)
            self.rng = random
        self.read_noise = read_noise
        self.shot = shot
        self.regs = bytearray(32)
        self.regs[0x12] = 0x44
        self.origin = None  # time AEN was set: cycles run from here
        self.cleared_cycle = 0
        self.cache = (None, None)
        self.transactions = 0

    def _check(self, addr):
        self.transactions += 1
        if not self.present or addr != 0x29:
            raise OSError(19)  # ENODEV, as machine.I2C raises

    def _cycles_done(self):
        if self.origin is None:
            return 0
        return (self.clock.ticks_us() - self.origin) // CYCLE_US

    def writeto_mem(self, addr, reg, data):
        self._check(addr)
        reg &= 0x1F
        if reg == 0x00 and data[0] & 0x02 and self.origin is None:
            self.origin = self.clock.ticks_us()
        self.regs[reg] = data[0]

    def writeto(self, addr, data):
        self._check(addr)
        if data[0] == 0xE6:
            self.cleared_cycle = self._cycles_done()

    def readfrom_mem(self, addr, reg, n):
        self._check(addr)
        reg &= 0x1F
        if reg == 0x13:  # STATUS
            done = self._cycles_done()
            status = 0x01 if done else 0
            if done > self.cleared_cycle:
                status |= 0x10
            return bytes((status,))
        if reg == 0x14:
            return self._data(self._cycles_done())[:n]
        return bytes(self.regs[reg : reg + n])

    def _data(self, k):
        if self.cache[0] == k:
            return self.cache[1]
        start = self.origin + (k - 1) * CYCLE_US
        signal = self.scene.integrate(start, start + CYCLE_US)
        counts = []
        for v in signal:
            noisy = v + gauss(self.rng) * math.sqrt(self.read_noise**2 + self.shot * v)
            counts.append(max(0, min(FULL_SCALE, int(noisy + 0.5))))
        r, g, b, c = counts
        data = bytes((c & 255, c >> 8, r & 255, r >> 8, g & 255, g >> 8, b & 255, b >> 8))
        self.cache = (k, data)
        return data
