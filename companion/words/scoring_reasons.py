"""A scoring line's reason in the table's language. The engine writes each reason in English from
its facts (engine/scoring.py: "tied for 1st with Bo (3 Caballeros each): takes the 1st-place
points", "2nd place with 4 Caballeros (mobile scoreboard 8-4-0); the dummy scores nothing ...");
these read the facts back out of those words and say them again through the catalogue. A reason of
another shape is shown as the engine wrote it."""

from __future__ import annotations

import re

from companion.words import names as printed
from companion.words.catalogue import N_, _, ngettext, pgettext

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
# Reasons said whole (engine/scoring.py, effects/revolt.py, effects/bridge.py, K&I general scoring)
_FIXED = {
    "home bonus: sole majority in the region of their Grande": N_(
        "home bonus: sole majority in the region of their Grande"
    ),
    "King's bonus: sole majority in the King's region": N_("King's bonus: sole majority in the King's region"),
    "King's bonus: sole majority where the King's Guard stands": N_(
        "King's bonus: sole majority where the King's Guard stands"
    ),
    "the bridge: 1 point to the player who controls it": N_("the bridge: 1 point to the player who controls it"),
}
# effects/alliance.py and effects/relocate.py: two areas scored as one, and what that was
_AS_ONE = [
    (re.compile(r"^Alliance: (?P<a>.+?) \+ (?P<b>.+?) scored as one$"), N_("Alliance: {a} + {b} scored as one")),
    (
        re.compile(r"^the Castillo, relocated to (?P<a>.+?), on (?P=a)'s scoreboard$"),
        N_("the Castillo, relocated to {a}, on {a}'s scoreboard"),
    ),
]
_AS_ONE_WHAT = [
    (re.compile(r"^the Alliance \((?P<a>.+?) \+ (?P<b>.+?)\)$"), N_("the Alliance ({a} + {b})")),
    (re.compile(r"^the Castillo \(in (?P<a>.+?)\)$"), N_("the Castillo (in {a})")),
]
_BONUS_OF = re.compile(r"^(?P<kind>home bonus|King's bonus): sole majority of (?P<what>.+)$")
_AS_ONE_PLACE = re.compile(
    rf"^(?P<label>.+?): (?:reversed (?P<sid>\S+) \(the fewest score first\), )?(?P<place>\d+){_TH} place with "
    rf"(?P<count>\d+) Caballeros?(?: \(tied: (?P<paid>\d+){_TH}-place points\))?(?P<rest>;.*)?$"
)
_REVERSED = re.compile(
    rf"^reversed mobile scoreboard (?P<sid>\S+) \(the fewest score first\): (?P<place>\d+){_TH} with "
    rf"(?P<count>\d+) Caballeros?(?:, tied: (?P<paid>\d+){_TH}-place points)?$"
)
_DOUBLED = re.compile(r"^2x marker on (?P<area>.+): its points doubled$")
_ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th"), 5: N_("5th"), 6: N_("6th")}


def ordinal(place: int) -> str:
    """A place as the language writes it before "place" (German "2.", French "2e", Spanish "2.º")."""
    return _(_ORDINALS[place]) if place in _ORDINALS else str(place)


def reason_words(reason: str, names: dict[str, str] | None = None) -> str:
    """The engine's English reason, in the table's language (unknown shapes: as written);
    `names`: player id -> the table's name, for the players a tie is shared with where the
    engine only knew their colours ("Blue": a replayed game's engine names)."""
    if reason in _FIXED:
        return _(_FIXED[reason])
    other = _other_shape(reason)
    if other is not None:
        return other
    tied, alone = _TIED.match(reason), _ALONE.match(reason)
    found = tied or alone
    if found is None:
        return reason
    each = _each(found)
    place = ordinal(int(found["place"]))
    if tied:
        words = _("tied for {place} with {others} ({each} each): takes the {paid}-place points").format(
            place=place, others=_players(tied["others"], names or {}), each=each, paid=ordinal(int(tied["paid"]))
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
    unpaid = _unpaid(rest)
    return words + unpaid if unpaid is not None else reason  # a tail of another shape: the whole as written


def _each(found: re.Match) -> str:
    count = int(found["count"])
    return ngettext("{n} Caballero", "{n} Caballeros", count).format(n=count)


def _players(others: str, names: dict[str, str]) -> str:
    """ "Blue, Red" (the engine's names of a replayed game) -> the table's names of those seats."""
    by_engine_name = {pid.replace("_", " ").title(): name for pid, name in names.items()}
    return ", ".join(by_engine_name.get(who, who) for who in others.split(", "))


def _area(name: str) -> str:
    return _("the Castillo") if name == "the Castillo" else pgettext(printed.PLACE, name)


def _filled(patterns: list, words: str) -> str | None:
    for pattern, message in patterns:
        found = pattern.match(words)
        if found:
            return _(message).format(**{k: _area(v) for k, v in found.groupdict().items()})
    return None


def _other_shape(reason: str) -> str | None:
    """The reasons of special scorings (an Alliance, a relocated Castillo, Revolt's reversed
    scoreboard, a 2x marker) in the table's language; None for any other reason."""
    doubled = _DOUBLED.match(reason)
    if doubled:
        return _("2x marker on {area}: its points doubled").format(area=_area(doubled["area"]))
    bonus = _BONUS_OF.match(reason)
    if bonus:
        what = _filled(_AS_ONE_WHAT, bonus["what"]) or bonus["what"]
        if bonus["kind"] == "home bonus":
            return _("home bonus: sole majority of {what}").format(what=what)
        return _("King's bonus: sole majority of {what}").format(what=what)
    reversed_line = _REVERSED.match(reason)
    if reversed_line:
        words = _("reversed mobile scoreboard {which} (the fewest score first): {place} with {each}").format(
            which=reversed_line["sid"], place=ordinal(int(reversed_line["place"])), each=_each(reversed_line)
        )
        if reversed_line["paid"]:
            words += ", " + _("tied: {paid}-place points").format(paid=ordinal(int(reversed_line["paid"])))
        return words
    as_one = _AS_ONE_PLACE.match(reason)
    label = _filled(_AS_ONE, as_one["label"]) if as_one else None
    if as_one is None or label is None:
        return None
    place = _("{place} place with {each}").format(place=ordinal(int(as_one["place"])), each=_each(as_one))
    if as_one["sid"]:
        place = _("reversed {which} (the fewest score first), {place}").format(which=as_one["sid"], place=place)
    words = f"{label}: {place}"
    if as_one["paid"]:
        words += " (" + _("tied: {paid}-place points").format(paid=ordinal(int(as_one["paid"]))) + ")"
    rest = _unpaid(as_one["rest"] or "")
    return words + rest if rest is not None else None


def _unpaid(rest: str) -> str | None:
    """ "; with 3 players only the first 2 place(s) score" and the like, or "" (None: a tail of
    another shape)."""
    if not rest:
        return ""
    for pattern, message in _UNPAID:
        unpaid = pattern.match(rest)
        if unpaid:
            values = unpaid.groupdict()
            if "place" in values:
                values["place"] = ordinal(int(values["place"]))
            return "; " + _(message).format(**values)
    return None
