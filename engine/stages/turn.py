"""A player's turn: choosing an Action card, then placing Caballeros and the card's special
action in either order; and the transitions every stage and effect leads back through
(`begin_special`, `finish_special`, `maybe_end_turn`, `start_turn`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..effect_registry import EFFECTS
from ..effects.choice import chosen_effect
from ..errors import N_, Card, RuleViolation, Said, cited
from ..hooks import Stage
from ..primitives import (
    CASTILLO_SCORING_EFFECTS,
    VETO_EFFECTS,
    Ask,
    area_name,
    check_placements,
    do_place,
    expect_player,
    expect_stage,
    name,
    not_taboo,
    placement_areas,
    placement_limit,
    placement_unknown,
    put_away_used,
    veto_holders,
)
from ..queries import kings_neighbours
from ..state import GameState, Special, Turn
from .end_of_round import end_round

if TYPE_CHECKING:
    from ..board.model import ActionCard


def ask_choose_card(state: GameState) -> Ask:
    turn = state.turn
    assert turn is not None  # a turn is under way in every stage of it
    stacks = {s: cid for s, cid in state.revealed.items() if cid is not None}
    return Ask("choose_action_card", (state.players[turn.player],), {"stacks": stacks})


def apply_choose(state: GameState, e: ev.ActionCardChosen) -> None:
    expect_stage(state, ("choose_card",), N_("choosing an Action card"))
    turn = state.turn
    assert turn is not None
    expect_player(state, e.player, turn.player, N_("choose an Action card"))
    cid = state.revealed.get(e.stack)
    if cid is None:
        raise RuleViolation(
            "action-card-available",
            N_("stack {stack} was already taken this round")
            if e.stack in state.revealed
            else N_("stack {stack} is not a stack this round"),
            stack=e.stack,
        )
    card = turn.card = state.board.cards[cid]
    turn.stack = e.stack
    state.revealed[e.stack] = None
    state.stage = "turn"
    if card.effect in VETO_EFFECTS and state.veto_on_take:
        take_veto(state, turn.player)


def take_veto(state: GameState, p: int) -> None:
    """ "When you select the Veto card, place it on the table in front of you": taking the
    card is holding the Veto (until used, or the end of the next round). Its special
    action is thereby done; there is nothing left to start or skip. (Games saved at rules
    revision 1 held it only once that special action was started: see GameSetup.revision.)"""
    state.vetoes.append((p, state.round_index + 1))
    turn = state.turn
    assert turn is not None
    turn.special_done = True


def ask_turn(state: GameState) -> Ask:
    turn = state.turn
    assert turn is not None and turn.card is not None  # the turn's card is chosen before this stage
    card = turn.card
    p = turn.player
    options: dict[str, Any] = {"place": None, "special": None}
    first = None if turn.placed else _special_first(turn)
    if first:
        options["special_first"] = first  # the rule that puts the placement after the special action
    if not turn.placed and not first:
        if card.placement is None:
            # A ♠ card's number is printed on it; the table has not entered it: nothing can be
            # placed until it does (placing none stays possible, so the game goes on).
            options["place"] = {
                "max": 0,
                "card_allows": None,
                "areas": [],
                "refused": cited(placement_unknown(state, card)),
            }
        else:
            options["place"] = {
                "max": min(card.placement, state.court[p]),
                "card_allows": card.placement,
                "areas": placement_areas(state),
            }
    if not turn.special_done:
        options["special"] = {"card": card.id, "text": card.text, "options": card.params.get("options")}
        refusal = start_refusal(state, turn.card, card.effect, p)
        if refusal is not None:
            options["special"]["refused"] = cited(refusal)  # only skipping it is possible
        if card.effect in CASTILLO_SCORING_EFFECTS and not state.castillo_after_veto:
            options["special"]["count_first"] = True  # rules revision 2 and before: counted, then announced
    return Ask("turn_action", (state.players[p],), options, card=card.id)


def _special_first(turn: Turn) -> str | None:
    """The rule that makes this turn's special action come before its placement (King and
    Intrigue's Hurricane: "You reveal your secret disc at the beginning of your turn")."""
    if turn.special_done or turn.card is None:
        return None
    fx = EFFECTS.get(turn.card.effect)
    return fx.first_in_turn if fx is not None else None


def start_refusal(state: GameState, card: ActionCard, effect: str, p: int) -> RuleViolation | None:
    """Why a special action of an effect in engine/effects/ cannot start at all (a fact
    the table has not entered yet, e.g. a card parameter the rule book does not give)."""
    fx = EFFECTS.get(effect)
    if fx is None or fx.check_start is None:
        return None
    try:
        fx.check_start(state, card, p)
    except RuleViolation as refusal:
        return refusal
    return None


def apply_place(state: GameState, e: ev.CaballerosPlaced) -> None:
    expect_stage(state, ("turn",), N_("placing Caballeros"))
    turn = state.turn
    assert turn is not None and turn.card is not None
    card = turn.card
    p = expect_player(state, e.player, turn.player, N_("place Caballeros"))
    if turn.placed:
        raise RuleViolation("either-order", "{who} has already placed Caballeros this turn", who=name(state, p))
    first = _special_first(turn)
    if first:
        raise RuleViolation(
            "either-order",
            "{card}: {first}: its special action comes before placing Caballeros",
            card=Card(card.name),
            first=Said(first),
        )

    def adjacent_or_castillo(a: int) -> None:
        not_taboo(state, a, N_("place Caballeros in"))
        if a == state.board.castillo:
            return
        if a not in kings_neighbours(state):
            raise RuleViolation(
                "placement-area",
                "{area} is not adjacent to the King's region ({kings_region})",
                area=area_name(state, a),
                kings_region=area_name(state, state.king),
            )

    limit = placement_limit(state, card, e.placements)
    placed = check_placements(state, p, e.placements, limit, adjacent_or_castillo)
    do_place(state, p, placed)
    turn.placed = True
    maybe_end_turn(state)


def apply_special_started(state: GameState, e: ev.SpecialActionStarted) -> None:
    expect_stage(state, ("turn",), N_("starting a special action"))
    turn = state.turn
    assert turn is not None and turn.card is not None
    p = expect_player(state, e.player, turn.player, N_("start a special action"))
    if turn.special_done:
        raise RuleViolation("either-order", "{who} has already done the special action", who=name(state, p))
    card = turn.card
    effect = chosen_effect(card, e.option)
    refusal = start_refusal(state, card, effect, p)
    if refusal is not None:
        raise refusal
    sp = Special(card=card, effect=effect, player=p)
    sp.vetoes_pending = veto_holders(state, exclude=p)
    state.special = sp
    if sp.vetoes_pending:
        state.stage = "veto_window"
    else:
        begin_special(state)


def apply_special_skipped(state: GameState, e: ev.SpecialActionSkipped) -> None:
    expect_stage(state, ("turn",), N_("skipping the special action"))
    turn = state.turn
    assert turn is not None
    p = expect_player(state, e.player, turn.player, N_("skip the special action"))
    if turn.special_done:
        raise RuleViolation("either-order", "{who} has already done the special action", who=name(state, p))
    turn.special_done = True
    maybe_end_turn(state)


def begin_special(state: GameState) -> None:
    sp = state.special
    assert sp is not None  # set by the stage that begins it
    sp.started = True
    state.stage = "special"
    EFFECTS[sp.effect].begin(state, sp)


def finish_special(state: GameState) -> None:
    state.special = None
    turn = state.turn
    assert turn is not None
    if turn.card is None:
        # A Power Shift Modifier card's ability, used before the Action card is chosen.
        state.stage = "choose_card"
        return
    turn.special_done = True
    state.stage = "turn"
    maybe_end_turn(state)


def start_turn(state: GameState) -> None:
    turn = state.turn = Turn(player=state.turn_order[state.turn_pos])
    if turn.player == state.dummy:
        state.rules.hooks.take_turn(state)  # the table plays it by rule
        return
    state.stage = "replenish"


def maybe_end_turn(state: GameState) -> None:
    turn = state.turn
    assert turn is not None
    if not (turn.placed and turn.special_done):
        return
    assert turn.card is not None  # placed and done: its card was chosen
    if not _holds_this_veto(state, turn):
        put_away_used(state, turn.stack, turn.card.id)
    state.turn = None
    state.turn_pos += 1
    if state.turn_pos < state.n:
        start_turn(state)
    else:
        end_round(state)


def _holds_this_veto(state: GameState, turn: Turn) -> bool:
    return (
        turn.card is not None
        and turn.card.effect in VETO_EFFECTS
        and (turn.player, state.round_index + 1) in state.vetoes
    )


CHOOSE_CARD = Stage("choose_card", ask_choose_card, {ev.ActionCardChosen: apply_choose})
TURN = Stage(
    "turn",
    ask_turn,
    {
        ev.CaballerosPlaced: apply_place,
        ev.SpecialActionStarted: apply_special_started,
        ev.SpecialActionSkipped: apply_special_skipped,
    },
)
