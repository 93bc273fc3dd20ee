"""A game as people say it (issue 33, words for people): the day it began as a person says it,
the rule set and its modules by their printed names, who won. Pure; no file names, no record
counts, no internal step names. In the table's language (companion.words): dates as each
language says them (Babel's CLDR data), lists and sentences from the catalogue."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from companion.words import N_, _, language, pgettext

# The printed names of the rule sets and modules (the same English as companion.table_rules'
# RULES_WORDS and MODULE_WORDS, translated where shown).
RULES_NAMES = {"classic": N_("Classic (1995)"), "2023": N_("2023 edition"), "king-intrigue": N_("King and Intrigue")}
MODULE_NAMES = {
    "new-regency": N_("New Regency"),
    "old-hands": N_("Old Hands"),
    "power-shift": N_("Power Shift"),
    "four-stacks": N_("Four stacks"),
    "players-edition": N_("Player's Edition"),
    "special-cards": N_("Special cards"),
}
# How each language says a day (CLDR date patterns): with the year, and without it (this year).
DATE_PATTERNS = {
    "en": ("EEEE d MMMM y", "EEEE d MMMM"),
    "de": ("EEEE, d. MMMM y", "EEEE, d. MMMM"),
    "es": ("EEEE, d 'de' MMMM 'de' y", "EEEE, d 'de' MMMM"),
    "fr": ("EEEE d MMMM y", "EEEE d MMMM"),
}
_BABEL_LOCALES = {"en": "en_GB"}  # English as the app writes it: "Saturday 5 April 2025"


def _day(when: datetime, with_year: bool = True) -> str:
    """The day in words, as the language in use says it ("Samstag, 5. April 2025")."""
    from babel.dates import format_date  # here: the command line's start does not pay for it

    code = language()
    pattern = DATE_PATTERNS.get(code, DATE_PATTERNS["en"])[0 if with_year else 1]
    return format_date(when, pattern, locale=_BABEL_LOCALES.get(code, code))


def _clock(when: datetime) -> str:
    return f"{when:%H:%M}"  # every language the app speaks says 19:30


def spoken_date(when: datetime | None) -> str:
    """ "Saturday 5 April 2025, 19:30", "Samstag, 5. April 2025, 19:30" (the day and month in words)."""
    if when is None:
        return _("an unknown day")
    # Translators: a day and the time of day: "Saturday 5 April 2025, 19:30"
    return _("{day}, {time}").format(day=_day(when), time=_clock(when))


def spoken_timestamp(seconds: float | None) -> str:
    """`spoken_date` of a Unix time, in this tablet's local time."""
    return spoken_date(datetime.fromtimestamp(seconds) if seconds else None)


def and_list(words: Iterable[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    # Translators: the end of a list: "{first}" holds the others, comma-separated ("Ana, Ben and Cy")
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def rules_name(rules: str) -> str:
    """A rule set by the name its box prints."""
    return _(RULES_NAMES[rules]) if rules in RULES_NAMES else rules


def module_name(module: str) -> str:
    return _(MODULE_NAMES[module]) if module in MODULE_NAMES else module.replace("-", " ")


def printed_rules(rules: str, modules: Iterable[str] = ()) -> str:
    """ "2023 edition with New Regency and Power Shift": the names the boxes print."""
    named = [module_name(m) for m in modules]
    if not named:
        return rules_name(rules)
    return _("{rules} with {modules}").format(rules=rules_name(rules), modules=and_list(named))


def who_won(names: Iterable[str]) -> str:
    """ "Priya won"; "Ana and Ben share the win"; "" when nobody has won yet."""
    names = list(names)
    if len(names) > 1:
        return _("{who} share the win").format(who=and_list(names))
    return _("{who} won").format(who=names[0]) if names else ""


def spoken_when(when: datetime | None, now: datetime | None = None) -> str:
    """Home's words for when a game began: "Today, 19:30", "Yesterday, 19:30", "Saturday 5 April,
    19:30" this year, and the year always when it is not this year."""
    if when is None:
        return _("an unknown day")
    now = now or datetime.now()
    days = (now.date() - when.date()).days
    if days == 0:
        return _("Today, {time}").format(time=_clock(when))
    if days == 1:
        return _("Yesterday, {time}").format(time=_clock(when))
    if when.year == now.year:
        return _("{day}, {time}").format(day=_day(when, with_year=False), time=_clock(when))
    return spoken_date(when)


_WHERE = re.compile(r"^Round (\d+) - (.+?) - (.*)$")
# The phase bar's stage words, as a list of games says where a game stopped.
_STAGE_PLACES = {
    "general scoring": N_("Round {number}, the scoring"),
    "game over": N_("Round {number}, the end"),
    "action cards": N_("Round {number}, the Action cards"),
    "power cards": N_("Round {number}, the Power cards"),
    "replenish the court": N_("Round {number}, the court replenished"),
    "veto": N_("Round {number}, the veto"),
    "Modifier cards": N_("Round {number}, the Modifier cards"),
}
_TURNS = ("turn", "special action", "veto", "Modifier ability", "replenish the court")


def standing(where: str, names: Iterable[str] = ()) -> str:
    """Where an unfinished game stands, in words: "Round 6, the scoring", "Round 3, Ana's turn"
    (from the phase bar's title "Round 3 - turn - Ana plays Intrigue"): never a step's id. A title
    in another language than English is shown as the phase bar says it."""
    match = _WHERE.match(where.strip())
    if not match:
        return where[:1].upper() + where[1:]
    number, stage, doing = match.groups()
    if stage in _TURNS or "scoring" not in stage and stage not in _STAGE_PLACES:
        who = next((n for n in sorted(names, key=len, reverse=True) if n and doing.startswith(n)), "")
        if who:
            return _("Round {number}, {who}'s turn").format(number=number, who=who)
    if "scoring" in stage:
        return _(_STAGE_PLACES["general scoring"]).format(number=number)
    if stage in _STAGE_PLACES:
        return _(_STAGE_PLACES[stage]).format(number=number)
    return _("Round {number}, {stage}").format(number=number, stage=stage)


def colour_word(colour: str) -> str:
    """A player's colour as a word in the table's language ("Red", "Rot"); an unknown id as it is."""
    words = {
        "red": pgettext("colour", "Red"),
        "yellow": pgettext("colour", "Yellow"),
        "green": pgettext("colour", "Green"),
        "blue": pgettext("colour", "Blue"),
        "black": pgettext("colour", "Black"),
        "purple": pgettext("colour", "Purple"),
        "orange": pgettext("colour", "Orange"),
        "white": pgettext("colour", "White"),
    }
    return words.get(colour, colour.replace("_", " ").title())


def player_name(colour: str, name: str | None) -> str:
    """A player as the table reads them: their name, or, for a player left at their colour's own
    name ("Red", as the setup names them by default), the colour in the table's language."""
    if not name or name.strip().casefold() == colour.casefold():
        return colour_word(colour)
    return name
