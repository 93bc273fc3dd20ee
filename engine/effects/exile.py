"""Exile (2023): the King goes to France or Portugal.

Rule book, "Explanations of Special cards":
  "The neighboring regions to France and Portugal work the same way as usual. You can only
   move the King to France or Portugal with this card."
and "Place Caballeros": "France and Portugal do not count as regions, so you may never
place Caballeros there (nor your Grande or the King)."

While the King stands there, Caballeros are placed in the regions next to France or
Portugal (engine.queries.kings_neighbours). The rule book does not say which those are:
the table enters them from its board (board file: spaces[france].neighbours). Until it
has, the King is not sent where nobody could place next to him: this card refuses,
naming the missing fact."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def _spaces(state: GameState) -> list[int]:
    board = state.board
    return [
        a
        for a in range(board.castillo + 1, board.castillo + 1 + len(getattr(board, "space_ids", ())))
        if a != state.king
    ]


def _unknown(state: GameState, a: int) -> P.RuleViolation | None:
    board = state.board
    i = a - board.castillo - 1
    if board.space_neighbours[i] is not None:
        return None
    sid = board.space_ids[i]
    return P.fact_refusal(
        "board-fact-missing",
        board.missing.get(f"spaces.{sid}.neighbours"),
        "{space}'s neighbouring regions are not known: enter them from your board (board file: "
        "spaces[{id}].neighbours)",
        space=P.Place(board.space_names[i]),
        id=sid,
    )


def _targets(state: GameState) -> list[str]:
    return [state.board.area_id(a) for a in _spaces(state) if _unknown(state, a) is None]


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    spaces = _spaces(state)
    if not spaces:
        raise P.RuleViolation("king-move-2023", "this board has no France or Portugal to exile the King to")
    board = state.board
    if all(board.space_neighbours[a - board.castillo - 1] is None for a in spaces):  # no target known
        refusal = _unknown(state, spaces[0])
        assert refusal is not None
        raise refusal


def begin(state: GameState, sp: Special) -> None:
    """Nothing to set up: the player names France or Portugal."""


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("move_king", (state.players[sp.player],), {"regions": _targets(state)})


def moved(state: GameState, sp: Special, e: ev.KingMoved) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("move the King"))
    if e.region in state.board.area_index and state.board.area_index[e.region] <= state.board.castillo:
        raise P.RuleViolation(
            "king-move-2023",
            "{card} moves the King to France or Portugal, not to {region}",
            card=P.Card(sp.card.name),
            region=P.area_name(state, state.board.area_index[e.region]),
        )
    a = P.space(state, e.region)
    if a == state.king:
        raise P.RuleViolation("king-move-2023", "the King already stands in {area}", area=P.area_name(state, a))
    unknown = _unknown(state, a)
    if unknown is not None:
        raise unknown
    state.king = a
    finish_special(state)


register(Effect("exile", begin, ask, steps={ev.KingMoved: moved}, check_start=check_start))
