"""Board and card data: loaded from the JSON files in engine/data, validated once.

The files are the project's own copy of the printed board and cards, one pair per
rule set (`classic`, `2023`), plus `effects.json`, the vocabulary of special-action
effects every card file uses. A table may supply its own board file and card-set
file (the same vocabulary) to complete or correct the shipped data: `load_board`
and `load_cards` merge them in and validate the result exactly like the shipped
files. Pydantic checks the shape; the `_check_*` functions check what a schema
cannot (symmetric adjacency, scoreboards that do not increase, known effects and
their parameters, stack sizes). Every problem is one line naming the field and the
rule it breaks.

The result is a frozen `Board` of plain tuples and dicts, indexed by small
integers, because the engine reads it in hot loops.

Facts the rule books do not publish are never filled with a guess: their value is
None, and `Board.missing` maps the fact's path (e.g. "spaces.france.neighbours") to
a message naming it and how to supply it. `Board.provenance` says where each known
fact comes from (a rule book example, an inference, or "table").
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, ValidationError

CASTILLO = "castillo"
RULE_SETS = ("classic", "2023")
MODULES = ("new-regency", "old-hands")
_FILES = {
    "classic": ("board_classic.json", "action_cards_classic.json"),
    "2023": ("board_2023.json", "action_cards_2023.json"),
}
_SIDES = {"classic": ("classic",), "2023": ("4-5", "2-3")}
_PLAYERS = {"classic": (2, 5), "2023": (2, 5)}  # every side of the rule set together


# ---------------------------------------------------------------- errors


class DataFileError(ValueError):
    """A board, card or effect file breaks a rule; the message is one line naming the field."""


class BoardDataError(DataFileError):
    """The packaged board or card data is inconsistent (a bug in the data files)."""


class BoardFileError(DataFileError):
    """A board file supplied by the table breaks a rule."""


class CardFileError(DataFileError):
    """A card-set file supplied by the table breaks a rule."""


class RuleSetError(ValueError):
    """An unknown rule set, or a player count the rule set does not take."""


class MissingFactError(ValueError):
    """Something needs a fact the rule book does not publish and the table has not entered."""

    def __init__(self, path: str, message: str):
        super().__init__(message)
        self.path = path


# ---------------------------------------------------------------- the effect vocabulary


class _ParamSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["int", "bool", "str", "list"]
    required: bool
    meaning: str
    values: list[str] | None = None
    min: int | None = None
    max: int | None = None


class _RuleText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    book: Literal["classic 1995", "2023"]
    text: str = Field(min_length=1)


class EffectSpec(BaseModel):
    """One effect of engine/data/effects.json: its parameters, the rule text, the rule sets using it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    params: dict[str, _ParamSpec]
    rule_text: list[_RuleText] = Field(min_length=1)
    rules: list[Literal["classic", "2023"]] = Field(min_length=1)
    notes: str = ""


class _EffectsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    about: str
    effects: list[EffectSpec]


def _read_json(name: str) -> Any:
    return json.loads(resources.files("engine.data").joinpath(name).read_text("utf-8"))


def _load_effects() -> dict[str, EffectSpec]:
    specs = _EffectsFile.model_validate(_read_json("effects.json")).effects
    by_name = {s.name: s for s in specs}
    if len(by_name) != len(specs):
        raise BoardDataError("effects.json: an effect is listed twice")
    for spec in specs:
        for pname, p in spec.params.items():
            if (p.type in ("int", "list")) != (p.min is not None and p.max is not None):
                raise BoardDataError(
                    f"effects[{spec.name}].params.{pname}: int and list parameters need min and max, others none"
                )
    return by_name


# The vocabulary of effects, by name (engine/data/effects.json).
EFFECT_SPECS: dict[str, EffectSpec] = _load_effects()

# Effects with the parameters every card of that effect must state (optional ones left out).
EFFECT_PARAMS: dict[str, set[str]] = {
    name: {p for p, s in spec.params.items() if s.required} for name, spec in EFFECT_SPECS.items()
}


def _param_problem(spec: _ParamSpec, value: Any) -> str | None:
    """Why `value` is not allowed for a parameter, or None."""
    if spec.type == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if spec.type == "int":
        ok = isinstance(value, int) and not isinstance(value, bool) and spec.min <= value <= spec.max
        return None if ok else f"must be an integer {spec.min}..{spec.max}"
    if spec.type == "str":
        if isinstance(value, str) and (spec.values is None or value in spec.values):
            return None
        return "must be one of " + ", ".join(f'"{v}"' for v in spec.values or [])
    allowed = ", ".join(f'"{v}"' for v in spec.values or [])
    if not isinstance(value, list) or not spec.min <= len(value) <= spec.max:
        return f"must be a list of {spec.min} to {spec.max} of {allowed}"
    bad = [v for v in value if not isinstance(v, str) or (spec.values and v not in spec.values)]
    return f"must list only {allowed} (not {bad[0]!r})" if bad else None


# ---------------------------------------------------------------- file schemas


def _three_places(values: list[int]) -> tuple[int, int, int]:
    if len(values) != 3:
        raise ValueError(f"must be three integers (points for 1st, 2nd, 3rd place), not {len(values)}")
    return tuple(values)  # type: ignore[return-value]


Scoreboard = Annotated[list[StrictInt], AfterValidator(_three_places)]


class _RegionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    name: str
    scoreboard: Scoreboard | None
    neighbours: list[str]


class _SpaceFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    name: str
    neighbours: list[str] | None


class _CastilloFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    scoreboard: Scoreboard | None


class _PlayersFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    min: StrictInt = Field(ge=2, le=5)
    max: StrictInt = Field(ge=2, le=5)
    colours: list[str] = Field(min_length=1)


class _OtherSide(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: dict[Literal["min", "max"], StrictInt]
    scoring_places: StrictInt = Field(ge=1, le=3)
    source: str


class _BoardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    rules: Literal["classic", "2023"] = "classic"
    side: Literal["classic", "4-5", "2-3"] = "classic"
    caballeros_per_player: StrictInt = Field(gt=0)
    setup: dict[Literal["home_region_caballeros", "court_caballeros"], StrictInt]
    regions: list[_RegionFile] = Field(min_length=2)
    spaces: list[_SpaceFile] = []
    castillo: _CastilloFile
    scoring_groups: dict[str, list[StrictInt]]
    scoring_places: StrictInt = Field(default=3, ge=1, le=3)
    power_cards: dict[int, StrictInt]
    mobile_scoreboards: dict[str, Scoreboard]
    scoring_tiles: dict[str, Scoreboard | None] = {}
    rounds: dict[Literal["full", "short", "general_scoring_after"], list[StrictInt]]
    players: _PlayersFile
    other_sides: dict[Literal["2-3"], _OtherSide] = {}
    provenance: dict[str, str] = {}
    missing: dict[str, str] = {}


class _CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    stack: StrictInt | None = Field(ge=1, le=5)
    copies: StrictInt | None = Field(ge=1, le=10)
    name: str = Field(min_length=1)
    text: str = ""
    effect: str
    params: dict[str, Any] = {}
    source: str = ""
    module: str | None = None
    placement: StrictInt | None = Field(default=None, ge=0, le=10)
    missing: dict[str, str] = {}


class _ModuleFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stack_sizes: dict[int, StrictInt]


class _CardsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    rules: Literal["classic", "2023"] = "classic"
    placements: dict[int, StrictInt]
    stack_sizes: dict[int, StrictInt] | None = None
    modules: dict[str, _ModuleFile] = {}
    provenance: dict[str, str] = {}
    cards: list[_CardFile]


# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ActionCard:
    id: str
    stack: int | None  # None: the rule book does not show it (see Board.missing)
    copies: int | None  # None: not published
    name: str
    text: str
    effect: str
    params: dict[str, Any]
    placement: int | None  # Caballeros the card lets you place from the court; None: unknown
    source: str = ""  # "rule book ...", "inferred: ...", or "table ..."
    module: str | None = None  # None (base game), "new-regency" or "old-hands"


@dataclass(frozen=True)
class CardSet:
    """A rule set's action cards, with the facts about them that are known and missing."""

    rules: str
    name: str
    cards: dict[str, ActionCard]
    placements: dict[int, int]  # stack -> Caballeros a card of that stack places
    stack_sizes: dict[int, int]  # base game: stack -> cards in it
    module_stack_sizes: dict[str, dict[int, int]]  # module -> stack -> its cards
    provenance: dict[str, str]
    missing: dict[str, str]


@dataclass(frozen=True)
class Board:
    """Everything printed on the board and the cards, as fast lookups.

    Areas are indexed 0..R-1 for the regions, R for the Castillo, and R+1.. for the
    spaces (France, Portugal) that are not regions. `regions`, `castillo`,
    `neighbours`, `scoreboards` and a state's counts cover regions + Castillo only.
    """

    name: str
    region_ids: tuple[str, ...]
    region_names: tuple[str, ...]
    neighbours: tuple[frozenset[int], ...]  # per region: neighbouring regions (never a space)
    scoreboards: tuple[tuple[int, int, int] | None, ...]  # per area, Castillo last; None: unknown
    scoring_groups: dict[str, frozenset[int]]
    replenish: dict[int, int]  # power card value -> Caballeros to the court
    mobile_scoreboards: dict[str, tuple[int, int, int]]
    caballeros_per_player: int
    home_caballeros: int
    court_caballeros: int
    round_schedules: dict[str, tuple[int, ...]]
    general_scoring_after: frozenset[int]
    min_players: int
    max_players: int
    colours: tuple[str, ...]
    cards: dict[str, ActionCard]
    area_index: dict[str, int] = field(default_factory=dict)
    rules: str = "classic"
    side: str = "classic"
    space_ids: tuple[str, ...] = ()
    space_names: tuple[str, ...] = ()
    space_neighbours: tuple[frozenset[int] | None, ...] = ()  # per space: regions; None: unknown
    scoring_places: int = 3  # places a scoreboard pays (2023, 2-3 players: 2)
    scoring_tiles: dict[str, tuple[int, int, int] | None] = field(default_factory=dict)
    stack_sizes: dict[int, int] = field(default_factory=dict)
    module_stack_sizes: dict[str, dict[int, int]] = field(default_factory=dict)
    provenance: dict[str, str] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)

    # Read in every hot loop: computed once per board (a frozen dataclass keeps them in its
    # __dict__; the fields they come from never change).
    @cached_property
    def castillo(self) -> int:
        return len(self.region_ids)

    @cached_property
    def regions(self) -> range:
        return range(len(self.region_ids))

    @property
    def spaces(self) -> range:
        return range(self.castillo + 1, self.castillo + 1 + len(self.space_ids))

    def area_id(self, index: int) -> str:
        if index < self.castillo:
            return self.region_ids[index]
        return CASTILLO if index == self.castillo else self.space_ids[index - self.castillo - 1]

    def area_name(self, index: int) -> str:
        if index < self.castillo:
            return self.region_names[index]
        return "Castillo" if index == self.castillo else self.space_names[index - self.castillo - 1]

    def stack_cards(self, stack: int) -> list[ActionCard]:
        return [c for c in self.cards.values() if c.stack == stack]

    def need(self, path: str) -> None:
        """Raise MissingFactError if the fact at `path` (or any fact under it) is unknown."""
        for key, message in self.missing.items():
            if key == path or key.startswith(path + "."):
                raise MissingFactError(key, message)


# ---------------------------------------------------------------- pydantic errors as one line

_LISTS_BY_ID = ("regions", "spaces", "cards")


def _field_path(loc: tuple[Any, ...], raw: Any) -> str:
    parts: list[str] = []
    node = raw
    for item in loc:
        if isinstance(item, str) and ("[" in item or item.startswith("function-")):
            continue  # pydantic's type tags, not part of the file
        if isinstance(item, int) and parts and parts[-1] in _LISTS_BY_ID:
            entry = node[item] if isinstance(node, list) and item < len(node) else None
            ident = entry.get("id") if isinstance(entry, dict) else None
            parts[-1] += f"[{ident if isinstance(ident, str) else item}]"
            node = entry
            continue
        if isinstance(item, int) and parts:
            parts[-1] += f"[{item}]"
        else:
            parts.append(str(item))
        node = node.get(item) if isinstance(node, dict) else None
    return ".".join(parts) or "(top level)"


_PYDANTIC_TEXT = {
    "missing": "is required",
    "extra_forbidden": "unknown field",
    "int_type": "must be an integer",
    "int_parsing": "must be an integer",
    "int_from_float": "must be an integer",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be a text",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "tuple_type": "must be a list",
    "less_than_equal": "must be at most {le}",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "less_than": "must be less than {lt}",
    "string_pattern_mismatch": "must match {pattern} (lowercase letters, digits, _)",
    "too_short": "needs at least {min_length} entries",
    "literal_error": "must be one of {expected}",
}


def _error_text(error: dict[str, Any]) -> str:
    template = _PYDANTIC_TEXT.get(error["type"])
    if template:
        return template.format(**error.get("ctx", {}))
    message = str(error["msg"]).removeprefix("Value error, ")
    return message[:1].lower() + message[1:]


def _one_line(exc: ValidationError, raw: Any, what: str) -> str:
    errors = exc.errors()
    first = errors[0]
    more = f" (and {len(errors) - 1} more problem{'s' * (len(errors) > 2)})" if len(errors) > 1 else ""
    return f"{what}: {_field_path(first['loc'], raw)}: {_error_text(first)}{more}"


def _parse(model: type[BaseModel], raw: Any, err: type[DataFileError], what: str) -> Any:
    if not isinstance(raw, dict):
        raise err(f"{what}: must be a JSON object, not {type(raw).__name__}")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise err(_one_line(exc, raw, what)) from None


# ---------------------------------------------------------------- board checks


def _board_facts(data: _BoardFile) -> dict[str, Any]:
    """Every fact of a board, by path, with its value (None: unknown)."""
    facts: dict[str, Any] = {"regions": [r.id for r in data.regions], "scoring_order": [r.id for r in data.regions]}
    if data.spaces:
        facts["spaces"] = [s.id for s in data.spaces]
    for r in data.regions:
        facts[f"regions.{r.id}.scoreboard"] = r.scoreboard
        facts[f"regions.{r.id}.neighbours"] = r.neighbours
    facts["castillo.scoreboard"] = data.castillo.scoreboard
    for s in data.spaces:
        facts[f"spaces.{s.id}.neighbours"] = s.neighbours
    facts.update({f"scoring_groups.{k}": v for k, v in data.scoring_groups.items()})
    facts["scoring_places"] = data.scoring_places
    facts.update({f"power_cards.{k}": v for k, v in data.power_cards.items()})
    facts["mobile_scoreboards"] = data.mobile_scoreboards
    facts.update({f"scoring_tiles.{k}": v for k, v in data.scoring_tiles.items()})
    facts.update({f"rounds.{k}": v for k, v in data.rounds.items()})
    facts["players"] = (data.players.min, data.players.max)
    facts["players.colours"] = data.players.colours
    facts["caballeros_per_player"] = data.caballeros_per_player
    facts.update({f"setup.{k}": v for k, v in data.setup.items()})
    return facts


def _check_ids(data: _BoardFile, fail) -> None:
    ids = [r.id for r in data.regions] + [s.id for s in data.spaces]
    for i, ident in enumerate(ids):
        kind = "regions" if i < len(data.regions) else "spaces"
        if ident == CASTILLO:
            fail(f"{kind}[castillo]: 'castillo' is the Castillo, not a region or space")
        if ident in ids[:i]:
            fail(f"{kind}[{ident}]: id used twice (region and space ids must be unique)")


def _check_adjacency(data: _BoardFile, fail) -> None:
    by_id = {r.id: r for r in data.regions}
    spaces = {s.id for s in data.spaces}
    for r in data.regions:
        where = f"regions[{r.id}].neighbours"
        for n in r.neighbours:
            if n in spaces:
                fail(
                    f"{where}: {n} is a space, not a region (a space's neighbours are given "
                    f"on the space: spaces[{n}].neighbours)"
                )
            if n not in by_id:
                fail(f"{where}: unknown neighbour {n!r} (regions: {', '.join(by_id)})")
            if n == r.id:
                fail(f"{where}: a region does not neighbour itself")
        if len(set(r.neighbours)) != len(r.neighbours):
            fail(f"{where}: a neighbour is listed twice")
    for r in data.regions:
        for other in data.regions:
            if r.id in other.neighbours and other.id not in r.neighbours:
                fail(
                    f"regions[{r.id}].neighbours: {other.id} lists {r.id} but {r.id} does not list {other.id}: "
                    "adjacency is not symmetric (every border is listed on both sides)"
                )
    for s in data.spaces:
        for n in s.neighbours or ():
            if n not in by_id:
                fail(f"spaces[{s.id}].neighbours: {n!r} is not a region (regions: {', '.join(by_id)})")
        if s.neighbours is not None and len(set(s.neighbours)) != len(s.neighbours):
            fail(f"spaces[{s.id}].neighbours: a neighbour is listed twice")
        if s.neighbours is not None and not s.neighbours:
            # Exile: "The neighboring regions to France and Portugal work the same way as usual".
            fail(
                f"spaces[{s.id}].neighbours: empty; list the regions it borders on your board "
                "(or leave the field out while they are not known)"
            )


def _check_scoreboard(where: str, board: tuple[int, int, int] | None, fail) -> None:
    if board is None:
        return
    if min(board) < 0:
        fail(f"{where}: {list(board)}: points may not be negative")
    if list(board) != sorted(board, reverse=True):
        fail(f"{where}: {list(board)}: scoreboard must not increase (1st >= 2nd >= 3rd place)")


def _check_scoreboards(data: _BoardFile, fail) -> None:
    for r in data.regions:
        _check_scoreboard(f"regions[{r.id}].scoreboard", r.scoreboard, fail)
    _check_scoreboard("castillo.scoreboard", data.castillo.scoreboard, fail)
    for key, board in data.mobile_scoreboards.items():
        _check_scoreboard(f"mobile_scoreboards.{key}", board, fail)
    for key, board in data.scoring_tiles.items():
        _check_scoreboard(f"scoring_tiles.{key}", board, fail)
    for key, tops in data.scoring_groups.items():
        if not tops:
            fail(f"scoring_groups.{key}: names no first-place value")


def _check_rest(data: _BoardFile, fail) -> None:
    if sorted(data.power_cards) != list(range(1, len(data.power_cards) + 1)):
        fail("power_cards: power cards must be numbered 1..N")
    for value, caballeros in data.power_cards.items():
        if not 0 <= caballeros <= data.caballeros_per_player:
            fail(f"power_cards.{value}: {caballeros} Caballeros is not 0..{data.caballeros_per_player}")
    full = data.rounds.get("full")
    if full is None or "general_scoring_after" not in data.rounds:
        fail("rounds: needs 'full' and 'general_scoring_after'")
    for name, rounds in data.rounds.items():
        if rounds != sorted(set(rounds)) or not set(rounds) <= set(full):
            fail(f"rounds.{name}: must be rounds of the full game in increasing order")
    if data.players.min > data.players.max:
        fail(f"players: min {data.players.min} is more than max {data.players.max}")
    if (data.side == "classic") != (data.rules == "classic"):
        fail(f"side: {data.side!r} is not a side of the {data.rules} board (sides: {', '.join(_SIDES[data.rules])})")


def _check_missing(data: _BoardFile, fail) -> None:
    """Every unknown fact has a note saying so; no note stands for a known fact."""
    facts = _board_facts(data)
    for path, value in facts.items():
        if value is None and path not in data.missing:
            fail(
                f"{_file_path(path)}: is unknown (null) but missing.{path} says nothing about it "
                "(an unknown fact needs a note naming it)"
            )
    for path in data.missing:
        if path not in facts:
            fail(f"missing.{path}: no such fact on this board")
        if facts[path] is not None:
            fail(f"missing.{path}: the fact is given, so it is not missing")
    if data.rules != "classic":
        for path, value in facts.items():
            if value is not None and path not in data.provenance:
                fail(f"provenance.{path}: says nothing; every fact of the {data.rules} board names its source")
    for path in data.provenance:
        if path not in facts:
            fail(f"provenance.{path}: no such fact on this board")


def _file_path(fact: str) -> str:
    """'regions.galicia.scoreboard' -> 'regions[galicia].scoreboard' (how a file names it)."""
    head, _, rest = fact.partition(".")
    if head in ("regions", "spaces") and rest:
        ident, _, tail = rest.partition(".")
        return f"{head}[{ident}]" + (f".{tail}" if tail else "")
    return fact


def _check_board(data: _BoardFile, err: type[DataFileError] = BoardDataError) -> None:
    def fail(message: str) -> None:
        raise err(message)

    _check_ids(data, fail)
    _check_adjacency(data, fail)
    _check_scoreboards(data, fail)
    _check_rest(data, fail)
    _check_missing(data, fail)


# ---------------------------------------------------------------- card checks


def _check_card_params(c: _CardFile, fail, where: str) -> None:
    spec = EFFECT_SPECS[c.effect]
    needed = sorted(EFFECT_PARAMS[c.effect] - set(c.params))
    if needed:
        fail(
            f"{where}.params: effect {c.effect} needs {', '.join(needed)} "
            f"({'; '.join(f'{p}: {spec.params[p].meaning}' for p in needed)})"
        )
    for pname, value in c.params.items():
        if pname not in spec.params:
            fail(
                f"{where}.params.{pname}: not a parameter of effect {c.effect} "
                f"(parameters: {', '.join(spec.params) or 'none'})"
            )
        if value is None:
            if f"params.{pname}" not in c.missing:
                fail(
                    f"{where}.params.{pname}: is unknown (null) but the card's missing says nothing "
                    "about it (an unknown value needs a note)"
                )
            continue
        problem = _param_problem(spec.params[pname], value)
        if problem:
            fail(f"{where}.params.{pname}: {problem}")


def _check_card_fields(c: _CardFile, cards: _CardsFile, fail, where: str) -> None:
    if c.effect not in EFFECT_SPECS:
        fail(f"{where}.effect: unknown effect {c.effect!r} (effects: {', '.join(EFFECT_SPECS)})")
    rule_sets = EFFECT_SPECS[c.effect].rules
    if cards.rules not in rule_sets:
        fail(
            f"{where}.effect: {c.effect} is not an effect of the {cards.rules} rules "
            f"(it belongs to: {', '.join(rule_sets)})"
        )
    _check_card_params(c, fail, where)
    unknown = {"stack": c.stack, "copies": c.copies}
    if "placement" in c.model_fields_set:
        unknown["placement"] = c.placement
    for name, value in unknown.items():
        if value is None and name not in c.missing:
            fail(
                f"{where}.{name}: is unknown (null) but the card's missing says nothing about it "
                "(an unknown value needs a note)"
            )
    for key in c.missing:
        known = key.removeprefix("params.") in c.params if key.startswith("params.") else key in unknown
        value = c.params.get(key[7:]) if key.startswith("params.") else unknown.get(key)
        if not known or value is not None:
            fail(f"{where}.missing.{key}: the value is given (or there is no such field), so it is not missing")
    if c.module is not None and c.module not in cards.modules:
        fail(f"{where}.module: unknown module {c.module!r} (modules: {', '.join(cards.modules) or 'none'})")
    if c.stack is not None and c.stack not in cards.placements:
        fail(f"{where}.stack: stack {c.stack} has no placement number (placements)")
    sizes = cards.modules[c.module].stack_sizes if c.module else cards.stack_sizes
    if c.stack is not None and sizes is not None and c.stack not in sizes:
        owner = f"module {c.module}" if c.module else "the base game"
        fail(f"{where}.stack: {owner} has no stack {c.stack} (stacks: {', '.join(map(str, sizes))})")


def _stack_counts(cards: _CardsFile) -> dict[tuple[str | None, int], tuple[int, int, list[str]]]:
    """(module, stack) -> (cards at least, cards known, ids); unknown copies count 1 at least, 0 known
    (an id is marked "?" then)."""
    counts: dict[tuple[str | None, int], tuple[int, int, list[str]]] = {}
    for c in cards.cards:
        if c.stack is None:
            continue
        least, known, ids = counts.get((c.module, c.stack), (0, 0, []))
        label = c.id if c.copies else f"{c.id} ×?"
        counts[(c.module, c.stack)] = (least + (c.copies or 1), known + (c.copies or 0), ids + [label])
    return counts


def _check_stack_sizes(cards: _CardsFile, fail) -> None:
    if cards.stack_sizes is None:  # classic: the cards make the stacks
        if {c.stack for c in cards.cards} != set(cards.placements):
            fail("cards: every stack needs at least one card")
        return
    for (module, stack), (least, _, ids) in _stack_counts(cards).items():
        size = (cards.modules[module].stack_sizes if module else cards.stack_sizes)[stack]
        if least > size:
            where = f"modules.{module}.stack_sizes.{stack}" if module else f"stack_sizes.{stack}"
            fail(
                f"cards: stack {stack}{f' of {module}' if module else ''} would hold at least {least} cards "
                f"({', '.join(ids)}) but holds {size} ({where})"
            )


def _check_cards(cards: _CardsFile, err: type[DataFileError] = BoardDataError) -> None:
    def fail(message: str) -> None:
        raise err(message)

    seen: set[str] = set()
    for c in cards.cards:
        if c.id in seen:
            fail(f"cards[{c.id}]: id used twice (card ids must be unique)")
        seen.add(c.id)
        _check_card_fields(c, cards, fail, f"cards[{c.id}]")
    _check_stack_sizes(cards, fail)
    if cards.rules == "2023" and any(m not in MODULES for m in cards.modules):
        fail(f"modules: the 2023 modules with cards are {', '.join(MODULES)}")


def _cards_missing(cards: _CardsFile) -> dict[str, str]:
    """The card facts not known: each card's notes, and stacks with fewer known cards than they hold."""
    missing = {f"cards.{c.id}.{k}": note for c in cards.cards for k, note in c.missing.items()}
    if cards.stack_sizes is None:
        return missing
    counts = _stack_counts(cards)
    no_stack = sum(1 for c in cards.cards if c.stack is None)
    groups = [(None, cards.stack_sizes)] + [(m, f.stack_sizes) for m, f in cards.modules.items()]
    for module, sizes in groups:
        for stack, size in sizes.items():
            _, known, ids = counts.get((module, stack), (0, 0, []))
            if known < size:
                key = f"modules.{module}.stacks.{stack}" if module else f"stacks.{stack}"
                missing[key] = _stack_note(module, stack, size, known, ids, 0 if module else no_stack)
    return missing


def _stack_note(module: str | None, stack: int, size: int, known: int, ids: list[str], no_stack: int) -> str:
    whose = f"The {module} module's stack {stack}" if module else f"Stack {stack}"
    listed = f" (listed: {', '.join(ids)}; ×? = copies unknown)" if ids else ""
    loose = f"; {no_stack} listed cards have no known stack yet" if no_stack else ""
    where = f"stack {stack}" + (f' and module "{module}"' if module else "")
    return (
        f"{whose} holds {size} card{'s' * (size > 1)}; the card set accounts for {known}{listed}{loose}: "
        f"enter the others from your cards (card file: cards[] with {where})"
    )


# ---------------------------------------------------------------- building


def _card_set(cards: _CardsFile) -> CardSet:
    sizes = cards.stack_sizes
    if sizes is None:
        sizes = {}
        for c in cards.cards:
            sizes[c.stack] = sizes.get(c.stack, 0) + (c.copies or 0)
    built = {}
    for c in cards.cards:
        placement = c.placement if "placement" in c.model_fields_set else cards.placements.get(c.stack)
        built[c.id] = ActionCard(
            c.id, c.stack, c.copies, c.name, c.text, c.effect, dict(c.params), placement, c.source, c.module
        )
    provenance = dict(cards.provenance)
    provenance.update({f"cards.{c.id}": c.source for c in cards.cards if c.source})
    return CardSet(
        rules=cards.rules,
        name=cards.name,
        cards=built,
        placements=dict(cards.placements),
        stack_sizes=dict(sorted(sizes.items())),
        module_stack_sizes={m: dict(f.stack_sizes) for m, f in cards.modules.items()},
        provenance=provenance,
        missing=_cards_missing(cards),
    )


def _board(data: _BoardFile, card_set: CardSet) -> Board:
    ids = tuple(r.id for r in data.regions)
    index = {rid: i for i, rid in enumerate(ids)}
    index[CASTILLO] = len(ids)
    index.update({s.id: len(ids) + 1 + i for i, s in enumerate(data.spaces)})
    return Board(
        name=data.name,
        region_ids=ids,
        region_names=tuple(r.name for r in data.regions),
        neighbours=tuple(frozenset(index[n] for n in r.neighbours) for r in data.regions),
        scoreboards=tuple(r.scoreboard for r in data.regions) + (data.castillo.scoreboard,),
        scoring_groups={k: frozenset(v) for k, v in data.scoring_groups.items()},
        replenish=dict(data.power_cards),
        mobile_scoreboards=dict(data.mobile_scoreboards),
        caballeros_per_player=data.caballeros_per_player,
        home_caballeros=data.setup["home_region_caballeros"],
        court_caballeros=data.setup["court_caballeros"],
        round_schedules={k: tuple(v) for k, v in data.rounds.items() if k != "general_scoring_after"},
        general_scoring_after=frozenset(data.rounds["general_scoring_after"]),
        min_players=data.players.min,
        max_players=data.players.max,
        colours=tuple(data.players.colours),
        cards=card_set.cards,
        area_index=index,
        rules=data.rules,
        side=data.side,
        space_ids=tuple(s.id for s in data.spaces),
        space_names=tuple(s.name for s in data.spaces),
        space_neighbours=tuple(
            None if s.neighbours is None else frozenset(index[n] for n in s.neighbours) for s in data.spaces
        ),
        scoring_places=data.scoring_places,
        scoring_tiles=dict(data.scoring_tiles),
        stack_sizes=card_set.stack_sizes,
        module_stack_sizes=card_set.module_stack_sizes,
        provenance={**data.provenance, **card_set.provenance},
        missing={**data.missing, **card_set.missing},
    )


def build_board(board_json: Any, cards_json: Any) -> Board:
    """A Board from a board file and a card file (the packaged data: a schema error is pydantic's)."""
    data = _BoardFile.model_validate(board_json)
    cards = _CardsFile.model_validate(cards_json)
    _check_board(data)
    _check_cards(cards)
    _check_same_rules(data.rules, cards.rules, BoardDataError)
    return _board(data, _card_set(cards))


def _check_same_rules(board_rules: str, card_rules: str, err: type[DataFileError]) -> None:
    if board_rules != card_rules:
        raise err(f"rules: a {board_rules} board cannot take a {card_rules} card set")


@lru_cache(maxsize=1)
def classic_board() -> Board:
    """The classic 1995 board and its 45 action cards."""
    return build_board(_read_json("board_classic.json"), _read_json("action_cards_classic.json"))


# ---------------------------------------------------------------- sides and table files


def side_for(rules: str, players: int) -> str:
    """The side of the board a game of `players` uses under `rules`."""
    if rules not in RULE_SETS:
        raise RuleSetError(f"rules: unknown rule set {rules!r} (rule sets: {', '.join(RULE_SETS)})")
    low, high = _PLAYERS[rules]
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise RuleSetError(f"players: {players!r} given; the {rules} rules take {low} to {high} players")
    if rules == "classic":
        return "classic"
    return "2-3" if players <= 3 else "4-5"


@lru_cache(maxsize=8)
def player_range(rules: str) -> tuple[int, int]:
    """The fewest and most players `rules` takes, on any side of its board (its board file's
    `players`, and each other side's): the seats a new game may fill."""
    own = BOARD_LOADERS.get(rules)
    if own is not None:  # King and Intrigue: its own board (the classic one)
        board = own(4, None, None)
        return board.min_players, board.max_players
    side_for(rules, 4)  # names an unknown rule set
    raw = _read_json(_FILES[rules][0])
    ranges = [raw["players"]] + [s["players"] for s in raw.get("other_sides", {}).values() if "players" in s]
    return min(r["min"] for r in ranges), max(r["max"] for r in ranges)


def _side_json(rules: str, side: str) -> dict[str, Any]:
    """The shipped board file of a side. The 2023 2-3 player side is not published: it is the
    4-5 side's map with every scoreboard unknown (named in `missing`)."""
    raw = copy.deepcopy(_read_json(_FILES[rules][0]))
    if side == raw.get("side", "classic"):
        return raw
    other = raw["other_sides"].pop(side)
    shown = raw["side"]
    raw.update(
        side=side,
        scoring_places=other["scoring_places"],
        name=raw["name"].replace(shown, side),
        players={**raw["players"], **other["players"]},
    )
    raw["provenance"].update(scoring_places=other["source"], players=other["source"])
    areas = [(f"regions.{r['id']}", f"regions[{r['id']}]", r["name"], r) for r in raw["regions"]]
    areas.append(("castillo", "castillo", "the Castillo", raw["castillo"]))
    for path, file_path, name, area in areas:
        area["scoreboard"] = None
        raw["provenance"].pop(f"{path}.scoreboard")
        raw["missing"][f"{path}.scoreboard"] = (
            f"{name}'s Scoring board on the {side} player side is not known (the rule book does not print it): "
            f"enter its numbers for 1st, 2nd and 3rd place from your board (board file: {file_path}.scoreboard)"
        )
    for r in raw["regions"]:
        key = f"regions.{r['id']}.neighbours"
        raw["provenance"][key] = (
            f"inferred: the {side} side taken to show the same map as the {shown} side "
            f"(the rule book shows one map); {shown} side: {raw['provenance'][key]}"
        )
    return raw


_TABLE_BOARD_FIELDS = (
    "rules",
    "side",
    "name",
    "regions",
    "spaces",
    "castillo",
    "scoring_tiles",
    "power_cards",
    "provenance",
)
_TABLE_ENTRY_FIELDS = {
    "regions": ("id", "name", "scoreboard", "neighbours"),
    "spaces": ("id", "name", "neighbours"),
    "castillo": ("name", "scoreboard"),
}


def _table_note(table: dict[str, Any], path: str) -> str:
    note = (table.get("provenance") or {}).get(path)
    return f"table: {note}" if isinstance(note, str) and note else "table"


def _merge_entries(raw: dict[str, Any], table: dict[str, Any], kind: str, given: list[str], fail) -> None:
    entries = table.get(kind, [])
    if not isinstance(entries, list):
        fail(f'{kind}: must be a list of {{"id": ..., field: value}} entries')
    by_id = {e["id"]: e for e in raw.get(kind, [])}
    for n, entry in enumerate(entries):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str):
            fail(f'{kind}[{n}]: needs an "id" naming one of the board\'s {kind}')
        if ident not in by_id:
            fail(f"{kind}[{ident}]: not one of the board's {kind} ({', '.join(by_id) or 'none'})")
        for key, value in entry.items():
            if key not in _TABLE_ENTRY_FIELDS[kind]:
                fail(
                    f"{kind}[{ident}].{key}: unknown field (a board file may give: "
                    f"{', '.join(_TABLE_ENTRY_FIELDS[kind][1:])})"
                )
            if key != "id":
                _given(value, f"{kind}[{ident}].{key}", fail)
                by_id[ident][key] = value
                given.append(f"{kind}.{ident}.{key}")


def _given(value: Any, where: str, fail) -> None:
    if value is None:
        fail(f"{where}: a board or card file gives values; leave a field out to keep the shipped one")


def _merge_board_file(raw: dict[str, Any], table: Any) -> dict[str, Any]:
    def fail(message: str) -> None:
        raise BoardFileError(f"board file: {message}")

    if not isinstance(table, dict):
        fail(f"must be a JSON object, not {type(table).__name__}")
    for key in table:
        if key not in _TABLE_BOARD_FIELDS:
            fail(
                f"{key}: unknown field or one a table cannot change (a board file may give: "
                f"{', '.join(_TABLE_BOARD_FIELDS)})"
            )
    for key in ("rules", "side"):
        if key in table and table[key] != raw.get(key, "classic"):
            fail(f"{key}: the file is for {key} {table[key]!r}, but this game uses {raw.get(key, 'classic')!r}")
    given: list[str] = []
    _merge_entries(raw, table, "regions", given, fail)
    _merge_entries(raw, table, "spaces", given, fail)
    for key, value in (table.get("castillo") or {}).items():
        if key not in _TABLE_ENTRY_FIELDS["castillo"]:
            fail(f"castillo.{key}: unknown field (a board file may give: name, scoreboard)")
        _given(value, f"castillo.{key}", fail)
        raw["castillo"][key] = value
        given.append(f"castillo.{key}")
    for kind in ("scoring_tiles", "power_cards"):
        entries = table.get(kind, {})
        if not isinstance(entries, dict):
            fail(f"{kind}: must be an object")
        for key, value in entries.items():
            if str(key) not in {str(k) for k in raw.get(kind, {})}:
                known = ", ".join(map(str, raw.get(kind, {}))) or "none"
                fail(f"{kind}.{key}: not one of the board's {kind} ({known})")
            _given(value, f"{kind}.{key}", fail)
            raw[kind][str(key)] = value
            given.append(f"{kind}.{key}")
    if "name" in table:
        raw["name"] = table["name"]
    notes = table.get("provenance", {})
    if not isinstance(notes, dict) or any(p not in given for p in notes):
        stray = next((p for p in notes if p not in given), None) if isinstance(notes, dict) else None
        fail(f"provenance{'.' + stray if stray else ''}: notes only facts the file gives")
    raw.setdefault("provenance", {})
    raw.setdefault("missing", {})
    for path in given:
        if path.endswith(".name"):
            continue
        raw["missing"].pop(path, None)
        raw["provenance"][path] = _table_note(table, path)
    return raw


_TABLE_CARD_FIELDS = ("id", "stack", "copies", "name", "text", "effect", "params", "source", "module", "placement")


def _merge_card_file(raw: dict[str, Any], table: Any, spade_printed: bool = True) -> dict[str, Any]:
    def fail(message: str) -> None:
        raise CardFileError(f"card file: {message}")

    if not isinstance(table, dict):
        fail(f"must be a JSON object, not {type(table).__name__}")
    for key in table:
        if key not in ("rules", "name", "cards", "modifiers"):
            fail(f"{key}: unknown field (a card file may give: rules, name, cards, modifiers)")
    if "modifiers" in table:
        # Power Shift's Modifier cards: not Action cards; kept in the setup's card file and
        # read by engine/rules/edition_2023/power_shift.py when the game starts. Checked here too,
        # by the check that module registers (CARD_FILE_SECTIONS), so a mistake is named when
        # the file is loaded.
        problem = CARD_FILE_SECTIONS["modifiers"](table["modifiers"])
        if problem is not None:
            fail(problem)
    if "rules" in table and table["rules"] != raw.get("rules", "classic"):
        fail(f"rules: the file is for the {table['rules']!r} rules, but this game uses {raw.get('rules', 'classic')!r}")
    entries = table.get("cards", [])
    if not isinstance(entries, list):
        fail("cards: must be a list of cards")
    shipped = {c["id"]: c for c in raw["cards"]}
    for n, entry in enumerate(entries):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str):
            fail(f'cards[{n}]: needs an "id" (a shipped card\'s id corrects it; a new id adds a card)')
        for key, value in entry.items():
            if key not in _TABLE_CARD_FIELDS:
                fail(f"cards[{ident}].{key}: unknown field (card fields: {', '.join(_TABLE_CARD_FIELDS)})")
            if key != "module":
                _given(value, f"cards[{ident}].{key}", fail)
            if key == "params" and isinstance(value, dict):
                for pname, pvalue in value.items():
                    _given(pvalue, f"cards[{ident}].params.{pname}", fail)
        if ident in shipped:
            _correct_card(shipped[ident], entry, fail, spade_printed)
        else:
            _add_card(raw, entry, fail, spade_printed)
    return raw


def _correct_card(card: dict[str, Any], entry: dict[str, Any], fail, spade_printed: bool = True) -> None:
    changed = [k for k in entry if k not in ("id", "source")]
    missing = card.setdefault("missing", {})
    if "effect" in entry and entry["effect"] != card["effect"]:
        card["params"] = {}
        for key in [k for k in missing if k.startswith("params.")]:
            missing.pop(key)
    base_card = entry.get("module", card.get("module")) is None
    if base_card and "placement" not in entry and card.get("placement", 0) is None:
        card.pop("placement")  # a base card places what its stack's cards place
        missing.pop("placement", None)
    for key in changed:
        if key == "params":
            if not isinstance(entry["params"], dict):
                fail(f"cards[{card['id']}].params: must be an object of parameter: value")
            card["params"] = {**card["params"], **entry["params"]}
            for pname in entry["params"]:
                missing.pop(f"params.{pname}", None)
        else:
            card[key] = entry[key]
            missing.pop(key, None)
    if spade_printed:
        _placement_printed(card)  # a listed card the table found in the ♠ stack
    note = f"table ({', '.join(changed)}{': ' + entry['source'] if entry.get('source') else ''})"
    card["source"] = f"{note}; {card.get('source', '')}".rstrip("; ")


def _add_card(raw: dict[str, Any], entry: dict[str, Any], fail, spade_printed: bool = True) -> None:
    # 2023: a card found in the box may leave its copies out (its stack is face down: it turns up
    # while the stack has room); the classic stacks are full, so every card gives its copies
    needs = [
        k
        for k in ("stack", "copies", "name", "effect")
        if k not in entry and (k != "copies" or raw.get("rules") != "2023")
    ]
    if needs:
        fail(
            f"cards[{entry['id']}]: a new card needs {', '.join(needs)} (it is not a shipped card's id; "
            f"shipped: {', '.join(c['id'] for c in raw['cards'])})"
        )
    card = {**entry, "params": entry.get("params", {})}
    card["source"] = f"table: {entry['source']}" if entry.get("source") else "table"
    card["missing"] = {}
    if "copies" not in entry:  # a stack's cards are face down: nobody counts them during a game
        card["copies"] = None
        card["missing"]["copies"] = (
            f'How many "{entry["name"]}" cards the box has was not entered: it turns up '
            f"while its stack has room (card file: cards[{entry['id']}].copies)"
        )
    if spade_printed:
        _placement_printed(card)
    raw["cards"].append(card)


def _placement_printed(card: dict[str, Any]) -> None:
    """A ♠ card's Caballeros are printed on it, not given by its stack: unknown until entered.
    (Games saved before rules revision 3 gave a ♠ card entered without them its stack's, and
    replay so: `spade_printed` False.)"""
    if card.get("module") == "new-regency" and "placement" not in card:
        card["placement"] = None
        card.setdefault("missing", {})["placement"] = (
            f'How many Caballeros "{card.get("name", card["id"])}" places is printed on the card: enter it '
            f"(card file: cards[{card['id']}].placement)"
        )


def _load_card_json(rules: str, cards_file: Any, spade_printed: bool = True) -> tuple[_CardsFile, type[DataFileError]]:
    raw = copy.deepcopy(_read_json(_FILES[rules][1]))
    err: type[DataFileError] = BoardDataError
    if cards_file is not None:
        if raw.get("stack_sizes") is None:  # classic: the shipped cards fill their stacks
            raw["stack_sizes"] = {}
            for c in raw["cards"]:
                raw["stack_sizes"][str(c["stack"])] = raw["stack_sizes"].get(str(c["stack"]), 0) + c["copies"]
        raw, err = _merge_card_file(raw, cards_file, spade_printed), CardFileError
    cards = _parse(_CardsFile, raw, err, "card file" if cards_file is not None else _FILES[rules][1])
    try:
        _check_cards(cards, err)
    except DataFileError as exc:
        raise err(f"card file: {exc}" if cards_file is not None else str(exc)) from None
    return cards, err


def load_cards(rules: str, cards_file: Any = None, spade_printed: bool = True) -> CardSet:
    """The action cards of `rules`, completed or corrected by a table's card file (a dict).
    `spade_printed`: see _placement_printed (False for games saved before rules revision 3)."""
    side_for(rules, 4)  # names an unknown rule set
    if cards_file is None:
        return _shipped_cards(rules)
    return _card_set(_load_card_json(rules, cards_file, spade_printed)[0])


@lru_cache(maxsize=4)
def _shipped_cards(rules: str) -> CardSet:
    return _card_set(_load_card_json(rules, None)[0])


# Registered by the rule systems whose card sets this module does not read itself (engine/__init__.py
# imports them all): rules -> fn(players, board_file, cards_file) -> Board, and a card file's
# extra section -> fn(its JSON) -> what is wrong with it, or None.
BOARD_LOADERS: dict[str, Callable[[int, Any, Any], Board]] = {}
CARD_FILE_SECTIONS: dict[str, Callable[[Any], str | None]] = {}


def load_board(
    rules: str, players: int, board_file: Any = None, cards_file: Any = None, spade_printed: bool = True
) -> Board:
    """The board a game of `players` uses under `rules`, with its card set.

    `board_file` and `cards_file` are the table's own files (parsed JSON): they
    complete or correct the shipped data and are validated like it. Raises
    RuleSetError (unknown rules, player count), BoardFileError or CardFileError.
    """
    own = BOARD_LOADERS.get(rules)
    if own is not None:  # King and Intrigue: the classic board with its own kind of cards
        return own(players, board_file, cards_file)
    side = side_for(rules, players)
    if board_file is None and cards_file is None:
        board = classic_board() if rules == "classic" else _shipped_board(rules, side)
    else:
        raw = _side_json(rules, side)
        err: type[DataFileError] = BoardDataError
        if board_file is not None:
            raw, err = _merge_board_file(raw, board_file), BoardFileError
        data = _parse(_BoardFile, raw, err, "board file" if board_file is not None else _FILES[rules][0])
        try:
            _check_board(data, err)
        except DataFileError as exc:
            raise err(f"board file: {exc}" if board_file is not None else str(exc)) from None
        card_set = load_cards(rules, cards_file, spade_printed)
        board = _board(data, card_set)
    if not board.min_players <= players <= board.max_players:
        raise RuleSetError(
            f"players: {players} given; the {rules} rules take {board.min_players} "
            f"to {board.max_players} on the {side} side"
        )
    return board


@lru_cache(maxsize=4)
def _shipped_board(rules: str, side: str) -> Board:
    data = _parse(_BoardFile, _side_json(rules, side), BoardDataError, _FILES[rules][0])
    _check_board(data)
    return _board(data, _shipped_cards(rules))
