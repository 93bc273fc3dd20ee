"""Your board: the table's own 2023 board file, one per side of the board (no Kivy).

The 2023 rule book does not publish every fact of its board (the 2-3 player side's
scoreboards, France's and Portugal's neighbours, the Scoring tiles' values). The table checks
and completes them once, and the companion keeps them in the user data folder, in the format
`engine.board.load_board` validates (README "Rule sets"):

    rules/board-2023-4-5.json    the table's board file, one per side of the board
    rules/board-2023-2-3.json

Each edit is checked by building the board with the engine's own loader: a mistake is refused
with its one-line message and nothing changes (`RuleFileError`). The screens are thin views of
`BoardDraft`; facts entered during a game are kept here too (`remember_board_facts`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.table_rules.storage import RuleFileError, read_json, rules_folder, write_json
from companion.words import _
from companion.words import names as printed
from engine.board.errors import DataFileError
from engine.board.load import load_board
from engine.board.model import Board
from engine.card_entry import merged_board_file

SIDE_PLAYERS = {"4-5": 4, "2-3": 3}  # a player count of each side, to build its board


def board_path(side: str) -> Path:
    return rules_folder() / f"board-2023-{side}.json"


STATUS_WORDS = {
    "known": "known (the rule book)",
    "inferred": "inferred",
    "missing": "missing",
    "yours": "yours (from your board)",
}
CHECKED_NOTE = "checked against our board"
ENTERED_NOTE = "entered from our board"


def fact_status(board: Board, path: str) -> str:
    """known | inferred | missing | yours, from the board's provenance and missing facts."""
    if path in board.missing:
        return "missing"
    source = board.provenance.get(path, "")
    if source.startswith("table"):
        return "yours"
    if source.startswith(("confirmed", "rule book")):
        return "known"
    return "inferred"


@dataclass(frozen=True)
class BoardFact:
    path: str  # "regions.galicia.scoreboard", as Board.provenance and Board.missing name it
    area: str  # region, "castillo", space or tile id
    kind: str  # scoreboard | neighbours | tile
    label: str  # "Galicia's scoreboard"
    value: Any  # (4, 2, 0) | ("navarra", ...) | None (not known)
    status: str  # known | inferred | missing | yours
    source: str  # where the value comes from, or what is missing and why

    def words(self, names: dict[str, str]) -> str:
        if self.value is None:
            return _("not known")
        if self.kind == "neighbours":
            return ", ".join(names.get(a, a) for a in self.value) or _("none")
        return "·".join(str(v) for v in self.value)


class BoardDraft:
    """A side of the table's board, as the companion will use it, and the table's edits.

    `file` is the table's board file (the format load_board validates); `board` is the board
    it makes. Each edit is checked by building the board; a refused edit changes nothing."""

    def __init__(self, side: str, table_file: dict | None = None, other_side: dict | None = None):
        if side not in SIDE_PLAYERS:
            raise RuleFileError(f"side {side!r}: the 2023 board has the sides {', '.join(SIDE_PLAYERS)}")
        self.side = side
        self.players = SIDE_PLAYERS[side]
        self.saved = table_file is not None
        start = copy.deepcopy(table_file) if table_file else {"rules": "2023", "side": side}
        self.board = self._build(start)
        self.file = start
        # The Scoring tiles are the same two pieces whichever side is up.
        for tile, values in ((other_side or {}).get("scoring_tiles") or {}).items():
            if self.board.scoring_tiles.get(tile) is None:
                try:
                    self.set_tile(tile, values, note="entered with the other side of our board")
                except RuleFileError:
                    pass  # the other side's file says what is wrong with it when it is opened

    @classmethod
    def load(cls, side: str) -> BoardDraft:
        """The side as the table left it (RuleFileError when its saved file is damaged)."""
        other = next(s for s in SIDE_PLAYERS if s != side)
        try:
            other_file = read_json(board_path(other))
        except RuleFileError:
            other_file = None
        return cls(side, read_json(board_path(side)), other_file if isinstance(other_file, dict) else None)

    def _build(self, table_file: dict) -> Board:
        try:
            return load_board("2023", self.players, table_file)
        except DataFileError as exc:
            raise RuleFileError(str(exc)) from None

    # ---- reading --------------------------------------------------------------------

    @property
    def names(self) -> dict[str, str]:
        b = self.board
        return {
            **{rid: printed.place(name, b.rules) for rid, name in zip(b.region_ids, b.region_names)},
            **{sid: printed.place(name, b.rules) for sid, name in zip(b.space_ids, b.space_names)},
            "castillo": _("the Castillo"),
            "tile_a": _("Scoring tile {letter}").format(letter="A"),
            "tile_b": _("Scoring tile {letter}").format(letter="B"),
        }

    def facts(self) -> list[BoardFact]:
        """Every fact the table checks: scoreboards, borders, France's and Portugal's
        neighbours, the Scoring tiles."""
        b, names = self.board, self.names
        out = []
        for i, rid in enumerate(b.region_ids):
            out.append(
                self._fact(
                    f"regions.{rid}.scoreboard",
                    rid,
                    "scoreboard",
                    _("{place}'s scoreboard").format(place=names[rid]),
                    b.scoreboards[i],
                )
            )
        out.append(
            self._fact(
                "castillo.scoreboard",
                "castillo",
                "scoreboard",
                _("The Castillo's scoreboard"),
                b.scoreboards[b.castillo],
            )
        )
        for i, rid in enumerate(b.region_ids):
            out.append(
                self._fact(
                    f"regions.{rid}.neighbours",
                    rid,
                    "neighbours",
                    _("{place}'s borders").format(place=names[rid]),
                    self._ids(b.neighbours[i]),
                )
            )
        for i, sid in enumerate(b.space_ids):
            value = b.space_neighbours[i]
            out.append(
                self._fact(
                    f"spaces.{sid}.neighbours",
                    sid,
                    "neighbours",
                    _("{place}'s neighbours").format(place=names[sid]),
                    None if value is None else self._ids(value),
                )
            )
        for tile, values in b.scoring_tiles.items():
            out.append(self._fact(f"scoring_tiles.{tile}", tile, "tile", names.get(tile, tile), values))
        return out

    def _ids(self, indices) -> tuple[str, ...]:
        return tuple(self.board.region_ids[i] for i in sorted(indices))

    def _fact(self, path, area, kind, label, value) -> BoardFact:
        b = self.board
        status = fact_status(b, path)
        source = b.missing.get(path) or b.provenance.get(path, "")
        return BoardFact(path, area, kind, label, None if value is None else tuple(value), status, source)

    def fact(self, path: str) -> BoardFact:
        return next(f for f in self.facts() if f.path == path)

    def area_facts(self, area: str) -> list[BoardFact]:
        return [f for f in self.facts() if f.area == area]

    def needed(self, modules: list[str] | tuple[str, ...] = ()) -> list[BoardFact]:
        """What a game needs before it starts and nobody has entered: the side's scoreboards,
        and France's and Portugal's neighbours when New Regency (Exile, Entourage) is played.
        The Scoring tiles are offered, not needed: Enactment asks for them when it is played."""

        def wanted(f: BoardFact) -> bool:
            if f.kind == "scoreboard":
                return True
            return f.kind == "neighbours" and f.area in self.board.space_ids and "new-regency" in modules

        return [f for f in self.facts() if f.status == "missing" and wanted(f)]

    def counts(self) -> dict[str, int]:
        out = {s: 0 for s in STATUS_WORDS}
        for f in self.facts():
            out[f.status] += 1
        return out

    # ---- the table's edits ----------------------------------------------------------

    def _edit(self, change) -> None:
        trial = copy.deepcopy(self.file)
        change(trial)
        self.board = self._build(trial)
        self.file = trial

    @staticmethod
    def _entry(file: dict, kind: str, ident: str) -> dict:
        entries = file.setdefault(kind, [])
        found = next((e for e in entries if e.get("id") == ident), None)
        if found is None:
            found = {"id": ident}
            entries.append(found)
        return found

    @staticmethod
    def _note(file: dict, path: str, note: str) -> None:
        file.setdefault("provenance", {})[path] = note

    def set_scoreboard(self, area: str, values, note: str = ENTERED_NOTE) -> None:
        """An area's three numbers (1st, 2nd, 3rd place). Refused with the board's rule."""
        values = [int(v) for v in values]

        def change(file):
            if area == "castillo":
                file.setdefault("castillo", {})["scoreboard"] = values
                self._note(file, "castillo.scoreboard", note)
            else:
                self._entry(file, "regions", area)["scoreboard"] = values
                self._note(file, f"regions.{area}.scoreboard", note)

        self._check_area(area, regions=True, castillo=True)
        self._edit(change)

    def set_tile(self, tile: str, values, note: str = ENTERED_NOTE) -> None:
        if tile not in self.board.scoring_tiles:
            raise RuleFileError(f"{tile!r} is not a Scoring tile (tiles: {', '.join(self.board.scoring_tiles)})")
        values = [int(v) for v in values]

        def change(file):
            file.setdefault("scoring_tiles", {})[tile] = values
            self._note(file, f"scoring_tiles.{tile}", note)

        self._edit(change)

    def toggle_neighbour(self, area: str, other: str) -> bool:
        """Adds or removes the border between `area` (a region, France or Portugal) and the
        region `other`; True when they border each other now."""
        b = self.board
        self._check_area(area, regions=True, spaces=True)
        if other not in b.region_ids:
            raise RuleFileError(
                _("{place} is not a region: borders join regions (France and Portugal border regions)").format(
                    place=self.names.get(other, other)
                )
            )
        if other == area:
            raise RuleFileError(f"board file: regions[{area}].neighbours: a region does not neighbour itself")
        current = {f.area: list(f.value or ()) for f in self.facts() if f.kind == "neighbours"}
        now = other not in current[area]

        def flip(ids: list[str], x: str) -> list[str]:
            return [i for i in b.region_ids if (i in ids) != (i == x)]

        def change(file):
            if area in b.space_ids:
                self._entry(file, "spaces", area)["neighbours"] = flip(current[area], other)
                self._note(file, f"spaces.{area}.neighbours", ENTERED_NOTE)
                return
            for one, two in ((area, other), (other, area)):  # a border is listed on both sides
                self._entry(file, "regions", one)["neighbours"] = flip(current[one], two)
                self._note(file, f"regions.{one}.neighbours", ENTERED_NOTE)

        self._edit(change)
        return now

    def _check_area(self, area: str, regions=False, castillo=False, spaces=False) -> None:
        b = self.board
        ok = (regions and area in b.region_ids) or (castillo and area == "castillo") or (spaces and area in b.space_ids)
        if not ok:
            raise RuleFileError(f"{area!r} is not an area of the board this can be entered for")

    def confirm(self, modules: list[str] | tuple[str, ...] = (), later: bool = False) -> None:
        """The table says the board shown is its own: every inferred fact becomes the
        table's ("checked against our board"); refused while a fact the game needs is missing,
        unless the table chose to enter those `later`: the game asks for each when it first
        needs it (companion.entry.facts)."""
        still = self.needed(modules)
        if still and not later:
            raise RuleFileError(
                _("Still to enter from your board: {facts}").format(facts=", ".join(f.label for f in still))
            )
        for f in self.facts():
            if f.status != "inferred":
                continue
            if f.kind == "scoreboard":
                self.set_scoreboard(f.area, f.value, note=CHECKED_NOTE)
            elif f.kind == "neighbours":
                self._set_neighbours(f.area, list(f.value))

    def _set_neighbours(self, region: str, ids: list[str]) -> None:
        def change(file):
            self._entry(file, "regions", region)["neighbours"] = ids
            self._note(file, f"regions.{region}.neighbours", CHECKED_NOTE)

        self._edit(change)

    @property
    def confirmed(self) -> bool:
        """The table has confirmed this side: its file is saved and nothing on it is only inferred
        (facts entered during a game do not confirm the rest)."""
        return self.saved and not any(f.status == "inferred" for f in self.facts())

    def save(self) -> None:
        write_json(board_path(self.side), self.file)
        self.saved = True

    def reset(self) -> None:
        """Back to the board as shipped: the side's file is removed (the next 2023 game on
        this side shows the board again)."""
        board_path(self.side).unlink(missing_ok=True)
        self.__init__(self.side)


def board_confirmed(side: str) -> bool:
    try:
        return BoardDraft.load(side).confirmed
    except RuleFileError:
        return False


def remember_board_facts(side: str, facts: dict) -> str:
    """Board facts the table entered during a game (BoardFactsEntered's board, in the board-file
    vocabulary), kept in that side's board file for the next games. '' or why not."""
    try:
        board = BoardDraft.load(side)
        merged = merged_board_file(board.file, [facts], "2023")
        board.board = board._build(merged)
        board.file = merged
        board.save()
    except (RuleFileError, OSError) as exc:
        return _("Not kept in Your board: {why}").format(why=exc)
    return ""
