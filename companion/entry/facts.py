"""A board fact nobody published, asked at the table when the game first needs it (no Kivy).

The 2023 rule book does not print the 2-3 player side's scoreboards, France's and Portugal's
neighbours or the Scoring tiles' values (engine/data/board_2023.json, `missing`). A game may
start without them; when it reaches a step that needs one (a general scoring on the 2-3
side, a special action refused for a board fact: a scoring card, Exile, Enactment) the prompt
offers to enter it right there (`facts_needed`, `FactsEntry`). The entry is checked like a
board file, sent as one BoardFactsEntered input (the engine takes it between steps and the
game goes on from the same step) and kept in the side's board file in the user data folder,
the file Your board writes (companion.table_rules.board_file.remember_board_facts): never asked again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.input_errors import InputError
from companion.words import N_, _, names, ngettext
from companion.words.file_refusals import refusal_words
from engine.board.errors import DataFileError
from engine.board.load import load_board
from engine.board.model import CASTILLO, Board
from engine.card_entry import merged_board_file
from engine.primitives import Ask

POINTS = tuple(range(13))  # a scoreboard's or tile's number, as offered (no printed one is near 12)
PLACES = (N_("1st place"), N_("2nd place"), N_("3rd place"))
ENTERED_NOTE = "entered from our board during a game"  # the board file's provenance: a file's words, English
_FILE_PATH = re.compile(
    r"board file: (regions\[(\w+)\]\.scoreboard|castillo\.scoreboard|"
    r"spaces\[(\w+)\]\.neighbours|scoring_tiles\.(\w+))"
)


@dataclass(frozen=True)
class NeededFact:
    path: str  # as Board.missing names it: "regions.galicia.scoreboard"
    kind: str  # scoreboard | neighbours | tile
    area: str  # region id, "castillo", space id or tile id
    label: str  # "Galicia's scoreboard"


def _fact(board: Board, path: str) -> NeededFact:
    head, _sep, rest = path.partition(".")
    if head == "castillo":
        return NeededFact(path, "scoreboard", CASTILLO, _("The Castillo's scoreboard"))
    if head == "scoring_tiles":
        return NeededFact(
            path, "tile", rest, _("Scoring tile {letter}").format(letter=rest.removeprefix("tile_").upper())
        )
    ident, _sep, what = rest.partition(".")
    name = names.area(board, board.area_index[ident])
    if head == "spaces":
        return NeededFact(path, "neighbours", ident, _("{place}'s neighbours").format(place=name))
    return NeededFact(path, "scoreboard", ident, _("{place}'s scoreboard").format(place=name))


def _kind_of(path: str) -> str:
    return (
        "tile" if path.startswith("scoring_tiles.") else "neighbours" if path.endswith(".neighbours") else "scoreboard"
    )


def _missing_of_kind(board: Board, kind: str) -> list[NeededFact]:
    """Every missing fact of one kind, in the board's order: a scoring needs every scoreboard
    at once, and Exile may go to France or Portugal."""
    order = (
        [f"regions.{r}.scoreboard" for r in board.region_ids]
        + ["castillo.scoreboard"]
        + [f"spaces.{s}.neighbours" for s in getattr(board, "space_ids", ())]
        + [f"scoring_tiles.{t}" for t in getattr(board, "scoring_tiles", {})]
    )
    return [_fact(board, p) for p in order if p in board.missing and _kind_of(p) == kind]


def facts_needed(board: Board, ask: Ask) -> list[NeededFact]:
    """The facts the step asked now needs and nobody entered (none: the step can go on)."""
    if not board.missing or board.rules == "classic":
        return []
    if ask.stage == "scoring_discs":  # a general scoring scores every area
        return _missing_of_kind(board, "scoreboard")
    if ask.kind == "turn_action":
        refused = (ask.options.get("special") or {}).get("refused") or ""
        found = _FILE_PATH.search(refused)
        if found:
            return _missing_of_kind(board, _kind_of(_fact_path(found)))
    return []


def _fact_path(found: re.Match) -> str:
    whole, region, space, tile = found.groups()
    if region:
        return f"regions.{region}.scoreboard"
    if space:
        return f"spaces.{space}.neighbours"
    if tile:
        return f"scoring_tiles.{tile}"
    return "castillo.scoreboard"


def _lower(label: str) -> str:
    """ "The Castillo's scoreboard" within a sentence; names stay as they are."""
    return "t" + label[1:] if label.startswith("The ") else label


def needed_words(facts: list[NeededFact], side: str = "") -> str:
    """'the 10 scoreboards of the 2-3 player side' | "France's neighbours and Portugal's neighbours"."""
    boards = [f for f in facts if f.kind == "scoreboard"]
    if len(boards) > 2:
        return (
            _("the {n} scoreboards of the {side} player side").format(n=len(boards), side=side)
            if side
            else _("the {n} scoreboards of this side of the board").format(n=len(boards))
        )
    labels = [_lower(f.label) for f in facts]
    if len(labels) > 1:
        return _("{places} and {last}").format(places=", ".join(labels[:-1]), last=labels[-1])
    return labels[0] if labels else ""


class FactsEntry:
    """The needed facts, one page each, entered by taps: a scoreboard's or tile's three numbers
    (POINTS only), a space's neighbouring regions (regions only). Each page is checked like a
    board file when the table goes on; a wrong entry is refused with the board's rule in
    `message` and nothing is sent. Never raises for a tap."""

    def __init__(self, board: Board, players: int, base_file: dict | None, facts: list[NeededFact]):
        self.board, self.players, self.base_file = board, players, base_file
        self.facts = list(facts)
        self.page = 0
        self.values: dict[str, list[int | None]] = {
            f.path: [None, None, None] for f in facts if f.kind in ("scoreboard", "tile")
        }
        self.neighbours: dict[str, list[str]] = {f.path: [] for f in facts if f.kind == "neighbours"}
        self.checked: set[str] = set()
        self.message = ""

    @classmethod
    def for_table(cls, table) -> FactsEntry | None:
        """The entry for what `table` asks now, or None when nothing is missing for it."""
        facts = table.facts_needed()
        if not facts:
            return None
        state = table.state
        base = merged_board_file(state.table_files[0], list(state.board_entries), state.rules.id)
        return cls(table.board, state.n - (state.dummy is not None), base, facts)

    # ---- reading -------------------------------------------------------------------------

    @property
    def current(self) -> NeededFact:
        return self.facts[self.page]

    @property
    def last_page(self) -> bool:
        return self.page == len(self.facts) - 1

    def regions(self) -> list[tuple[str, str]]:
        return list(zip(self.board.region_ids, self.board.region_names))

    def heading(self) -> str:
        return _("{fact} ({page} of {pages})").format(
            fact=self.current.label, page=self.page + 1, pages=len(self.facts)
        )

    def instruction(self) -> str:
        f = self.current
        if f.kind == "neighbours":
            place = names.area(self.board, self.board.area_index[f.area])
            return _("Tap each region {place} borders on your board (tap again to take one off).").format(place=place)
        label = _lower(f.label)
        if f.kind != "scoreboard":
            return _("Tap the three numbers printed on {fact}.").format(fact=label)
        if self.board.scoring_places < 3:
            return ngettext(
                "Tap the three numbers printed on {fact} on the {side} player side; with {players} players "
                "only the first {n} scores, but enter all three printed numbers.",
                "Tap the three numbers printed on {fact} on the {side} player side; with {players} players "
                "only the first {n} score, but enter all three printed numbers.",
                self.board.scoring_places,
            ).format(fact=label, side=self.board.side, players=self.players, n=self.board.scoring_places)
        return _("Tap the three numbers printed on {fact} on the {side} player side.").format(
            fact=label, side=self.board.side
        )

    def shown(self, f: NeededFact | None = None) -> str:
        f = f or self.current
        if f.kind == "neighbours":
            shown = dict(self.regions())
            return ", ".join(names.place(shown[r], self.board.rules) for r in self.neighbours[f.path]) or _("none yet")
        return "·".join("?" if v is None else str(v) for v in self.values[f.path])

    # ---- taps ----------------------------------------------------------------------------

    def pick(self, place: int, value: int) -> None:
        f = self.current
        if f.kind == "neighbours" or not 0 <= place < 3 or value not in POINTS:
            self.message = _("{value} is not a number offered for {fact} (0 to {most})").format(
                value=value, fact=f.label, most=POINTS[-1]
            )
            return
        self.values[f.path][place] = value
        self.checked.discard(f.path)
        self.message = ""

    def toggle(self, region: str) -> None:
        f = self.current
        if f.kind != "neighbours" or region not in self.board.region_ids:
            self.message = _("{region} is not a region: {fact} are regions of the board").format(
                region=region, fact=f.label
            )
            return
        chosen = self.neighbours[f.path]
        if region in chosen:
            chosen.remove(region)
        else:
            chosen.append(region)
            chosen.sort(key=self.board.region_ids.index)
        self.checked.discard(f.path)
        self.message = ""

    def back(self) -> None:
        self.page = max(0, self.page - 1)
        self.message = ""

    def next(self) -> bool:
        """The page checked like a board file; on to the next one. False (and `message`) when refused."""
        f = self.current
        if f.kind != "neighbours" and None in self.values[f.path]:
            self.message = _("Tap a number for {place} first").format(place=_(PLACES[self.values[f.path].index(None)]))
            return False
        problem = self._problem(self.facts[: self.page + 1])
        if problem:
            self.message = problem
            return False
        self.checked.add(f.path)
        self.message = ""
        if not self.last_page:
            self.page += 1
        return True

    @property
    def complete(self) -> bool:
        return all(f.path in self.checked for f in self.facts)

    # ---- the result ----------------------------------------------------------------------

    def board_file(self, facts: list[NeededFact] | None = None) -> dict:
        """The entries in the board-file vocabulary, each noted as the table's."""
        out: dict = {}
        for f in facts if facts is not None else self.facts:
            if f.kind == "scoreboard" and f.area == CASTILLO:
                out["castillo"] = {"scoreboard": list(self.values[f.path])}
            elif f.kind == "scoreboard":
                out.setdefault("regions", []).append({"id": f.area, "scoreboard": list(self.values[f.path])})
            elif f.kind == "tile":
                out.setdefault("scoring_tiles", {})[f.area] = list(self.values[f.path])
            else:
                out.setdefault("spaces", []).append({"id": f.area, "neighbours": list(self.neighbours[f.path])})
            out.setdefault("provenance", {})[f.path] = ENTERED_NOTE
        return out

    def _problem(self, facts: list[NeededFact]) -> str:
        """Why the board with these entries is not a board ("" : it is), in the board file's words."""
        merged = merged_board_file(self.base_file, [self.board_file(facts)], self.board.rules)
        try:
            load_board(self.board.rules, self.players, merged)
        except DataFileError as exc:
            labels = {f.path: f.label for f in self.facts}
            return refusal_words(str(exc), labels.get)
        return ""

    def send(self, table) -> bool:
        """One BoardFactsEntered input, then the facts kept in the side's board file. False (and
        `message`) when the entry is not complete or the game refuses it; the words for the
        table are in `message` either way."""
        from companion.table_rules.board_file import remember_board_facts

        if not self.complete:
            left = next(f for f in self.facts if f.path not in self.checked)
            self.message = _("{fact} is still to enter").format(fact=left.label)
            return False
        facts = self.board_file()
        try:
            table.submit({"type": "board_facts_entered", "board": facts})
        except InputError as exc:
            self.message = str(exc)
            return False
        kept = remember_board_facts(self.board.side, facts)
        self.message = _("Entered: {facts}; the game goes on. {kept}").format(
            facts=needed_words(self.facts, self.board.side), kept=kept or _("Your board keeps them for the next games.")
        )
        return True
