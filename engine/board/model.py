"""The board and cards as the engine reads them: frozen, indexed by small integers, because the
engine reads them in hot loops. Built from the files by engine/board/build.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..errors import Place

CASTILLO = "castillo"


class MissingFactError(ValueError):
    """Something needs a fact the rule book does not publish and the table has not entered."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


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
    # King and Intrigue: its card set itself (values, courts, placements: a KICardSet of
    # engine/rules/king_intrigue/cards.py, which builds on this module); None for the others.
    ki_cards: Any = field(default=None, compare=False, repr=False)

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

    def area_name(self, index: int) -> Place:
        """The area's English name, marked as a place's (a refusal shows it in the table's words)."""
        if index < self.castillo:
            return Place(self.region_names[index])
        return Place("Castillo" if index == self.castillo else self.space_names[index - self.castillo - 1])

    def stack_cards(self, stack: int) -> list[ActionCard]:
        return [c for c in self.cards.values() if c.stack == stack]

    def need(self, path: str) -> None:
        """Raise MissingFactError if the fact at `path` (or any fact under it) is unknown."""
        for key, message in self.missing.items():
            if key == path or key.startswith(path + "."):
                raise MissingFactError(key, message)
