"""An effect's outcome as the table reads its title, in the table's language.

The engine titles each outcome in English from its facts (engine/primitives.py `outcome`, its
callers in engine/effects and engine/rules: "Eviction, played by Ana", "General scoring after
round 3: the Castillo is emptied; Ana's Grande goes to Aragón", "Round 2: the dummy's Region
cards: Galicia, Valencia"); the game's history keeps those words, whatever the language. These read
the facts back out of a title and say them again through the catalogue; a title of another shape
(a game saved by a newer engine, a card the table named itself) is shown as the engine wrote it.
In English the words are the engine's, but a removed token is named as the cards' words name it
("the Alliance markers removed", not its id). Pure Python, no Kivy."""

from __future__ import annotations

import re
from collections.abc import Callable

from companion.prompts import card_words
from companion.words import N_, _, names

Words = Callable[[str], str]

_PLAYED = re.compile(r"^(?P<card>.+?), played by (?P<who>.+?)(?:: (?P<what>.+))?$")
_GENERAL = re.compile(r"^General scoring after round (?P<round>\d+): (?P<what>.+)$")
_ROUND = re.compile(r"^Round (?P<round>\d+): (?P<what>.+)$")
_SPY = re.compile(r"^Espionage: (?P<who>.+)'s spy joins (?P<region>.+)$")
_DUMMY_CARDS = "the dummy's Region cards: "
_DUMMY_TAKES = re.compile(r"^(?P<who>.+) takes (?P<card>.+) \(stack (?P<stack>\d+)\) and (?P<fate>.+)$")
_NONE_PLACED = re.compile(r"^(?P<region>.+) \(the King's region: none placed\)$")

# Said whole (no values but a card's name): the engine's words -> the message.
_FIXED = {
    "Setup: each player places 1 Caballero from the province where their disc shows": N_(
        "Setup: each player places 1 Caballero from the province where their disc shows"
    ),
    "the King stands by the Castillo: everything in it is thrown back in": N_(
        "the King stands by the Castillo: everything in it is thrown back in"
    ),
    "the Castillo is emptied": N_("the Castillo is emptied"),
    "the dummy's Region cards": N_("the dummy's Region cards"),  # an outcome as a step (undo)
}
_TABLE_FOR_SIX = "Table for Six: the newer Caballeros beyond the limit table's seats go back to the court"
_FATES = {
    "turns it face down": N_("{who} takes {card} (stack {stack}) and turns it face down"),
    "discards it unused": N_("{who} takes {card} (stack {stack}) and discards it unused"),
}
# A part of a title after its card (Field Day's Grandes, a general scoring's): pattern -> message.
_PARTS = [
    (re.compile(r"^(?P<who>.+)'s Grande stays \(the King's region\)$"), N_("{who}'s Grande stays (the King's region)")),
    (
        re.compile(r"^(?P<who>.+)'s Grande stays \((?P<region>.+) is taboo\)$"),
        N_("{who}'s Grande stays ({region} is taboo)"),
    ),
    (re.compile(r"^(?P<who>.+)'s Grande goes to (?P<region>.+)$"), N_("{who}'s Grande goes to {region}")),
    (re.compile(r"^(?P<who>.+)'s Grande to (?P<region>.+)$"), N_("{who}'s Grande to {region}")),
    (re.compile(r"^(?P<token>.+) removed$"), N_("{token} removed")),
]


class TitleWords:
    """Reads outcome titles with a table's words for its players (`who`: a name as the engine
    wrote it -> as shown) and its areas (`place`: an English area name -> as its edition prints it)."""

    def __init__(self, who: Words | None = None, place: Words | None = None):
        self.who = who or (lambda name: name)
        self.place = place or names.place

    def title(self, title: str) -> str:
        """A whole outcome title in the table's language (another shape: as written)."""
        general = _GENERAL.match(title)
        if general:
            return _("General scoring after round {round}: {what}").format(
                round=general["round"], what=self.parts(general["what"])
            )
        shown = _ROUND.match(title)
        if shown:
            return _("Round {round}: {title}").format(round=shown["round"], title=self.told(shown["what"]))
        return self.told(title)

    def told(self, title: str) -> str:
        """What one outcome says (a title without its round)."""
        if title in _FIXED:
            return _(_FIXED[title])
        if title == _TABLE_FOR_SIX:
            return _("{card}: the newer Caballeros beyond the limit table's seats go back to the court").format(
                card=names.card("Table for Six")
            )
        spy = _SPY.match(title)
        if spy:
            return _("{card}: {who}'s spy joins {region}").format(
                card=names.card("Espionage"), who=self.who(spy["who"]), region=self.place(spy["region"])
            )
        if title.startswith(_DUMMY_CARDS):
            regions = ", ".join(self._dummy_region(r) for r in title[len(_DUMMY_CARDS) :].split(", "))
            return _("the dummy's Region cards: {regions}").format(regions=regions)
        takes = _DUMMY_TAKES.match(title)
        if takes and takes["fate"] in _FATES:
            return _(_FATES[takes["fate"]]).format(
                who=self.who(takes["who"]), card=names.card(takes["card"]), stack=takes["stack"]
            )
        played = _PLAYED.match(title)
        if played:
            card, who = names.card(played["card"]), self.who(played["who"])
            if played["what"] is None:
                return _("{card}, played by {who}").format(card=card, who=who)
            return _("{card}, played by {who}: {what}").format(card=card, who=who, what=self.parts(played["what"]))
        return title

    def parts(self, what: str) -> str:
        """The parts of a title after its card or scoring, "; " between them."""
        if what in _FIXED:
            return _(_FIXED[what])
        return "; ".join(self.part(part) for part in what.split("; "))

    def part(self, part: str) -> str:
        if part in _FIXED:
            return _(_FIXED[part])
        for pattern, message in _PARTS:
            found = pattern.match(part)
            if found:
                values = found.groupdict()
                if "who" in values:
                    values["who"] = self.who(values["who"])
                if "region" in values:
                    values["region"] = self.place(values["region"])
                if "token" in values:
                    values["token"] = _token(values["token"])
                return _(message).format(**values)
        return part

    def _dummy_region(self, region: str) -> str:
        none = _NONE_PLACED.match(region)
        if none:
            return _("{region} (the King's region: none placed)").format(region=self.place(none["region"]))
        return self.place(region)


def _token(spaced: str) -> str:
    """A token as the engine's title says it (its id, spaced) in the table's words."""
    words = card_words.tokens()
    return next((w for t, w in words.items() if t.replace("_", " ") == spaced), spaced)
