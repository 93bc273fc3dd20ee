"""The general scoring after the rounds the board names: every player sets a secret disc
for their Caballeros in the Castillo, the table counts the Castillo, the discs are revealed
together, the Castillo and then every region are scored. Also the secret discs an effect
asked for (their reveal is the effect's)."""

from __future__ import annotations

from .. import events as ev
from ..effect_registry import EFFECTS
from ..errors import N_, RuleViolation
from ..hooks import Stage
from ..primitives import (
    CASTILLO_SCORING_EFFECTS,
    Ask,
    area_name,
    count_castillo,
    expect_special,
    expect_stage,
    move_line,
    name,
    outcome,
    player,
    record_scoring,
    region,
)
from ..queries import is_taboo, king_in_castillo
from ..scoring import require_scoreboards, score_area, score_regions
from ..secret_discs import disc_ask
from ..state import GameState, closed_regions
from .end_of_round import next_round


def ask_scoring_discs(state: GameState) -> Ask:
    allowed = {state.players[p]: castillo_destinations(state, p) for p in state.scoring_needed}
    ask = disc_ask(state, state.scoring_needed, state.scoring_discs, allowed, "castillo_destination")
    if king_in_castillo(state):
        ask.options["castillo_stays"] = True  # Rebellion: nothing leaves the Castillo; no disc
    return ask


def castillo_destinations(state: GameState, p: int) -> list[str]:
    """Regions p's disc may show at a general scoring. A Grande thrown into the Castillo
    (Competition: "Then move your Grande using the Secret disc") cannot go to the King's
    region ("No Caballeros, Grandes, or Scoring tiles may be placed in ... the King's
    region"), nor back to the court as Caballeros do; so that disc may not show it."""
    ids = state.board.region_ids
    if state.grandes[p] == state.board.castillo:
        closed = closed_regions(state)
        return [ids[r] for r in state.board.regions if r not in closed]
    return list(ids)


def apply_disc_set(state: GameState, e: ev.SecretDiscSet) -> None:
    expect_stage(state, ("scoring_discs", "special"), N_("setting a secret disc"))
    p = player(state, e.player)
    r = region(state, e.region, N_("a secret disc"))
    if state.stage == "scoring_discs":
        if p not in state.scoring_needed:
            raise RuleViolation(
                "secret-disc",
                N_("{who} sets no disc at this scoring: the King stands by the Castillo: nothing leaves it")
                if king_in_castillo(state)
                else N_("{who} sets no disc at this scoring: the dummy sets no disc"),
                who=name(state, p),
            )
        if state.board.region_ids[r] not in castillo_destinations(state, p):
            raise RuleViolation(
                "secret-disc",
                "{who}'s Grande leaves the Castillo with the disc and cannot go to {region}: it is the King's region",
                who=name(state, p),
                region=area_name(state, r),
            )
        state.scoring_discs[p] = r
        return
    # A disc an effect asks for is a step of that effect (engine/effects/).
    expect_special(state, (), N_("setting a secret disc"))


def apply_castillo_counted(state: GameState, e: ev.CastilloCounted) -> None:
    """What the table counted in the lifted Castillo (the count wins over the turns): at a
    general scoring, or as the Castillo scoring card's special action once no one vetoed it
    (which it then scores: a step of that effect). Games of rules revision 2 or before counted
    it in that card's turn before its special action was announced."""
    turn = state.turn
    castillo_card_turn = (
        state.stage == "turn"
        and turn is not None
        and turn.card is not None
        and turn.card.effect in CASTILLO_SCORING_EFFECTS
        and not turn.special_done
    )
    if castillo_card_turn and state.castillo_after_veto:
        raise RuleViolation(
            "veto",
            "the Castillo stays closed until no one vetoes its scoring: announce the "
            "special action first, then lift and count the Castillo",
        )
    if not castillo_card_turn:
        expect_stage(state, ("scoring_discs",), N_("counting the Castillo"))
    count_castillo(state, e)


def apply_discs_revealed(state: GameState, e: ev.SecretDiscsRevealed) -> None:
    expect_stage(state, ("scoring_discs", "special"), N_("revealing the secret discs"))
    if state.stage == "scoring_discs":
        missing = [q for q in state.scoring_needed if q not in state.scoring_discs]
    else:
        sp = expect_special(state, tuple(n for n, fx in EFFECTS.items() if fx.reveal), N_("revealing discs"))
        missing = [q for q in sp.queue if q not in sp.discs]
    if missing:
        raise RuleViolation(
            "secret-disc",
            "all discs are revealed together; still to choose: {waiting}",
            waiting=[name(state, q) for q in missing],
        )
    if state.stage == "scoring_discs":
        run_general_scoring(state)
    else:
        special = state.special
        assert special is not None  # a special scoring's discs: its special action's
        reveal = EFFECTS[special.effect].reveal
        assert reveal is not None
        reveal(state, special)


def run_general_scoring(state: GameState) -> None:
    board = state.board
    castillo = board.castillo
    require_scoreboards(state, range(castillo + 1))  # before anything moves
    lines = score_area(state, castillo)
    transfers, moves, grandes = [], [], []
    for q in state.scoring_needed:  # none while the King stands by the Castillo (Rebellion)
        r = state.scoring_discs[q]
        if state.grandes[q] == castillo:
            # Competition: "Then move your Grande using the Secret disc (along with your Caballeros)".
            state.grandes[q] = r
            grandes.append(f"{name(state, q)}'s Grande goes to {area_name(state, r)}")
        k = state.counts[castillo][q]
        to_court = r == state.king  # the King's region (or a region under a taboo marker): to the court
        if state.markers and not to_court:
            to_court = is_taboo(state, r)
        moves.append(move_line(state, q, k, castillo, "court" if to_court else r))
        if not k:
            continue
        state.counts[castillo][q] = 0
        if to_court:
            state.court[q] += k
        else:
            state.counts[r][q] += k
        transfers.append({"player": state.players[q], "count": k, "region": board.region_ids[r], "to_court": to_court})
    hooks = state.rules.hooks
    if hooks.leave_castillo is not None:
        left = hooks.leave_castillo(state)  # a seat that sets no disc (the dummy): back to its supply
        if left:
            moves.append(left)
    lines += score_regions(state, list(board.regions))
    record_scoring(state, f"General scoring after round {state.round}", lines, transfers)
    if king_in_castillo(state):
        # Rebellion: "the Caballeros are not moved to regions, throw them back in".
        emptied = "the King stands by the Castillo: everything in it is thrown back in"
    else:
        emptied = "; ".join(["the Castillo is emptied"] + grandes)
    outcome(state, f"General scoring after round {state.round}: {emptied}", moves, state.scoring_discs)
    state.scoring_needed = []
    state.scoring_discs = {}
    if hooks.after_general_scoring is not None:
        hooks.after_general_scoring(state)  # the dummy's Region cards are shuffled
    next_round(state)


SCORING = Stage(
    "scoring_discs",
    ask_scoring_discs,
    {
        ev.SecretDiscSet: apply_disc_set,
        ev.CastilloCounted: apply_castillo_counted,
        ev.SecretDiscsRevealed: apply_discs_revealed,
    },
)
