"""The players' colours as shown, and the second cue beside each colour (a mark's shape and an
initial), so no piece of a player is told by colour alone. The same table feeds the map, the
phone page, the club board and the share picture."""

from __future__ import annotations

from typing import NamedTuple


class PlayerLook(NamedTuple):
    name: str  # the colour as printed on the box ("Red")
    rgb: tuple[float, float, float]  # as shown on screen, 0-1
    mark: str  # the shape its pieces carry: one of MARK_SHAPES
    initial: str  # one letter, unique among the colours a table may seat
    dark_figures: bool  # a light colour: figures on it are drawn dark


MARK_SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star", "cross", "ring")

PLAYER_LOOKS: dict[str, PlayerLook] = {
    "red": PlayerLook("Red", (0.84, 0.16, 0.16), "circle", "R", False),
    "yellow": PlayerLook("Yellow", (0.96, 0.78, 0.10), "triangle", "Y", True),
    "green": PlayerLook("Green", (0.15, 0.56, 0.33), "square", "G", False),
    "blue": PlayerLook("Blue", (0.05, 0.36, 0.97), "diamond", "B", False),
    "black": PlayerLook("Black", (0.08, 0.08, 0.08), "hexagon", "K", False),
    "purple": PlayerLook("Purple", (0.47, 0.22, 0.60), "star", "P", False),
    "orange": PlayerLook("Orange", (0.94, 0.50, 0.07), "cross", "O", True),
    "white": PlayerLook("White", (0.97, 0.96, 0.92), "ring", "W", True),
}
UNKNOWN = PlayerLook("", (0.5, 0.5, 0.5), "circle", "?", False)


def look_of(colour: str) -> PlayerLook:
    """How a player of this colour is shown (a colour the box lacks: grey, with a '?')."""
    return PLAYER_LOOKS.get(colour, UNKNOWN)


# The map's and the screens' lookup, kept by name for the many places that only need the colour.
PLAYER_RGB: dict[str, tuple[float, float, float]] = {c: look.rgb for c, look in PLAYER_LOOKS.items()}


def hex_of(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(255 * c):02x}" for c in rgb)


def web_looks() -> dict[str, dict]:
    """PLAYER_LOOKS as the phone page and the club board take them (served, never copied by
    hand): per colour its fill and figure colours, initial, mark and the mark's outline as SVG
    points in a 24 x 24 box."""
    from companion.look import marks

    return {
        colour: {
            "name": look.name,
            "fill": hex_of(look.rgb),
            "ink": "#1a1a1a" if look.dark_figures else "#ffffff",
            "initial": look.initial,
            "mark": look.mark,
            "hollow": look.mark in marks.HOLLOW,
            "dash": marks.DASHES.get(look.mark, ""),
            "points": marks.svg_points(marks.points(look.mark, 12, 12, 9.5, y_up=False)),
        }
        for colour, look in PLAYER_LOOKS.items()
    }


LOOKS_SLOT = b"/*PLAYER_LOOKS*/{}"  # where a page's script takes web_looks()


def with_looks(page: bytes) -> bytes:
    """A page with the players' looks written into its script (at LOOKS_SLOT)."""
    import json

    served = json.dumps(web_looks(), separators=(",", ":")).replace("</", "<\\/").encode("utf-8")
    return page.replace(LOOKS_SLOT, served)
