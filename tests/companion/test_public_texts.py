"""No text shown to everyone gives a Castillo tally away.

The tablet is public: its phase bar, its buttons and its refusals are read by
the whole table. A player's Caballeros in the provinces are hidden too, because
30 minus the provinces, the court and the board is their Castillo tally. So the
property: take any position and a twin that differs only in where one player's
hidden Caballeros are (some moved between the provinces and the Castillo). The
public view is the same, so every public text must be the same too: the prompt
the tablet draws, and the refusal of any input refused in both.
"""
from __future__ import annotations

import copy
import random

from pydantic import ValidationError

from companion.prompts import Prompt, PromptBuilder
from engine.board import classic_board
from engine.errors import RuleViolation
from engine.events import event_from_dict
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import random_event, random_setup
from engine.views import public_view

NUDGES = (-3, -1, 1, 2, 4, 9)


def _twins(state, rng: random.Random):
    """Copies of `state` in which one player's hidden Caballeros sit elsewhere."""
    castillo = state.board.castillo
    for p in rng.sample(range(state.n), min(2, state.n)):
        for k in (1, 3):
            for into_castillo in (True, False):
                have = state.provinces[p] if into_castillo else state.counts[castillo][p]
                if have < k:
                    continue
                twin = copy.deepcopy(state)
                step = k if into_castillo else -k
                twin.provinces[p] -= step
                twin.counts[castillo][p] += step
                yield twin


def _ints_nudged(value, rng: random.Random):
    """The same input with one integer changed: the wrong entries a person makes."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return max(0, value + rng.choice(NUDGES))
    if isinstance(value, dict):
        if not value:
            return value
        key = rng.choice(list(value))
        return {**value, key: _ints_nudged(value[key], rng)}
    if isinstance(value, list) and value:
        i = rng.randrange(len(value))
        return value[:i] + [_ints_nudged(value[i], rng)] + value[i + 1:]
    return value


def _probes(state, rng: random.Random, n: int = 6) -> list[dict]:
    ask = asked(state)
    probes = []
    for _ in range(n):
        event = random_event(rng, ask).model_dump(mode="json")
        probes.append(event)
        probes.append(_ints_nudged(event, rng))
    return probes


def _refusal(state, event: dict):
    try:
        apply_event(copy.deepcopy(state), event_from_dict(event))
    except (RuleViolation, ValidationError) as exc:
        return str(exc)
    return None


def _words(prompt: Prompt) -> tuple:
    """Everything the tablet shows of a prompt drawn for the whole table."""
    return (prompt.title, prompt.hint, prompt.limit, sorted(prompt.areas), dict(prompt.prefill),
            [(c.label, c.event, c.action) for c in prompt.choices], dict(prompt.steppers), prompt.private_for)


def test_no_public_text_depends_on_where_hidden_caballeros_are():
    board = classic_board()
    rng = random.Random(10)
    compared = refusals = 0
    for game in range(5):
        state = start_state(random_setup(rng, rng.randint(2, 5), board, variant="short"), board)
        builder = PromptBuilder(state.names, board)
        while state.stage != "over":
            if rng.random() < 0.3:
                ask = asked(state)
                prompt = builder.build(ask)
                probes = _probes(state, rng)
                mine = [_refusal(state, e) for e in probes]
                for twin in _twins(state, rng):
                    assert public_view(twin) == public_view(state)  # the twin is publicly the same
                    if prompt.private_for is None:
                        assert _words(builder.build(asked(twin))) == _words(prompt), ask.kind
                    for event, refused in zip(probes, mine):
                        theirs = _refusal(twin, event)
                        if refused is not None and theirs is not None:
                            assert theirs == refused, (event, refused, theirs)
                            refusals += 1
                    compared += 1
            apply_event(state, random_event(rng, asked(state)))
    assert compared > 300 and refusals > 300, (compared, refusals)


def test_a_replenishment_beyond_the_provinces_is_refused_without_the_count():
    board = classic_board()
    state = start_state(random_setup(random.Random(3), 3, board), board)
    while asked(state).kind != "replenish":
        apply_event(state, random_event(random.Random(3), asked(state)))
    ask = asked(state)
    pid = ask.players[0]
    p = state.players.index(pid)
    state.provinces[p], state.counts[board.castillo][p] = 2, state.counts[board.castillo][p] + state.provinces[p] - 2
    message = _refusal(state, {"type": "court_replenished", "player": pid, "from_provinces": 3, "from_regions": {}})
    assert message is not None and "provinces" in message
    assert "2" not in message.replace("(rule", "")  # neither the count nor anything it gives away
