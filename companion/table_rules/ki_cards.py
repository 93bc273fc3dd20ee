"""King and Intrigue: the table's card set, entered once from its box (no Kivy).

The expansion's rule text does not print most of its cards' numbers (engine/data/
cards_king_intrigue.json: every unknown is null with a note). The table enters them once on
"Your cards" and the companion keeps them in the user data folder:

    rules/cards-king-intrigue.json   a King and Intrigue card file (engine.rules.king_intrigue.cards)

and gives it to every King and Intrigue game (`ki_game_files`). Each entry is checked by
building the card set with the engine's own loader: a mistake is refused with its one-line
message naming the card and the field, and nothing changes (`RuleFileError`). A game cannot
start while a fact it needs is missing: `missing_words` says which, card by card.

The screen (companion/ui/screens/ki_cards.py) is a thin view of `KICardsDraft` and of its box
table's cells (companion.table_rules.ki_box_table).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

from companion.table_rules.ki_box_table import (
    COUNTED,
    MOST_PLACED,
    SCORINGS,
    BoxCell,
    KICardRow,
    card_cells,
    placement_cells,
)
from companion.table_rules.storage import RuleFileError, exports_folder, read_json, rules_folder, write_json
from companion.words import N_, _, ngettext
from engine.board.errors import CardFileError
from engine.rules.king_intrigue.cards import (
    EITHER_MODULE,
    MODULE_EFFECTS,
    MODULE_IDS,
    MODULES_ASKED,
    PowerCard,
    ki_board,
    load_ki_cards,
    missing_for,
)

KI_CARDS_FILE = "cards-king-intrigue.json"
KI_EXPORT_NAME = "el-grande-cards-king-intrigue.json"
RULES = "king-intrigue"
# Module cards whose steps the tablet and phones have no prompts for yet: left in the box (said on
# Your cards), whatever the engine plays, so a game never waits on a step nobody can enter.
NOT_AT_THE_TABLE_YET = frozenset({"cancel_token"})  # the Discard card: shipped to opt in, its screen not yet
FIELD_WORDS = {
    "court": N_("Caballeros to the court"),
    "action": N_("its action"),
    "value": N_("its value"),
    "foreign": N_("foreign Caballeros moved"),
    "outcome": N_("what happens to the Caballeros"),
    "place": N_("Caballeros placed"),
    "until": N_("how long its token stays"),
}


def ki_cards_path() -> Path:
    return rules_folder() / KI_CARDS_FILE


def _shipped_rows() -> dict[str, PowerCard]:
    return load_ki_cards().power_cards


class KICardsDraft:
    """The table's King and Intrigue card set: the shipped cards completed by its card file."""

    def __init__(self, table_file: dict | None = None):
        start = copy.deepcopy(table_file) if table_file else {"rules": RULES, "power_cards": [], "placements": {}}
        start.setdefault("rules", RULES)
        start.setdefault("power_cards", [])
        start.setdefault("placements", {})
        start[MODULES_ASKED] = True  # the cards whose module the text leaves open: this table's box says
        start["leave_out"] = self._left_out_ids()  # what this engine does not play stays in the box
        self.cards = self._build(start)
        self.file = start
        self.saved = table_file is not None

    @classmethod
    def load(cls) -> KICardsDraft:
        data = read_json(ki_cards_path())
        if data is None:
            return cls()
        try:
            return cls(data)
        except RuleFileError as exc:
            raise RuleFileError(f"{KI_CARDS_FILE}: {exc}") from None

    @staticmethod
    def _left_out_ids() -> list[str]:
        return sorted(
            c.id
            for c in _shipped_rows().values()
            if c.module is not None and (c.effect in MODULE_EFFECTS or c.effect in NOT_AT_THE_TABLE_YET)
        )

    @staticmethod
    def _build(file: dict):
        try:
            return load_ki_cards(file)
        except (CardFileError, ValueError) as exc:
            raise RuleFileError(str(exc).removeprefix("card file: ")) from None

    # ---- reading ------------------------------------------------------------------------------

    def rows(self) -> list[KICardRow]:
        shipped = _shipped_rows()
        out = []
        for c in self.cards.power_cards.values():
            first = shipped.get(c.id)
            ask_effect = ""
            if first is not None and first.effect is None:
                ask_effect = "scoring" if "scoring" in first.name.lower() else "opponents"
            prefix = f"power_cards.{c.id}.params."
            ask_params = tuple(k[len(prefix) :] for k in load_ki_cards().missing if k.startswith(prefix))
            left_out = c.id in self.cards.left_out
            unknown = (
                ()
                if left_out
                else tuple(k for k, v in (("value", c.value), ("court", c.court), ("action", c.effect)) if v is None)
                + tuple(p for p in ask_params if c.params.get(p) is None)
            )
            out.append(
                KICardRow(
                    c.id,
                    c.name,
                    c.value,
                    c.module,
                    c.court,
                    c.effect,
                    dict(c.params),
                    c.text,
                    c.source,
                    left_out,
                    first is not None and first.value is None,
                    ask_effect,
                    ask_params,
                    unknown,
                    first is not None and first.module == EITHER_MODULE,
                )
            )
        return sorted(
            out,
            key=lambda r: (
                r.group is not None,
                r.group or "",
                r.left_out,
                r.value if r.value is not None else 10_000,
                r.name,
            ),
        )

    def row(self, cid: str) -> KICardRow:
        return next(r for r in self.rows() if r.id == cid)

    def placements(self, players: int) -> list[int | None]:
        return list(self.cards.placements.get(players, (None,) * players))

    def missing_words(self, players: int, modules) -> list[str]:
        """What a game of `players` with `modules` still needs, one short line each."""
        out = []
        row = self.placements(players)
        if any(x is None for x in row):
            out.append(_("what each Action card places with {players} players").format(players=players))
        both = all(m in modules for m in MODULE_IDS)
        for r in self.rows():
            if r.module == EITHER_MODULE:
                if r.left_out or not modules:
                    continue
                if not both:
                    out.append(_("{card}: which module (its symbol)").format(card=r.label))
            elif r.left_out or (r.module is not None and r.module not in modules):
                continue
            for what in r.unknown:
                out.append(
                    _("{card}: {text}").format(card=r.label, text=_(FIELD_WORDS[what]) if what in FIELD_WORDS else what)
                )
        return out

    def engine_missing(self, players: int, modules) -> list[str]:
        """The engine's own words for what is missing (what a game start would refuse)."""
        return missing_for(ki_board(players, None, self.file), players, modules)

    def complete_for(self, players: int, modules) -> bool:
        return not self.engine_missing(players, modules)

    # ---- changes: checked whole, saved at once ---------------------------------------------------

    def _edit(self, change) -> None:
        trial = copy.deepcopy(self.file)
        change(trial)
        self.cards = self._build(trial)  # refused whole: nothing changes
        self.file = trial
        self.save()

    def set_court(self, cid: str, court: int) -> None:
        self._known(cid)
        self._edit(lambda f: self._entry_in(f, cid).update(court=court))

    def set_value(self, cid: str, value: int) -> None:
        self._known(cid)
        self._edit(lambda f: self._entry_in(f, cid).update(value=value))

    def set_effect(self, cid: str, effect: str, params: dict) -> None:
        self._known(cid)
        self._edit(lambda f: self._entry_in(f, cid).update(effect=effect, params=dict(params)))

    def set_module(self, cid: str, module: str) -> None:
        """The module a card the text leaves open belongs to, from the symbol on the table's card."""
        self._known(cid)
        if module not in MODULE_IDS:
            raise RuleFileError(f"power_cards[{cid}].module: {module!r} is not a module ({', '.join(MODULE_IDS)})")
        self._edit(lambda f: self._entry_in(f, cid).update(module=module))

    def set_param(self, cid: str, name: str, value: int) -> None:
        self._known(cid)

        def change(f):
            entry = self._entry_in(f, cid)
            entry["params"] = {**entry.get("params", {}), name: value}

        self._edit(change)

    def set_placements(self, players: int, row: list[int]) -> None:
        if players not in (2, 3, 4, 5):
            raise RuleFileError(f"placements: {players} is not a player count (2..5)")
        if len(row) != players or any(not isinstance(x, int) or not 0 <= x <= MOST_PLACED for x in row):
            raise RuleFileError(f"placements.{players}: {players} numbers 0..{MOST_PLACED}, one per Action card")
        self._edit(lambda f: f["placements"].__setitem__(str(players), list(row)))

    def set_placement(self, players: int, index: int, value: int) -> None:
        """One Action card's number (the others still unknown start at the same value)."""
        row = self.placements(players)
        row[index] = value
        self.set_placements(players, [value if x is None else x for x in row])

    def enter(self, cell: BoxCell, value) -> None:
        """A box-table cell's value (a chip tapped, a stepper stepped), checked and saved like any
        entry; the 30 card's counted actions start at 3 Caballeros."""
        what, _sep, name = cell.field.partition(":")
        if what == "court":
            self.set_court(cell.card, value)
        elif what == "value":
            self.set_value(cell.card, value)
        elif what == "module":
            self.set_module(cell.card, value)
        elif what == "scoring":
            effect, params, _words = SCORINGS[value]
            self.set_effect(cell.card, effect, params)
        elif what == "opponents":
            self.set_effect(cell.card, value, {"count": COUNTED[value]} if value in COUNTED else {})
        elif what == "param":
            self.set_param(cell.card, name, value)
        elif what == "place":
            players, index = (int(x) for x in name.split(":"))
            self.set_placement(players, index, value)
        else:
            raise RuleFileError(f"{cell.field}: not a fact of the card set")

    def cells(self) -> list[BoxCell]:
        """Every cell of the box table, as the screen shows them: the Action cards' numbers for
        2-5 players, then each Power card in play (the base game's by value, then the modules')."""
        out = [c for n in (2, 3, 4, 5) for c in placement_cells(self, n)]
        return out + [c for r in self.rows() if not r.left_out for c in card_cells(r)]

    def _known(self, cid: str) -> None:
        if cid not in self.cards.power_cards:
            raise RuleFileError(f"power_cards[{cid}]: not a card of the set")

    @staticmethod
    def _entry_in(file: dict, cid: str) -> dict:
        for entry in file["power_cards"]:
            if entry.get("id") == cid:
                return entry
        entry = {"id": cid}
        file["power_cards"].append(entry)
        return entry

    def save(self) -> None:
        write_json(ki_cards_path(), self.file)
        self.saved = True

    # ---- sharing -------------------------------------------------------------------------------

    def export(self, path: Path | None = None) -> Path:
        path = path or exports_folder() / KI_EXPORT_NAME
        out = {
            "rules": RULES,
            "name": self.file.get("name") or "Our King and Intrigue cards",
            "power_cards": self.file["power_cards"],
            "placements": self.file["placements"],
            "leave_out": self.file.get("leave_out", []),
            MODULES_ASKED: True,
        }
        write_json(path, out)
        return path

    def import_file(self, path: Path) -> None:
        """Another tablet's export: checked whole, then it replaces this set (nothing half-taken)."""
        data = read_json(Path(path))
        if data is None:
            raise RuleFileError(_("{file}: no such file").format(file=Path(path).name))
        if not isinstance(data, dict):
            words = _("{file}: not a card file (a card file holds one JSON object)")
            raise RuleFileError(words.format(file=Path(path).name))
        if data.get("rules", RULES) != RULES:
            words = _("{file}: the file is for the {rules} rules, but this is the King and Intrigue card set")
            raise RuleFileError(words.format(file=Path(path).name, rules=repr(data.get("rules"))))
        fresh = KICardsDraft(data)
        self.file, self.cards = fresh.file, fresh.cards
        self.save()


def ki_import_candidates() -> list[Path]:
    """King and Intrigue card files found in the exports folder and the user's Downloads."""
    out = []
    for folder in (exports_folder(), Path.home() / "Downloads"):
        try:
            out += sorted(p for p in folder.glob("*.json") if "king" in p.name.lower())
        except OSError:
            continue
    return out


@dataclass
class KIGameFiles:
    cards_file: dict | None = None
    missing: list[str] = field(default_factory=list)  # short lines: what Your cards must still get
    notes: list[str] = field(default_factory=list)
    problem: str = ""


def ki_game_files(players: int, modules) -> KIGameFiles:
    """The card file a new King and Intrigue game gets, and what is missing first. Never raises."""
    out = KIGameFiles()
    try:
        draft = KICardsDraft.load()
    except RuleFileError as exc:
        out.problem = _(
            "Your King and Intrigue cards cannot be used: {why}. Reopen Your cards to import or fix them."
        ).format(why=exc)
        return out
    out.cards_file = draft.file
    if not 2 <= players <= 5:
        return out
    out.missing = draft.missing_words(players, modules)
    if not out.missing and draft.engine_missing(players, modules):
        out.missing = draft.engine_missing(players, modules)
    if out.missing:
        shown = "; ".join(out.missing[:4])
        if len(out.missing) > 4:
            shown = _("{facts}; and {n} more").format(facts=shown, n=len(out.missing) - 4)
        out.notes.append(
            ngettext(
                "King and Intrigue: {n} card fact to enter from your box before the game can start"
                " (Your cards): {facts}.",
                "King and Intrigue: {n} card facts to enter from your box before the game can start"
                " (Your cards): {facts}.",
                len(out.missing),
            ).format(n=len(out.missing), facts=shown)
        )
    return out


def ki_rules_words(players: int) -> str:
    if not 2 <= players <= 5:
        return _("King and Intrigue takes 2 to 5 players.")
    if players <= 3:
        return _(
            "King and Intrigue on the classic board: Power cards carry the special actions; the Action cards go "
            "by rank (highest: the King's Card, lowest: the Intrigue card); with 2-3 players the King's Card and "
            "Intrigue card offer a choice of actions."
        )
    return _(
        "King and Intrigue on the classic board: Power cards carry the special actions; the Action cards go "
        "by rank (highest: the King's Card, lowest: the Intrigue card)."
    )
