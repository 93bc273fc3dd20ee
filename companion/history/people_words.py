"""A game as people say it (issue 33, words for people): the day it began as a person says it,
the rule set and its modules by their printed names, who won. Pure; no file names, no record
counts, no internal step names."""

from __future__ import annotations

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
    """ "Priya won"; "Ana and Ben won" for a shared win; "" when nobody has won yet."""
    names = list(names)
    return f"{and_list(names)} won" if names else ""
