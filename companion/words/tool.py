"""The catalogues' upkeep: extract the messages from the sources into one template per domain
(companion/locale/<domain>.pot), bring each language's .po up to date with it, compile the .mo
files, and tell how complete each language is. `python scripts/words.py extract|update|compile|check`.

Python files are read by Babel's extractor; .kv, .html and .js by the same keywords in a plain
scan (_("..."), ngettext("...", "...", n), pgettext("ctx", "...") and, in pages, t("..."))."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from babel.messages.pofile import read_po, write_po

from companion.words import names
from companion.words.catalogue import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE, compile_po
from companion.words.domains import DOMAINS, SOURCE_SUFFIXES

ROOT = LOCALE_DIR.parent.parent
COMMENT_TAGS = ("Translators:",)
KEYWORDS = {
    **DEFAULT_KEYWORDS,  # _, N_, gettext, ngettext, pgettext, npgettext and kin
    # The engine's refusals (engine/errors.py): a template where it is written.
    "RuleViolation": (2,),
    "Said": (1,),
    "plural": (1, 2),
    "fact_refusal": (3,),
}
_CALL = re.compile(
    r"""\b(?P<fn>_|N_|t|ngettext|nt|pgettext|npgettext)\(\s*(?P<args>(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*,?\s*)+)"""
)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')


def translated_languages() -> list[str]:
    return [code for code in LANGUAGES if code != SOURCE_LANGUAGE]


def domain_of(path: Path) -> str | None:
    rel = path.resolve().relative_to(ROOT).as_posix()
    for domain, roots in DOMAINS.items():
        for root in roots:
            if rel == root or rel.startswith(root + "/") and (root != "companion" or rel.count("/") == 1):
                return domain
    return None


def source_files() -> Iterator[tuple[str, Path]]:
    for top in ("engine", "companion", "firmware_bridge"):  # firmware_bridge: its command line's words
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and "locale" not in path.parts and path.is_file():
                domain = domain_of(path)
                if domain:
                    yield domain, path


def _scan_markup(text: str) -> Iterator[tuple[int, str, tuple[str, ...] | str, list[str]]]:
    for match in _CALL.finditer(text):
        fn = match["fn"]
        parts = tuple(ast.literal_eval(s) for s in _STRING.findall(match["args"]))
        lineno = text.count("\n", 0, match.start()) + 1
        if fn in ("_", "N_", "t") and parts:
            yield lineno, fn, parts[0], []
        elif fn in ("ngettext", "nt") and len(parts) >= 2:
            yield lineno, fn, parts[:2], []
        elif fn == "pgettext" and len(parts) >= 2:
            yield lineno, fn, (parts[0] + "\x04" + parts[1]), []


def _messages(path: Path) -> Iterator[tuple[int, str | tuple[str, ...], str | None, list[str]]]:
    """(line, message or (singular, plural), context, translators' comments) of every marked
    message in one file; a "# Translators: ..." comment just above a message goes with it."""
    if path.suffix == ".py":
        with path.open("rb") as file:
            for lineno, message, comments, context in extract("python", file, KEYWORDS, comment_tags=COMMENT_TAGS):
                yield lineno, message, context, comments
        return
    for lineno, _fn, message, comments in _scan_markup(path.read_text(encoding="utf-8")):
        if isinstance(message, str) and "\x04" in message:
            context, text = message.split("\x04", 1)
            yield lineno, text, context, comments
        else:
            yield lineno, message, None, comments


def extract_templates() -> dict[str, Catalog]:
    """One template catalogue per domain, from the sources as they are now."""
    templates = {domain: Catalog(project="El Grande Companion", locale=None) for domain in DOMAINS}
    for domain, path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        for lineno, message, context, comments in _messages(path):
            if not message or (isinstance(message, tuple) and not all(message)):
                continue
            templates[domain].add(message, locations=[(rel, lineno)], context=context, auto_comments=comments)
    for context, message, file in names.all_names():
        where = file if "/" in file else f"engine/data/{file}"  # a data file by its name, others by path
        templates["names"].add(message, locations=[(where, 0)], context=context)
    return templates


def po_path(code: str, domain: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.po"


# Fixed header dates and no line numbers: a catalogue changes only when its words do (no churn,
# no merge conflicts from a moved line).
_FIXED_DATE = datetime(2026, 12, 1, tzinfo=UTC)
_WRITE = {"width": 100, "sort_output": True, "include_lineno": False}


def _steady(catalog: Catalog) -> Catalog:
    catalog.creation_date = catalog.revision_date = _FIXED_DATE
    catalog.fuzzy = False
    catalog.header_comment = "# The words of El Grande Companion. Written by its team, in its own words.\n#"
    catalog.last_translator = catalog.language_team = "El Grande Companion"
    catalog.msgid_bugs_address = ""
    return catalog


def write_templates(only: str | None = None) -> dict[str, Catalog]:
    templates = extract_templates()
    LOCALE_DIR.mkdir(exist_ok=True)
    for domain, template in templates.items():
        if only in (None, domain):
            with (LOCALE_DIR / f"{domain}.pot").open("wb") as file:
                write_po(file, _steady(template), **_WRITE)
    return templates


def update_catalogues(only: str | None = None) -> None:
    """Each language's .po gains the new messages (untranslated) and drops the gone ones; `only`:
    one domain's catalogues (a part of the app translated on its own)."""
    templates = write_templates(only)
    for code in translated_languages():
        for domain, template in templates.items():
            if only not in (None, domain):
                continue
            path = po_path(code, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():
                with path.open("rb") as file:
                    catalog = read_po(file, locale=code)
            else:
                catalog = Catalog(locale=code, project="El Grande Companion")
            catalog.update(template, no_fuzzy_matching=True)
            with path.open("wb") as file:
                write_po(file, _steady(catalog), ignore_obsolete=True, **_WRITE)


def compile_catalogues() -> int:
    count = 0
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        po.with_suffix(".mo").write_bytes(compile_po(po))
        count += 1
    return count


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message ("{who} plays {card}" -> {"who", "card"})."""
    try:
        return {
            name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name is not None
        }
    except ValueError:
        return {"<unbalanced braces>"}


@dataclass
class LanguageReport:
    code: str
    translated: int = 0
    untranslated: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # in the sources, not in the .po
    wrong_placeholders: list[str] = field(default_factory=list)


def _key(message) -> str:
    return message if isinstance(message, str) else message[0]


def check_language(code: str, templates: dict[str, Catalog]) -> LanguageReport:
    report = LanguageReport(code)
    for domain, template in templates.items():
        path = po_path(code, domain)
        catalog = Catalog(locale=code)
        if path.exists():
            with path.open("rb") as file:
                catalog = read_po(file, locale=code)
        for wanted in template:
            if not wanted.id:
                continue
            got = catalog.get(wanted.id, context=wanted.context)
            name = f"{domain}: {_key(wanted.id)!r}"
            if got is None:
                report.missing.append(name)
            elif got.fuzzy:
                report.fuzzy.append(name)
            elif not all(got.string if isinstance(got.string, tuple) else (got.string,)):
                report.untranslated.append(name)
            else:
                report.translated += 1
                if not _placeholders_match(wanted.id, got.string):
                    report.wrong_placeholders.append(name)
    return report


def _placeholders_match(msgid, msgstr) -> bool:
    if isinstance(msgid, str):
        return placeholders(msgid) == placeholders(msgstr)
    wanted = placeholders(msgid[0]) | placeholders(msgid[1])
    # A plural form may leave out {n} ("one Caballero"), never another name, nor add one.
    return all(wanted - {"n"} <= placeholders(form) <= wanted for form in msgstr)


def report_all(only: str | None = None) -> list[LanguageReport]:
    """How complete each language is (`only`: one domain's catalogues)."""
    templates = {d: t for d, t in extract_templates().items() if only in (None, d)}
    return [check_language(code, templates) for code in translated_languages()]
