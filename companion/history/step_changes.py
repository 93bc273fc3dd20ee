"""What a replay's step changed on the map: the areas whose pieces moved (Caballeros counted, the
King, a Grande, a mobile scoreboard, a marker, the Castillo when Caballeros left a court for it)
between the public view before the step and the one after it, and the areas a special scoring paid
for. Pure: two views in, area ids out."""

from __future__ import annotations

from companion.history.records import Replay
from engine.board.model import CASTILLO


def changed_areas(before: dict, after: dict) -> list[str]:
    """The area ids the step from `before` to `after` (public game views) changed, sorted."""
    changed: set[str] = set()
    old_regions, new_regions = before.get("regions") or {}, after.get("regions") or {}
    for area in set(old_regions) | set(new_regions):
        if _counts(old_regions.get(area)) != _counts(new_regions.get(area)):
            changed.add(area)
    if before.get("king") != after.get("king"):
        changed.update(a for a in (before.get("king"), after.get("king")) if a)
    old_grandes, new_grandes = _grandes(before), _grandes(after)
    for player in set(old_grandes) | set(new_grandes):
        if old_grandes.get(player) != new_grandes.get(player):
            changed.update(a for a in (old_grandes.get(player), new_grandes.get(player)) if a)
    changed.update(_moved_values(before.get("mobile_scoreboards"), after.get("mobile_scoreboards")))
    changed.update(_moved_values(before.get("markers"), after.get("markers")))
    changed.update(_specially_scored(before, after))
    if _into_the_castillo(before, after):
        changed.add(CASTILLO)
    return sorted(changed)


def step_changes(replay: Replay, number: int) -> list[str]:
    """The areas step `number` of the replay changed (none at the setup)."""
    if number <= 0:
        return []
    return changed_areas(replay.steps[number - 1].view, replay.steps[number].view)


def _counts(counts: dict | None) -> dict:
    return {player: n for player, n in (counts or {}).items() if n}


def _into_the_castillo(before: dict, after: dict) -> bool:
    """Caballeros that left a court and reached no region went into the Castillo (how many stays hidden)."""
    courts = {p["id"]: p.get("court", 0) for p in before.get("players", [])}
    for player in after.get("players", []):
        left_court = courts.get(player["id"], 0) - player.get("court", 0)
        reached = sum(_counts(counts).get(player["id"], 0) for counts in (after.get("regions") or {}).values()) - sum(
            _counts(counts).get(player["id"], 0) for counts in (before.get("regions") or {}).values()
        )
        if left_court > max(0, reached):
            return True
    return False


def _grandes(view: dict) -> dict:
    return {p["id"]: p.get("grande") for p in view.get("players", [])}


def _moved_values(old: dict | None, new: dict | None) -> set[str]:
    """Where a piece named by its key (a scoreboard, a marker) was and is, if it moved."""
    old, new = old or {}, new or {}
    moved: set[str] = set()
    for key in set(old) | set(new):
        if old.get(key) != new.get(key):
            moved.update(a for a in (old.get(key), new.get(key)) if isinstance(a, str) and a)
    return moved


def _specially_scored(before: dict, after: dict) -> set[str]:
    """A special scoring's areas that paid (a general scoring pays everywhere: nothing to point at)."""
    scorings = after.get("scorings") or []
    new = scorings[len(before.get("scorings") or []) :]
    return {
        line["area"]
        for scoring in new
        if not scoring["title"].startswith("General scoring")
        for line in scoring["lines"]
        if line.get("points") and line.get("area")
    }
