"""Text a person or a file gave (a player's name, a card's name typed at the table, a file's name)
made safe for the place it is shown: one function per sink.

Names are limited where they are typed (the setup's 22 characters), but a game saved by an older
version, a backup or a hand-edited log may hold anything: every sink makes its text safe itself.

- `for_terminal`: control characters (C0, DEL, C1), line and paragraph separators, bidi overrides
  and isolates (U+202E, U+2067 ...) and lone surrogates shown as visible escapes (`\\x1b`,
  `\\u202e`): nothing a terminal would act on reaches it, and no name can reorder a line.
- `for_json`: a JSON document to print or write: the same characters as JSON escapes (`\\u001b`),
  so it is still the same JSON (and a lone surrogate can be written as UTF-8 at all).
- `for_markup`: a Kivy label with markup: `[`, `]` and `&` as Kivy's own escapes (what
  `kivy.utils.escape_markup` does, without importing Kivy) and control characters as above.
- `for_csv`: a spreadsheet cell: a cell a spreadsheet would run as a formula (starting with
  `=`, `+`, `-`, `@`, a tab or a carriage return, also after leading spaces) is written as text
  with a leading `'` (OWASP's advice on CSV injection); the csv module quotes the rest. A lone
  surrogate (which no UTF-8 file can hold) is written as its escape.
- `for_file_name`: a file's name in a message: undecodable bytes as `\\xNN`, then as the terminal.
- `typed`: a name as the setup takes it from the keyboard: those characters left out.
- `for_picture`: a name drawn into the exported picture: shown as the terminal shows it (a newline
  would otherwise start a second line over the next row).

The phone page and the club board put names into the page with `textContent` (never HTML), so
they need nothing here (tests/companion/phones/test_browser.py and club/test_board_tv.py keep them so).
"""

from __future__ import annotations

import os
import re
from pathlib import PurePath

# What a terminal acts on or that moves text around: C0 controls, DEL and C1 controls; the
# line and paragraph separators; Arabic letter mark, left-to-right and right-to-left marks,
# embeddings, overrides and isolates (the "Trojan Source" characters); lone surrogates (a file
# name's undecodable bytes, or JSON's "\udcff": they cannot even be written to a UTF-8 stream).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# The same but tab, newline and CR: in json.dumps' output those are its layout, never in a string.
_IN_JSON_STRINGS = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_SURROGATE = re.compile("[\ud800-\udfff]")

# A spreadsheet runs a cell starting with one of these (after any spaces) as a formula.
_FORMULA_START = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")  # the ASCII ones and their full-width forms


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: str) -> str:
    """`text` with every character a terminal would act on shown as an escape (`Ana\\x1b[31m`).
    Printable text, any script, passes unchanged; applying it twice changes nothing more."""
    return _UNSAFE.sub(_escape, str(text))


def for_json(json_text: str) -> str:
    """A JSON document (json.dumps(..., ensure_ascii=False)) safe to print or to write as UTF-8,
    and the same JSON: json.dumps escapes every control character inside a string, so a raw tab,
    newline or CR is the document's own layout (kept); the others only stand inside its strings,
    where `\\uXXXX` means the same."""
    return _IN_JSON_STRINGS.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text)


def for_markup(text: str) -> str:
    """`text` for a Kivy label with markup=True: shown as written, never read as a tag
    (`[size=200]Ana` stays those eleven characters at the label's own size)."""
    shown = for_terminal(text)
    return shown.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def for_csv(cell) -> str:
    """A CSV cell that a spreadsheet shows as text: one that would start a formula gets a
    leading `'`. Other cells pass unchanged, and so does a number (a score of -3 stays a number)."""
    if isinstance(cell, (int, float)):
        return str(cell)
    text = _SURROGATE.sub(_escape, str(cell))
    if text[:1] in _FORMULA_START or text.lstrip(" \u00a0")[:1] in _FORMULA_START:
        return "'" + text
    return text


def for_file_name(path: str | os.PathLike) -> str:
    """A file's name (not its folder) as a message shows it: bytes that are not UTF-8 as `\\xNN`,
    control characters as escapes."""
    raw = os.fsencode(PurePath(path).name)
    return for_terminal(raw.decode("utf-8", "backslashreplace"))


def for_picture(text: str) -> str:
    """A name drawn into a picture, on one line as written."""
    return for_terminal(text)


def typed(text: str) -> str:
    """What a person types as a name, without the characters no name needs (controls, bidi marks,
    lone surrogates): the setup keeps them out; the sinks stay safe for names from elsewhere."""
    return _UNSAFE.sub("", str(text))


def is_safe_for_terminal(text: str) -> bool:
    """Nothing in `text` a terminal would act on (what the tests and the benchmark count)."""
    return _UNSAFE.search(text) is None
