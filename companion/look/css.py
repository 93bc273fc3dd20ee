"""The look's tokens as CSS custom properties, for the phone page and the club board: the same
colours and type sizes as the tablet (tokens.py), served into each page at its LOOK_SLOT, never
copied by hand. The phone follows its own light or dark setting (prefers-color-scheme: the day
theme, or the evening one in the dark); the club board is a screen in a dim room: evening."""

from __future__ import annotations

from companion.look.tokens import RADIUS, THEMES, TYPE_SCALE

LOOK_SLOT = b"/*LOOK_TOKENS*/"


def _hex(rgba) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgba[:3])


def _declarations(theme: str) -> str:
    colours = [f"--{token.replace('_', '-')}:{_hex(rgba)}" for token, rgba in THEMES[theme].items()]
    return ";".join(colours)


def css_variables(theme: str | None = None) -> str:
    """`:root{...}` with every colour token (`--ink`, `--ink-muted`...), the type scale in px
    (`--type-body`...) and the radii; theme None: day, and evening under a dark scheme."""
    fixed = [f"--type-{name}:{size}px" for name, size in TYPE_SCALE.items()]
    fixed += [f"--radius-{name}:{r}px" for name, r in RADIUS.items()]
    if theme is not None:
        return ":root{" + ";".join([_declarations(theme), *fixed]) + "}"
    return (
        ":root{" + ";".join([_declarations("day"), *fixed]) + "}"
        "@media (prefers-color-scheme: dark){:root{" + _declarations("evening") + "}}"
    )


def with_tokens(page: bytes, theme: str | None = None) -> bytes:
    """A page with the tokens written into its style sheet (at LOOK_SLOT)."""
    return page.replace(LOOK_SLOT, css_variables(theme).encode("utf-8"))
