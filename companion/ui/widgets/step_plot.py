"""Each player's score over a game (companion.history.score_plot's data: the same as the shared
picture's): flat between scorings, climbing across each scoring's band, the rounds named along the
bottom, each line ending in its colour's initial (colour is never the only cue). The replay moves a
cursor to the step shown (moving it redraws nothing else); the end screen shows no cursor."""

from __future__ import annotations

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion.history.score_plot import ScorePlotData, score_plot
from companion.look.players import look_of
from companion.look.tokens import TYPE_SCALE
from companion.ui.theme import THEME
from companion.ui.widgets.map_view import _text
from companion.words import _


def spread(ys: list[float], gap: float, low: float, high: float) -> list[float]:
    """The line-end labels' heights, moved apart so that none covers another (order kept) and,
    where there is room, kept between low and high."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [min(max(y, low), high) for y in ys]
    for before, after in zip(order, order[1:]):
        placed[after] = max(placed[after], placed[before] + gap)
    if order and placed[order[-1]] > high:  # pushed over the top: stack them down from it
        placed[order[-1]] = max(high, low + gap * (len(order) - 1))
        for above, below in zip(order[::-1], order[-2::-1]):
            placed[below] = min(placed[below], placed[above] - gap)
    return placed


class StepPlot(Widget):
    """The scores' plot of a replay; `step` places the cursor (-1: none)."""

    replay = ObjectProperty(None, allownone=True)
    step = NumericProperty(-1)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.data: ScorePlotData | None = None
        with self.canvas.after:  # the cursor: moving it redraws nothing else
            self._cursor_colour = Color(0, 0, 0, 0)
            self._cursor = Line(points=[0, 0, 0, 0], width=dp(1.2))
        self._x_of = None
        self.bind(pos=self.draw, size=self.draw)
        THEME.bind(card=self.draw, ink=self.draw)

    def on_replay(self, *args):
        self.data = score_plot(self.replay) if self.replay is not None else None
        self.draw()

    def on_step(self, *args):
        self._place_cursor()

    def _place_cursor(self) -> None:
        if self._x_of is None or self.step < 0 or self.data is None:
            self._cursor_colour.a = 0
            return
        x = self._x_of(self.data.x_of(int(self.step)))
        self._cursor.points = [x, self._bottom, x, self.top - dp(6)]
        self._cursor_colour.rgba = THEME.accent

    def draw(self, *args) -> None:
        self.canvas.clear()
        self._x_of = None
        data = self.data
        if data is None or self.width < dp(120) or self.height < dp(80):
            self._place_cursor()
            return
        caption = int(sp(TYPE_SCALE["caption"]))
        left, bottom = self.x + dp(40), self.y + dp(26)
        width, height = self.width - dp(40) - dp(34), self.height - dp(26) - dp(10)
        self._bottom = bottom
        x_of = self._x_of = lambda share: left + width * share
        y_of = lambda score: bottom + height * score / data.top
        ink = tuple(THEME.ink[:3])
        muted = tuple(THEME.ink_muted[:3])
        with self.canvas:
            Color(*THEME.card)
            Rectangle(pos=(left, bottom), size=(width, height))
            for band in data.scorings:  # a scoring's band, the general ones darker
                Color(*THEME.outline[:3], 0.55 if band.general else 0.3)
                Rectangle(pos=(x_of(band.start), bottom), size=(max(dp(2), x_of(band.end) - x_of(band.start)), height))
            Color(*THEME.outline)
            Line(points=[left, bottom + height, left, bottom, left + width, bottom], width=dp(1))
            self._round_labels(data, x_of, bottom, caption, muted)
            for score in sorted({0, data.top // 2, data.top}):
                tex = _text(str(score), caption, rgb=muted)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(left - tex.width - dp(6), y_of(score) - tex.height / 2), size=tex.size)
            for player, corners in data.lines.items():
                Color(*look_of(player).rgb)
                Line(points=[c for x, s in corners for c in (x_of(x), y_of(s))], width=dp(1.8))
            self._line_ends(data, x_of(1.0), y_of, caption, ink)
        self._place_cursor()

    def _round_labels(self, data, x_of, bottom, caption, rgb) -> None:
        """Each round's name under its span ('Round n' where every one fits, else the numbers)."""
        rooms = [x_of(span.end) - x_of(span.start) for span in data.rounds]
        words = [_text(_("Round {n}").format(n=span.round), caption, rgb=rgb) for span in data.rounds]
        if any(tex.width + dp(6) > room for tex, room in zip(words, rooms)):  # one way for all: numbers
            words = [_text(str(span.round), caption, rgb=rgb) for span in data.rounds]
        for span, tex, room in zip(data.rounds, words, rooms):
            if tex.width > room + dp(8):
                continue
            Color(1, 1, 1, 1)
            centre = (x_of(span.start) + x_of(span.end)) / 2
            Rectangle(texture=tex, pos=(centre - tex.width / 2, bottom - dp(4) - tex.height), size=tex.size)

    def _line_ends(self, data, right, y_of, caption, ink) -> None:
        """Each line's end marked with its colour's initial in a disc of its colour."""
        players = list(data.lines)
        radius = dp(11)
        ends = spread(
            [y_of(data.lines[p][-1][1]) for p in players], 2 * radius + dp(1), self._bottom + radius, self.top - radius
        )
        for player, y in zip(players, ends):
            look = look_of(player)
            Color(*look.rgb)
            Ellipse(pos=(right + dp(4), y - radius), size=(2 * radius, 2 * radius))
            tex = _text(look.initial, caption, bold=True, rgb=(0.1, 0.1, 0.1) if look.dark_figures else (1, 1, 1))
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(right + dp(4) + radius - tex.width / 2, y - tex.height / 2), size=tex.size)
