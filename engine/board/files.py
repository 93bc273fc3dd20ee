"""The board and card files' models (pydantic): the shape a file must have, and where the shipped
files are. What a schema cannot say is checked in engine/board/checks.py."""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt

RULE_SETS = ("classic", "2023")
MODULES = ("new-regency", "old-hands")
FILES = {
    "classic": ("board_classic.json", "action_cards_classic.json"),
    "2023": ("board_2023.json", "action_cards_2023.json"),
}
SIDES = {"classic": ("classic",), "2023": ("4-5", "2-3")}
PLAYERS = {"classic": (2, 5), "2023": (2, 5)}  # every side of the rule set together


def read_json(name: str) -> Any:
    return json.loads(resources.files("engine.data").joinpath(name).read_text("utf-8"))


def _three_places(values: list[int]) -> tuple[int, int, int]:
    if len(values) != 3:
        raise ValueError(f"must be three integers (points for 1st, 2nd, 3rd place), not {len(values)}")
    return values[0], values[1], values[2]


if TYPE_CHECKING:  # what validation makes of it
    Scoreboard = tuple[int, int, int]
else:
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


class BoardFile(BaseModel):
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


class CardFile(BaseModel):
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


class CardsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    rules: Literal["classic", "2023"] = "classic"
    placements: dict[int, StrictInt]
    stack_sizes: dict[int, StrictInt] | None = None
    modules: dict[str, _ModuleFile] = {}
    provenance: dict[str, str] = {}
    cards: list[CardFile]
