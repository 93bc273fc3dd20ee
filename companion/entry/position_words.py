"""A position in words, for everyone at the table: what a correction changed ("Galicia: Red from
4 to 3") and where tracking started. Shared by the correction entry (what Confirm would change)
and the game's history of corrections (companion.entry.corrections). The Castillo's figures
are never put into words here. Plain data, no Kivy.

`say` turns each message into words: the table's language (`_`, the default), or `as_logged`
(the English messages and names) for what goes into the game's log: a correction's reason is
written in the log, and a log does not depend on the language it was played in."""

from __future__ import annotations

from collections.abc import Callable

from companion.words import N_, _
from companion.words import names as printed
from companion.words.colours import player_name
from engine.board.model import CASTILLO, Board


def capitalised(text: str) -> str:
    """A sentence starts with a capital ("the dummy (White) ..." -> "The dummy (White) ...")."""
    return text[:1].upper() + text[1:]


def as_logged(message: str) -> str:
    """The English message as it is (what the log keeps)."""
    return message


def _who(names: dict[str, str], say: Callable[[str], str]) -> Callable[[str], str]:
    if say is as_logged:
        return lambda pid: names.get(pid, pid)
    return lambda pid: player_name(names, pid) if names.get(pid) else pid


def names_list(names: dict[str, str], pids, say: Callable[[str], str] = _) -> str:
    who = _who(names, say)
    return ", ".join(who(p) for p in pids)


def position_changes(
    before: dict, event: dict, names: dict[str, str], board: Board, say: Callable[[str], str] = _
) -> list[str]:
    """A table_corrected event against the public view it was made on, in words:
    "Galicia: Red from 4 to 3" (no arrow: the app's font has none). The Castillo's
    figures are never put into words here."""
    players = [p["id"] for p in before["players"]]
    who = _who(names, say)

    def area(a: str | None) -> str:
        if a is None:
            return say(N_("off the board"))
        if a == CASTILLO:
            return say(N_("the Castillo"))
        index = board.area_index[a]
        return board.area_name(index) if say is as_logged else printed.area(board, index)

    lines = []
    if event.get("regions") is not None:
        for rid in board.region_ids:
            old, new = before["regions"].get(rid, {}), event["regions"].get(rid, {})
            parts = [
                say(N_("{who} from {before} to {after}")).format(who=who(p), before=old.get(p, 0), after=new.get(p, 0))
                for p in players
                if old.get(p, 0) != new.get(p, 0)
            ]
            if parts:
                lines.append(say(N_("{area}: {changes}")).format(area=area(rid), changes=", ".join(parts)))
    seen = {p["id"]: p for p in before["players"]}
    for pid, value in (event.get("court") or {}).items():
        if seen[pid].get("court", 0) != value:
            lines.append(
                say(N_("{who}'s court: from {before} to {after}")).format(
                    who=who(pid), before=seen[pid].get("court", 0), after=value
                )
            )
    if event.get("king") is not None and event["king"] != before["king"]:
        lines.append(
            say(N_("The King: from {before} to {after}")).format(before=area(before["king"]), after=area(event["king"]))
        )
    for pid, rid in (event.get("grandes") or {}).items():
        if seen[pid].get("grande") != rid:
            lines.append(
                say(N_("{who}'s Grande: from {before} to {after}")).format(
                    who=who(pid), before=area(seen[pid].get("grande")), after=area(rid)
                )
            )
    for sid, where in (event.get("mobile_scoreboards") or {}).items():
        was = (before.get("mobile_scoreboards") or {}).get(sid)
        if was != where:
            if sid in getattr(board, "scoring_tiles", {}):
                line = N_("Scoring tile {letter}: from {before} to {after}")
            else:
                line = N_("The {values} scoreboard: from {before} to {after}")
            lines.append(
                say(line).format(
                    letter=sid.removeprefix("tile_").upper(), values=sid, before=area(was), after=area(where)
                )
            )
    for pid, value in (event.get("scores") or {}).items():
        if seen[pid].get("score", 0) != value:
            lines.append(
                say(N_("{who}'s score: from {before} to {after}")).format(
                    who=who(pid), before=seen[pid].get("score", 0), after=value
                )
            )
    return lines


def start_words(event: dict, names: dict[str, str]) -> list[str]:
    """Where tracking started: the round, who started it, the Power cards and the Vetoes."""
    if event.get("round") is None:
        return []
    who = _who(names, _)
    if event.get("start_player"):
        lines = [
            _("Tracking starts in round {round}; {who} starts it").format(
                round=event["round"], who=who(event["start_player"])
            )
        ]
    else:
        lines = [_("Tracking starts in round {round}").format(round=event["round"])]
    spent = event.get("power_spent") or {}
    if spent:
        laid = "; ".join(
            _("{who} {cards}").format(who=who(p), cards=", ".join(map(str, sorted(v)))) for p, v in spent.items() if v
        )
        lines.append(_("Power cards laid down: {cards}").format(cards=laid))
    if event.get("vetoes"):
        lines.append(_("Veto held by {players}").format(players=names_list(names, event["vetoes"])))
    return lines
