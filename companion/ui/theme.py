"""The tablet's theme: the look's tokens (companion/look/tokens.py) as Kivy properties, so a .kv
rule written `color: app.theme.ink` follows the theme chosen in settings without a restart.
Python drawing code reads THEME's properties at draw time and redraws on its `on_theme` event."""

from __future__ import annotations

from kivy.event import EventDispatcher
from kivy.properties import ColorProperty, StringProperty

from companion.look.tokens import DEFAULT_THEME, THEMES

# One ColorProperty per colour token (the class is made from the tokens, so a token added to
# tokens.py is a property here with no second list to keep).
Theme = type(
    "Theme",
    (EventDispatcher,),
    {
        "__doc__": "The colour tokens of the theme in use, and its name.",
        "name": StringProperty(DEFAULT_THEME),
        **{token: ColorProperty(list(rgba)) for token, rgba in THEMES[DEFAULT_THEME].items()},
    },
)


def use(theme, name: str) -> None:
    """Switch every token to theme `name` (an unknown name keeps the day theme)."""
    tokens = THEMES.get(name, THEMES[DEFAULT_THEME])
    # The base tokens first: a rule for all Buttons (THEME.button) and a more particular one on the
    # same widget (THEME.accent) both fire on a change, and the particular one must fire last.
    for token in sorted(tokens, key=lambda t: t not in BASE_TOKENS):
        setattr(theme, token, list(tokens[token]))
    theme.name = name if name in THEMES else DEFAULT_THEME


BASE_TOKENS = ("background", "ink", "button")

THEME = Theme()
