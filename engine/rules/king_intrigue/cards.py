"""King and Intrigue's cards: each colour's Power cards and the Action cards handed out by rank.

The shipped data is engine/data/cards_king_intrigue.json: every fact names its source, and
what no source publishes (most values of the module cards, every card's Caballeros to the
court, which scoring each scoring card is, what each Action card places, which module some
module cards belong to) is null with a note saying where to enter it. A table completes or
corrects it with its own card file, kept in the game's setup (GameSetup.cards_file) so the
game replays the same:

    {"rules": "king-intrigue",
     "power_cards": [{"id": "ki_30", "court": 5, "effect": "decay", "params": {"count": 3}},
                     {"id": "ki_60", "court": 4, "effect": "score_group", "params": {"group": "4"}}],
     "placements": {"4": [1, 2, 3, 4]}, "modules_asked": true}

A module card the text does not place in a module (EITHER_MODULE) is in play with either
module; with only one, the file names its module. A file without "modules_asked" was saved
before that was asked: those cards keep the module they were shipped with then.

A mistake is refused with one line naming the field and the rule (CardFileError). A game
whose cards are incomplete is refused when it starts, naming every missing fact
(`missing_for`); the board still loads, so a card-set screen can show what to enter.

The game's Board is the classic board with `cards` holding the Power and Action cards as
ActionCards (the flow reads effects and parameters from them), `replenish` each known
value's Caballeros to the court, and `ki_cards` this card set.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, NoReturn

from ...board.effect_specs import EFFECT_PARAMS, EFFECT_SPECS, param_problem
from ...board.errors import BoardDataError, CardFileError, DataFileError
from ...board.load import BOARD_LOADERS, load_board
from ...board.merge import CardList, check_rules, file_object, merge_cards, set_card_fields
from ...board.model import ActionCard, Board
from ...effects.none import NO_ACTION  # the 10 and 180 cards: no action of their own

if TYPE_CHECKING:
    from collections.abc import Collection

    from ...board.merge import Fail

RULES = "king-intrigue"
MODULE_IDS = ("players-edition", "special-cards")
# A module card whose module the text does not say (null in the data, its note in `missing`):
# in play with either module; with one module only, the table's card file names it.
EITHER_MODULE = "players-edition or special-cards"
# A card file that answers that question (or is ready to): files saved before it was asked do not say so.
MODULES_ASKED = "modules_asked"
ACTION_CARD_IDS = ("intrigue", "caballero", "kings_card")

# Parameters of the effects King and Intrigue adds (the others are in engine/data/effects.json).
# name -> param -> (min, max, required) for a number, (choices, None, required) for a word,
# (min, max, "list") for a list of numbers (optional).
KI_EFFECT_PARAMS: dict[str, dict[str, tuple]] = {
    NO_ACTION: {},
    "placement_anywhere": {},
    "double_scoring": {},
    "foreign_to_castillo": {"foreign": (1, 10, True), "own": (0, 5, True)},
    "joker": {},
    "field_day": {},
    "alliance": {},
    "fiesta_ki": {},
    "relocate": {},
    "score_own_region": {},
    "score_offered_three": {},
    "revolt": {},
    "quarantine": {"until": (("round", "general_scoring"), None, True)},
    "risk_of_collapse": {"until": (("round", "general_scoring"), None, True)},
    "kings_guard": {},
    "mistress": {},
    "table_for_six": {"seats": (1, 30, True)},
    "civil_war_ki": {"outcome": (("send_back", "to_court"), None, True), "place": (0, 10, True)},
    "hurricane": {"outcome": (("send_back", "to_court"), None, True)},
    "bridge": {},
    "espionage": {},
    "cancel_token": {"values": (1, 999, "list"), "tokens": (0, 1, False)},
}
JOKER = "joker"  # no special action: a second Power card after everyone (rules/king_intrigue.py)
# Effects of the modules' cards, named in the data, that the engine does not play yet.
MODULE_EFFECTS: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PowerCard:
    id: str
    value: int | None
    name: str
    module: str | None
    court: int | None  # Caballeros it brings from the provinces to the court
    effect: str | None
    params: dict
    text: str
    source: str


@dataclass(frozen=True)
class KICardSet:
    power_cards: dict[str, PowerCard]
    action_cards: dict[str, ActionCard]  # intrigue, caballero, kings_card (placement None)
    placements: dict[int, tuple]  # players -> Caballeros each Action card places, left to right
    hand_size: int
    missing: dict[str, str]  # fact path -> what to enter and where
    provenance: dict[str, str]
    left_out: frozenset = frozenset()  # module cards the table leaves in the box
    # Cards shipped after card files were first saved ("opt_in" in the data): in play only once
    # the table's file names them, so a game saved before keeps its set.
    not_opted_in: frozenset = frozenset()
    # Worked out once per module choice: read at every Power card and turn.
    _by_value: dict = field(default_factory=dict, compare=False, repr=False)
    turn_cards: dict = field(default_factory=dict, compare=False, repr=False)  # (id, placement) -> card

    def in_play(self, modules: Collection[str]) -> list[PowerCard]:
        either = any(m in MODULE_IDS for m in modules)
        return [
            c
            for c in self.power_cards.values()
            if (c.module is None or c.module in modules or (c.module == EITHER_MODULE and either))
            and c.id not in self.left_out
            and c.id not in self.not_opted_in
        ]

    def by_value(self, modules: Collection[str]) -> dict[int, PowerCard]:
        """Value -> card of the cards in play with these modules (do not change the result)."""
        key = frozenset(modules)
        found = self._by_value.get(key)
        if found is None:
            found = self._by_value[key] = {c.value: c for c in self.in_play(modules) if c.value is not None}
        return found

    def joker_values(self, modules: Collection[str]) -> frozenset:
        return frozenset(v for v, c in self.by_value(modules).items() if c.effect == JOKER)


def _implemented(effect: str) -> bool:
    from ...effect_registry import EFFECTS  # every effect registered (engine/__init__.py)

    return effect in KI_EFFECT_PARAMS or effect == "choice" or effect in EFFECTS


def _known_effect(effect: str) -> bool:
    return effect in KI_EFFECT_PARAMS or effect in EFFECT_SPECS or effect in MODULE_EFFECTS


def _param_problems(effect: str, params: dict, fail: Fail, where: str) -> None:
    if not isinstance(params, dict):
        fail(f"{where}.params: must be an object of parameter: value")
    if effect in KI_EFFECT_PARAMS:
        spec = KI_EFFECT_PARAMS[effect]
        for name, value in params.items():
            if name not in spec:
                known = ", ".join(spec) or "none"
                fail(f"{where}.params.{name}: not a parameter of effect {effect} (parameters: {known})")
            low, high, kind = spec[name]
            if value is None:
                continue
            if isinstance(low, tuple):
                if value not in low:
                    fail(f"{where}.params.{name}: must be one of {', '.join(low)}")
            elif kind == "list":
                if not isinstance(value, list) or any(
                    not isinstance(x, int) or isinstance(x, bool) or not low <= x <= high for x in value
                ):
                    fail(f"{where}.params.{name}: must be a list of integers {low}..{high}")
            elif not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                fail(f"{where}.params.{name}: must be an integer {low}..{high}")
        return
    effect_spec = EFFECT_SPECS.get(effect)
    if effect_spec is None:
        return
    for name, value in params.items():
        if name not in effect_spec.params:
            known = ", ".join(effect_spec.params) or "none"
            fail(f"{where}.params.{name}: not a parameter of effect {effect} (parameters: {known})")
        if value is not None:
            problem = param_problem(effect_spec.params[name], value)
            if problem:
                fail(f"{where}.params.{name}: {problem}")


def _required_params(effect: str) -> list[str]:
    if effect in KI_EFFECT_PARAMS:
        return [n for n, (_, _, req) in KI_EFFECT_PARAMS[effect].items() if req is True]
    return sorted(EFFECT_PARAMS.get(effect, ()))


_CARD_FIELDS = ("id", "value", "name", "module", "court", "effect", "params", "text", "source")


def _check_card(c: dict, fail: Fail) -> None:
    where = f"power_cards[{c['id']}]"
    for key in c:
        if key not in _CARD_FIELDS + ("missing", "opt_in"):
            fail(f"{where}.{key}: unknown field (card fields: {', '.join(_CARD_FIELDS)})")
    value, court, effect = c.get("value"), c.get("court"), c.get("effect")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 999):
        fail(f"{where}.value: must be an integer 1..999 (the number printed on the card)")
    if court is not None and (not isinstance(court, int) or isinstance(court, bool) or not 0 <= court <= 30):
        fail(f"{where}.court: must be an integer 0..30 (Caballeros the card brings to the court)")
    if effect is not None and (not isinstance(effect, str) or not _known_effect(effect)):
        fail(
            f"{where}.effect: unknown effect {effect!r} (King and Intrigue effects: "
            f"{', '.join(sorted(KI_EFFECT_PARAMS))}, and the base game's in engine/data/effects.json)"
        )
    if c.get("module") is not None and c["module"] not in MODULE_IDS:
        fail(f"{where}.module: unknown module {c['module']!r} (modules: {', '.join(MODULE_IDS)})")
    if effect is not None:
        _param_problems(effect, c.get("params", {}), fail, where)
    for key, given in (("value", value), ("court", court), ("effect", effect)):
        if given is None and key not in c.get("missing", {}):
            fail(f"{where}.{key}: is unknown (null) but the card's missing says nothing about it")


def _check(raw: dict, fail: Fail) -> None:
    ids: set[str] = set()
    values: dict[int, str] = {}
    for c in raw["power_cards"]:
        if c["id"] in ids:
            fail(f"power_cards[{c['id']}]: id used twice (card ids must be unique)")
        ids.add(c["id"])
        _check_card(c, fail)
        v = c.get("value")
        if v is not None:
            if v in values:
                fail(
                    f"power_cards[{c['id']}].value: {v} is also {values[v]}'s value (each value is on one card "
                    "of a colour)"
                )
            values[v] = c["id"]
    for n, row in raw["placements"].items():
        if n not in {"2", "3", "4", "5"}:
            fail(f"placements.{n}: not a player count (2..5)")
        if not isinstance(row, list) or len(row) != int(n):
            fail(
                f"placements.{n}: must list {n} numbers, one per Action card left to right (Intrigue card, "
                "Caballero cards, King's Card)"
            )
        for x in row:
            if x is not None and (not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 10):
                fail(f"placements.{n}: {x!r} is not a number of Caballeros 0..10")


_TABLE_POWER_CARDS = CardList(
    key="power_cards",
    fields=_CARD_FIELDS,
    id_does="a shipped card's id completes it",
    given_words="a card file gives values; leave a field out to keep the shipped one",
    params_given=False,
    empty_id=True,
)


def _merge(raw: dict, table: Any) -> dict:
    def fail(message: str) -> NoReturn:
        raise CardFileError(f"card file: {message}")

    table = file_object(table, fail)
    for key in table:
        if key not in ("rules", "name", "power_cards", "placements", "leave_out", MODULES_ASKED):
            fail(
                f"{key}: unknown field (a King and Intrigue card file may give: rules, name, power_cards, "
                f"placements, leave_out, {MODULES_ASKED})"
            )
    check_rules(table, RULES, fail)

    def merge(card: dict | None, entry: dict) -> dict:
        ident = entry["id"]
        if card is None:
            needs = [k for k in ("value", "court", "effect", "name") if k not in entry]
            if needs:
                fail(f"power_cards[{ident}]: a new card needs {', '.join(needs)} (it is not a shipped card's id)")
            card = {"id": ident, "params": {}, "module": None, "text": "", "missing": {}}
            raw["power_cards"].append(card)
        set_card_fields(card, entry, fail, f"power_cards[{ident}]")
        changed = ", ".join(k for k in entry if k not in ("id", "source"))
        card["source"] = f"table ({changed}); {entry.get('source', card.get('source', ''))}".rstrip("; ")
        return card

    entries = table.get("power_cards", [])
    merge_cards(raw["power_cards"], entries, _TABLE_POWER_CARDS, fail, merge)
    shipped = {c["id"]: c for c in raw["power_cards"]}
    placements = table.get("placements", {})
    if not isinstance(placements, dict):
        fail("placements: must be an object of player count: [numbers left to right]")
    for n, row in placements.items():
        if str(n) not in raw["placements"]:
            fail(f"placements.{n}: not a player count (2..5)")
        if not isinstance(row, list) or any(x is None for x in row):
            fail(f"placements.{n}: must list a number for every Action card, left to right")
        raw["placements"][str(n)] = row
        raw["placements_missing"].pop(str(n), None)
    if table.get(MODULES_ASKED) is not True:
        _modules_as_saved(raw)
    leave_out = table.get("leave_out", [])
    if not isinstance(leave_out, list):
        fail("leave_out: must be a list of card ids (module cards the table leaves in the box)")
    for ident in leave_out:
        card = shipped.get(ident)
        if card is None:
            fail(f"leave_out: {ident!r} is not a card of the set")
        if card.get("module") is None and "module" not in card.get("missing", {}):
            fail(
                f"leave_out: {ident} is a King and Intrigue card: only a module's cards may be left out "
                "(the base game plays all 18)"
            )
    raw["leave_out"] = list(leave_out)
    raw["opted_in"] = [e["id"] for e in entries]
    if "name" in table:
        raw["name"] = table["name"]
    _check(raw, fail)
    return raw


def _modules_as_saved(raw: dict) -> None:
    """A card file saved before the set asked which module each card the text leaves open
    belongs to: those cards keep the module the set shipped them with then, so its games
    replay as they were played."""
    then = raw["module_cards"]["module_then"]
    for c in raw["power_cards"]:
        if c.get("module") is None and c.get("missing", {}).pop("module", None) is not None:
            c["module"] = then
            c["source"] = f"module: {then}, as shipped when this card file was saved; {c.get('source', '')}"


def _build(raw: dict) -> KICardSet:
    power = {}
    missing: dict[str, str] = {}
    provenance: dict[str, str] = {}
    for c in raw["power_cards"]:
        module = EITHER_MODULE if c.get("module") is None and "module" in c.get("missing", {}) else c.get("module")
        power[c["id"]] = PowerCard(
            c["id"],
            c.get("value"),
            c.get("name", c["id"]),
            module,
            c.get("court"),
            c.get("effect"),
            dict(c.get("params", {})),
            c.get("text", ""),
            c.get("source", ""),
        )
        for key, note in c.get("missing", {}).items():
            missing[f"power_cards.{c['id']}.{key}"] = note
        provenance[f"power_cards.{c['id']}"] = c.get("source", "")
    for n, note in raw.get("placements_missing", {}).items():
        missing[f"placements.{n}"] = note
    provenance["placements"] = raw.get("placements_source", "")
    actions = {
        a["id"]: ActionCard(
            a["id"],
            None,
            1,
            a["name"],
            a.get("text", ""),
            a["effect"] or NO_ACTION,
            dict(a.get("params", {})),
            None,
            a.get("source", ""),
            None,
        )
        for a in raw["action_cards"]
    }
    placements = {int(n): tuple(row) for n, row in raw["placements"].items()}
    opted = set(raw.get("opted_in", ()))
    not_opted = frozenset(c["id"] for c in raw["power_cards"] if c.get("opt_in") and c["id"] not in opted)
    return KICardSet(
        power,
        actions,
        placements,
        raw["hand_size"],
        missing,
        provenance,
        frozenset(raw.get("leave_out", ())),
        not_opted,
    )


def _shipped_raw() -> dict:
    return json.loads(resources.files("engine.data").joinpath("cards_king_intrigue.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _shipped() -> KICardSet:
    raw = _shipped_raw()

    def fail(message: str) -> NoReturn:
        raise BoardDataError(f"cards_king_intrigue.json: {message}")

    _check(raw, fail)
    return _build(raw)


def load_ki_cards(cards_file: Any = None) -> KICardSet:
    """The King and Intrigue card set, completed or corrected by a table's card file (a dict)."""
    if cards_file is None:
        return _shipped()
    return _build(_merge(copy.deepcopy(_shipped_raw()), cards_file))


def _as_action_card(c: PowerCard) -> ActionCard:
    return ActionCard(c.id, None, 1, c.name, c.text, c.effect or NO_ACTION, dict(c.params), None, c.source, c.module)


def ki_board(players: int, board_file: Any = None, cards_file: Any = None) -> Board:
    """The classic board with King and Intrigue's cards (see the module's docstring)."""
    classic = load_board("classic", players, board_file, None)
    cards = load_ki_cards(cards_file)
    return _board_with(classic, cards)


def _board_with(classic: Board, cards: KICardSet) -> Board:
    by_id = {c.id: _as_action_card(c) for c in cards.power_cards.values()}
    by_id.update(cards.action_cards)
    replenish = {c.value: c.court for c in cards.power_cards.values() if c.value is not None and c.court is not None}
    board = dataclasses.replace(
        classic,
        name="El Grande (classic board), King and Intrigue",
        cards=by_id,
        replenish=replenish,
        rules=RULES,
        provenance={**classic.provenance, **cards.provenance},
        missing={**classic.missing, **cards.missing},
        ki_cards=cards,
    )
    return board


def missing_for(board: Board, players: int, modules: Collection[str]) -> list[str]:
    """What a game of `players` with `modules` needs and the card set does not give, in words."""
    cards = board.ki_cards
    assert cards is not None, "a King and Intrigue board"
    out = []
    row = cards.placements.get(players)
    if row is None or any(x is None for x in row):
        out.append(cards.missing.get(f"placements.{players}") or f"placements.{players}: not known")
    both = all(m in modules for m in MODULE_IDS)
    for c in cards.in_play(modules):
        if c.module == EITHER_MODULE and not both:
            out.append(
                cards.missing.get(f"power_cards.{c.id}.module")
                or f"{c.name}: its module is not known (card file: power_cards[{c.id}].module)"
            )
        for key in ("value", "court", "effect"):
            if getattr(c, key) is None:
                out.append(
                    cards.missing.get(f"power_cards.{c.id}.{key}")
                    or f"{c.name}: its {key} is not known (card file: power_cards[{c.id}].{key})"
                )
        if c.effect is not None:
            for pname in _required_params(c.effect):
                if c.params.get(pname) is None:
                    out.append(
                        cards.missing.get(f"power_cards.{c.id}.params.{pname}")
                        or f"{c.name}: its {pname} is not known (card file: power_cards[{c.id}].params.{pname})"
                    )
            if not _implemented(c.effect):
                out.append(
                    f"{c.name} ({c.effect}): this engine does not play that card yet; leave it in the box "
                    f"(card file: leave_out) or correct its effect (card file: power_cards[{c.id}].effect)"
                )
    return out


def standin_cards_file() -> dict:
    """Self-play's stand-ins for the facts no source publishes, as a table's card file
    (engine/data/standins_king_intrigue.json). Never used for a game at a table."""
    text = resources.files("engine.data").joinpath("standins_king_intrigue.json").read_text("utf-8")
    return json.loads(text)["cards_file"]


__all__ = ["KICardSet", "PowerCard", "load_ki_cards", "ki_board", "missing_for", "standin_cards_file", "DataFileError"]


BOARD_LOADERS["king-intrigue"] = ki_board
