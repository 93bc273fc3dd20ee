# Status LED outside the shroud (never inside: it would light the colour sensor).
# It acknowledges drops without telling their colour, so the Castillo stays secret.
from time import ticks_add, ticks_diff

OFF = (0, 0, 0)
PATTERNS = {
    # name: (colour, on ms, off ms, repeats)
    "ok": ((1, 1, 1), 80, 0, 1),  # white blink: counted
    "unsure": ((1, 1, 0), 120, 120, 2),  # amber double blink: look at the tablet
    "fault": ((1, 0, 0), 600, 200, 1),
    "cal": ((0, 1, 1), 150, 100, 1),  # cyan: calibration drop taken
    "identify": ((0, 0, 1), 250, 250, 1),
}


class StatusLed:
    def __init__(self, pins):
        self.pins = pins  # [red, green, blue] pin objects, or [] for none
        self.pattern = None
        self.started = 0
        self.until = None  # identify runs for a while

    def _set(self, rgb):
        for pin, on in zip(self.pins, rgb):
            pin.value(on)

    def show(self, name, now_ms, seconds=0):
        self.pattern = PATTERNS[name]
        self.started = now_ms
        self.until = None
        if seconds:
            self.until = ticks_add(now_ms, seconds * 1000)

    def step(self, now_ms):
        if self.pattern is None:
            return
        colour, on_ms, off_ms, repeats = self.pattern
        elapsed = ticks_diff(now_ms, self.started)
        period = on_ms + off_ms
        if self.until is not None:
            if ticks_diff(now_ms, self.until) >= 0:
                self.pattern = None
                self._set(OFF)
                return
            repeats = elapsed // period + 1
        if elapsed >= period * repeats:
            self.pattern = None
            self._set(OFF)
            return
        self._set(colour if elapsed % period < on_ms else OFF)
