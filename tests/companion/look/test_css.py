"""companion.look.css: the tokens as CSS custom properties; the phone page, its "gone" page and the
club board carry them served (no colour of the look copied by hand into a page)."""

from __future__ import annotations

import re
from importlib import resources

from companion.look.css import LOOK_SLOT, css_variables, with_tokens
from companion.look.tokens import THEMES, TYPE_SCALE

PAGES = [("companion.phones", "static/phone.html"), ("companion.phones", "static/gone.html")]
BOARD = ("companion.club", "static/board.html")


def _hex(rgba) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgba[:3])


def test_every_token_of_both_themes_is_a_variable():
    css = css_variables()
    day, dark = css.split("@media (prefers-color-scheme: dark)")
    for token, rgba in THEMES["day"].items():
        assert f"--{token.replace('_', '-')}:{_hex(rgba)}" in day, token
    for token, rgba in THEMES["evening"].items():
        assert f"--{token.replace('_', '-')}:{_hex(rgba)}" in dark, token
    for name, size in TYPE_SCALE.items():
        assert f"--type-{name}:{size}px" in day
    assert all(re.fullmatch(r"#[0-9a-f]{6}", v) for v in re.findall(r":(#[^;}]*)", css))


def test_a_theme_named_gives_only_that_theme():
    css = css_variables("evening")
    assert "prefers-color-scheme" not in css and _hex(THEMES["evening"]["background"]) in css


def test_each_page_takes_its_surfaces_and_words_from_the_tokens():
    for package, name in [*PAGES, BOARD]:
        page = resources.files(package).joinpath(name).read_bytes()
        assert page.count(LOOK_SLOT) == 1, name
        served = with_tokens(page).decode()
        assert LOOK_SLOT.decode() not in served
        for var in ("--background", "--ink", "--card"):
            assert f"var({var})" in served, (name, var)
        body = next(rule for rule in re.findall(r"body\{[^}]*\}", served) if "background" in rule)
        assert "background:var(--" in body and not re.search(r"#[0-9a-fA-F]{3,6}\b", body), (name, body)
