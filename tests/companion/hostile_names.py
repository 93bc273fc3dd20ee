"""Names a table, an old log or a backup may hold, each trying one sink: Kivy markup, the terminal,
a spreadsheet, a page, a file name. Shared by the tests and bench/bench_hostile_names.py."""

from __future__ import annotations

import unicodedata

from hypothesis import strategies as st

MARKUP = ["[size=200]Ana", "[/b]", "&bl;", "[color=ff0000]Ben[/color]", "[b][i]x", "&amp;[", "Ana]", "[ref=x]Cai[/ref]"]
CONTROL = [
    "Ana\x1b[31m",
    "Ben\x07",
    "Cai\rDee",
    "Nul\x00",
    "Two\nlines",
    "Tab\tx",
    "Del\x7f",
    "Csi\x9b31m",
    "\x1b]0;title\x07",
    "a\u2028b",
]
BIDI = ["\u202eanA", "Ben\u2067\u202ex", "\u200fDee\u200e", "\u2066a\u2069", "\u061cb"]
FORMULA = ['=HYPERLINK("http://example.invalid","x")', "+1", "-1", "@SUM(A1:A9)", " =1+1", "\t=1", "\r=1", "\uff1d1"]
PAGE = ["<img src=x onerror=window.__pwned=1>", "<script>window.__pwned=1</script>", "</td><b>x"]
OTHER = ["W" * 10_000, "\ud800lone", "Ana", "José Ñúñez", "Zoë-Maximilian", "علي", "名前"]

HOSTILE_NAMES = MARKUP + CONTROL + BIDI + FORMULA + PAGE + OTHER

# Characters a terminal would act on: what must never reach it raw.
UNSAFE_FOR_TERMINAL = (
    {chr(c) for c in range(0x20)}
    | {chr(c) for c in range(0x7F, 0xA0)}
    | set("\u2028\u2029\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)


def raw_control(text: str) -> list[str]:
    """The characters of `text` a terminal would act on (surrogates too: they cannot be written)."""
    return [c for c in text if c in UNSAFE_FOR_TERMINAL or unicodedata.category(c) == "Cs"]


def names() -> st.SearchStrategy[str]:
    """Any text, surrogates and controls included, mixed with the hostile names' pieces."""
    anything = st.text(st.characters(exclude_categories=()), max_size=40)
    pieces = st.lists(st.sampled_from(MARKUP + CONTROL + BIDI + FORMULA + PAGE) | anything, max_size=4).map("".join)
    return st.sampled_from(HOSTILE_NAMES) | anything | pieces
