"""A correction's reason in the table's language. The log keeps it in English (a log does not
depend on the language it was played in): either the words the table typed, or, when it typed
none, the changes the correction made as companion.entry.position_words says them for the log
("Galicia: Red from 4 to 3; Ana's score: from 12 to 14", cut at the reason's limit with "...").
These read such changes back and say them again through the catalogue; anything else (typed
words, an older game's reason) is shown as it is. Pure Python, no Kivy."""

from __future__ import annotations

import re
from collections.abc import Callable

from companion.words import N_, _, names
from companion.words.colours import COLOUR_WORDS, colour_word, player_name

_FROM_TO = r": from (?P<before>.+) to (?P<after>.+)$"
# A line of the log's words (position_words' messages, in this order of trying) -> its message.
_LINES = [
    (
        re.compile(r"^(?P<who>.+)'s court: from (?P<before>\d+) to (?P<after>\d+)$"),
        N_("{who}'s court: from {before} to {after}"),
    ),
    (
        re.compile(r"^(?P<who>.+)'s score: from (?P<before>\d+) to (?P<after>\d+)$"),
        N_("{who}'s score: from {before} to {after}"),
    ),
    (re.compile(r"^(?P<who>.+)'s Grande" + _FROM_TO), N_("{who}'s Grande: from {before} to {after}")),
    (re.compile(r"^The King" + _FROM_TO), N_("The King: from {before} to {after}")),
    (
        re.compile(r"^Scoring tile (?P<letter>[A-Z0-9]+)" + _FROM_TO),
        N_("Scoring tile {letter}: from {before} to {after}"),
    ),
    (
        re.compile(r"^The (?P<values>\d+-\d+-\d+) scoreboard" + _FROM_TO),
        N_("The {values} scoreboard: from {before} to {after}"),
    ),
]
_REGION = re.compile(r"^(?P<area>[^:]+): (?P<changes>.+)$")
_CHANGE = re.compile(r"^(?P<who>.+) from (?P<before>\d+) to (?P<after>\d+)$")
_AREAS = {"off the board": N_("off the board"), "the Castillo": N_("the Castillo")}
_CUT = "..."


def _area(name: str, board) -> str | None:
    if name in _AREAS:
        return _(_AREAS[name])
    if board is None:
        return names.place(name)
    for index in range(board.castillo + 1 + len(board.space_ids)):
        if board.area_name(index) == name:
            return names.area(board, index)
    return None


def _who(logged: dict[str, str]) -> Callable[[str], str]:
    """A player as the log names them (their name as typed) -> as the table shows them."""

    def who(name: str) -> str:
        pid = next((p for p, n in logged.items() if n == name), None)
        if pid is not None:
            return player_name(logged, pid)
        colour = next((c for c, word in COLOUR_WORDS.items() if word == name), None)
        return colour_word(colour) if colour is not None else name

    return who


def _line(line: str, who: Callable[[str], str], board) -> str | None:
    for pattern, message in _LINES:
        found = pattern.match(line)
        if found:
            values = found.groupdict()
            if "who" in values:
                values["who"] = who(values["who"])
            if not values["before"].isdigit():  # an area's: the King, a Grande, a scoreboard
                values["before"], values["after"] = _area(values["before"], board), _area(values["after"], board)
                if values["before"] is None or values["after"] is None:
                    return None
            return _(message).format(**values)
    region = _REGION.match(line)
    if region is None:
        return None
    area = _area(region["area"], board)
    changes = [_CHANGE.match(part) for part in region["changes"].split(", ")]
    if area is None or not all(changes):
        return None
    said = ", ".join(
        _("{who} from {before} to {after}").format(who=who(c["who"]), before=c["before"], after=c["after"])
        for c in changes
    )
    return _("{area}: {changes}").format(area=area, changes=said)


def reason_words(reason: str, logged_names: dict[str, str], board=None) -> str:
    """A correction's reason as the log keeps it, in the table's language: the changes it names
    said again; typed words (or any other shape) as they are. `logged_names`: the players' names
    as the log writes them (id -> name)."""
    if not reason:
        return reason
    cut = reason.endswith(_CUT)
    lines = (reason[: -len(_CUT)] if cut else reason).split("; ")
    if cut:
        lines = lines[:-1]  # the last one was cut short: left out, the cut still said
    if not lines:
        return reason
    who = _who(logged_names)
    said = [_line(line, who, board) for line in lines]
    if not all(said):
        return reason
    return "; ".join(said) + (_CUT if cut else "")  # type: ignore[arg-type]
