"""Board and card data: loaded from the JSON files in engine/data, validated once.

The files are the project's own copy of the printed board and cards. Pydantic
checks their shape; `_check_*` functions check what a schema cannot (symmetric
adjacency, known effects). The result is a frozen `Board` of plain tuples and
dicts, indexed by small integers, because the engine reads it in hot loops.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

CASTILLO = "castillo"


class _RegionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    name: str
    scoreboard: tuple[int, int, int]
    neighbours: list[str]


class _CastilloFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    scoreboard: tuple[int, int, int]


class _BoardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    caballeros_per_player: int = Field(gt=0)
    setup: dict[str, int]
    regions: list[_RegionFile] = Field(min_length=2)
    castillo: _CastilloFile
    scoring_groups: dict[str, list[int]]
    power_cards: dict[int, int]
    mobile_scoreboards: dict[str, tuple[int, int, int]]
    rounds: dict[str, list[int]]
    players: dict[str, Any]


class _CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    stack: int = Field(ge=1, le=5)
    copies: int = Field(ge=1)
    name: str
    text: str
    effect: str
    params: dict[str, Any] = {}


class _CardsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    placements: dict[int, int]
    cards: list[_CardFile]

    @field_validator("cards")
    @classmethod
    def _unique_ids(cls, cards: list[_CardFile]) -> list[_CardFile]:
        ids = [c.id for c in cards]
        dupes = {i for i in ids if ids.count(i) > 1}
        if dupes:
            raise ValueError(f"duplicate card ids: {sorted(dupes)}")
        return cards


# Effects the engine implements, with the parameters each one needs.
EFFECT_PARAMS: dict[str, set[str]] = {
    "move": {"total", "own", "foreign"},
    "move_all_own": set(),
    "place_extra": {"count"},
    "choice": {"options", "count"},
    "veto": set(),
    "decay": set(),
    "one_of_each_back": set(),
    "king_is_angry": {"count"},
    "disc_send_back": set(),
    "score_chosen_region": set(),
    "score_group": {"group"},
    "score_castillo": set(),
    "score_first_only": set(),
    "score_most": set(),
    "score_least": set(),
    "mobile_scoreboard": set(),
    "power_card_back": set(),
    "court": {"count"},
    "grande": set(),
    "disc_scoring": set(),
    "eviction": set(),
    "move_king": {"adjacent_only"},
}


@dataclass(frozen=True, slots=True)
class ActionCard:
    id: str
    stack: int
    copies: int
    name: str
    text: str
    effect: str
    params: dict[str, Any]
    placement: int  # Caballeros the card lets you place from the court


@dataclass(frozen=True)
class Board:
    """Everything printed on the board and the cards, as fast lookups.

    Areas are indexed 0..R-1 for the regions and R for the Castillo.
    """

    name: str
    region_ids: tuple[str, ...]
    region_names: tuple[str, ...]
    neighbours: tuple[frozenset[int], ...]
    scoreboards: tuple[tuple[int, int, int], ...]  # per area, Castillo last
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

    @property
    def castillo(self) -> int:
        return len(self.region_ids)

    @property
    def regions(self) -> range:
        return range(len(self.region_ids))

    def area_id(self, index: int) -> str:
        return CASTILLO if index == self.castillo else self.region_ids[index]

    def area_name(self, index: int) -> str:
        return "Castillo" if index == self.castillo else self.region_names[index]

    def stack_cards(self, stack: int) -> list[ActionCard]:
        return [c for c in self.cards.values() if c.stack == stack]


class BoardDataError(ValueError):
    """The packaged board or card data is inconsistent (a bug in the data files)."""


def _check_board(data: _BoardFile) -> None:
    ids = [r.id for r in data.regions]
    if len(set(ids)) != len(ids) or CASTILLO in ids:
        raise BoardDataError("region ids must be unique and must not be 'castillo'")
    by_id = {r.id: r for r in data.regions}
    for r in data.regions:
        for n in r.neighbours:
            if n not in by_id:
                raise BoardDataError(f"{r.id} has unknown neighbour {n!r}")
            if r.id not in by_id[n].neighbours:
                raise BoardDataError(f"adjacency is not symmetric: {r.id} -> {n}")
        if list(r.scoreboard) != sorted(r.scoreboard, reverse=True):
            raise BoardDataError(f"{r.id} scoreboard must not increase: {r.scoreboard}")
    if sorted(data.power_cards) != list(range(1, len(data.power_cards) + 1)):
        raise BoardDataError("power cards must be numbered 1..N")


def _check_cards(cards: _CardsFile) -> None:
    for c in cards.cards:
        if c.effect not in EFFECT_PARAMS:
            raise BoardDataError(f"card {c.id}: unknown effect {c.effect!r}")
        missing = EFFECT_PARAMS[c.effect] - set(c.params)
        if missing:
            raise BoardDataError(f"card {c.id}: effect {c.effect} needs {sorted(missing)}")
        if c.stack not in cards.placements:
            raise BoardDataError(f"card {c.id}: stack {c.stack} has no placement number")
    if {c.stack for c in cards.cards} != set(cards.placements):
        raise BoardDataError("every stack needs at least one card")


def _read_json(name: str) -> Any:
    return json.loads(resources.files("engine.data").joinpath(name).read_text("utf-8"))


def build_board(board_json: Any, cards_json: Any) -> Board:
    data = _BoardFile.model_validate(board_json)
    cards = _CardsFile.model_validate(cards_json)
    _check_board(data)
    _check_cards(cards)
    ids = tuple(r.id for r in data.regions)
    index = {rid: i for i, rid in enumerate(ids)}
    index[CASTILLO] = len(ids)
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
        min_players=data.players["min"],
        max_players=data.players["max"],
        colours=tuple(data.players["colours"]),
        cards={
            c.id: ActionCard(c.id, c.stack, c.copies, c.name, c.text, c.effect, dict(c.params),
                             cards.placements[c.stack])
            for c in cards.cards
        },
        area_index=index,
    )


@lru_cache(maxsize=1)
def classic_board() -> Board:
    """The classic 1995 board and its 45 action cards."""
    return build_board(_read_json("board_classic.json"), _read_json("action_cards_classic.json"))
