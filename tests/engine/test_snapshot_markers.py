"""A King and Intrigue snapshot's markers against the King's region (issue: a 2x marker in the
King's region). The markers are never *placed* there (engine/effects/double_scoring.py,
alliance.py: P.not_taboo), but the King may move onto a marked region afterwards: the tracked
engine's King moves do not avoid markers, and the rule book's Alliance text scores that case
("If one of the regions is the King's region ... bonus points are awarded accordingly"). So a
snapshot at scoring time with the King on a 2x marker is a real table and is scored, doubled."""

from __future__ import annotations

from engine.board.load import load_board
from engine.effects.move_king import king_targets as _king_targets
from engine.snapshot import load_snapshot, score_snapshot


def test_the_tracked_engine_lets_the_king_move_onto_a_2x_marked_region():
    from engine.snapshot import state_from_snapshot
    from engine.state import Special

    snap = load_snapshot(
        {"rules": "king-intrigue", "players": ["a", "b", "c"], "king": "aragon", "double_scoring": ["cataluna"]}
    )
    state = state_from_snapshot(snap)
    king_card = next(c for c in state.board.cards.values() if c.effect == "move_king" and c.params.get("adjacent_only"))
    assert "cataluna" in _king_targets(state, Special(card=king_card, effect="move_king", player=0))


def test_a_snapshot_with_the_king_on_a_2x_marker_is_scored_and_doubled_with_the_kings_bonus():
    snap = load_snapshot(
        {
            "rules": "king-intrigue",
            "players": ["a", "b", "c"],
            "king": "cataluna",
            "regions": {"cataluna": {"a": 3, "b": 1}},
            "double_scoring": ["cataluna"],
        }
    )
    gained, lines, _ = score_snapshot(snap, None, load_board("king-intrigue", 3))
    doubled = [ln for ln in lines if ln.reason.startswith("2x marker on Cataluña")]
    assert {ln.player for ln in doubled} == {"a", "b"}
    king_bonus = [ln for ln in lines if ln.kind == "king_bonus" and ln.area == "cataluna"]
    assert king_bonus and gained["a"] == 2 * sum(
        ln.points for ln in lines if ln.player == "a" and not ln.reason.startswith("2x")
    )
