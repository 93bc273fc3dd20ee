"""The map of Spain: regions drawn from their shapes (data/spain_map.json),
each region's scoreboard values, each player's Caballeros, the King, the
Grandes, the mobile scoreboards and the Castillo as a closed tower that pulses
on each drop (never a count). Where each mark goes is map_layout's: nothing
covers anything else.

The 2023 board (data/spain_map_2023.json: the same shapes under the 2023 names)
adds France and Portugal beyond the border, the King and Grandes beside the
Castillo, Scoring tiles, the side's paid places and the dummy's key. Which board
is drawn follows `board` (the game's Board), else the public view's rule set.

A view only: it draws the public view it is given and reports taps as area
ids through `on_area`. What a tap means is decided by the prompt.
"""

from __future__ import annotations

import time
from functools import lru_cache

from kivy.animation import AnimationTransition
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle
from kivy.graphics.tesselator import TYPE_POLYGONS, WINDING_ODD, Tesselator
from kivy.metrics import sp
from kivy.properties import DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.look import marks as outlines
from companion.look.players import look_of
from companion.ui.widgets import map_layout
from companion.ui.widgets.map_layout import CASTILLO_RING, map_shapes
from companion.words import names as printed
from companion.words.colours import player_name
from engine.board.build import classic_board
from engine.board.load import load_board
from engine.board.model import Board

CASTILLO = "castillo"

MIN_LABEL_SP = 14  # no word or number on the map is smaller, at any shape
INK = (0.23, 0.16, 0.08)
LAND = (0.94, 0.89, 0.76)
KING_LAND = (0.98, 0.84, 0.45)
TAPPABLE = (0.72, 0.86, 0.97)
SELECTED = (0.45, 0.70, 0.95)
SEA = (0.62, 0.78, 0.86)
PORTUGAL = (0.80, 0.79, 0.74)
BEYOND = (0.78, 0.80, 0.80)  # France and Portugal on the 2023 board: not regions
BEYOND_KING = (0.93, 0.86, 0.62)  # ... the one the King was exiled to
BEYOND_INK = (0.33, 0.35, 0.36)
STRUCK_INK = (0.62, 0.55, 0.48)  # printed values a side does not pay
STRUCK_ON_TILE = (0.80, 0.68, 0.52)  # ... on a Scoring tile
VALUES_INK = (0.42, 0.28, 0.14)  # a region's printed scoreboard values
PULSE_SECONDS = 0.6  # the Castillo's glow after a drop fades over this long ...
PULSE_STEPS = 8  # ... in this many redraws (a Kivy Animation would redraw every frame)


def board_values(board: Board) -> dict:
    """Area id -> the values of a board's region or the Castillo (None: nobody has entered them)."""
    return {aid: board.scoreboards[i] for aid, i in board.area_index.items() if i <= board.castillo}


@lru_cache(maxsize=8)
def _shipped_board(rules: str, players: int) -> Board:
    return load_board(rules, players)


def board_of(game: dict) -> Board:
    """The board a public view is played on, when nobody gave the map the game's own: the
    rule set's as shipped, for its number of players (the dummy is no player)."""
    rules = game.get("rules") or "classic"
    if rules == "classic":
        return classic_board()
    players = sum(1 for p in game.get("players", []) if p["id"] != game.get("dummy"))
    try:
        return _shipped_board(rules, players)
    except ValueError:
        return _shipped_board(rules, 4)


def player_rgb(pid: str) -> tuple:
    return look_of(pid).rgb


def figure_rgb(pid: str) -> tuple:
    """The colour of a figure written on a piece of that colour."""
    return (0.1, 0.1, 0.1) if look_of(pid).dark_figures else (1, 1, 1)


def font_px(units: float, scale: float) -> int:
    """A map font (in map units) on screen: scaled with the map, never under MIN_LABEL_SP."""
    return max(round(sp(MIN_LABEL_SP)), int(units * scale))


@lru_cache(maxsize=64)
def _triangles(points: tuple) -> list:
    tess = Tesselator()
    tess.add_contour([c for p in points for c in p])
    tess.tesselate(WINDING_ODD, TYPE_POLYGONS)
    return list(tess.meshes)


@lru_cache(maxsize=512)
def _text(text: str, size: int, bold: bool = False, rgb: tuple = INK, italic: bool = False):
    label = CoreLabel(text=text, font_size=size, bold=bold, italic=italic, color=(*rgb, 1), halign="center")
    label.refresh()
    return label.texture


def _layout_key(game: dict) -> tuple:
    """What in the public view moves the map's marks: counts, the King, Grandes, mobile scoreboards,
    the dummy."""
    return (
        tuple(
            (rid, tuple((pid, n) for pid, n in counts.items() if n))
            for rid, counts in (game.get("regions") or {}).items()
        ),
        game.get("king"),
        tuple(
            (p["id"], p.get("grande"), p["name"] if p["id"] == game.get("dummy") else "")
            for p in game.get("players", [])
        ),
        tuple(sorted((k, v or "") for k, v in (game.get("mobile_scoreboards") or {}).items())),
        game.get("rules"),
        game.get("dummy"),
        tuple(sorted((k, str(v)) for k, v in (game.get("markers") or {}).items())),
    )  # King and Intrigue


class MapView(Widget):
    public = DictProperty({})  # the game part of the public view
    board = ObjectProperty(None, allownone=True)  # the game's Board; None: the public view's rule set's
    names = DictProperty({})  # region id -> name shown (the board's names where not given)
    scoreboards = DictProperty({})  # area id -> values shown instead of the board's, e.g. (6, 4, 2)
    tappable = ListProperty([])  # area ids a tap means something for
    selected = StringProperty("")  # the chosen source of a move
    pending = DictProperty({})  # area id -> Caballeros entered but not confirmed
    pending_colour = StringProperty("")
    pulse = NumericProperty(0.0)  # 0..1 glow of the Castillo after a drop

    __events__ = ("on_area", "on_closed_area")  # a tap on an area: one it may choose, or one it may not
    _laid_out = None  # (what the marks depend on, the marks): the last layout
    _pulse_steps = None  # the running pulse's clock event

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._redraw = self._make_trigger()
        self.marks = []  # (what, (x0, y0, x1, y1)) of each mark drawn: none covers another
        self.labels = []  # (text, font px) of each word drawn: none under MIN_LABEL_SP
        self.pieces = []  # (what, colour, shape, initial) of each player's piece drawn
        for prop in (
            "public",
            "board",
            "names",
            "scoreboards",
            "tappable",
            "selected",
            "pending",
            "pending_colour",
            "pos",
            "size",
        ):
            self.bind(**{prop: self._redraw})
        # The pulse is its own few instructions on top: animating it redraws nothing else.
        with self.canvas.after:
            self._glow_colour = Color(1.0, 0.78, 0.2, 0)
            self._glow = Line(circle=(0, 0, 1), width=4)
        self.bind(pulse=self._draw_pulse)

    def _make_trigger(self):
        return Clock.create_trigger(lambda dt: self.draw(), 0)

    # ---- geometry -------------------------------------------------------------------

    # ---- which board ----------------------------------------------------------------

    def game_board(self) -> Board:
        """The board drawn: the one given, unless the public view is of another rule set."""
        game = self.public or {}
        board = self.board
        if board is not None and (not game or board.rules == (game.get("rules") or "classic")):
            return board
        return board_of(game)

    def shapes(self) -> dict:
        return map_shapes(self.game_board().rules)

    def area_names(self) -> dict:
        """Area id -> name shown: given names first, the board's for the rest (a 2023 game's
        regions and spaces, whatever names the screen set for the classic map)."""
        board = self.game_board()
        ids = list(board.region_ids) + list(board.space_ids)
        return {aid: self.names.get(aid) or printed.area(board, board.area_index[aid]) for aid in ids}

    def area_values(self) -> dict:
        return {**board_values(self.game_board()), **self.scoreboards}

    # ---- geometry -------------------------------------------------------------------

    def _transform(self):
        shapes = self.shapes()
        scale = min(self.width / shapes["width"], self.height / shapes["height"])
        ox = self.x + (self.width - shapes["width"] * scale) / 2
        oy = self.y + (self.height - shapes["height"] * scale) / 2
        top = shapes["height"]
        return lambda x, y: (ox + x * scale, oy + (top - y) * scale), scale

    def area_at(self, wx: float, wy: float):
        shapes = self.shapes()
        scale = min(self.width / shapes["width"], self.height / shapes["height"])
        if scale <= 0:
            return None
        ox = self.x + (self.width - shapes["width"] * scale) / 2
        oy = self.y + (self.height - shapes["height"] * scale) / 2
        mx, my = (wx - ox) / scale, shapes["height"] - (wy - oy) / scale
        c = shapes["castillo"]
        if (mx - c["center"][0]) ** 2 + (my - c["center"][1]) ** 2 <= (c["radius"] * 1.3) ** 2:
            return CASTILLO
        for aid, area in {**shapes["regions"], **shapes.get("spaces", {})}.items():
            if map_layout.inside(mx, my, area["polygon"]):
                return aid
        return None

    def area_centre(self, aid: str) -> tuple[float, float]:
        """Where a test (or a person) would tap to hit an area."""
        to_screen, _ = self._transform()
        shapes = self.shapes()
        if aid == CASTILLO:
            return to_screen(*shapes["castillo"]["center"])
        area = shapes["regions"].get(aid) or shapes["spaces"][aid]
        return to_screen(*area["label"])

    def placed(self) -> list:
        """The marks as map_layout placed them (map units): what a test reads back."""
        return list(self._laid_out[1]) if self._laid_out else []

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        area = self.area_at(*touch.pos)
        if area is not None:
            self.dispatch("on_area" if area in self.tappable else "on_closed_area", area)
            return True
        return super().on_touch_down(touch)

    def on_area(self, area: str) -> None:
        pass

    def on_closed_area(self, area: str) -> None:
        """A tap on an area nothing can be chosen in now: the screen says why."""

    def flash(self) -> None:
        """The Castillo's pulse: called once per drop. A few timed steps, so the loop sleeps
        between them, and none while the map is off screen (nobody would see it)."""
        if self._pulse_steps is not None:
            self._pulse_steps.cancel()
            self._pulse_steps = None
        if not self.shown:
            self.pulse = 0.0
            return
        self._pulse_started = time.perf_counter()
        self.pulse = 1.0
        self._pulse_steps = Clock.schedule_interval(self._pulse_step, PULSE_SECONDS / PULSE_STEPS)

    @property
    def shown(self) -> bool:
        """On the window: a screen that is not current is off the window's tree."""
        return self.get_parent_window() is not None

    def _pulse_step(self, dt) -> bool:
        done = (time.perf_counter() - self._pulse_started) / PULSE_SECONDS  # on time, even when frames are slow
        if done >= 1 or not self.shown:
            self.pulse = 0.0
            self._pulse_steps = None
            return False
        self.pulse = 1.0 - AnimationTransition.out_quad(done)
        return True

    # ---- drawing ------------------------------------------------------------------------

    def draw(self) -> None:
        to_screen, scale = self._transform()
        shapes = self.shapes()
        game = self.public or {}
        king = game.get("king")
        self.canvas.clear()
        with self.canvas:
            Color(*SEA)
            Rectangle(pos=self.pos, size=self.size)
            self._polygon(shapes["sea"], PORTUGAL, to_screen)
            self._spaces(shapes.get("spaces", {}), king, to_screen, scale)
            for rid, region in shapes["regions"].items():
                fill = LAND
                if rid == king:
                    fill = KING_LAND
                if rid in self.tappable:
                    fill = SELECTED if rid == self.selected else TAPPABLE
                self._polygon(region["polygon"], fill, to_screen)
            for region in shapes["regions"].values():
                Color(*INK)
                pts = [c for p in region["polygon"] for c in to_screen(*p)]
                Line(points=pts, close=True, width=max(1.0, 1.6 * scale))
            self._castillo(shapes["castillo"], to_screen, scale, king == CASTILLO)
            self._board_marks(game, to_screen, scale)

    def _spaces(self, spaces: dict, king, to_screen, scale) -> None:
        """France and Portugal: beyond the border, in grey, their outline dashed (not regions)."""
        for sid, space in spaces.items():
            fill = BEYOND_KING if sid == king else BEYOND
            if sid in self.tappable:
                fill = SELECTED if sid == self.selected else TAPPABLE
            self._polygon(space["polygon"], fill, to_screen)
            Color(*BEYOND_INK)
            pts = [c for p in space["polygon"] for c in to_screen(*p)]
            Line(
                points=pts, close=True, width=1, dash_length=max(2, int(6 * scale)), dash_offset=max(2, int(4 * scale))
            )

    def _polygon(self, points, rgb, to_screen) -> None:
        Color(*rgb)
        for vertices, indices in _triangles(tuple(tuple(to_screen(*p)) for p in points)):
            Mesh(vertices=vertices, indices=indices, mode="triangle_fan")

    def _label(self, text: str, x: float, y: float, size: int, bold=False, rgb=INK, italic=False) -> None:
        self.labels.append((text, size))
        texture = _text(text, size, bold, rgb, italic)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(x - texture.width / 2, y - texture.height / 2), size=texture.size)

    def _parts(self, mark, x, y, size: int, bold: bool, rgb: tuple, faded: tuple = STRUCK_INK) -> None:
        """A values mark: what the side pays, then (faded, the numbers struck through) what it prints
        but does not pay."""
        if not mark.struck:
            self._label(mark.text, x, y, size, bold=bold, rgb=rgb)
            return
        self.labels.append((mark.text + mark.struck, size))
        paid, struck = _text(mark.text, size, bold, rgb), _text(mark.struck, size, bold, faded)
        dot = _text("·", size, bold, faded).width if mark.text and mark.struck.startswith("·") else 0
        left = x - (paid.width + struck.width) / 2
        Color(1, 1, 1, 1)
        Rectangle(texture=paid, pos=(left, y - paid.height / 2), size=paid.size)
        Rectangle(texture=struck, pos=(left + paid.width, y - struck.height / 2), size=struck.size)
        Color(*faded)  # a slash, not a bar: a bar through "1" reads as "+"
        rise = 0.32 * struck.height
        Line(
            points=[left + paid.width + dot, y - rise, left + paid.width + struck.width, y + rise],
            width=max(1.0, size / 14),
        )

    def _board_marks(self, game, to_screen, scale) -> None:
        """Names, scoreboard values, counts, the King, Grandes, mobile scoreboards and "+N"
        badges, each where map_layout put it (nothing covers anything else)."""
        self.marks, self.labels, self.pieces = [], [], []
        if scale <= 0:
            return

        def text_size(text, font, bold):  # a line at a time: the layout adds up the lines of a tile's words
            texture = _text(text, font_px(font, scale), bold)
            return texture.width / scale, texture.height / scale

        pending = {a: n for a, n in self.pending.items() if n and a != CASTILLO}  # the Castillo's is on the tower
        board, names, values = self.game_board(), self.area_names(), self.area_values()
        dummy = game.get("dummy") or ""
        typed = {p["id"]: p.get("name", "") for p in game.get("players", [])}
        dummy_name = player_name(typed, dummy) if dummy else ""  # "the dummy (White)" in the language
        key = (
            round(scale, 4),
            _layout_key(game),
            tuple(names.items()),
            tuple(values.items()),
            tuple(sorted(pending.items())),
            self.pending_colour,
            board.rules,
            board.scoring_places,
            tuple(sorted(board.scoring_tiles.items())),
        )
        if self._laid_out is None or self._laid_out[0] != key:  # a new prompt alone (what is tappable) moves nothing
            tiles = board.scoring_tiles if board.rules != "classic" else None
            self._laid_out = (
                key,
                map_layout.layout(
                    self.shapes(),
                    game,
                    names,
                    values,
                    pending,
                    self.pending_colour,
                    text_size,
                    self._tower_box(),
                    paid=board.scoring_places,
                    tiles=tiles,
                    dummy=dummy,
                    dummy_name=dummy_name,
                ),
            )
        self._dummy = dummy
        draw = {
            "name": self._draw_name,
            "space": self._draw_space,
            "values": self._draw_values,
            "mobile": self._draw_mobile,
            "counts": self._draw_counts,
            "legend": self._draw_legend,
            "king": self._draw_king,
            "grande": self._draw_grande,
            "marker": self._draw_marker,
            "badge": self._draw_badge,
        }
        for mark in self._laid_out[1]:
            x, y = to_screen(mark.x, mark.y)
            draw[mark.kind](mark, x, y, scale)
            x0, y0 = to_screen(mark.x - mark.w / 2, mark.y + mark.h / 2)
            self.marks.append((f"{mark.kind} of {mark.area}", (x0, y0, x0 + mark.w * scale, y0 + mark.h * scale)))

    def _tower_box(self) -> tuple:
        """The Castillo tower as _castillo draws it, battlements included (map units, y down)."""
        castillo = self.shapes()["castillo"]
        (x, y), r = castillo["center"], castillo["radius"]
        return x - 0.65 * r - 2, y - 1.1 * r - 2, x + 0.65 * r + 2, y + 0.85 * r + 2

    def _draw_name(self, mark, x, y, scale) -> None:
        self._label(mark.text, x, y, font_px(map_layout.NAME_FONT, scale), bold=True)

    def _draw_space(self, mark, x, y, scale) -> None:
        self._label(mark.text, x, y, font_px(map_layout.NAME_FONT, scale), rgb=BEYOND_INK, italic=True)

    def _draw_values(self, mark, x, y, scale) -> None:
        self._parts(mark, x, y, font_px(map_layout.VALUES_FONT, scale), False, VALUES_INK)

    def _draw_mobile(self, mark, x, y, scale) -> None:
        w, h = mark.w * scale, mark.h * scale
        Color(0.35, 0.22, 0.10)
        RoundedRectangle(pos=(x - w / 2, y - h / 2), size=(w, h), radius=[3 * scale])
        self._parts(mark, x, y, font_px(map_layout.VALUES_FONT, scale), True, (1, 0.95, 0.8), faded=STRUCK_ON_TILE)

    def _draw_counts(self, mark, x, y, scale) -> None:
        """Each colour's stack: its mark (the colour's shape), its count beside it in ink."""
        r = map_layout.CHIP * scale / 2
        for (pid, count), (mark_dx, count_dx, dy) in zip(mark.items, mark.spots, strict=True):
            self._stack_mark(pid, x + mark_dx * scale, y - dy * scale, r, f"stack of {mark.area}")
            self._label(
                str(count), x + count_dx * scale, y - dy * scale, font_px(map_layout.COUNT_FONT, scale), bold=True
            )

    def _stack_mark(self, pid: str, x: float, y: float, r: float, what: str) -> None:
        """A player's mark: the colour's shape, outlined in ink; hollow for a ring. The dummy's
        carries an inner ring too, so it never passes for a player's."""
        look = look_of(pid)
        self.pieces.append((what, pid, look.mark, look.initial))
        outline = outlines.points(look.mark, x, y, r)
        flat = [c for p in outline for c in p]
        if look.mark in outlines.HOLLOW:
            Color(*INK)
            Line(points=flat, close=True, width=max(1.0, 0.42 * r))
            Color(*look.rgb)
            Line(points=flat, close=True, width=max(1.0, 0.3 * r))
        else:
            self._polygon(outline, look.rgb, lambda px, py: (px, py))
            Color(*INK)
            Line(points=flat, close=True, width=1.2)
        if pid == getattr(self, "_dummy", ""):
            Color(*figure_rgb(pid))
            Line(circle=(x, y, 0.3 * r), width=1.2)

    def _draw_legend(self, mark, x, y, scale) -> None:
        """The dummy's key: its mark, then its name."""
        left = x - mark.w * scale / 2
        size = map_layout.CHIP * scale
        self._stack_mark(mark.items[0][0], left + size / 2, y, size / 2, "the dummy's key")
        self.labels.append((mark.text, font_px(map_layout.VALUES_FONT, scale)))
        texture = _text(mark.text, font_px(map_layout.VALUES_FONT, scale), True, INK)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(left + size + 6 * scale, y - texture.height / 2), size=texture.size)

    def _draw_king(self, mark, x, y, scale) -> None:
        self._king(x, y, scale)

    def _draw_grande(self, mark, x, y, scale) -> None:
        self._grande(x, y, scale, mark.owner)

    def _draw_marker(self, mark, x, y, scale) -> None:
        """A King and Intrigue marker on its region ("2x", "Alliance", "Castillo here"): a dark tag."""
        w, h = mark.w * scale, mark.h * scale
        Color(0.55, 0.1, 0.12)
        RoundedRectangle(pos=(x - w / 2, y - h / 2), size=(w, h), radius=[h / 2])
        self._label(mark.text, x, y, font_px(map_layout.MARKER_FONT, scale), bold=True, rgb=(1, 0.96, 0.88))

    def _draw_badge(self, mark, x, y, scale) -> None:
        self._badge(mark.text, x, y, scale, mark.owner)

    def _badge(self, text, x, y, scale, colour) -> None:
        """ "+N" being placed: the placing colour's mark, then the number."""
        w, h = map_layout.BADGE_W * scale, map_layout.BADGE_H * scale
        Color(1, 1, 1, 0.95)
        RoundedRectangle(pos=(x - w / 2, y - h / 2), size=(w, h), radius=[h / 2])
        Color(*player_rgb(colour))
        Line(rounded_rectangle=(x - w / 2, y - h / 2, w, h, h / 2), width=2)
        r = 0.36 * h
        self._stack_mark(colour, x - w / 2 + h / 2 + 1, y, r, "badge")
        self._label(text, x + r, y, font_px(14 * 1.2, scale), bold=True)

    def _king(self, x, y, scale) -> None:
        r = 17 * scale * 1.2
        Color(0.55, 0.42, 0.05)
        Ellipse(pos=(x - r - 2, y - r - 2), size=(2 * r + 4, 2 * r + 4))
        Color(0.98, 0.80, 0.20)
        Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
        crown = outlines.crown(x, y, 0.8 * r)
        self._polygon(crown, INK, lambda px, py: (px, py))

    def _grande(self, x, y, scale, pid) -> None:
        """The Grande: a tall crowned tower in the player's colour, the player's initial on it."""
        look = look_of(pid)
        self.pieces.append(("grande", pid, "grande", look.initial))
        h = map_layout.GRANDE_H * scale
        tower = outlines.grande(x, y - h / 2, h)
        self._polygon(tower, look.rgb, lambda px, py: (px, py))
        Color(*INK)
        Line(points=[c for p in tower for c in p], close=True, width=1.4)
        self._label(look.initial, x, y - 0.08 * h, font_px(16, scale), bold=True, rgb=figure_rgb(pid))

    def _draw_pulse(self, *args) -> None:
        to_screen, scale = self._transform()
        castillo = self.shapes()["castillo"]
        x, y = to_screen(*castillo["center"])
        # a fixed ring that fades (it once grew over the word "Castillo" below the tower)
        r = castillo["radius"] * scale * CASTILLO_RING
        self._glow_colour.a = self.pulse
        self._glow.circle = (x, y, r)
        self._glow.width = max(1.5, 4 * self.pulse)

    def _castillo(self, castillo, to_screen, scale, kings: bool = False) -> None:
        """The closed tower; in the King's colour while it is his region (Rebellion)."""
        x, y = to_screen(*castillo["center"])
        r = castillo["radius"] * scale
        tappable = CASTILLO in self.tappable
        stone = TAPPABLE if tappable else KING_LAND if kings else (0.55, 0.50, 0.45)
        w, h = 1.3 * r, 1.7 * r
        Color(*INK)
        Rectangle(pos=(x - w / 2 - 2, y - h / 2 - 2), size=(w + 4, h + 4))
        Color(*stone)
        Rectangle(pos=(x - w / 2, y - h / 2), size=(w, h))
        merlon = w / 5
        for i in (0, 2, 4):  # battlements
            Color(*INK)
            Rectangle(pos=(x - w / 2 + i * merlon - 2, y + h / 2), size=(merlon + 4, 0.25 * r + 2))
            Color(*stone)
            Rectangle(pos=(x - w / 2 + i * merlon, y + h / 2), size=(merlon, 0.25 * r))
        Color(0.25, 0.18, 0.12)
        RoundedRectangle(pos=(x - 0.25 * r, y - h / 2), size=(0.5 * r, 0.7 * r), radius=[0.25 * r, 0.25 * r, 0, 0])
        if CASTILLO in self.pending and self.pending[CASTILLO]:
            self._badge(f"+{self.pending[CASTILLO]}", x, y + 0.2 * r, scale, self.pending_colour)
