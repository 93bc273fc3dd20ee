"""The catalogues, loaded per language, and the functions that read them.

Compiled .mo files are made by the set-up (scripts/compile_words.py); a missing or stale one is
compiled from its .po in memory (Babel), so a fresh checkout or a hand-edited .po still speaks.
Unknown languages fall back to English, and a catalogue that cannot be read leaves English words
rather than stopping the app."""

from __future__ import annotations

import contextlib
import gettext
import io
import logging
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
SOURCE_LANGUAGE = "en"
# The languages the app speaks, each by its own name (as a settings list shows them).
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "es": "Español", "fr": "Français"}

_log = logging.getLogger(__name__)
_loaded: dict[str, gettext.NullTranslations] = {}
# [code, its translations, their one lookup table (None: read through the translations' methods),
#  the table's plural messages: singular -> every form, the plural form of each small number]
_current: list = [SOURCE_LANGUAGE, gettext.NullTranslations(), {}, {}, []]
_named: dict[tuple[str, str], str] = {}  # pgettext's answers in the language in use (emptied when it changes)
SMALL_NUMBERS = 256  # the numbers whose plural form is worked out once a language (_current[4])
# A language spoken for one reader only (a phone whose page reads Spanish at a German table): set
# by `speaking` in this thread or asyncio task alone; everyone else reads the language in use.
_speaking: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar("speaking", default=None)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is defined; it is translated where it is used."""
    return message


def _now() -> gettext.NullTranslations:
    spoken = _speaking.get()
    return spoken[1] if spoken is not None else _current[1]


def _(message: str) -> str:
    spoken = _speaking.get()
    if spoken is not None:
        return spoken[1].gettext(message)
    table = _current[2]  # a plain lookup: English and the other languages cost the same
    return _current[1].gettext(message) if table is None else table.get(message, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    spoken = _speaking.get()
    if spoken is not None:
        return spoken[1].ngettext(singular, plural, n)
    table = _current[2]
    if table is None:
        return _current[1].ngettext(singular, plural, n)
    if table:
        forms = _current[3].get(singular)  # one lookup by the singular (a (msgid, form) key is a tuple made each call)
        if forms:
            rule = _current[4]  # the language's rule, worked out once for the small numbers
            form = rule[n] if type(n) is int and 0 <= n < SMALL_NUMBERS else _current[1].plural(n)
            text = forms[form] if form < len(forms) else ""
            if text:
                return text
    return singular if n == 1 else plural


def pgettext(context: str, message: str) -> str:
    spoken = _speaking.get()
    if spoken is not None:
        return spoken[1].pgettext(context, message)
    key = (context, message)  # names and card texts: read often, long, the same few hundred
    found = _named.get(key)
    if found is None:
        table = _current[2]
        if table is None:
            found = _current[1].pgettext(context, message)
        else:
            found = table.get(f"{context}\x04{message}", message)
        _named[key] = found
    return found


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _now().npgettext(context, singular, plural, n)


def language() -> str:
    """The code of the language in use now ("en", "de", "es", "fr")."""
    spoken = _speaking.get()
    return spoken[0] if spoken is not None else _current[0]


@contextlib.contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Words made inside read `code` (normalised), in this thread or asyncio task only: what one
    phone is sent in its page's language. The language in use elsewhere does not change."""
    code = normalise(code)
    token = _speaking.set((code, translations(code)))
    try:
        yield code
    finally:
        _speaking.reset(token)


def use_language(code: str | None) -> str:
    """Speak `code` from now on (an unknown or empty code: English); the code now in use."""
    code = normalise(code)
    table = _table(translations(code))
    _current[:] = [code, translations(code), table, _plurals(table), _small_forms(translations(code))]
    _named.clear()
    return code


def _table(words: gettext.NullTranslations) -> dict | None:
    """The one dictionary `words` reads ({} for English), or None when it reads through a chain."""
    if type(words) is gettext.NullTranslations and words._fallback is None:
        return {}
    if isinstance(words, gettext.GNUTranslations) and words._fallback is None:
        return words._catalog
    return None


def _plurals(table: dict | None) -> dict[str, list[str]]:
    """singular -> its forms in order, from a catalogue's ((msgid, form) -> text) entries."""
    out: dict[str, list[str]] = {}
    for key, text in (table or {}).items():
        if isinstance(key, tuple):
            forms = out.setdefault(key[0], [])
            forms.extend([""] * (key[1] + 1 - len(forms)))
            forms[key[1]] = text
    return out


def _small_forms(words: gettext.NullTranslations) -> list[int]:
    rule = getattr(words, "plural", None) or (lambda n: int(n != 1))
    return [int(rule(n)) for n in range(SMALL_NUMBERS)]


def normalise(code: str | None) -> str:
    """ "de_DE.UTF-8", "de-AT", "DE" -> "de"; anything the app does not speak -> "en"."""
    base = (code or "").strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    return base if base in LANGUAGES else SOURCE_LANGUAGE


def translations(code: str) -> gettext.NullTranslations:
    """Every domain of one language merged into one lookup (kept once loaded)."""
    if code not in _loaded:
        _loaded[code] = _load(code)
    return _loaded[code]


def forget_loaded() -> None:
    """Reload the catalogues on next use (a test that writes a .po, the set-up's check)."""
    _loaded.clear()
    _current[1] = translations(_current[0])
    _current[2] = _table(_current[1])
    _current[3] = _plurals(_current[2])
    _current[4] = _small_forms(_current[1])
    _named.clear()


def _load(code: str) -> gettext.NullTranslations:
    merged: gettext.NullTranslations = gettext.NullTranslations()
    if code == SOURCE_LANGUAGE:
        return merged
    folder = LOCALE_DIR / code / "LC_MESSAGES"
    first: gettext.NullTranslations | None = None
    for po in sorted(folder.glob("*.po")):
        one = _domain(po)
        if first is None:
            first = one
        elif isinstance(first, gettext.GNUTranslations) and isinstance(one, gettext.GNUTranslations):
            # one lookup table for every domain (a chain of fallbacks made each word ~8 lookups)
            for key, value in one._catalog.items():
                first._catalog.setdefault(key, value)
        else:
            first.add_fallback(one)
    return first or merged


def _domain(po: Path) -> gettext.NullTranslations:
    mo = po.with_suffix(".mo")
    try:
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            with mo.open("rb") as file:
                return gettext.GNUTranslations(file)
        return gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    except (OSError, ValueError, SyntaxError) as error:  # a damaged catalogue: English, said in the log
        _log.warning("the catalogue %s could not be read (%s); its words stay in English", po.name, error)
        return gettext.NullTranslations()


def compile_po(po: Path) -> bytes:
    """The .mo bytes of one .po (fuzzy entries left out, as msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as file:
        catalog = read_po(file)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()
