"""Rule systems and their modules: what a game's setup names, and the rules that differ.

A rule set is a board, a card set, and a few named policies the phase flow asks for
(where used Action cards go, how many places a scoreboard pays, which stacks there
are). Each rule system is a package here with its round and its parts (modules that add
stages and answer the flow's named hooks, engine/hooks.py); every card effect is a file of
engine/effects/, each found by its name.

    classic   the 1995 game (Rio Grande / Hans im Glück); no modules (classic/)
    2023      Hans im Glück's 2023 edition (edition_2023/); modules: new-regency, old-hands,
              power-shift, four-stacks (2 players always play with four stacks)
    king-intrigue  the King and Intrigue expansion on the classic board (king_intrigue/);
              modules: players-edition, special-cards
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import N_, Said
from ..hooks import hooks_for

RULE_SETS = ("classic", "2023", "king-intrigue")
MODULES: dict[str, tuple[str, ...]] = {
    "classic": (),
    "2023": ("new-regency", "old-hands", "power-shift", "four-stacks"),
    "king-intrigue": ("players-edition", "special-cards"),
}
KINGS_CARD_STACK = 5


class RulesChoiceError(ValueError):
    """A rule set or module combination the engine does not play; the message names it."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A rule set with its modules, and the policies the flow asks of it (worked out once
    here: the flow reads them at every step)."""

    id: str
    modules: frozenset[str]
    players: int  # seats that play, the 2-player game's dummy not counted
    # 2023: used and left-over Action cards go face up to a discard pile; classic: under
    # their stacks, to come round again.
    discard_pile: bool = field(init=False)
    # 2023, 2 players: a third colour played by the rules (rules/edition_2023/dummy.py).
    dummy: bool = field(init=False)
    # Stacks 2 and 3 shuffled together into one (2 players always; 3 may choose).
    four_stacks: bool = field(init=False)
    # The stacks the table reveals a card from each round, stack 5 apart. With four stacks
    # the merged 2-and-3 stack is numbered 2.
    stacks: tuple[int, ...] = field(init=False)
    # The ten ♠ cards replace the King's card as a fifth stack (rules/edition_2023/new_regency.py).
    new_regency: bool = field(init=False)
    power_shift: bool = field(init=False)
    # King and Intrigue: Power cards carry the special actions, the Action cards are handed
    # out by rank (rules/king_intrigue/).
    king_intrigue: bool = field(init=False)
    # The modules that plug stages and hooks into the round (engine/hooks.py), by name.
    parts: tuple[str, ...] = field(init=False)
    # The named hooks its parts answer (engine/hooks.py): the classic game's where none does.
    hooks: Any = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        is_2023 = self.id == "2023"
        four = is_2023 and (self.players == 2 or "four-stacks" in self.modules)
        for name, value in (
            ("discard_pile", is_2023),
            ("dummy", is_2023 and self.players == 2),
            ("four_stacks", four),
            ("stacks", (1, 2, 4) if four else (1, 2, 3, 4)),
            ("new_regency", "new-regency" in self.modules),
            ("power_shift", "power-shift" in self.modules),
            ("king_intrigue", self.id == "king-intrigue"),
        ):
            object.__setattr__(self, name, value)
        parts = (
            ("dummy", self.dummy),
            ("new-regency", self.new_regency),
            ("power-shift", self.power_shift),
            ("king-intrigue", self.king_intrigue),
        )
        object.__setattr__(self, "parts", tuple(name for name, on in parts if on))
        object.__setattr__(self, "hooks", hooks_for(self.parts))  # a plain attribute: read at every step

    def table_stack(self, printed_stack: int) -> int:
        """The stack a card lies in at this table (its back's number, or the merged one)."""
        return 2 if self.four_stacks and printed_stack == 3 else printed_stack

    def paid_places(self, seats: int) -> int:
        """Places a scoreboard pays. Classic: 2 players 1st only, 3 players 1st and 2nd.
        2023: "Only the first two numbers on the Scoring board count" with 2 or 3 players."""
        if self.id == "2023":
            return 2 if self.players <= 3 else 3
        return 1 if seats == 2 else 2 if seats == 3 else 3


CLASSIC = RuleSet("classic", frozenset(), 4)


def rule_set(rules: str, modules: list[str] | tuple[str, ...], players: int) -> RuleSet:
    """The rule set a setup names, or RulesChoiceError naming what is not supported."""
    if rules not in RULE_SETS:
        raise RulesChoiceError(
            Said("rules {rules!r}: not a rule set (choose one of {rule_sets})", rules=rules, rule_sets=list(RULE_SETS))
        )
    allowed = MODULES[rules]
    for m in modules:
        if m not in allowed:
            raise RulesChoiceError(
                Said(
                    N_("module {module!r} does not belong to the {rules} rules: its modules are {modules}")
                    if allowed
                    else N_("module {module!r} does not belong to the {rules} rules: it has no modules"),
                    module=m,
                    rules=rules,
                    modules=list(allowed),
                )
            )
    if len(set(modules)) != len(modules):
        raise RulesChoiceError(Said("modules named twice: {modules}", modules=modules))
    if "four-stacks" in modules and players not in (2, 3):
        raise RulesChoiceError(
            Said("four-stacks is for 2 or 3 players (2 always play with four stacks), not {players}", players=players)
        )
    return RuleSet(rules, frozenset(modules), players)
