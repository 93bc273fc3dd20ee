# Colour classification: nearest calibrated reference in normalised chromaticity
# (plus brightness, which is what tells a black cube from the rest), with a
# confidence. Below the confidence margin a drop is reported as uncertain.
import math

# The colour ids a tower may calibrate: the classic box's five (the default
# calibration, and the only ids protocol 1.0 hosts know) and the 2023 box's
# others, spelled as the table spells its players (companion/table/authority.py). On the
# wire an added colour travels in `xcol`/`xbest` (hardware/PROTOCOL.md 3.2).
COLOURS = ("red", "yellow", "green", "blue", "black")
ADDED = ("purple", "orange", "white")
VOCABULARY = COLOURS + ADDED
# At most this many at once: the largest table seats 5 colours, plus one spare;
# each more colour is 5 more calibration drops and more pairs to confuse.
MAX_COLOURS = 6

CHROMA_FLOOR = 0.012  # smallest chromaticity spread a reference may claim
BRIGHT_FLOOR = 0.10  # smallest log-brightness spread (about 10 %)
COUNT_NOISE = 3.0  # sensor noise in counts: chromaticity of dim readings is vague
SMALL_SAMPLE = 1.3  # widens spreads estimated from a handful of drops
LOG_OFFSET = 8.0


def features(reading, ambient):
    # reading, ambient: (r, g, b, c) counts. Returns (x, y, L, s): chromaticity
    # r/(r+g+b), g/(r+g+b), log brightness of the clear channel, and r+g+b.
    r = max(0, reading[0] - ambient[0])
    g = max(0, reading[1] - ambient[1])
    b = max(0, reading[2] - ambient[2])
    c = max(0, reading[3] - ambient[3])
    s = r + g + b
    if s <= 0:
        return 1 / 3, 1 / 3, math.log(c + LOG_OFFSET), 0
    return r / s, g / s, math.log(c + LOG_OFFSET), s


class Classifier:
    def __init__(self, refs, min_conf=0.995, max_distance=4.5):
        # refs: {colour: [mx, my, mL, sx, sy, sL]}
        self.refs = refs
        self.min_conf = min_conf
        self.max_distance = max_distance

    def too_bright(self, reading, ambient, colour):
        # More light than one cube of that colour gives (at least 1.8 times
        # its calibrated brightness, and 3 spreads above it): two cubes in view.
        mL, sL = self.refs[colour][2], self.refs[colour][5]
        return features(reading, ambient)[2] > mL + max(3 * sL, 0.6)

    def classify(self, reading, ambient):
        # Returns (best colour, confidence 0..1, certain?).
        if not self.refs:
            return None, 0.0, False
        x, y, L, s = features(reading, ambient)
        noise = COUNT_NOISE / (s + 1)
        scores = []
        for name in self.refs:
            mx, my, mL, sx, sy, sL = self.refs[name]
            ex = math.sqrt(sx * sx + noise * noise)
            ey = math.sqrt(sy * sy + noise * noise)
            d2 = ((x - mx) / ex) ** 2 + ((y - my) / ey) ** 2 + ((L - mL) / sL) ** 2
            scores.append((-0.5 * d2 - math.log(ex * ey * sL), d2, name))
        scores.sort()
        top_ll, top_d2, best = scores[-1]
        total = 0.0
        for ll, _, _ in scores:
            total += math.exp(ll - top_ll)
        conf = 1.0 / total
        certain = conf >= self.min_conf and math.sqrt(top_d2) <= self.max_distance
        return best, conf, certain


def _mean_std(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, math.sqrt(var)


def build_reference(samples):
    # samples: list of (x, y, L) from calibration drops of one colour.
    ref = []
    spreads = []
    for axis, floor in ((0, CHROMA_FLOOR), (1, CHROMA_FLOOR), (2, BRIGHT_FLOOR)):
        mean, std = _mean_std([s[axis] for s in samples])
        ref.append(mean)
        spreads.append(math.sqrt((std * SMALL_SAMPLE) ** 2 + floor * floor))
    return ref + spreads


def distance(a, b):
    # Two references apart, in units of their spreads.
    d2 = 0.0
    for k in range(3):
        spread = math.sqrt(a[3 + k] ** 2 + b[3 + k] ** 2)
        d2 += ((a[k] - b[k]) / spread) ** 2
    return math.sqrt(d2)


def separation(refs):
    # Smallest distance between two references, in units of their spreads:
    # below about 6 the colours will often come out uncertain.
    names = list(refs)
    worst = None
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            d = distance(refs[names[i]], refs[names[j]])
            if worst is None or d < worst:
                worst = d
    return worst


def nearest(refs, name):
    # The colour whose reference lies closest to `name`'s, and how far: (None, None) alone.
    best, best_d = None, None
    for other in refs:
        if other != name:
            d = distance(refs[name], refs[other])
            if best_d is None or d < best_d:
                best, best_d = other, d
    return best, best_d


class Calibration:
    # Collects `per_colour` drops of each colour in order, then builds references.
    # `kept`: references of colours already calibrated that stay as they are (a table
    # teaching only the colours its tower does not know yet throws no cube of the others).
    def __init__(self, colours=COLOURS, per_colour=5, kept=None, kept_order=()):
        self.colours = list(colours)
        self.per_colour = per_colour
        self.kept = dict(kept or {})
        self.kept_order = list(kept_order)  # (a MicroPython dict keeps no order)
        self.samples = {}  # the colour being taught's (x, y, L) so far
        self.built = {}  # each colour completed: its reference, built once
        self.transits = []
        self.index = 0

    @property
    def colour(self):
        if self.index < len(self.colours):
            return self.colours[self.index]
        return None

    @property
    def done(self):
        return self.index >= len(self.colours)

    def got(self):
        return len(self.samples.get(self.colour, ()))

    def add(self, reading, ambient, transit_us):
        # Returns the colour this drop completed (its last cube), else None.
        x, y, L, _ = features(reading, ambient)
        colour = self.colour
        self.samples.setdefault(colour, []).append((x, y, L))
        self.transits.append(transit_us)
        if self.got() >= self.per_colour:
            # Built once, now, and its samples let go: the references live on in the
            # classifier, so they are not rebuilt (and their floats scattered over the
            # heap among the temporaries) at every colour learnt and again at the end.
            self.built[colour] = build_reference(self.samples.pop(colour))
            self.index += 1
            return colour
        return None

    def learnt(self):
        # The references known so far: the kept ones and each colour completed.
        refs = dict(self.kept)
        refs.update(self.built)
        return refs

    def result(self):
        return self.learnt()
