"""What the game waits for, named in a refusal out of turn: English as the kind spaced (the
refusal reads as before), every ask kind the engine makes listed, and shown in the table's
language by the companion."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from companion.words import use_language
from companion.words.refusals import refusal_words
from engine.ask_words import ASKED, asked_words
from engine.board.build import classic_board
from engine.errors import RuleViolation, Said, cited, joined
from engine.events import CaballerosPlaced
from engine.flow import apply_event
from engine.game import start_state
from engine.playout import random_setup

ENGINE = Path(__file__).resolve().parents[2] / "engine"


@pytest.fixture(autouse=True)
def english_after():
    yield
    use_language("en")


def _kinds() -> set[str]:
    kinds = set()
    for file in ENGINE.rglob("*.py"):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        consts = {
            t.id: n.value.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and n.args and getattr(n.func, "attr", getattr(n.func, "id", "")) == "Ask":
                first = n.args[0]
                if isinstance(first, ast.Constant):
                    kinds.add(first.value)
                elif isinstance(first, ast.Name) and first.id in consts:
                    kinds.add(consts[first.id])
    return kinds


def test_every_ask_kind_has_words_whose_english_is_the_kind_spaced():
    assert _kinds() <= set(ASKED)
    for kind, words in ASKED.items():
        assert words == kind.replace("_", " ")
        assert isinstance(asked_words(kind), Said)
    assert asked_words("no_such_step") == "no such step"


def _out_of_turn() -> RuleViolation:
    board = classic_board()
    state = start_state(random_setup(random.Random(1), 3, board), board)
    try:  # the cards are still to be turned up: placing now is refused, naming what is waited for
        apply_event(state, CaballerosPlaced(player=state.players[0], placements={}))
    except RuleViolation as error:
        return error
    raise AssertionError("not refused")


@pytest.mark.parametrize(
    ("code", "words"),
    [("de", "das Spiel wartet auf"), ("es", "la partida espera"), ("fr", "la partie attend")],
)
def test_the_step_waited_for_reads_in_the_tables_language(code, words):
    error = _out_of_turn()
    english = str(error)
    kind_words = error.values["asked"]
    assert kind_words == "reveal action cards" and str(kind_words) in english
    use_language(code)
    shown = refusal_words(error)
    assert words in shown
    assert str(kind_words) not in shown  # the internal step's id never shows
    assert str(error) == english  # the engine's own words stay English


def test_a_cited_refusal_is_its_english_and_json_safe_and_renders_in_german():
    one = RuleViolation("grande", "the Grande already stands in {region}", region="Sevilla")
    two = RuleViolation("game-over", "the game is over: nothing more can be entered")
    assert str(cited(one)) == str(one)
    both = joined([one, two])
    assert both == f"{one}; {two}"
    assert json.loads(json.dumps({"refused": both})) == {"refused": str(both)}
    assert joined([]) == ""
    use_language("de")
    from companion.words.refusals import said_words

    assert said_words(both).startswith("der Grande steht schon in Sevilla (Regel: ")
    assert "; " in said_words(both) and "(rule:" not in said_words(both)
