"""Your cards and Your board merged fact by fact (a restore, companion.plays.backup).

A rules file (companion.table_rules: the card files, the board files) is JSON. Its facts are its
leaves by path ("regions" > "galicia" > "scoreboard"), and each entry of a list of entries with
an "id" (a card, a Modifier card, a Power card) as one fact, named by its id. Merging this
tablet's file with the backup's: a fact only one of them has is kept; the same fact with the
same value is one fact; the same fact with two values is a conflict, for the person to settle
(this tablet's or the backup's: never overwritten without a question). A fact whose shape differs
(a value on one side, entries on the other) is a conflict over its whole top-level part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Path = tuple  # a fact's path: dict keys (str) and, last, ("id", <an entry's id>) for an entry


@dataclass(frozen=True)
class Conflict:
    file: str  # "cards-2023.json"
    path: Path
    here: Any  # this tablet's value
    backup: Any
    shape: bool = False  # the part's shape differs: the conflict is over the whole top-level part

    def where(self) -> str:
        """The fact's path as a person reads it: "regions > galicia > scoreboard"."""
        return " > ".join(seg[1] if isinstance(seg, tuple) else str(seg) for seg in self.path)


def _entries(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and isinstance(item.get("id"), (str, int)) for item in value)
        and len({item["id"] for item in value}) == len(value)
    )


def facts(value: Any, path: Path = ()) -> dict[Path, Any]:
    """Every fact of a JSON value by its path, in the file's order."""
    if isinstance(value, dict) and value:
        out: dict[Path, Any] = {}
        for key, item in value.items():
            out.update(facts(item, (*path, key)))
        return out
    if _entries(value):
        return {(*path, ("id", item["id"])): item for item in value}
    return {path: value}


def build(found: dict[Path, Any]) -> Any:
    """The JSON value of its facts (facts' inverse)."""
    if list(found) == [()]:
        return found[()]
    root: dict = {}
    for path, value in found.items():
        node = root
        for seg in path[:-1]:
            node = node.setdefault(seg, {})
        node[path[-1]] = value
    return _lists(root)


def _lists(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    if node and all(isinstance(k, tuple) for k in node):
        return list(node.values())  # the entries, each whole
    return {k: _lists(v) for k, v in node.items()}


def _clash(path: Path, other: dict[Path, Any]) -> bool:
    """Whether `path` and a fact of `other` are one inside the other (a shape that differs)."""
    return any(path[: len(q)] == q or q[: len(path)] == path for q in other if q != path)


@dataclass
class Merge:
    file: str
    merged: dict[Path, Any]  # this tablet's facts and the backup's new ones
    added: int  # facts only the backup had
    conflicts: list[Conflict]
    _backup: dict[Path, Any]

    def value(self, take_backup: bool) -> Any:
        """The merged file: each conflict settled for the backup (True) or this tablet (False)."""
        if not take_backup or not self.conflicts:
            return build(self.merged)
        found = dict(self.merged)
        for c in self.conflicts:
            if c.shape:  # the whole top-level part
                top = c.path[:1]
                found = {p: v for p, v in found.items() if p[:1] != top}
                found.update({p: v for p, v in self._backup.items() if p[:1] == top})
            else:
                found[c.path] = c.backup
        return build(found)


def merge(file: str, here: dict, backup: dict) -> Merge:
    """This tablet's file and the backup's (both JSON objects, not empty), fact by fact."""
    mine, theirs = facts(here), facts(backup)
    merged, added, conflicts, clashed = dict(mine), 0, [], set()
    for path, value in theirs.items():
        if path in mine:
            if mine[path] != value:
                conflicts.append(Conflict(file, path, mine[path], value))
        elif _clash(path, mine):
            top = path[:1]
            if top not in clashed:
                clashed.add(top)
                conflicts.append(
                    Conflict(file, top, build({p[1:]: v for p, v in mine.items() if p[:1] == top}), value, True)
                )
        else:
            merged[path] = value
            added += 1
    return Merge(file, merged, added, conflicts, theirs)
