"""Views: no observer ever sees what it may not see.

Property: change one player's hidden facts (Castillo vs provinces, pending
secret disc, which Power cards are in hand) and every other observer's view
stays the same, while that player's own view shows the change."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flow import apply_event
from engine.game import start_state
from engine.playout import play_random_game
from engine.views import castillo_tallies, player_view, public_view


def state_at(seed: int, players: int, cut: float):
    setup, log, _ = play_random_game(random.Random(seed), players)
    state = start_state(setup)
    for e in log[: int(cut * len(log))]:
        apply_event(state, e)
    return state


def perturb(state, p: int, delta: int, rng: random.Random) -> bool:
    """Change p's hidden facts only; False if there was nothing to change."""
    changed = False
    castillo = state.board.castillo
    shift = min(delta, state.provinces[p]) or -min(delta, state.counts[castillo][p])
    if shift:
        state.provinces[p] -= shift
        state.counts[castillo][p] += shift
        changed = True
    pending = (
        state.scoring_discs
        if state.stage == "scoring_discs"
        else (state.special.discs if state.stage == "special" and state.special else {})
    )
    if p in pending:
        pending[p] = (pending[p] + 1) % len(state.board.region_ids)
        changed = True
    if state.hands[p] and state.discards[p]:
        a, b = rng.choice(sorted(state.hands[p])), rng.choice(sorted(state.discards[p]))
        state.hands[p].remove(a), state.discards[p].remove(b)
        state.hands[p].add(b), state.discards[p].add(a)
        changed = True
    return changed


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 5),
    cut=st.floats(0, 1),
    who=st.integers(0, 4),
    delta=st.integers(1, 5),
)
def test_no_view_leaks_another_players_hidden_facts(seed, players, cut, who, delta):
    state = state_at(seed, players, cut)
    p = who % players
    other = copy.deepcopy(state)
    if not perturb(other, p, delta, random.Random(seed)):
        return
    assert public_view(other) == public_view(state)
    for q, pid in enumerate(state.players):
        if q != p:
            assert player_view(other, pid) == player_view(state, pid)
    assert player_view(other, state.players[p]) != player_view(state, state.players[p])


def test_public_view_has_no_castillo_provinces_or_hands():
    state = state_at(3, 5, 0.5)
    # Outcomes name "provinces" as where Caballeros went back to, never how many are there.
    text = public_view(state).model_dump_json(exclude={"outcomes"})
    for word in ("provinces", 'castillo":', 'power_cards_in_hand":['):
        assert word not in text
    assert sum(castillo_tallies(state).values()) >= 0


def test_secret_disc_choices_hidden_until_the_reveal():
    from engine import events as ev
    from tests.engine.helpers import new_game, turn_with

    g = new_game()
    pid = turn_with(g, "disc_scoring")
    g.apply(ev.SpecialActionStarted(player=pid))
    g.apply(ev.SecretDiscSet(player="blue", region="valencia"))
    pub_valencia = public_view(g.state)
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))  # changed her mind
    pub = public_view(g.state)
    assert pub.secret_discs_chosen == ["blue"] and pub == pub_valencia
    assert player_view(g.state, "blue").private.secret_disc == "granada"
    assert player_view(g.state, "green").private.secret_disc is None
    assert pub.asked.options == {"purpose": "special_scoring"}  # the allowed regions are each player's own
