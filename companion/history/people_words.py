"""A game as people say it (issue 33, words for people): the day it began as a person says it,
the rule set and its modules by their printed names, who won. Pure; no file names, no record
counts, no internal step names."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from companion.table_rules.rules_choice import MODULE_WORDS, RULES_WORDS

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def spoken_date(when: datetime | None) -> str:
    """ "Saturday 5 April 2025, 19:30" (the day and month in words: no locale, no ambiguity)."""
    if when is None:
        return "an unknown day"
    return f"{DAYS[when.weekday()]} {when.day} {MONTHS[when.month - 1]} {when.year}, {when:%H:%M}"


def spoken_timestamp(seconds: float | None) -> str:
    """`spoken_date` of a Unix time, in this tablet's local time."""
    return spoken_date(datetime.fromtimestamp(seconds) if seconds else None)


def and_list(words: Iterable[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    items = list(words)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def printed_rules(rules: str, modules: Iterable[str] = ()) -> str:
    """ "2023 edition with New Regency and Power Shift": the names the boxes print."""
    named = [MODULE_WORDS.get(m, m.replace("-", " ")) for m in modules]
    return RULES_WORDS.get(rules, rules) + (f" with {and_list(named)}" if named else "")


def who_won(names: Iterable[str]) -> str:
    """ "Priya won"; "Ana and Ben share the win"; "" when nobody has won yet."""
    names = list(names)
    if len(names) > 1:
        return f"{and_list(names)} share the win"
    return f"{names[0]} won" if names else ""


def spoken_when(when: datetime | None, now: datetime | None = None) -> str:
    """Home's words for when a game began: "Today, 19:30", "Yesterday, 19:30", "Saturday 5 April,
    19:30" this year, and the year always when it is not this year."""
    if when is None:
        return "an unknown day"
    now = now or datetime.now()
    days = (now.date() - when.date()).days
    if days == 0:
        return f"Today, {when:%H:%M}"
    if days == 1:
        return f"Yesterday, {when:%H:%M}"
    if when.year == now.year:
        return f"{DAYS[when.weekday()]} {when.day} {MONTHS[when.month - 1]}, {when:%H:%M}"
    return spoken_date(when)


_WHERE = re.compile(r"^Round (\d+) - (.+?) - (.*)$")
# The phase bar's stage words, as a list of games says where a game stopped.
_STAGE_PLACES = {
    "general scoring": "the scoring",
    "game over": "the end",
    "action cards": "the Action cards",
    "power cards": "the Power cards",
    "replenish the court": "the court replenished",
    "veto": "the veto",
    "Modifier cards": "the Modifier cards",
}
_TURNS = ("turn", "special action", "veto", "Modifier ability", "replenish the court")


def standing(where: str, names: Iterable[str] = ()) -> str:
    """Where an unfinished game stands, in words: "Round 6, the scoring", "Round 3, Ana's turn"
    (from the phase bar's title "Round 3 - turn - Ana plays Intrigue"): never a step's id."""
    match = _WHERE.match(where.strip())
    if not match:
        return where[:1].upper() + where[1:]
    number, stage, doing = match.groups()
    if stage in _TURNS or "scoring" not in stage and stage not in _STAGE_PLACES:
        who = next((n for n in sorted(names, key=len, reverse=True) if n and doing.startswith(n)), "")
        if who:
            return f"Round {number}, {who}'s turn"
    if "scoring" in stage:
        return f"Round {number}, the scoring"
    return f"Round {number}, {_STAGE_PLACES.get(stage, stage)}"
