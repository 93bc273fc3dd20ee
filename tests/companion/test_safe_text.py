"""companion.safe_text: every hostile name made safe for each sink (a property over markup, control
characters, RTL marks, formulas, lone surrogates, 10,000 characters), and nothing else changed:
a plain name in any script passes through every sink as it was."""

from __future__ import annotations

import csv
import io
import json
import os

from hypothesis import given, settings

from companion.safe_text import (
    for_csv,
    for_file_name,
    for_json,
    for_markup,
    for_picture,
    for_terminal,
    is_safe_for_terminal,
    typed,
)
from tests.companion.hostile_names import HOSTILE_NAMES, names, raw_control

PLAIN = ["Ana", "José Ñúñez", "Zoë-Maximilian", "علي", "名前", "O'Brien", "Ann (red)", "50% Bo", "a\\x1b"]


def _csv_cell(text: str) -> str:
    """`text` through the CSV writer and back, as a spreadsheet would read the file."""
    out = io.StringIO()
    csv.writer(out).writerow([for_csv(text), "next"])  # CRLF, as the exports write
    [row] = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert row[1] == "next", f"{text!r} broke the row: {row}"
    return row[0]


@settings(max_examples=400, deadline=None)
@given(names())
def test_no_name_reaches_the_terminal_raw(name):
    shown = for_terminal(name)
    assert raw_control(shown) == [] and is_safe_for_terminal(shown)
    assert for_terminal(shown) == shown  # applied twice: nothing more changes
    shown.encode("utf-8")  # writable to any UTF-8 terminal
    for c in set(raw_control(name)):  # each one shown as its escape
        assert (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}") in shown
    if not raw_control(name):
        assert shown == name
    assert for_picture(name) == shown


@settings(max_examples=300, deadline=None)
@given(names())
def test_json_printed_for_a_terminal_is_the_same_json(name):
    doc = [{"name": name, "file": f"/games/{name}.jsonl"}]
    printed = for_json(json.dumps(doc, ensure_ascii=False))
    assert raw_control(printed) == []
    assert json.loads(printed) == doc
    laid_out = for_json(json.dumps(doc, ensure_ascii=False, indent=1))  # a file's layout stays as it was
    assert json.loads(laid_out) == doc and raw_control(laid_out.replace("\n", "")) == []
    laid_out.encode("utf-8")


@settings(max_examples=400, deadline=None)
@given(names())
def test_a_name_under_markup_is_never_a_tag(name):
    shown = for_markup(name)
    assert "[" not in shown and "]" not in shown and raw_control(shown) == []
    # every & starts one of Kivy's three escapes, and undoing them gives the name as the terminal shows it
    assert shown.count("&") == shown.count("&amp;") + shown.count("&bl;") + shown.count("&br;")
    assert shown.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&") == for_terminal(name)


def test_markup_escapes_as_kivy_does():
    from kivy.utils import escape_markup  # the UI layer's own function: the same result

    for name in HOSTILE_NAMES + PLAIN:
        assert for_markup(name) == escape_markup(for_terminal(name))


@settings(max_examples=400, deadline=None)
@given(names())
def test_a_name_in_a_csv_cell_is_text_not_a_formula(name):
    cell = _csv_cell(name)
    if cell.lstrip(" \u00a0")[:1] in set("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20"):
        raise AssertionError(f"{name!r} written as {cell!r}: a spreadsheet runs it")
    written = "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in name)  # UTF-8 can't hold it
    assert cell in (written, "'" + written)  # the name itself, at most marked as text
    cell.encode("utf-8")


def test_formula_names_are_quoted_and_plain_names_and_numbers_are_not():
    for name in ['=HYPERLINK("x")', "+1", "-1", "@SUM", " =1", "  -2", "\t=1", "\r=1", "\u00a0=1"]:
        assert _csv_cell(name) == "'" + name
    for name in PLAIN + ["Ana=Ben", "Ana-Lou", "x@y"]:
        assert _csv_cell(name) == name
    assert for_csv(-3) == "-3" and for_csv(93) == "93"  # numbers are not cells the writer gets as text


def test_plain_names_pass_every_sink_unchanged():
    for name in PLAIN:
        assert for_terminal(name) == for_picture(name) == name == _csv_cell(name)
    assert for_markup("Ana") == "Ana" and for_markup("O'Brien & Co [2]") == "O'Brien &amp; Co &bl;2&br;"


def test_ten_thousand_characters_stay_ten_thousand_characters():
    name = "W" * 10_000
    assert for_terminal(name) == name and for_markup(name) == name and for_csv(name) == name
    bell = "\x07" * 10_000
    assert for_terminal(bell) == "\\x07" * 10_000


def test_a_file_name_in_a_message_shows_its_bytes_and_no_control():
    raw = b"game-\x1b[31m-\xff\xfe-\xe2\x80\xae.jsonl"
    shown = for_file_name(os.path.join("/some/folder", os.fsdecode(raw)))
    assert shown == "game-\\x1b[31m-\\xff\\xfe-\\u202e.jsonl"
    assert raw_control(shown) == [] and "folder" not in shown
    assert for_file_name("game-20250101-120000-ab12.jsonl") == "game-20250101-120000-ab12.jsonl"


@settings(max_examples=200, deadline=None)
@given(names())
def test_a_typed_name_keeps_every_character_but_those_no_name_needs(name):
    kept = typed(name)
    assert raw_control(kept) == [] and kept == "".join(c for c in name if not raw_control(c))
    assert for_terminal(kept) == kept
