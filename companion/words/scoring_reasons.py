"""A scoring line's reason in the table's language. The engine writes each reason in English from
its facts (engine/scoring.py: "tied for 1st with Bo (3 Caballeros each): takes the 1st-place
points", "2nd place with 4 Caballeros (mobile scoreboard 8-4-0); the dummy scores nothing ...");
these read the facts back out of those words and say them again through the catalogue. A reason of
another shape is shown as the engine wrote it."""

from __future__ import annotations

import re

from companion.words.catalogue import N_, _, ngettext

_TH = r"(?:st|nd|rd|th)"
_TIED = re.compile(
    rf"^tied for (?P<place>\d+){_TH} with (?P<others>.+?) \((?P<count>\d+) Caballeros? each\): "
    rf"takes the (?P<paid>\d+){_TH}-place points"
)
_ALONE = re.compile(rf"^(?P<place>\d+){_TH} place with (?P<count>\d+) Caballeros?")
_BOARD = re.compile(r"^ \((?P<kind>mobile scoreboard|Scoring tile) (?P<which>[^)]+)\)")
_DUMMY = "; the dummy scores nothing (it only counts for majorities)"
_UNPAID = [
    (re.compile(r"^; this scoring pays 1st place only$"), N_("this scoring pays 1st place only")),
    (
        re.compile(rf"^; there is no (?P<place>\d+){_TH} place on a scoreboard$"),
        N_("there is no {place} place on a scoreboard"),
    ),
    (
        re.compile(r"^; with (?P<n>\d+) players only the first (?P<places>\d+) place\(s\) score$"),
        N_("with {n} players only the first {places} place(s) score"),
    ),
    (
        re.compile(rf"^; this scoreboard pays nothing for (?P<place>\d+){_TH}$"),
        N_("this scoreboard pays nothing for {place}"),
    ),
]
_ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th"), 5: N_("5th"), 6: N_("6th")}


def ordinal(place: int) -> str:
    """A place as the language writes it before "place" (German "2.", French "2e", Spanish "2.º")."""
    return _(_ORDINALS[place]) if place in _ORDINALS else str(place)


def reason_words(reason: str) -> str:
    """The engine's English reason, in the table's language (unknown shapes: as written)."""
    tied, alone = _TIED.match(reason), _ALONE.match(reason)
    found = tied or alone
    if found is None:
        return reason
    count = int(found["count"])
    each = ngettext("{n} Caballero", "{n} Caballeros", count).format(n=count)
    place = ordinal(int(found["place"]))
    if tied:
        words = _("tied for {place} with {others} ({each} each): takes the {paid}-place points").format(
            place=place, others=tied["others"], each=each, paid=ordinal(int(tied["paid"]))
        )
    else:
        words = _("{place} place with {each}").format(place=place, each=each)
    rest = reason[found.end() :]
    board = _BOARD.match(rest)
    if board:
        kind = _("mobile scoreboard {which}") if board["kind"] == "mobile scoreboard" else _("Scoring tile {which}")
        words += " (" + kind.format(which=board["which"]) + ")"
        rest = rest[board.end() :]
    if rest == _DUMMY:
        return words + "; " + _("the dummy scores nothing (it only counts for majorities)")
    for pattern, message in _UNPAID:
        unpaid = pattern.match(rest)
        if unpaid:
            values = unpaid.groupdict()
            if "place" in values:
                values["place"] = ordinal(int(values["place"]))
            return words + "; " + _(message).format(**values)
    return words if not rest else reason  # a tail of another shape: the whole as written
