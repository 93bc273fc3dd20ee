"""A choice of actions on one card: the classic Intrigue card whose holder picks one of the
actions printed on it (its `options` in the card data: "move", "move_all_own", ...), and King
and Intrigue's Intrigue card, which offers the classic Intrigue cards' actions.

No special action of its own: when the player starts the special action they name the option,
and the effect played is that option's (engine/stages/turn.py calls `chosen_effect`; King and
Intrigue's 2-3 player choice between the Action card's action and the Power card's is its own
round's, engine/rules/king_intrigue/round.py). Its test: tests/engine/effects/test_choice.py.
"""

from __future__ import annotations

from ..board.model import ActionCard
from ..errors import Card, RuleViolation


def chosen_effect(card: ActionCard, option: str | None) -> str:
    """The effect a started special action plays: the option named, when the card offers a
    choice (refused if it is not one of them), else the card's own effect."""
    choices = card.params.get("options")
    if choices:
        if option is None or option not in choices:
            raise RuleViolation(
                "special-action",
                "{card} asks for one of {choices}, got {option!r}",
                card=Card(card.name),
                choices=choices,
                option=option,
            )
        return option
    if option is not None:
        raise RuleViolation("special-action", "{card} offers no choice of option", card=Card(card.name))
    return card.effect
