"""Builders of the 2023 referee tests (tests/engine/test_referee_2023.py), shared with the
effect tests that moved from there: a turn with a given card, a refusal that changes nothing,
the points of the last scoring."""

from __future__ import annotations

import dataclasses

import pytest

from engine import events as ev
from engine.errors import RULES, RuleViolation
from engine.game import Game
from tests.engine.effects.game2023 import BOARD_FILE, clear, finish_turn, new_game, start_round, take

# The 2-3 player side: the rule book does not print its Scoring boards; these are test values,
# each with a 3rd number that must never be paid ("Only the first two numbers ... count").
BOARD_2_3 = {
    **BOARD_FILE,
    "side": "2-3",
    "regions": [
        {"id": r, "scoreboard": v}
        for r, v in {
            "galicia": [4, 2, 1],
            "navarra": [5, 3, 1],
            "aragon": [5, 4, 1],
            "cataluna": [4, 2, 1],
            "castilla": [6, 4, 2],
            "toledo": [7, 4, 2],
            "valencia": [5, 3, 2],
            "sevilla": [4, 3, 1],
            "granada": [6, 3, 1],
        }.items()
    ],
    "castillo": {"scoreboard": [5, 3, 1]},
}


TWO = ["purple", "blue"]


DUMMY = "green"


def _fields(state) -> dict:
    return {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if f.name not in ("turn", "special")} | {
        "turn": repr(state.turn),
        "special": repr(state.special),
    }


def _refused(g: Game, event, rule: str | None = None) -> str:
    """Refused with a RuleViolation that names a known rule; nothing at all changed."""
    before = _fields(g.state.clone())
    events = len(g.events)
    with pytest.raises(RuleViolation) as info:
        g.apply(event)
    e = info.value
    assert e.rule in RULES and e.detail and RULES[e.rule] in str(e)
    if rule is not None:
        assert e.rule == rule, (e.rule, e.detail)
    after = _fields(g.state)
    assert [k for k in before if before[k] != after[k]] == [] and len(g.events) == events
    return e.detail


def _two(**kw) -> Game:
    return new_game(players=TWO, dummy=DUMMY, board_file=BOARD_2_3, **kw)


def _points(lines) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in lines:
        out[line.player] = out.get(line.player, 0) + line.points
    return out


def _last_scoring(g: Game):
    return g.state.scoring_log[-1].lines


def _to_turn(g: Game, card: str, order=None) -> str:
    """A round begins; the first player takes `card` and nothing to the court."""
    start_round(g, card, order)
    return take(g, card)


def _round_of_plain_turns(g: Game, skip_kings_card: bool = True) -> None:
    """Every player takes the lowest stack left (never Your Majesty), does nothing."""
    while g.state.stage in ("replenish", "choose_card", "turn"):
        pid = g.asked().players[0]
        if g.state.stage == "replenish":
            g.apply(ev.CourtReplenished(player=pid, from_provinces=0))
        stack = min(s for s, c in g.state.revealed.items() if c and (s != 5 or not skip_kings_card))
        g.apply(ev.ActionCardChosen(player=pid, stack=stack))
        finish_turn(g)


def _castillo_table(king: str = "castilla", **kw) -> Game:
    """Purple (you), Orange, Blue, Green clockwise, Grandes in Granada, Cataluña, Sevilla and
    Navarra; every Caballero back in the Province; the King moved to `king` (as a card may
    have); the first general scoring at the end of the next round."""
    g = new_game(
        players=["purple", "orange", "blue", "green"],
        homes={"purple": "granada", "orange": "cataluna", "blue": "sevilla", "green": "navarra"},
        round=3,
        **kw,
    )
    g.state.king = g.board.area_index[king]
    clear(g)
    return g


def _dummy_seat(g: Game) -> int:
    return g.state.dummy


def _put_dummy(g: Game, area: str, k: int) -> None:
    s, d = g.state, g.state.dummy
    s.counts[g.board.area_index[area]][d] += k
    s.provinces[d] -= k


def _mod(mid: str, value: int, ability=None) -> dict:
    return {"id": mid, "value": value, "name": mid, "ability": ability, "source": "referee test set"}


MODIFIERS = (
    [_mod(f"p{i}", 1) for i in range(4)]
    + [_mod(f"m{i}", -1) for i in range(4)]
    + [_mod(f"pp{i}", 2) for i in range(3)]
    + [_mod(f"mm{i}", -2) for i in range(3)]
    + [
        _mod("court_up", 1, {"effect": "court", "params": {"count": 1}, "text": "1 to the court"}),
        _mod("move_own", -1, {"effect": "move", "params": {"total": 1, "own": 1, "foreign": 0}, "text": "move 1 own"}),
    ]
)


DEALT = {
    "purple": ["p0", "m0", "court_up"],
    "blue": ["p1", "m1", "pp0"],
    "green": ["p2", "m2", "mm0"],
    "orange": ["p3", "m3", "move_own"],
}


def _power_shift(players=("purple", "blue", "green", "orange"), dummy=None, passes=None) -> Game:
    import copy

    from tests.engine.effects.game2023 import HOMES, cards_file

    cf = cards_file()
    cf["modifiers"] = MODIFIERS
    g = Game(
        ev.GameSetup(
            players=list(players),
            rules="2023",
            modules=["power-shift"],
            king="castilla",
            dummy=dummy,
            homes={p: HOMES[p] for p in players},
            start_player=players[0],
            board_file=copy.deepcopy(BOARD_2_3 if len(players) < 4 else BOARD_FILE),
            cards_file=cf,
        )
    )
    for pid in players:
        g.apply(ev.ModifiersDealt(player=pid, modifiers=DEALT[pid]))
    for pid in players:
        g.apply(ev.ModifierPassed(player=pid, modifier=(passes or {}).get(pid, DEALT[pid][0])))
    return g


def _area_points(g: Game, area: str) -> dict[str, int]:
    return _points([ln for ln in _last_scoring(g) if ln.area == area])
