"""companion.history.records: what each saved game came to, the replay of a game step by step, the
players the table knows and each one's record."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.history.records import (
    GameRecord,
    PlayerResult,
    demo_replay,
    game_records,
    known_players,
    last_finished,
    read_record,
    replay_events,
    replay_log,
    replay_table,
    statistics,
)
from companion.scripted import play, scripted_setup
from companion.table.authority import Table
from engine.events import GameSetup, event_from_dict
from engine.flow import apply_event
from engine.game import Game, start_state
from engine.views import public_view
from tests.companion.history.games_fixture import group_folder

GOLDEN = sorted(Path(__file__).parents[2].joinpath("engine", "golden").glob("*.jsonl"))


def _golden(path: Path):
    rows = [line for line in path.read_text().splitlines() if line.strip()]
    return GameSetup.from_saved(json.loads(rows[0])["setup"]), [event_from_dict(json.loads(r)) for r in rows[1:]]


@pytest.fixture(scope="module")
def group(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    return folder, group_folder(folder)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_matches_the_engine_at_each_step(path):
    """Every scoring step and every 9th step compared with the engine replaying the log's
    prefix afresh (engine.game.Game.replay); the end with the golden expectation."""
    setup, events = _golden(path)
    replay = replay_events(setup, events)
    assert len(replay) == len(events) + 1
    scoring_steps = {
        n
        for n, (a, b) in enumerate(zip(replay.steps, replay.steps[1:]), start=1)
        if len(a.view["scorings"]) != len(b.view["scorings"])
    }
    for n in sorted(scoring_steps | set(range(0, len(replay), 9)) | {len(replay) - 1}):
        expected = public_view(Game.replay(setup, events[:n]).state).model_dump(mode="json")
        assert replay.steps[n].view == expected, f"step {n}"
    final = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())
    last = replay.steps[-1]
    assert [last.scores[p] for p in setup.players] == final["scores"]
    assert len(last.view["scorings"]) == len(final["scorings"])


def _secrets_changed(state, rng: random.Random):
    """The same position with every secret different: the Castillo's content, each hand,
    the secret discs not yet revealed, the provinces (the players', not the 2023 dummy's deck)."""
    other = state.clone()
    castillo = other.board.castillo
    for p in range(len(other.players)):
        other.counts[castillo][p] += rng.randint(1, 3)
        other.provinces[p] += 1
    # as many cards, all others; the 2023 dummy's deck is no secret (what it has used lies face up)
    other.hands = [
        list(hand) if p == other.dummy else [card + 100 for card in hand] for p, hand in enumerate(other.hands)
    ]
    regions = range(len(other.board.region_ids))
    for discs in (other.scoring_discs, other.special.discs if other.special else None):
        if discs:
            for p in discs:
                discs[p] = rng.choice([r for r in regions if r != discs[p]])
    return other


@pytest.mark.parametrize("path", GOLDEN[:4], ids=lambda p: p.stem)
def test_no_secret_in_any_step_of_a_replay(path):
    """The hidden-things property at every step: changing what is hidden (the Castillo's content,
    the hands, a secret disc before its reveal) changes nothing in the replay's view."""
    setup, events = _golden(path)
    replay = replay_events(setup, events)
    state, rng = start_state(setup), random.Random(path.stem)
    discs_pending = 0
    for n, event in enumerate(events, start=1):
        apply_event(state, event)
        discs_pending += bool(state.scoring_discs)
        assert public_view(_secrets_changed(state, rng)).model_dump(mode="json") == replay.steps[n].view, (
            f"step {n} ({replay.steps[n].what}) shows a secret"
        )
    assert discs_pending, "the game never waited on a secret disc: the property was not tried on one"


def test_a_table_replay_shows_what_the_tablet_showed_even_across_undos():
    """Each view the live table showed whose inputs all stayed (not undone later) is the
    replay's view at that step."""
    table = Table(scripted_setup(players=3), None)
    seen = []
    table.subscribe(
        lambda what: (
            seen.append(([r["e"] for r in table.effective if r["t"] == "event"], table.public().game))
            if what == "game"
            else None
        )
    )
    play(table, seed=11)
    assert sum(r["t"] == "undo" for r in table.records), "the scripted game made no undo to replay across"
    final = [r["e"] for r in table.effective if r["t"] == "event"]
    replay = replay_table(table)
    assert len(replay) == 1 + len(final)
    kept = [(len(events), view) for events, view in seen if events == final[: len(events)]]
    assert len(kept) > len(final) // 2
    for n, view in kept:
        assert replay.steps[n].view == view, f"step {n}"
    assert replay.steps[-1].view == table.public().game


def test_records_list_every_game_with_its_result(group):
    folder, paths = group
    records = game_records(folder)
    assert [r.path for r in records] == paths[::-1]  # newest first
    unfinished, second, first = records
    assert not unfinished.finished and len(unfinished.players) == 3 and not unfinished.winners
    for record in (first, second):
        assert record.finished and record.rules == "classic" and record.rounds == 6
        top = max(p.score for p in record.players)
        assert [p.name for p in record.winners] == [p.name for p in record.players if p.score == top]
        for p in record.players:  # the sources add up to the score
            assert sum(p.by_source.values()) == p.score
            assert p.by_source["regions"] > 0
    assert [p.name for p in first.players] == ["Ana", "Ben", "Cai", "Dee"]
    assert last_finished(folder).path == paths[1]


def test_the_replay_of_a_saved_game_ends_where_the_game_ended(group):
    folder, paths = group
    replay = replay_log(paths[0])
    record = read_record(paths[0])
    assert replay.steps[-1].scores == {p.id: p.score for p in record.players}
    assert replay.steps[0].scores == {p.id: 0 for p in record.players}
    stairs = replay.score_steps()
    assert all(pts[-1][1] == replay.steps[-1].scores[p] for p, pts in stairs.items())
    assert all(a[0] < b[0] and a[1] != b[1] for pts in stairs.values() for a, b in zip(pts, pts[1:]))
    starts = replay.round_starts()
    assert [replay.steps[n].round for n in starts] == sorted({s.round for s in replay.steps})
    points = replay.turning_points(3)
    assert len(points) == 3 and points[0].swing >= points[1].swing >= points[2].swing
    for tp in points:  # each swing is what the step's scoring gave
        before, after = replay.steps[tp.step - 1].scores, replay.steps[tp.step].scores
        assert tp.gains == {p: after[p] - before[p] for p in replay.players}
        assert tp.title in tp.words(replay.names)
        top = max(tp.gains, key=tp.gains.get)  # what caused it: the top gainer's largest areas
        lines = replay.steps[tp.step].view["scorings"][-1]["lines"]
        assert tp.best_areas and tp.best_areas[0][1] == max(
            sum(ln["points"] for ln in lines if ln["player"] == top and ln["area"] == a) for a, _ in tp.best_areas
        )


def test_a_damaged_log_is_a_record_that_says_so(tmp_path):
    path = tmp_path / "game-20250101-200000-abcd.jsonl"
    path.write_text('{"header": 5}\n')
    record = read_record(path)
    assert record.damaged and not record.players and not record.finished
    with pytest.raises(ValueError, match="not a game's header"):
        replay_log(path)


def test_known_players_come_with_their_usual_colour(group):
    folder, _ = group
    known = {k.name: k for k in known_players(game_records(folder))}
    assert set(known) == {"Ana", "Ben", "Cai", "Dee"}
    assert known["Ana"].games == 3 and known["Ana"].colour == "red"  # red twice, yellow once
    assert known["Dee"].games == 2 and known["Dee"].colour in ("blue", "green")  # once each: the newer
    assert known["Dee"].colour == "green"


def _record(scores: dict[str, int], finished=True, rules="classic") -> GameRecord:
    top = max(scores.values())
    players = [
        PlayerResult(
            f"c{i}",
            name,
            s,
            finished and s == top,
            i + 1,
            i == 0,
            {"regions": s - 5, "castillo": 5, "king": 0, "grande": 0, "special": 0, "other": 0},
        )
        for i, (name, s) in enumerate(scores.items())
    ]
    return GameRecord(None, None, None, rules, [], "full", "tracking", players, finished, 9, 9)


def test_statistics_count_a_shared_victory_as_a_win_for_each():
    stats = {
        (s.name, s.rules): s
        for s in statistics(
            [
                _record({"Ana": 90, "Ben": 90, "Cai": 70}),  # shared: both win
                _record({"Ana": 100, "Ben": 80, "Cai": 85}),
                _record({"Ana": 10, "Ben": 99, "Cai": 5}, finished=False),  # unfinished: not counted
                _record({"Ana": 60, "Ben": 70}, rules="2023"),
            ]
        )
    }
    ana, ben = stats[("Ana", "classic")], stats[("Ben", "classic")]
    assert (ana.games, ana.wins, ana.shared_wins, ana.best, ana.mean) == (2, 2, 1, 100, 95.0)
    assert (ben.games, ben.wins, ben.shared_wins, ben.best, ben.mean) == (2, 1, 1, 90, 85.0)
    assert stats[("Cai", "classic")].wins == 0
    assert stats[("Ben", "2023")].wins == 1 and stats[("Ana", "2023")].wins == 0
    assert ana.by_source["castillo"] == 10 and ana.by_source["regions"] == 180


@pytest.mark.parametrize(
    "rules, modules, players", [("2023", (), 2), ("2023", ("power-shift",), 3), ("king-intrigue", (), 4)]
)
def test_other_rule_sets_replay_without_secrets(rules, modules, players):
    """A random short game of each other rule set (self-play's stand-in files): every step's view
    is the engine's, unchanged by changing the hidden facts; the 2-player dummy is no player."""
    from engine.board.load import load_board
    from engine.flow import asked
    from engine.playout import random_event, random_setup, self_play_files

    board_file, cards_file, filled = self_play_files(rules, players, None, None, modules)
    board = load_board(rules, players, board_file, cards_file)
    rng = random.Random(3)
    setup = random_setup(rng, players, board, "short", rules, modules, board_file, cards_file, bool(filled))
    state, events = start_state(setup, board), []
    while state.stage != "over":
        events.append(random_event(rng, asked(state)))
        apply_event(state, events[-1])
    replay = replay_events(setup, events, board)
    assert replay.players == list(setup.players)
    state = start_state(setup, board)
    for n, event in enumerate(events, start=1):
        apply_event(state, event)
        assert public_view(_secrets_changed(state, rng)).model_dump(mode="json") == replay.steps[n].view, (
            f"step {n} ({replay.steps[n].what}) shows a secret"
        )


@pytest.mark.parametrize("which", ["demo", "golden"])
def test_the_scoring_that_ends_a_round_is_labelled_with_that_round(which):
    """The general scoring after round 3 moves the game on to the next round, but the step is round 3's."""
    if which == "demo":
        replay = demo_replay()
    else:
        replay = replay_events(*_golden(next(p for p in GOLDEN if "5p-full" in p.name)))
    ending = [
        (step, step.view["scorings"][-1])
        for before, step in zip(replay.steps, replay.steps[1:])
        if len(step.view["scorings"]) > len(before.view["scorings"])
        and step.view["scorings"][-1]["title"].startswith("General scoring after round")
    ]
    assert len(ending) == 3
    for step, scoring in ending:
        assert step.round == scoring["round"], (step.number, step.round, scoring["title"])
        assert f"round {step.round}" in scoring["title"]
        if step.number + 1 < len(replay):  # the next step is the next round's
            assert replay.steps[step.number + 1].round > step.round
    # the round jumps land on each round's first step, in order
    starts = replay.round_starts()
    assert [replay.steps[n].round for n in starts] == sorted({s.round for s in replay.steps})
