"""Classic games saved by the version before rule sets (commit 44ac7a4) replay to the identical
state: every count, score, scoring line and outcome (issue 12: "game logs saved by the current
version replay to the identical state"). The logs in golden/ were written by that version's
own engine from seeded random games; the .expected.json beside each is what it ended with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.game import Game

GOLDEN = Path(__file__).parent / "golden"
LOGS = sorted(GOLDEN.glob("classic-*.jsonl"))


def test_there_are_golden_logs_of_every_player_count_and_both_lengths():
    names = {p.stem.rsplit("-", 1)[0] for p in LOGS}
    assert names == {f"classic-{n}p-{v}" for n in (2, 3, 4, 5) for v in ("full", "short")}


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_an_old_classic_log_replays_to_the_identical_state(path):
    text = path.read_text(encoding="utf-8")
    assert '"rules"' not in text.splitlines()[0]  # written before rule sets existed
    game = Game.from_jsonl(text)
    state = game.state
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert state.stage == "over" and state.rules.id == "classic"
    assert state.scores == expected["scores"] and state.winners == expected["winners"]
    assert state.counts == expected["counts"] and state.court == expected["court"]
    assert state.provinces == expected["provinces"]
    assert state.king == expected["king"] and state.grandes == expected["grandes"]
    assert [[r.title, [ln.to_dict() for ln in r.lines]] for r in state.scoring_log] == expected["scorings"]
    assert [o.to_dict() for o in state.outcomes] == expected["outcomes"]
    assert Game.from_jsonl(game.to_jsonl()).state.scores == expected["scores"]  # and saves again
