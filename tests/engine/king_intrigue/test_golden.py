"""King and Intrigue games saved by this engine replay to the identical state (every count,
score, scoring line, outcome and marker): later changes to the engine must not change what a
saved K&I game leads to. The logs in golden/ were written from seeded random games (seed
"golden:<n>", engine.playout.random_event) with the tests' own card file (table.py), one per
module combination; the .expected.json beside each is what it ended with. A deliberate change
of a rule reading regenerates them and says so in its commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.game import Game

GOLDEN = Path(__file__).parent / "golden"
LOGS = sorted(GOLDEN.glob("king-intrigue*.jsonl"))


def test_there_is_a_golden_log_for_each_module_combination():
    combos = {p.stem.rsplit("-", 3)[0] for p in LOGS}
    assert combos == {
        "king-intrigue",
        "king-intrigue+players-edition",
        "king-intrigue+special-cards",
        "king-intrigue+players-edition+special-cards",
    }


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_saved_king_and_intrigue_game_replays_to_the_identical_state(path):
    game = Game.from_jsonl(path.read_text(encoding="utf-8"))
    state = game.state
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert state.stage == "over" and state.rules.id == "king-intrigue"
    assert state.scores == expected["scores"] and state.winners == expected["winners"]
    assert state.counts == expected["counts"] and state.court == expected["court"]
    assert state.provinces == expected["provinces"]
    assert state.king == expected["king"] and state.grandes == expected["grandes"]
    assert state.markers == expected["markers"]
    assert [[r.title, [ln.to_dict() for ln in r.lines]] for r in state.scoring_log] == expected["scorings"]
    assert [o.to_dict() for o in state.outcomes] == expected["outcomes"]
