"""The table's own rules: the new game's rule choice, its board and its card set (no Kivy).

A table that owns the 2023 box checks and completes what the rule book does not publish
once, and the companion keeps it in the user data folder (`ELGRANDE_DATA_DIR`), in the
formats `engine.board.load_board` validates (README "Rule sets"):

    rules/choice.json            the last new game's rule set, modules, dummy colour
    rules/board-2023-4-5.json    the table's board file, one per side of the board
    rules/board-2023-2-3.json
    rules/cards-2023.json        the table's card file (Power Shift's Modifier cards in it too)

Every 2023 GameSetup gets the side's board file and the card file (`game_files`). Edits are
checked by building the board with the engine's own loader: a mistake is refused with its
one-line message and nothing changes (`RuleFileError`). Screens are thin views of
`RulesChoice`, `BoardDraft` and `CardSetDraft`.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

# The rules folder's reading and writing, shared with companion.table_rules.ki_cards (kept importable from here).
from companion.table_rules.storage import RuleFileError, exports_folder, read_json, rules_folder, write_json
from engine.board.effect_specs import EFFECT_SPECS
from engine.board.errors import DataFileError
from engine.board.load import load_board, load_cards, player_range, side_for
from engine.board.model import Board, CardSet
from engine.card_entry import merged_cards_file
from engine.rules import MODULES as RULE_MODULES
from engine.rules import RulesChoiceError, rule_set

CHOICE_FILE = "choice.json"
CARDS_FILE = "cards-2023.json"
MODIFIERS_DRAFT = "modifiers-draft-2023.json"  # Power Shift's cards entered so far, until all 16 are
EXPORT_NAME = "el-grande-cards-2023.json"
SIDE_PLAYERS = {"4-5": 4, "2-3": 3}  # a player count of each side, to build its board
MODIFIER_SET = 16  # Power Shift's Modifier cards in the box


def board_path(side: str) -> Path:
    return rules_folder() / f"board-2023-{side}.json"


def cards_path() -> Path:
    return rules_folder() / CARDS_FILE


def modifiers_draft_path() -> Path:
    return rules_folder() / MODIFIERS_DRAFT


# ---------------------------------------------------------------- the new game's rule choice

RULES_WORDS = {"classic": "Classic (1995)", "2023": "2023 edition", "king-intrigue": "King and Intrigue"}
MODULE_WORDS = {
    "new-regency": "New Regency",
    "old-hands": "Old Hands",
    "power-shift": "Power Shift",
    "four-stacks": "Four stacks",
    "players-edition": "Player's Edition",
    "special-cards": "Special cards",
}
MODULE_ABOUT = {
    "new-regency": "its ten cards replace the King's card as a 5th stack",
    "old-hands": "its four cards each replace a random card of their stack",
    "power-shift": "three Modifier cards each, one passed to the left",
    "four-stacks": "stacks 2 and 3 shuffled together",
    # King and Intrigue (companion/table_rules/ki_cards.py has its card set)
    "players-edition": "Joker, Field Day, Relocate, Alliance: their Power cards join each hand",
    "special-cards": "King's Guard, Table for Six ...: their Power cards join each hand",
}


RULES_NAMED = {"classic": "The classic game", "2023": "The 2023 edition", "king-intrigue": "King and Intrigue"}


def seats_words(rules: str, players: int) -> str:
    """'' when `rules` take this many players (engine.board.load.player_range), else what they take."""
    low, high = player_range(rules)
    if low <= players <= high:
        return ""
    return (
        f"{RULES_NAMED.get(rules, rules)} takes {low} to {high} players: {players} "
        f"{'is' if players == 1 else 'are'} ticked."
    )


@dataclass(frozen=True)
class ModuleOffer:
    id: str
    label: str  # "New Regency"
    about: str  # what it does, in a few words
    chosen: bool
    always: bool  # on whatever the table chooses (four stacks with 2 players)


@dataclass(frozen=True)
class RulesChoice:
    """What the new-game screen chooses about the rules; remembered for the next game."""

    rules: str = "classic"
    modules: tuple[str, ...] = ()
    dummy: str | None = None  # 2023, 2 players: the dummy's colour
    stand_in_modifiers: bool = False  # Power Shift: the labelled stand-in set, chosen explicitly

    def offers(self, players: int) -> list[ModuleOffer]:
        """The modules the rules allow with this many players (none for classic)."""
        out = []
        for module in RULE_MODULES.get(self.rules, ()):
            always = module == "four-stacks" and self.rules == "2023" and players == 2
            if module == "four-stacks" and players not in (2, 3):
                continue  # "four stacks" is a 2- and 3-player variant
            out.append(
                ModuleOffer(
                    module, MODULE_WORDS[module], MODULE_ABOUT[module], always or module in self.modules, always
                )
            )
        return out

    def modules_for(self, players: int) -> list[str]:
        """The modules a setup names: those chosen that the rules allow with this many players
        (four stacks is implied with 2 players, so not named)."""
        return [o.id for o in self.offers(players) if o.chosen and not o.always]

    def toggled(self, module: str) -> RulesChoice:
        mods = [m for m in self.modules if m != module] if module in self.modules else [*self.modules, module]
        return replace(self, modules=tuple(m for m in RULE_MODULES.get(self.rules, ()) if m in mods))

    def side(self, players: int) -> str:
        """The board side a game of `players` uses ("classic", "4-5" or "2-3")."""
        if self.rules == "king-intrigue":
            return "classic"  # King and Intrigue plays on the classic board
        return side_for(self.rules, players) if 2 <= players <= 5 else ("classic" if self.rules == "classic" else "?")

    def words(self, players: int) -> str:
        """One line on what these rules mean for the table."""
        seats = seats_words(self.rules, players)
        if seats:
            return seats
        if self.rules == "classic":
            return "The classic game: its board and its 45 Action cards."
        if self.rules == "king-intrigue":
            from companion.table_rules.ki_cards import ki_rules_words

            return ki_rules_words(players)
        side = self.side(players)
        line = f"The {side} player side of the board"
        if side == "2-3":
            line += " (only the first two numbers of each Scoring board count)"
        if players == 2:
            line += "; a dummy plays a third colour and the Action cards are in four stacks"
        return line + "."

    def check(self, players: int) -> None:
        """RuleFileError naming a choice the engine does not play."""
        try:
            rule_set(self.rules, self.modules_for(players), players)
        except RulesChoiceError as exc:
            raise RuleFileError(str(exc)) from None

    def to_json(self) -> dict:
        return {
            "rules": self.rules,
            "modules": list(self.modules),
            "dummy": self.dummy,
            "stand_in_modifiers": self.stand_in_modifiers,
        }

    @classmethod
    def from_json(cls, data: Any) -> RulesChoice:
        """A saved choice; anything it does not understand is left at the default."""
        if not isinstance(data, dict):
            return cls()
        rules = data.get("rules") if data.get("rules") in RULES_WORDS else "classic"
        modules = data.get("modules") if isinstance(data.get("modules"), list) else []
        modules = tuple(m for m in RULE_MODULES.get(rules, ()) if m in modules)
        dummy = data.get("dummy") if isinstance(data.get("dummy"), str) else None
        return cls(rules, modules, dummy, data.get("stand_in_modifiers") is True)


def load_choice() -> RulesChoice:
    """The last new game's choice (classic when there is none or it cannot be read)."""
    try:
        return RulesChoice.from_json(read_json(rules_folder() / CHOICE_FILE))
    except RuleFileError:
        return RulesChoice()


def save_choice(choice: RulesChoice) -> None:
    write_json(rules_folder() / CHOICE_FILE, choice.to_json())


def dummy_colours(colours: list[str], players: list[str]) -> list[str]:
    """The colours the dummy may play: those no player has."""
    return [c for c in colours if c not in players]


# ---------------------------------------------------------------- the table's board

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
            return "not known"
        if self.kind == "neighbours":
            return ", ".join(names.get(a, a) for a in self.value) or "none"
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
            **dict(zip(b.region_ids, b.region_names)),
            **dict(zip(b.space_ids, b.space_names)),
            "castillo": "the Castillo",
            "tile_a": "Scoring tile A",
            "tile_b": "Scoring tile B",
        }

    def facts(self) -> list[BoardFact]:
        """Every fact the table checks: scoreboards, borders, France's and Portugal's
        neighbours, the Scoring tiles."""
        b, names = self.board, self.names
        out = []
        for i, rid in enumerate(b.region_ids):
            out.append(
                self._fact(
                    f"regions.{rid}.scoreboard", rid, "scoreboard", f"{names[rid]}'s scoreboard", b.scoreboards[i]
                )
            )
        out.append(
            self._fact(
                "castillo.scoreboard", "castillo", "scoreboard", "The Castillo's scoreboard", b.scoreboards[b.castillo]
            )
        )
        for i, rid in enumerate(b.region_ids):
            out.append(
                self._fact(
                    f"regions.{rid}.neighbours",
                    rid,
                    "neighbours",
                    f"{names[rid]}'s borders",
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
                    f"{names[sid]}'s neighbours",
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
                f"{self.names.get(other, other)} is not a region: borders join regions "
                "(France and Portugal border regions)"
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
            raise RuleFileError("Still to enter from your board: " + ", ".join(f.label for f in still))
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


# ---------------------------------------------------------------- the table's card set


@dataclass(frozen=True)
class ParamField:
    """One parameter of an effect, as the card editor offers it."""

    name: str
    kind: str  # int | bool | choice | multi
    required: bool
    meaning: str
    low: int = 0
    high: int = 0
    values: tuple[str, ...] = ()

    def start(self) -> Any:
        """The value offered first (an optional parameter starts left out)."""
        if not self.required:
            return None
        return {
            "int": self.low,
            "bool": False,
            "choice": self.values[:1] and self.values[0],
            "multi": list(self.values[: self.low]),
        }[self.kind]

    def left_out(self) -> str:
        """What leaving an optional parameter out means ("all of them")."""
        found = re.search(r"\(left out: ([^)]*)\)", self.meaning)
        return found.group(1) if found else "not given"

    def step(self, value: Any, delta: int) -> Any:
        """An int stepper: optional ones go below their least to "left out"."""
        if value is None:
            return self.low if delta > 0 else None
        value += delta
        if value < self.low:
            return None if not self.required else self.low
        return min(value, self.high)


def param_fields(effect: str) -> list[ParamField]:
    spec = EFFECT_SPECS[effect]
    out = []
    for name, p in spec.params.items():
        kind = {"int": "int", "bool": "bool", "list": "multi"}.get(p.type, "choice")
        out.append(ParamField(name, kind, p.required, p.meaning, p.min or 0, p.max or 0, tuple(p.values or ())))
    return out


@dataclass(frozen=True)
class EffectOffer:
    name: str
    title: str  # "Militia"
    rule_text: str  # the rule book's sentences (this rule set's first)
    params: tuple[ParamField, ...]


def effect_offers(rules: str = "2023") -> list[EffectOffer]:
    """Every effect a card of `rules` may carry, with its rule text and parameters."""
    out = []
    for spec in EFFECT_SPECS.values():
        if rules not in spec.rules:
            continue
        texts = sorted(spec.rule_text, key=lambda t: t.book != ("2023" if rules == "2023" else "classic 1995"))
        out.append(
            EffectOffer(
                spec.name,
                spec.name.replace("_", " ").capitalize(),
                "\n".join(f"({t.book}) {t.text}" for t in texts),
                tuple(param_fields(spec.name)),
            )
        )
    return out


def params_words(effect: str, params: dict) -> str:
    fields = {f.name: f for f in param_fields(effect)} if effect in EFFECT_SPECS else {}
    parts = []
    for name, value in params.items():
        if value is None:
            parts.append(f"{name}: not known")
        elif isinstance(value, list):
            parts.append(f"{name}: {', '.join(value)}")
        else:
            parts.append(f"{name}: {str(value).lower() if isinstance(value, bool) else value}")
    for name, f in fields.items():
        if name not in params and not f.required:
            parts.append(f"{name}: {f.left_out()}")
    return "; ".join(parts)


@dataclass(frozen=True)
class CardRow:
    id: str
    name: str
    stack: int | None
    copies: int | None
    text: str
    effect: str
    params: dict
    source: str
    module: str | None
    unknown: tuple[str, ...]  # its facts not known: "stack", "copies", "params.outcome" ...

    @property
    def stack_words(self) -> str:
        if self.stack is None:
            return "stack ?"
        module = {"new-regency": " (New Regency)", "old-hands": " (Old Hands)"}.get(self.module or "", "")
        return f"stack {self.stack}{module}"

    @property
    def copies_words(self) -> str:
        return "copies ?" if self.copies is None else f"×{self.copies}"


@dataclass(frozen=True)
class ModifierRow:
    id: str
    value: int
    name: str
    ability: str  # "none" or the effect's title and parameters
    source: str


def _slug(name: str) -> str:
    accents = str.maketrans("áàâäéèêëíìîïóòôöúùûüñç", "aaaaeeeeiiiioooouuuunc")
    plain = name.lower().translate(accents)
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")[:40] or "card"


class CardSetDraft:
    """The table's card set: the shipped 2023 cards completed or corrected by its card file.
    Every edit is checked like a card file; a refused one changes nothing."""

    def __init__(self, table_file: dict | None = None, modifier_draft: list | None = None):
        start = copy.deepcopy(table_file) if table_file else {"rules": "2023", "cards": []}
        self.cards = self._build(start)
        self.file = start
        # Power Shift's Modifier cards entered one by one: a card file lists all 16 or none, so
        # those entered so far wait here until the last one is in.
        self.modifier_draft: list[dict] = list(modifier_draft or []) if not start.get("modifiers") else []

    @classmethod
    def load(cls) -> CardSetDraft:
        data = read_json(cards_path())
        if data is not None and not isinstance(data, dict):
            raise RuleFileError(f"{CARDS_FILE}: must be a JSON object, not {type(data).__name__}")
        try:
            draft = read_json(modifiers_draft_path())
        except RuleFileError:
            draft = None
        return cls(data, draft if isinstance(draft, list) else None)

    @staticmethod
    def _build(table_file: dict) -> CardSet:
        try:
            cards = load_cards("2023", table_file)
        except DataFileError as exc:
            raise RuleFileError(str(exc)) from None
        if "modifiers" in table_file:  # the printed cards only: the stand-in set is a setup's choice
            from engine.rules.edition_2023.power_shift import ModifierDataError, parse_modifiers

            try:
                parse_modifiers(table_file["modifiers"], allow_stand_in=False)
            except ModifierDataError as exc:
                raise RuleFileError(f"card file: {exc}") from None
        return cards

    # ---- reading --------------------------------------------------------------------

    def rows(self) -> list[CardRow]:
        """Every card, by stack (unknown stacks last), then name."""
        missing = self.cards.missing
        out = []
        for c in self.cards.cards.values():
            prefix = f"cards.{c.id}."
            unknown = tuple(k[len(prefix) :] for k in missing if k.startswith(prefix))
            out.append(
                CardRow(c.id, c.name, c.stack, c.copies, c.text, c.effect, dict(c.params), c.source, c.module, unknown)
            )
        return sorted(out, key=lambda r: (r.stack is None, r.stack or 0, r.module or "", r.name))

    def row(self, cid: str) -> CardRow:
        return next(r for r in self.rows() if r.id == cid)

    def stack_notes(self) -> list[str]:
        """What is still unknown about whole stacks (cards the set does not account for)."""
        return [
            note.split(": enter")[0]
            for key, note in self.cards.missing.items()
            if key.startswith(("stacks.", "modules."))
        ]

    def modifiers(self) -> list[ModifierRow]:
        """The Modifier cards entered: all 16 (in the card file) or those entered so far."""
        out = []
        for m in self.file.get("modifiers") or self.modifier_draft:
            ability = m.get("ability")
            words = (
                "no ability"
                if not ability
                else f"{ability['effect'].replace('_', ' ')} ({params_words(ability['effect'], ability.get('params', {}))})"
            )
            out.append(ModifierRow(m["id"], m["value"], m.get("name") or m["id"], words, m.get("source", "")))
        return out

    @property
    def has_modifiers(self) -> bool:
        return bool(self.file.get("modifiers"))

    # ---- the table's edits ----------------------------------------------------------

    def _edit(self, entries: list[dict]) -> None:
        trial = merged_cards_file(self.file, entries, "2023")
        self.cards = self._build(trial)
        self.file = trial

    def new_id(self, name: str) -> str:
        base = _slug(name)
        ident, n = base, 2
        while ident in self.cards.cards:
            ident, n = f"{base}_{n}", n + 1
        return ident

    def add_card(
        self,
        name: str,
        effect: str,
        stack: int | None,
        copies: int | None,
        params: dict | None = None,
        module: str | None = None,
        text: str = "",
        placement: int | None = None,
    ) -> str:
        """A card found in the box; returns its id. Refused naming the field and rule."""
        name = name.strip()
        if not name:
            raise RuleFileError("card file: a new card needs its name (as printed on the card)")
        if effect not in EFFECT_SPECS:
            raise RuleFileError(f"card file: unknown effect {effect!r}: choose one from the list")
        entry = {
            "id": self.new_id(name),
            "name": name,
            "effect": effect,
            "stack": stack,
            "copies": copies,
            "params": {k: v for k, v in (params or {}).items() if v is not None},
            "source": "our card",
        }
        if module:
            entry["module"] = module
        if text.strip():
            entry["text"] = text.strip()
        if placement is not None:
            entry["placement"] = placement
        for key in ("stack", "copies"):
            if entry[key] is None:
                raise RuleFileError(
                    f"card file: cards[{entry['id']}].{key}: a new card needs its {key} "
                    "(read it off the card and the box)"
                )
        self._edit([entry])
        return entry["id"]

    def set_card(self, cid: str, **fields) -> None:
        """A listed card's stack, copies, params (merged) or placement, from the table's card."""
        if cid not in self.cards.cards:
            raise RuleFileError(f"card file: cards[{cid}]: not a card of the set")
        entry = {"id": cid, **{k: v for k, v in fields.items() if v is not None}, "source": "our card"}
        if "params" in entry:
            entry["params"] = {k: v for k, v in entry["params"].items() if v is not None}
        self._edit([entry])

    def forget(self, cid: str) -> None:
        """Takes back what the table entered about a card (a card it added goes away)."""
        trial = {**self.file, "cards": [c for c in self.file.get("cards", []) if c.get("id") != cid]}
        self.cards = self._build(trial)
        self.file = trial

    def save(self) -> None:
        write_json(cards_path(), self.file)
        if self.modifier_draft:
            write_json(modifiers_draft_path(), self.modifier_draft)
        else:
            modifiers_draft_path().unlink(missing_ok=True)

    # ---- Power Shift's Modifier cards -------------------------------------------------

    def add_modifier(self, value: int, name: str = "", effect: str | None = None, params: dict | None = None) -> str:
        """One Modifier card from the box: its number (+/-), and its ability if it has one.
        Checked like the card file's modifiers; the 16th moves them all into the card file."""
        entered = list(self.file.get("modifiers") or self.modifier_draft)
        if len(entered) >= MODIFIER_SET:
            raise RuleFileError(
                f"card file: modifiers: Power Shift has {MODIFIER_SET} Modifier cards, all entered "
                "(remove one to change it)"
            )
        ident = _slug(f"modifier {'plus' if value > 0 else 'minus'} {abs(value)}")
        taken = {m["id"] for m in entered}
        n = 1
        while f"{ident}_{n}" in taken:
            n += 1
        shown = f"{'+' if value > 0 else '−'}{abs(value)}"
        card = {
            "id": f"{ident}_{n}",
            "value": value,
            "name": name.strip() or shown,
            "ability": None
            if not effect
            else {"effect": effect, "params": {k: v for k, v in (params or {}).items() if v is not None}},
            "source": "our card",
        }
        self._set_modifiers(entered + [card])
        return card["id"]

    def remove_modifier(self, mid: str) -> None:
        entered = list(self.file.get("modifiers") or self.modifier_draft)
        self._set_modifiers([m for m in entered if m.get("id") != mid])

    def _set_modifiers(self, entered: list[dict]) -> None:
        _check_modifiers(entered)
        if len(entered) == MODIFIER_SET:
            trial = {**self.file, "modifiers": entered}
            self.cards = self._build(trial)
            self.file, self.modifier_draft = trial, []
        else:
            self.file = {k: v for k, v in self.file.items() if k != "modifiers"}
            self.modifier_draft = entered

    # ---- export and import ----------------------------------------------------------

    def export(self, path: Path | None = None) -> Path:
        """The card file, to copy to another tablet (the exports folder unless a path is given)."""
        path = Path(path) if path else exports_folder() / EXPORT_NAME
        out = {
            "rules": "2023",
            "name": self.file.get("name") or "Our El Grande 2023 cards",
            **{k: v for k, v in self.file.items() if k not in ("rules", "name")},
        }
        try:
            write_json(path, out)
        except OSError as exc:
            raise RuleFileError(f"cannot write {path}: {exc.strerror or exc}") from None
        return path

    def import_file(self, path: Path) -> None:
        """Another tablet's card file in place of this one: checked whole first; a mistake is
        refused with its one line and this set is left as it was."""
        path = Path(path)
        if not path.is_file():
            raise RuleFileError(f"no such file: {path}")
        data = read_json(path)
        if not isinstance(data, dict):
            raise RuleFileError(f"card file: must be a JSON object, not {type(data).__name__}")
        if data.get("rules", "2023") != "2023":
            raise RuleFileError(
                f"card file: rules: the file is for the {data.get('rules')!r} rules, but this is the 2023 card set"
            )
        cards = self._build(data)
        self.cards, self.file = cards, copy.deepcopy(data)
        if data.get("modifiers"):
            self.modifier_draft = []


def _check_modifiers(entered: list[dict]) -> None:
    """Modifier cards entered so far, checked as the card file's list of 16 is (fewer are
    checked card by card: the list is filled up with plain +1 cards for the check)."""
    from engine.rules.edition_2023.power_shift import ModifierDataError, parse_modifiers

    filler = [
        {"id": f"not_entered_yet_{i}", "value": 1, "ability": None, "source": "check"}
        for i in range(MODIFIER_SET - len(entered))
    ]
    try:
        parse_modifiers(entered + filler, allow_stand_in=False)
    except ModifierDataError as exc:
        raise RuleFileError(f"card file: {exc}") from None


def modifier_abilities() -> list[EffectOffer]:
    """The effects a Modifier card's ability may have (engine/rules/edition_2023/power_shift.py)."""
    from engine.rules.edition_2023.power_shift import NOT_AN_ABILITY

    return [e for e in effect_offers("2023") if e.name not in NOT_AN_ABILITY]


def import_candidates() -> list[Path]:
    """Card files the table may import: JSON files in the exports folder, Downloads and Documents."""
    folders = [exports_folder()]
    try:
        import platformdirs

        folders += [Path(platformdirs.user_downloads_dir()), Path(platformdirs.user_documents_dir())]
    except Exception:  # no such folders on this system: the exports folder is enough
        pass
    found = []
    for folder in folders:
        try:
            found += sorted(p for p in folder.glob("*.json") if p.is_file())
        except OSError:
            continue
    return found


# ---------------------------------------------------------------- what a new game takes


@dataclass
class GameFiles:
    """What a new 2023 game takes from the table's files, and what is still to do first."""

    board_file: dict | None = None
    cards_file: dict | None = None
    side: str = "classic"
    confirm_board: bool = False  # the side's board is shown first (not confirmed yet)
    needs_modifiers: bool = False  # Power Shift without Modifier cards nor the stand-in set chosen
    notes: list[str] = field(default_factory=list)  # said on the new-game screen
    problem: str = ""  # a saved file the companion cannot use (named)


def game_files(choice: RulesChoice, players: int) -> GameFiles:
    """The board and card files a new game of `players` under `choice` gets, and what the table
    must do first. Never raises: a damaged saved file is named in `problem`."""
    if choice.rules == "king-intrigue":  # the classic board; the card set is companion/table_rules/ki_cards.py's
        from companion.table_rules.ki_cards import ki_game_files

        ki = ki_game_files(players, choice.modules_for(players))
        return GameFiles(cards_file=ki.cards_file, side="classic", notes=ki.notes, problem=ki.problem)
    if choice.rules != "2023" or not 2 <= players <= 5:
        return GameFiles(side=choice.side(players))
    side = side_for("2023", players)
    modules = choice.modules_for(players)
    out = GameFiles(side=side)
    try:
        board = BoardDraft.load(side)
    except RuleFileError as exc:
        out.problem = f"Your board ({side} side) cannot be used: {exc}. Reopen Your board to reset it."
        return out
    out.board_file = board.file if board.saved else None
    # Shown once per side; a fact still missing is asked when the game first needs it.
    out.confirm_board = not board.confirmed
    try:
        cards = CardSetDraft.load()
    except RuleFileError as exc:
        out.problem = f"Your cards cannot be used: {exc}. Reopen Your cards to import or fix them."
        return out
    if cards.file.get("cards") or cards.file.get("modifiers"):
        out.cards_file = cards.file
    power_shift = "power-shift" in modules
    out.needs_modifiers = power_shift and not cards.has_modifiers and not choice.stand_in_modifiers
    out.notes = _notes(board, cards, side, modules, choice, power_shift)
    return out


def _notes(board: BoardDraft, cards: CardSetDraft, side: str, modules, choice, power_shift) -> list[str]:
    notes = []
    if not board.confirmed:
        notes.append(f"Your board's {side} side is shown to check once when the game starts.")
    elif board.needed(modules):
        notes.append(
            "Your board: " + ", ".join(f.label for f in board.needed(modules)) + " not entered yet: "
            "asked when the game first needs them (or enter them now in Your board)."
        )
    unknown = [r for r in cards.rows() if "stack" in r.unknown or "copies" in r.unknown]
    if unknown:
        notes.append(
            f"Your cards: {len(unknown)} cards' stack or copies not entered yet (Your cards; "
            "in a tracked game a card turned up can be added then)."
        )
    if power_shift and not cards.has_modifiers:
        notes.append(
            "Power Shift: the stand-in Modifier cards (labelled: not the printed cards) are used."
            if choice.stand_in_modifiers
            else "Power Shift: enter your 16 Modifier cards (Your cards: import a card file), or choose "
            "the labelled stand-in set below."
        )
    return notes


def check_game_setup(game, cards_played: bool = True) -> None:
    """RuleFileError with the engine's words when a GameSetup cannot start (checked before the
    table's board is shown, so nobody confirms a board for a game that cannot start). Scoring
    only (`cards_played=False`) needs no King and Intrigue card set."""
    from engine.errors import RuleViolation
    from engine.game import board_for, start_state

    try:
        start_state(game, board_for(game), cards_played)
    except (RuleViolation, ValueError) as exc:
        raise RuleFileError(str(exc)) from None


def tower_note(seats: list[str], tower_kind: str) -> list[str]:
    """What the table is told about colours the tower does not count (their throws by hand)."""
    from firmware_bridge.messages import COLOURS

    if tower_kind == "none":
        return []
    unknown = [c for c in seats if c not in COLOURS]
    if not unknown:
        return []
    names = (
        " and ".join(c.title() for c in unknown)
        if len(unknown) < 3
        else ", ".join(c.title() for c in unknown[:-1]) + " and " + unknown[-1].title()
    )
    return [
        f"The tower does not know {names}: "
        f"{'their' if len(unknown) > 1 else 'its'} throws into the Castillo are entered by hand "
        "(tap the Castillo when placing)."
    ]


@dataclass(frozen=True)
class ReturnedStack:
    """Old Hands: "for each ♣ card you are adding, return 1 random card from the corresponding
    stack back to the box". The table draws them; the setup names them."""

    stack: int  # the stack as it lies at this table (four stacks: 3 is 2)
    count: int  # cards to return from it
    cards: tuple[tuple[str, str], ...]  # (id, name) of the base cards the set knows in it


def old_hands_returns(choice: RulesChoice, players: int, cards_file: dict | None) -> list[ReturnedStack]:
    """What the table names when Old Hands is played: per stack, how many cards go back to the
    box and which cards may be among them. RuleFileError when no Old Hands card is known."""
    modules = choice.modules_for(players)
    if "old-hands" not in modules:
        return []
    try:
        cards = load_cards("2023", cards_file).cards
    except DataFileError as exc:
        raise RuleFileError(str(exc)) from None
    rules = rule_set("2023", modules, players)
    clubs = [c for c in cards.values() if c.module == "old-hands"]
    if not clubs:
        raise RuleFileError(
            "Old Hands: no Old Hands card is in your card set yet: add your four cards in Your cards (module Old Hands)"
        )
    unplaced = [c.name for c in clubs if c.stack is None]
    if unplaced:
        raise RuleFileError(f"Old Hands: the stack of {', '.join(unplaced)} is not entered (Your cards)")
    need: dict[int, int] = {}
    for c in clubs:
        need[rules.table_stack(c.stack)] = need.get(rules.table_stack(c.stack), 0) + 1
    out = []
    for stack, count in sorted(need.items()):
        known = tuple(
            (c.id, c.name)
            for c in sorted(cards.values(), key=lambda c: c.name)
            if c.module is None and c.stack is not None and rules.table_stack(c.stack) == stack
        )
        out.append(ReturnedStack(stack, count, known))
    return out


# ---------------------------------------------------------------- kept from a game


def remember_card_entries(entries: list[dict]) -> str:
    """Cards the table entered during a game (CardSetCompleted's entries), kept in its card file
    for the next games. '' when kept; else why not, in one line (the game has them either way)."""
    try:
        cards = CardSetDraft.load()
        cards._edit([dict(e) for e in entries])
        cards.save()
    except (RuleFileError, OSError) as exc:
        return f"Not kept in Your cards: {exc}"
    return ""


def remember_board_facts(side: str, facts: dict) -> str:
    """Board facts the table entered during a game (BoardFactsEntered's board, in the board-file
    vocabulary), kept in that side's board file for the next games. '' or why not."""
    from engine.card_entry import merged_board_file

    try:
        board = BoardDraft.load(side)
        merged = merged_board_file(board.file, [facts], "2023")
        board.board = board._build(merged)
        board.file = merged
        board.save()
    except (RuleFileError, OSError) as exc:
        return f"Not kept in Your board: {exc}"
    return ""
