"""The key to the pieces: each piece drawn as the map draws it (a player's Caballeros with their
count, the Grande, the King, the Castillo, a court), with its name and what it is in words. The
words are companion.history.demo_lessons.PIECES; the drawing is draw_piece's, the one place to
switch when the map's pieces change (it borrows the map's own drawing methods)."""

from __future__ import annotations

from pathlib import Path

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.history.demo_lessons import PIECES
from companion.ui.widgets import map_layout
from companion.ui.widgets.map_view import INK, MapView
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class _MapPen:
    """The map's drawing methods, outside a map: the key draws its pieces with them, so a piece
    looks in the key as it does on the map. A stack is the map's square chip with its count, or,
    once the map draws marks (companion/look/marks.py), the colour's mark with the count beside."""

    _dummy = ""
    tappable: tuple = ()
    pending: dict = {}
    pending_colour = ""
    labels: list = []  # what the map's drawing notes of its labels and pieces (its checks read them)
    pieces: list = []
    _polygon = MapView._polygon
    _label = MapView._label
    _king = MapView._king
    _grande = MapView._grande
    _castillo = MapView._castillo
    _badge = MapView._badge
    _chip = getattr(MapView, "_chip", None)
    _stack_mark = getattr(MapView, "_stack_mark", None)


PEN = _MapPen()
PLAYER_PIECES = ("caballeros", "grande", "court")  # drawn in a player's colour


def _stack(colour: str, count: str, x: float, y: float, size: float) -> None:
    """A player's stack of Caballeros centred on (x, y), as the map draws one."""
    if PEN._stack_mark is not None:
        r = size * 0.3
        PEN._stack_mark(colour, x - 0.6 * r, y, r, "key")
        if count:
            PEN._label(count, x + 1.25 * r, y, int(size * 0.42), bold=True)
        return
    scale = size / (map_layout.CHIP * 1.6)
    chip = map_layout.CHIP * scale
    PEN._chip(colour, count, x - chip / 2, y, chip, scale)


def draw_piece(kind: str, colour: str, x: float, y: float, size: float) -> None:
    """Draw piece `kind` centred on (x, y) within a `size` square, as the map draws it (on the
    canvas in use). The one place the key draws: change it when the map's pieces change."""
    PEN.labels, PEN.pieces = [], []
    if kind == "caballeros":
        _stack(colour, "3", x, y, size)
    elif kind == "grande":
        tall = getattr(map_layout, "GRANDE_H", None)  # the marks' map: a tower of this height
        PEN._grande(x, y, size * 0.85 / tall if tall else size / (2 * 13 * 1.2 + 8), colour)
    elif kind == "king":
        PEN._king(x, y, size / (2 * 17 * 1.2 + 8))
    elif kind == "castillo":
        radius = size / 2.3
        PEN._castillo({"center": (x, y - 0.1 * radius), "radius": radius}, lambda px, py: (px, py), 1.0)
    elif kind == "court":  # the map shows no court: a tray of Caballeros waiting, with their count
        w, h = size, size * 0.6
        Color(*INK)
        Line(rounded_rectangle=(x - w / 2, y - h / 2, w, h, h / 4), width=dp(1.2))
        _stack(colour, "7", x, y, size * 0.62)


class PieceIcon(Widget):
    """One piece, drawn as on the map, on a light square so it reads in both themes."""

    kind = StringProperty("")
    colour = StringProperty("red")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, kind=self.redraw, colour=self.redraw)

    def redraw(self, *args) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        with self.canvas:
            Color(0.94, 0.89, 0.76)  # the map's land, so the piece is seen on what it stands on
            corner = (self.center_x - side / 2, self.center_y - side / 2)
            RoundedRectangle(pos=corner, size=(side, side), radius=[dp(8)])
            draw_piece(self.kind, self.colour, self.center_x, self.center_y, side * 0.8)


class PieceEntry(BoxLayout):
    """One piece of the key: the piece drawn, its name, what it is."""

    kind = StringProperty("")
    colour = StringProperty("red")
    name = StringProperty("")
    words = StringProperty("")


class PieceKey(BoxLayout):
    """The key: a toggle ("Key to the pieces") and, when open, one entry per piece kind (in
    columns as the width allows). Closed, the entries leave the widget tree: nothing hidden
    stays behind to be tapped or to cover anything."""

    open = BooleanProperty(False)
    colour = StringProperty("red")  # whose colour the player's pieces are shown in ...
    owner = StringProperty("")  # ... and their name, said beside those pieces

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.grid = GridLayout(cols=1, size_hint_y=None, spacing=(dp(16), dp(8)))
        self.grid.bind(minimum_height=self.grid.setter("height"))
        self.entries = [PieceEntry(kind=kind, name=_(name), words=_(words)) for kind, name, words in PIECES]
        for entry in self.entries:
            self.bind(colour=entry.setter("colour"))
            self.grid.add_widget(entry)
        self.bind(width=self._columns, open=self._shown, owner=self._owned)

    def _owned(self, *args) -> None:
        """A player's pieces say whose they are here: colour is never the only cue."""
        for entry, (kind, name, _words) in zip(self.entries, PIECES):
            entry.name = (
                _("{piece} (here {owner}'s)").format(piece=_(name), owner=self.owner)
                if self.owner and kind in PLAYER_PIECES
                else _(name)
            )

    def _columns(self, *args) -> None:
        self.grid.cols = max(1, min(len(self.entries), int(self.width // dp(300))))

    def _shown(self, *args) -> None:
        if self.open and self.grid.parent is None:
            self.add_widget(self.grid)
        elif not self.open and self.grid.parent is self:
            self.remove_widget(self.grid)

    def toggle(self) -> None:
        self.open = not self.open

    def kinds(self) -> list[str]:
        return [entry.kind for entry in self.entries]
