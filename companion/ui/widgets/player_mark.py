"""A player's mark wherever a screen shows a player (the score panel, the scoring, the setup, the
end, the tower): the colour's shape with the player's initial in it, as the map draws its pieces,
so no screen tells a player by colour alone."""

from __future__ import annotations

from kivy.graphics import Color, Line, Mesh, Rectangle
from kivy.metrics import sp
from kivy.properties import StringProperty
from kivy.uix.widget import Widget

from companion.look import marks
from companion.look.players import look_of
from companion.ui.widgets.map_view import INK, _text, _triangles, figure_rgb


class PlayerMark(Widget):
    """`colour` a colour id ("red"); draws nothing for ''. Square by its smaller side; the initial
    inside when the shape holds a readable letter (the player's name beside it says the rest)."""

    colour = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.draw()

    def on_colour(self, *args):
        self.draw()

    def on_size(self, *args):
        self.draw()

    def on_pos(self, *args):
        self.draw()

    def draw(self) -> None:
        if self.canvas is None:  # a colour given to the constructor: drawn once the canvas is made
            return
        self.canvas.clear()
        if not self.colour or min(self.size) <= 2:
            return
        look = look_of(self.colour)
        x, y = self.center
        r = min(self.size) / 2 - 1
        outline = marks.points(look.mark, x, y, r)
        flat = [c for p in outline for c in p]
        with self.canvas:
            if look.mark in marks.HOLLOW:
                Color(*INK)
                Line(points=flat, close=True, width=max(1.0, 0.42 * r))
                Color(*look.rgb)
                Line(points=flat, close=True, width=max(1.0, 0.3 * r))
            else:
                Color(*look.rgb)
                for vertices, indices in _triangles(tuple(outline)):
                    Mesh(vertices=vertices, indices=indices, mode="triangle_fan")
                Color(*INK)
                Line(points=flat, close=True, width=1.2)
            size = int(marks.inner_radius(look.mark, r) * 1.3)
            if size < sp(10):  # a star or a cross too small to hold a letter: its shape is the cue
                return
            ink = INK if look.mark in marks.HOLLOW else figure_rgb(self.colour)
            texture = _text(look.initial, size, True, ink)
            Color(1, 1, 1, 1)
            Rectangle(texture=texture, pos=(x - texture.width / 2, y - texture.height / 2), size=texture.size)
