"""The new game's rule choice: the rule set, its modules and the dummy's colour, as the new-game
screen offers them and remembers them for the next game (no Kivy).

Kept in the rules folder of the user data folder as `rules/choice.json`; a file it cannot read
falls back to the classic game (`load_choice`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.table_rules.storage import RuleFileError, read_json, rules_folder, write_json
from companion.words import N_, _, names, ngettext
from engine.board.load import player_range, side_for
from engine.rules import MODULES as RULE_MODULES
from engine.rules import RulesChoiceError, rule_set

CHOICE_FILE = "choice.json"

# The rules and modules by the names their boxes print: shown through names.rule_set / names.module;
# what a module does (MODULE_ABOUT) and the rules in a sentence (RULES_NAMED): _(words) where shown.
RULES_WORDS = names.RULE_SET_NAMES
MODULE_WORDS = names.MODULE_NAMES
MODULE_ABOUT = {
    "new-regency": N_("its ten cards replace the King's card as a 5th stack"),
    "old-hands": N_("its four cards each replace a random card of their stack"),
    "power-shift": N_("three Modifier cards each, one passed to the left"),
    "four-stacks": N_("stacks 2 and 3 shuffled together"),
    # King and Intrigue (companion/table_rules/ki_cards.py has its card set)
    "players-edition": N_("Joker, Field Day, Relocate, Alliance: their Power cards join each hand"),
    "special-cards": N_("King's Guard, Table for Six ...: their Power cards join each hand"),
}


RULES_NAMED = {
    "classic": N_("The classic game"),
    "2023": N_("The 2023 edition"),
    "king-intrigue": N_("King and Intrigue"),
}


def seats_words(rules: str, players: int) -> str:
    """'' when `rules` take this many players (engine.board.player_range), else what they take."""
    low, high = player_range(rules)
    if low <= players <= high:
        return ""
    named = _(RULES_NAMED[rules]) if rules in RULES_NAMED else rules
    return ngettext(
        "{rules} takes {low} to {high} players: {n} is ticked.",
        "{rules} takes {low} to {high} players: {n} are ticked.",
        players,
    ).format(rules=named, low=low, high=high, n=players)


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
                    module,
                    names.module(MODULE_WORDS[module]),
                    _(MODULE_ABOUT[module]),
                    always or module in self.modules,
                    always,
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
            return _("The classic game: its board and its 45 Action cards.")
        if self.rules == "king-intrigue":
            from companion.table_rules.ki_cards import ki_rules_words

            return ki_rules_words(players)
        side = self.side(players)
        if side == "2-3" and players == 2:
            return _(
                "The {side} player side of the board (only the first two numbers of each Scoring board count); "
                "a dummy plays a third colour and the Action cards are in four stacks."
            ).format(side=side)
        if side == "2-3":
            return _(
                "The {side} player side of the board (only the first two numbers of each Scoring board count)."
            ).format(side=side)
        return _("The {side} player side of the board.").format(side=side)

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
