"""companion.history.step_story: each step of a replay in one sentence of people's words (story),
and in the demo why it happened (lesson); never an internal name, never a secret before its reveal."""

from __future__ import annotations

import random
import re

import pytest

from companion.history.demo_lessons import lesson
from companion.history.records import demo_replay, replay_events
from companion.history.step_story import step_type, story, table_facts
from engine.board.load import load_board
from engine.playout import play_random_game

INTERNAL = re.compile(r"_|\b[Ss]teps?\b|\.(py|kv|jsonl|json)\b|\bNone\b|[{}]")
REGIONS = load_board("classic", 4).region_names


@pytest.fixture(scope="module")
def demo():
    return demo_replay()


@pytest.fixture(scope="module", params=["classic", "2023"])
def random_game(request):
    setup, events, _ = play_random_game(random.Random(11), 4, check=False, rules=request.param)
    return replay_events(setup, events)


def _steps(replay, kind: str) -> list[int]:
    return [n for n in range(1, len(replay)) if step_type(replay.steps[n].what) == kind]


def _first(replay, kind: str) -> int:
    return _steps(replay, kind)[0]


def test_a_power_card_is_told_with_its_number(demo):
    n = _first(demo, "power_card_played")
    pid = next(p["id"] for p in demo.steps[n].view["players"] if p["power_card_played"] is not None)
    card = next(p["power_card_played"] for p in demo.steps[n].view["players"] if p["id"] == pid)
    assert story(demo, n) == f"{demo.names[pid]} played Power card {card}."


def test_a_placement_says_how_many_and_where(demo):
    n = _first(demo, "caballeros_placed")
    before, after = demo.steps[n - 1].view, demo.steps[n].view
    gained = [
        r for r, row in after["regions"].items() if sum(row.values()) > sum((before["regions"].get(r) or {}).values())
    ]
    text = story(demo, n)
    assert re.search(r"placed \d+ Caballeros from the court", text), text
    board = load_board("classic", 4)
    for region in gained:
        assert board.area_name(board.area_index[region]) in text


def test_an_action_card_is_named_as_printed_with_its_stack(demo):
    n = _first(demo, "action_card_chosen")
    before, after = demo.steps[n - 1].view["action_cards"], demo.steps[n].view["action_cards"]
    stack = next(s for s in before if before[s] and after[s] is None)
    printed = load_board("classic", 4).cards[before[stack]].name
    assert story(demo, n).endswith(f"took the Action card '{printed}' (stack {stack}).")


def test_a_general_scoring_gives_each_players_points_and_best_region(demo):
    n = next(
        n
        for n in range(1, len(demo))
        if len(demo.steps[n].view["scorings"]) > len(demo.steps[n - 1].view["scorings"])
        and demo.steps[n].view["scorings"][-1]["title"].startswith("General")
    )
    text = story(demo, n)
    gains = {p: demo.steps[n].scores[p] - demo.steps[n - 1].scores[p] for p in demo.players}
    assert text.startswith("Round 3 scoring: ")
    for pid, points in gains.items():
        assert re.search(rf"{demo.names[pid]} \+{points} \((tied )?(first|second|third) in [^)]+\)", text), text


def test_the_demos_round_jumps_are_said(demo):
    jumps = [n for n in range(1, len(demo)) if demo.steps[n].round - demo.steps[n - 1].round > 1]
    assert jumps, "the short game skips rounds 4 and 7"
    for n in jumps:  # said at the scoring that ends the round before the jump (labelled with that round)
        assert any("this short game skips round" in story(demo, m) for m in (n - 1, n)), n
        assert any("this short demo skips round" in lesson(demo, m) for m in (n - 1, n)), n


def test_no_story_holds_an_internal_name(demo, random_game):
    for replay in (demo, random_game):
        for n in range(len(replay)):
            text = story(replay, n)
            assert text and not INTERNAL.search(text), (n, replay.steps[n].what, text)
            assert not text[0].islower() and text.endswith("."), text


def test_no_story_tells_a_secret_before_its_reveal(demo, random_game):
    """A secret disc's region and the Power card taken back are never told; nor is a disc's
    region at the step it is set."""
    for replay in (demo, random_game):
        for n in _steps(replay, "secret_disc_set"):
            text = story(replay, n)
            assert not any(region in text for region in REGIONS), text
        for n in _steps(replay, "power_card_taken_back"):
            assert not re.search(r"card \d", story(replay, n)), story(replay, n)


def test_no_placement_says_how_many_went_into_the_castillo(demo, random_game):
    """The tower keeps the Castillo's tally: a placement names only what landed on the regions,
    and only as many Caballeros as the regions gained (never the court's total)."""
    for replay in (demo, random_game):
        for n in _steps(replay, "caballeros_placed"):
            before, after = replay.steps[n - 1].view, replay.steps[n].view
            gained = sum(sum(row.values()) for row in after["regions"].values()) - sum(
                sum(row.values()) for row in before["regions"].values()
            )
            text = story(replay, n)
            assert "Castillo" not in text, text
            said = re.search(r"placed (\d+|one) Caballeros?", text)
            assert said is None or said.group(1) in (str(gained), "one"), (text, gained)


def test_the_demo_is_taught_at_every_step_and_nothing_else_is(demo, random_game):
    for n in range(len(demo)):
        words = lesson(demo, n)
        assert words and not INTERNAL.search(words), (n, words)
    assert all(lesson(random_game, n) == "" for n in range(len(random_game)))


def test_a_power_cards_lesson_names_its_number_and_what_it_brings(demo):
    for n in _steps(demo, "power_card_played"):
        card = next(
            p["power_card_played"]
            for p in demo.steps[n].view["players"]
            if p["power_card_played"] is not None
            and demo.steps[n - 1].view["players"][0] is not None
            and next(q for q in demo.steps[n - 1].view["players"] if q["id"] == p["id"])["power_card_played"] is None
        )
        words = lesson(demo, n)
        assert f"Power card {card} " in words
        brings = load_board("classic", 4).replenish[card]
        assert ("no Caballeros" if brings == 0 else f"{brings} Caballero") in words


def test_the_demos_first_lesson_says_why_it_starts_at_round_2(demo):
    assert demo.steps[0].round == 2
    first = lesson(demo, 0)
    assert "starts at round 2" in first and "round 1 is played like every other round" in first
    assert "a short game of 6 rounds, from round 2 (rounds 1, 4 and 7 are skipped)" in story(demo, 0)


def test_the_table_facts_show_the_cards_and_the_courts(demo):
    n = _first(demo, "power_card_played") + 3
    facts = table_facts(demo, n)
    assert facts[0].startswith("Action cards face up (by stack): ") and "(1)" in facts[0]
    assert any(line.startswith("Power cards played: ") for line in facts)
    assert facts[-1].startswith("In the courts: ") and all(demo.names[p] in facts[-1] for p in demo.players)
