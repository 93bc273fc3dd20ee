"""The words of the served pages (the phone page, the club board, the organiser's page), in the
language each reader's browser reads.

A page's script calls `t("English sentence")` and `nt(singular, plural, n)` (its messages are in
the catalogue: companion/words/tool.py finds those calls); `fill(text, {name: value})` puts the
values in. The server writes into the page, where it says /*PAGE_WORDS*/, every language's words
for that page's messages (plural messages: every form) and each language's plural rule as a
function (the catalogue's own Plural-Forms expression, so French says "0 carte" as gettext does),
then the page picks its language: the one chosen on its switch (kept in localStorage), else the
browser's (navigator.languages), else the one the server guessed from Accept-Language."""

from __future__ import annotations

import ast
import json
import re
from importlib import resources

from companion.words.catalogue import LANGUAGES, SOURCE_LANGUAGE, normalise, translations

PLACEHOLDER = b"/*PAGE_WORDS*/"
LANG_MARK = b'/*PAGE_LANG*/"en"'  # the guess, "en" until a request's is written in
KEPT_KEY = "elgrande.lang"  # the page's switch, kept in the browser
_STRING = r'"(?:[^"\\]|\\.)*"'
_T = re.compile(r"\bt\(\s*(" + _STRING + r")")
_NT = re.compile(r"\bnt\(\s*(" + _STRING + r")\s*,\s*(" + _STRING + r")")
_EXPRESSION = re.compile(r"^[n0-9\s()?:=!<>&|%]+$")  # a C plural expression: nothing else is written in
_SAMPLES = (*range(0, 21), 100, 101, 1000, 1000000)


def page_messages(page: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The page's t("...") messages and nt("...", "...") plural messages."""
    singles = [ast.literal_eval(s) for s in _T.findall(page)]
    plurals = [(ast.literal_eval(a), ast.literal_eval(b)) for a, b in _NT.findall(page)]
    return list(dict.fromkeys(singles)), list(dict.fromkeys(plurals))


def plural_expression(code: str) -> str:
    """The language's Plural-Forms expression ("n != 1"), as its catalogue says."""
    forms = translations(code).info().get("plural-forms", "")
    match = re.search(r"plural\s*=\s*(.+?);?\s*$", forms)
    expression = match.group(1).strip().rstrip(";") if match else ""
    return expression if expression and _EXPRESSION.match(expression) else "n != 1"


def _forms(code: str, singular: str, plural: str) -> list[str]:
    """Every plural form of a message in one language, by the language's own rule."""
    tr = translations(code)
    rule = getattr(tr, "plural", None) or (lambda n: int(n != 1))
    forms: dict[int, str] = {}
    for n in _SAMPLES:
        forms.setdefault(int(rule(n)), tr.ngettext(singular, plural, n))
    return [forms.get(i, plural) for i in range(max(forms) + 1)]


def dictionary(code: str, singles: list[str], plurals: list[tuple[str, str]]) -> dict:
    """{msgid: msgstr} (a plural msgid: [forms]) of one language, for the messages given."""
    tr = translations(code)
    out: dict = {m: tr.gettext(m) for m in singles}
    out.update({s: _forms(code, s, p) for s, p in plurals})
    return out


def words_script(page: str, also: tuple[str, ...] = ()) -> str:
    """The script written into a page: every language's words for its messages (and `also`: the
    messages its server sends it with their values), the plural rules, and t / nt / fill / the
    language switch (static/words.js)."""
    singles, plurals = page_messages(page)
    singles = list(dict.fromkeys([*singles, *also]))
    data = {
        "languages": LANGUAGES,
        "words": {code: dictionary(code, singles, plurals) for code in LANGUAGES if code != SOURCE_LANGUAGE},
        "kept": KEPT_KEY,
    }
    rules = ", ".join(
        f"{json.dumps(code)}: function (n) {{ return +({plural_expression(code)}); }}" for code in LANGUAGES
    )
    code = resources.files("companion.web").joinpath("static", "words.js").read_text(encoding="utf-8")
    text = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return f"var WORDS = {text};\nvar PLURAL = {{{rules}}};\n{code}"


def with_words(page: bytes, also: tuple[str, ...] = ()) -> bytes:
    """A page's bytes with its words written in (once, when the server starts)."""
    text = page.decode("utf-8")
    return page.replace(PLACEHOLDER, words_script(text, also).encode("utf-8"))


def accepted_language(header: str | None) -> str:
    """The first language of an Accept-Language header the app speaks, by its q weights; else English."""
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = normalise(tag)
        if tag and q > 0 and (code != SOURCE_LANGUAGE or tag.strip().lower().startswith("en")):
            choices.append((-q, i, code))
    return min(choices)[2] if choices else SOURCE_LANGUAGE


def for_reader(page: bytes, code: str) -> bytes:
    """The page for one request: its <html lang> and the language the server guessed."""
    return page.replace(b'<html lang="en">', f'<html lang="{code}">'.encode(), 1).replace(
        LANG_MARK, json.dumps(code).encode()
    )


def request_language(request) -> str:
    """The language a request reads: its page's (?lang=), else its browser's (Accept-Language)."""
    asked = request.query.get("lang")
    return normalise(asked) if asked else accepted_language(request.headers.get("Accept-Language"))
