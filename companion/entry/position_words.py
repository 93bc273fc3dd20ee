"""A position in words, for everyone at the table: what a correction changed ("Galicia: Red from
4 to 3") and where tracking started. Shared by the correction entry (what Confirm would change)
and the game's history of corrections (companion.entry.corrections). The Castillo's figures
are never put into words here. Plain data, no Kivy."""

from __future__ import annotations

from engine.board.model import CASTILLO, Board


def capitalised(text: str) -> str:
    """A sentence starts with a capital ("the dummy (White) ..." -> "The dummy (White) ...")."""
    return text[:1].upper() + text[1:]


def names_list(names: dict[str, str], pids) -> str:
    return ", ".join(names.get(p, p) for p in pids)


def position_changes(before: dict, event: dict, names: dict[str, str], board: Board) -> list[str]:
    """A table_corrected event against the public view it was made on, in words:
    "Galicia: Red from 4 to 3" (no arrow: the app's font has none). The Castillo's
    figures are never put into words here."""
    players = [p["id"] for p in before["players"]]
    who = names.get

    def area(a: str | None) -> str:
        if a is None:
            return "off the board"
        return "the Castillo" if a == CASTILLO else board.area_name(board.area_index[a])

    lines = []
    if event.get("regions") is not None:
        for rid in board.region_ids:
            old, new = before["regions"].get(rid, {}), event["regions"].get(rid, {})
            parts = [
                f"{who(p, p)} from {old.get(p, 0)} to {new.get(p, 0)}"
                for p in players
                if old.get(p, 0) != new.get(p, 0)
            ]
            if parts:
                lines.append(f"{area(rid)}: {', '.join(parts)}")
    seen = {p["id"]: p for p in before["players"]}
    for pid, value in (event.get("court") or {}).items():
        if seen[pid].get("court", 0) != value:
            lines.append(f"{who(pid, pid)}'s court: from {seen[pid].get('court', 0)} to {value}")
    if event.get("king") is not None and event["king"] != before["king"]:
        lines.append(f"The King: from {area(before['king'])} to {area(event['king'])}")
    for pid, rid in (event.get("grandes") or {}).items():
        if seen[pid].get("grande") != rid:
            lines.append(f"{who(pid, pid)}'s Grande: from {area(seen[pid].get('grande'))} to {area(rid)}")
    for sid, where in (event.get("mobile_scoreboards") or {}).items():
        was = (before.get("mobile_scoreboards") or {}).get(sid)
        if was != where:
            piece = (
                f"Scoring tile {sid.removeprefix('tile_').upper()}"
                if sid in getattr(board, "scoring_tiles", {})
                else f"The {sid} scoreboard"
            )
            lines.append(f"{piece}: from {area(was)} to {area(where)}")
    for pid, value in (event.get("scores") or {}).items():
        if seen[pid].get("score", 0) != value:
            lines.append(f"{who(pid, pid)}'s score: from {seen[pid].get('score', 0)} to {value}")
    return lines


def start_words(event: dict, names: dict[str, str]) -> list[str]:
    """Where tracking started: the round, who started it, the Power cards and the Vetoes."""
    if event.get("round") is None:
        return []
    lines = [
        f"Tracking starts in round {event['round']}"
        + (
            f"; {names.get(event['start_player'], event['start_player'])} starts it"
            if event.get("start_player")
            else ""
        )
    ]
    spent = event.get("power_spent") or {}
    if spent:
        lines.append(
            "Power cards laid down: "
            + "; ".join(f"{names.get(p, p)} {', '.join(map(str, sorted(v)))}" for p, v in spent.items() if v)
        )
    if event.get("vetoes"):
        lines.append(f"Veto held by {names_list(names, event['vetoes'])}")
    return lines
