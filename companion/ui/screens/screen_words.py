"""Words the screens share: a player colour as a word, and a choice shown in the table's language
and read back as its id (a spinner shows words; the screen keeps ids).

A choice's words are its English msgid translated at each read (never at import), so a language
chosen in settings shows at the next screen. `id_of` takes the words in the language in use or in
English (a test, a kept setting written in English), so either finds the id."""

from __future__ import annotations

from companion.words import N_, _, names
from companion.words.colours import colour_word

# The rule sets by their printed names (the names catalogue's, context "rule set": names.rule_set)
RULES_SHOWN = {"classic": "Classic (1995)", "2023": "2023 edition", "king-intrigue": "King and Intrigue"}
VARIANTS_SHOWN = {"short": N_("Short game (6 rounds)"), "full": N_("Full game (9 rounds)")}
MODES_SHOWN = {"scoring": N_("Scoring only"), "tracking": N_("Full tracking")}
TOWERS_SHOWN = {
    "simulated": N_("Simulated (on-screen drops)"),
    "serial": N_("USB serial"),
    "mqtt": N_("MQTT (Wi-Fi)"),
    "none": N_("No tower"),
}


def _say(table: dict[str, str]):
    return names.rule_set if table is RULES_SHOWN else _


def shown(table: dict[str, str]) -> list[str]:
    """A choice's words in the language in use, in the table's order."""
    say = _say(table)
    return [say(words) for words in table.values()]


def shown_one(table: dict[str, str], key: str) -> str:
    """One choice's words in the language in use."""
    return _say(table)(table[key])


def id_of(words: str, table: dict[str, str], default: str | None = None) -> str:
    """The id of a choice shown as `words` (in the language in use, or English)."""
    say = _say(table)
    for key, english in table.items():
        if words in (english, say(english)):
            return key
    return default if default is not None else next(iter(table))


def colour_of(words: str, colours) -> str:
    """The colour id shown as `words` (its word in the language in use, or English)."""
    folded = words.strip().casefold()
    for colour in colours:
        if folded in (colour.casefold(), colour_word(colour).casefold()):
            return colour
    return folded
