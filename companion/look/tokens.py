"""The visual system's tokens: one type scale, one spacing scale, and the colour tokens of each
theme ("day" and "evening", the same names in both). Plain data: the tablet binds its widgets to
them (companion/ui/theme.py), the phone page and the club board read them as CSS variables, the
share picture as RGB."""

from __future__ import annotations

RGBA = tuple[float, float, float, float]

# Type scale, in sp: every label on every screen is one of these.
TYPE_SCALE = {"caption": 14, "body": 16, "label": 18, "title": 22, "headline": 28, "display": 36}
# Spacing, in dp (a 4-dp grid).
SPACE = {"xs": 4, "s": 8, "m": 12, "l": 16, "xl": 24, "xxl": 32}
RADIUS = {"chip": 6, "card": 10, "sheet": 14}
TOUCH_TARGET_DP = 48


def _hex(code: str, alpha: float = 1.0) -> RGBA:
    code = code.lstrip("#")
    r, g, b = (int(code[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (round(r, 4), round(g, 4), round(b, 4), alpha)


# No token may be named on_*: Kivy reads such a property name as an event handler.
# Colour tokens, by meaning. The day theme is the board's paper and ink; the evening theme the
# same roles for a dim room (light text on deep surfaces, the accent kept warm).
THEMES: dict[str, dict[str, RGBA]] = {
    "day": {
        "background": _hex("#F7F0DC"),
        "surface": _hex("#EDE3CC"),
        "card": _hex("#FFFBF2"),
        "ink": _hex("#3B2914"),
        "ink_muted": _hex("#6B5A45"),
        "accent": _hex("#9E3320"),
        "accent_ink": _hex("#FFF8E6"),
        "button": _hex("#D9C7A0"),
        "button_quiet": _hex("#E8DDC6"),
        "outline": _hex("#C9B897"),
        "ok": _hex("#276B42"),
        "warning": _hex("#B5651D"),
        "danger": _hex("#B3261E"),
        "bar": _hex("#5A3A20"),
        "bar_ink": _hex("#FFF6E0"),
        "chosen": _hex("#739E59"),
        "chosen_ink": _hex("#1F1A10"),
    },
    "evening": {
        "background": _hex("#1E1A16"),
        "surface": _hex("#2A241E"),
        "card": _hex("#342C24"),
        "ink": _hex("#F0E6D2"),
        "ink_muted": _hex("#BFAF96"),
        "accent": _hex("#E07A4F"),
        "accent_ink": _hex("#1E1A16"),
        "button": _hex("#4A3F33"),
        "button_quiet": _hex("#3A3129"),
        "outline": _hex("#5C4F40"),
        "ok": _hex("#6CC28F"),
        "warning": _hex("#E0A050"),
        "danger": _hex("#F08A80"),
        "bar": _hex("#120F0C"),
        "bar_ink": _hex("#F0E6D2"),
        "chosen": _hex("#3F6B33"),
        "chosen_ink": _hex("#F4EEDD"),
    },
}
THEME_NAMES = {"day": "Day", "evening": "Evening"}
DEFAULT_THEME = "day"
