"""The end of a round: used Action cards put away, the First Player marker, expired Vetoes;
then the general scoring's discs (after the rounds the board names) or the next round; and
the game's end."""

from __future__ import annotations

from ..hooks import Stage
from ..primitives import VETO_STACK, Ask, players_only, power_totals, put_away_used, veto_card
from ..queries import king_in_castillo
from ..state import GameState


def end_round(state: GameState) -> None:
    for s in sorted(state.revealed):
        cid = state.revealed[s]
        if cid is not None:
            put_away_used(state, s, cid)
    state.revealed = {}
    # The lowest Power card (Power Shift: total) takes the First Player marker; "the dummy
    # never gets the First Player marker".
    totals = power_totals(state)
    state.start_player = min(players_only(state, range(state.n)), key=totals.__getitem__)
    for q in range(state.n):
        (state.hands if state.take_back_played[q] else state.discards)[q].add(state.played[q])
        state.power_spent[q].add(state.played[q])
    state.take_back_played = [False] * state.n
    hooks = state.rules.hooks
    if hooks.end_round is not None:
        hooks.end_round(state)  # a part's own cards (Power Shift's Modifier cards)
    expired = [v for v in state.vetoes if v[1] == state.round_index]
    for v in expired:
        state.vetoes.remove(v)
        put_away_used(state, VETO_STACK, veto_card(state))
    if state.round in state.board.general_scoring_after:
        # Every player sets a disc, Caballeros in the Castillo or not: asking only
        # some would tell the table who has none there (rules, general scoring step 3).
        # Rebellion: with the King by the Castillo nothing leaves it, so no disc is set.
        # The 2-player dummy sets no disc: it is never asked (rules/edition_2023/dummy.py).
        state.scoring_needed = [] if king_in_castillo(state) else players_only(state, range(state.n))
        state.scoring_discs = {}
        state.stage = "scoring_discs"
    else:
        next_round(state)


def next_round(state: GameState) -> None:
    state.round_index += 1
    state.played = [None] * state.n
    if state.round_index >= len(state.schedule):
        players = players_only(state, range(state.n))  # the dummy scores nothing, wins nothing
        best = max(state.scores[q] for q in players)
        state.winners = [q for q in players if state.scores[q] == best]
        state.stage = "over"
    else:
        begin_round(state)


def begin_round(state: GameState) -> None:
    """A round begins: with the reveal, or a part's own stage first (the dummy's Region cards)."""
    state.stage = state.rules.hooks.round_stage(state)


def ask_over(state: GameState) -> Ask:
    return Ask(
        "game_over",
        (),
        {"winners": [state.players[p] for p in state.winners], "scores": dict(zip(state.players, state.scores))},
    )


OVER = Stage("over", ask_over)
