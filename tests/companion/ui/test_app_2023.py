"""The 2023 edition at the table, in the real app under Xvfb (scenarios_2023.py, driven by
app_driver.py), one launch at 1280x800 (scenarios_2023.launch_2023) read by several tests: a
whole 2-player game with the dummy, New Regency and Power Shift, tracked by taps on the tablet
alone; every new prompt it reaches; the classic tap budgets measured on it the way the headless
2023 tests define them (tests/companion/table/test_authority_2023.py), with the layout checks of every
screen shown; a first game learning the box; a short scoring-only game; a 5-player game with
every module started from the new-game screen; the 2023 map. The new prompts at the other two
tablet shapes are in the screen catalogue (catalogue_2023_ki.py)."""

import fcntl
import json
import os
from pathlib import Path

import pytest

from companion.history.people_words import who_won
from companion.words import use_language
from tests.companion.table.test_authority_2023 import general_scorings, ordinary_turns
from tests.companion.ui.checks_2023_ki import learned_the_box, map_2023_checks
from tests.companion.ui.test_app import _drive, _looks_like_a_screen
from tests.companion.ui.words_match import colour, said, says

SCENARIOS = "scenarios_2023"
# issue 34: the launch plays in this language (ELGRANDE_TEST_LANG=de|es|fr|en tries another)
LANG = os.environ.get("ELGRANDE_TEST_LANG") or "es"
FIVE = {"purple": "Ana", "blue": "Bruno", "green": "Carmen", "orange": "Dora", "red": "Eva"}  # phones_2023_scenarios
FIVE_MODULES = ["new-regency", "old-hands", "power-shift"]

# Every new prompt (and route through one) the game must meet, by the scenario's names
REACHED = (
    "private:deal_modifiers",
    "private:pass_modifier",  # Power Shift, behind the private screen
    "sub:modifier",
    "modifier ability with the replenishment",
    "prompt:modifier_ability",
    "private:take_back_power_card",  # Empowerment: a Power card or a Modifier back
    "prompt:dummy_region_cards",
    "prompt:dummy_power_card",
    "notice",  # the dummy; its card said, no dialog
    "prompt:place_anywhere",
    "prompt:place_scoring_tile",
    "mobile",  # Militia, Enactment
    "prompt:move_king_with_entourage",
    "prompt:swap_pieces",  # Entourage, Stand-in
    "prompt:move_grande",
    "map:portugal",
    "castillo stays (Rebellion)",  # Competition, Exile, Rebellion
    "castillo:Counts match: score the Castillo",  # Revelation, counted once let pass
    "refused special skipped",
    "veto used",
    "add_card",
    "map:castillo",
    "outcome dialog",
    "scoring page",
)
PLAYED = (
    "competition",
    "revelation",
    "rebellion",
    "exile",
    "entourage",
    "stand_in",
    "militia",
    "enactment",
    "civil_war",
    "veto_2023",
    "empowerment",
)


class _Step:
    """A step as the headless tests count it: the taps that enter it. The "Done" that closes a
    "Now move these Caballeros" dialog after it (the dummy's Region cards, Entourage ...) is
    read, not entered: counted apart (`read_taps`), one a dialog."""

    def __init__(self, row: dict):
        self.__dict__.update(row)
        self.taps = row["taps"] - row["read_taps"]


def _budgets(steps: list[_Step]) -> dict:
    """The issue's figures, from the taps counted on the app."""
    power = [s for s in steps if s.kind == "play_power_card"]
    plain = [s.taps for s in power if not any(e.get("modifier") for e in s.events)]
    modified = [s.taps for s in power if any(e.get("modifier") for e in s.events)]
    discs = [s.taps for s in steps if s.kind == "secret_disc" and s.purpose == "castillo_destination"]
    openings = [s.taps for s in steps if s.kind == "reveal_secret_discs"]
    turns = ordinary_turns(steps)
    return {
        "ordinary turns": turns,
        "power plain": plain,
        "power with a Modifier": modified,
        "general scorings": general_scorings(steps, 2),
        "disc on the tablet": discs,
        "opening": openings,
        "dummy region cards": [s.taps for s in steps if s.kind == "dummy_region_cards"],
        "dummy power card": [s.taps for s in steps if s.kind == "dummy_power_card"],
        "reveal": [s.taps for s in steps if s.kind == "reveal_action_cards"],
    }


def _learned_the_box(outcome: dict, shots, size=None) -> None:
    """A first game from the shipped data (checks_2023_ki.learned_the_box), its pictures kept."""
    learned_the_box(outcome["learning"])
    for name in ("reveal_sheet_empty_stacks", "name_card", "add_card_compact", "reveal_sheet_learned", "card_facts"):
        _looks_like_a_screen(shots / f"{name}.png", *([size] if size else []))


def launched(
    tmp_path_factory, name: str, scenario: str, window: str = "1280x800", env: dict | None = None
) -> tuple[dict, Path]:
    """A launch run once for the whole test run, its several tests reading its outcome, even when
    pytest-xdist gives them to different workers: the first to get here runs it (under a lock)
    and leaves the outcome in the run's shared temporary folder; the others read that. A launch
    that failed as a whole is kept as such, and every test reading it fails with its words."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / f"launch-{name}"
    with open(root / f"launch-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        saved = folder / "launched.json"
        if not saved.exists():
            folder.mkdir(exist_ok=True)
            try:
                outcome, shots = _drive(scenario, folder, window, env)
            except AssertionError as failed:  # the app did not finish, or the runner itself failed
                outcome, shots = {"status": "failed", "error": str(failed)[-6000:], "parts": {}}, folder
            saved.write_text(json.dumps({"outcome": outcome, "shots": str(shots)}))
        kept = json.loads(saved.read_text())
    return kept["outcome"], Path(kept["shots"])


def part(launch: tuple[dict, Path], name: str) -> tuple[dict, Path]:
    """One scenario's facts of a launch of several (catalogue_2023_ki.several), and its pictures."""
    outcome, shots = launch
    assert outcome["status"] == "ok", outcome.get("error")
    facts = outcome["parts"].get(name)
    assert facts is not None, f"{name} did not run: {sorted(outcome['parts'])}"
    assert facts["status"] == "ok", facts.get("trace") or facts
    return facts, shots / name


@pytest.fixture(scope="module")
def launch_2023(tmp_path_factory):
    return launched(tmp_path_factory, "2023", f"{SCENARIOS}:launch_2023", env={"ELGRANDE_LANG": LANG})


@pytest.fixture(autouse=True)
def in_spanish():
    """The launch's words read as the app said them (companion.words in Spanish)."""
    use_language(LANG)
    yield
    use_language("en")


def test_a_whole_two_player_2023_game_with_the_dummy_by_taps(launch_2023):
    outcome, shots = part(launch_2023, "two_player_game")
    _learned_the_box(outcome, shots)
    # Nine rounds to the end screen; the dummy scores nothing and never wins
    assert outcome["rounds"] == list(range(1, 10))
    # ... scored as the engine scores the saved log
    assert outcome["replayed_over"] and outcome["end_scores"] == outcome["replayed"], (
        outcome["end_scores"],
        outcome["replayed"],
    )
    assert outcome["end_heading"] == who_won(outcome["replayed_winners"])
    assert outcome["scores"]["white"] == 0 and outcome["winners"] and "white" not in outcome["winners"]
    assert max(outcome["scores"].values()) == outcome["scores"][outcome["winners"][0]]
    missing = [r for r in REACHED if not outcome["reached"].get(r)]
    assert not missing, (missing, outcome["reached"])
    assert not [e for e in PLAYED if not outcome["played_effects"].get(e)], outcome["played_effects"]
    # The colours the tower does not know, said once at the start; the dummy's card said in words
    notice = outcome["start_notice"]
    assert says(notice, "does not know"), notice
    assert colour("purple").lower() in notice.lower() and colour("white").lower() in notice.lower(), notice
    # ... and how to have it counted: the tower panel calibrates the game's colours (the dummy's too)
    assert says(outcome["start_notice"], "Calibrate the colours")
    assert {"purple", "blue", "white"} <= set(outcome["calibrated_for"]), outcome["calibrated_for"]
    assert not says(outcome["notice_after_calibration"], "does not know"), outcome["notice_after_calibration"]
    assert {"purple", "blue"} <= set(outcome["sim_drop_colours"]), outcome["sim_drop_colours"]  # the sim's buttons too
    dummy = said("the dummy ({name})", name=colour("white"))
    assert any(dummy.lower() in n.lower() and says(n, "{who} takes {card}") for n in outcome["notices"]), outcome[
        "notices"
    ]
    # The card found in the box: a wrong entry refused in words, then added
    added = outcome["card_added"]
    assert says(added["refused_first"], "Tap what the card does first")
    assert says(added["refused"], "would hold at least") and "4" in added["refused"] and "11" in added["refused"]
    assert (added["stack"], added["copies"]) == (4, 2)
    assert says(added["said"], "{card} is in the card set now"), added["said"]
    # Civil War, refused while its outcome was not entered, completed from the card at the next reveal
    completed = outcome["card_completed"]
    assert "civil_war" in completed["listed"] and completed["params"]["outcome"] == "to_court", completed
    assert completed["missing"] == [] and says(completed["said"], "is complete"), completed
    # The dummy's Region cards: a region tapped twice is refused in words, nothing sent
    per_area = outcome["per_area"]
    assert says(per_area["message"], "entered already") and per_area["still_asked"] == "dummy_region_cards"
    assert list(per_area["entry"].values()) == [1], per_area
    # Correct the board: the 2023 map, Scoring tiles as tools, the King tappable into the spaces
    correction = outcome["correction"]
    assert correction["board"] == "2023" and "tool:mobile:tile_a" in correction["tools"]
    assert {"france", "portugal", "castillo"} <= set(correction["king_tappable"])
    assert correction["king_in_portugal"] and correction["king_after"] != "portugal"  # dropped
    # The classic tap budgets, measured on the app
    figures = _budgets([_Step(s) for s in outcome["steps"]])
    print("2023 taps:", {k: v for k, v in figures.items()}, "total", outcome["taps_total"])
    turns = figures["ordinary turns"]
    assert turns and all(taps <= 3 + placed + (not first) for taps, placed, first in turns), turns
    assert any(placed == 3 and taps <= 6 for taps, placed, first in turns), turns
    assert figures["power plain"] and set(figures["power plain"]) == {1}, figures["power plain"]
    assert figures["power with a Modifier"] and set(figures["power with a Modifier"]) == {2}
    assert figures["disc on the tablet"] and max(figures["disc on the tablet"]) <= 2
    assert figures["opening"] and max(figures["opening"]) <= 4
    assert all(taps <= 4 + 2 * 2 for taps in figures["general scorings"]), figures["general scorings"]
    assert max(figures["dummy power card"]) == 1 and max(figures["dummy region cards"]) <= 2
    read = [s["read_taps"] for s in outcome["steps"] if s["read_taps"]]
    assert read and set(read) == {1}  # each dialog closed with one tap
    assert max(figures["reveal"]) <= 6
    # Nothing a person would see wrong on any screen shown (48 dp targets, overlaps, cut words)
    assert not {k: v for k, v in outcome["problems"].items() if v}, outcome["problems"]
    for name in (
        "start_colour_notes",
        "private_deal_modifiers",
        "private_pass_modifier",
        "prompt_dummy_region_cards",
        "outcome_dummy_region_cards",
        "add_card",
        "reveal_sheet",
        "prompt_dummy_power_card",
        "prompt_play_power_card",
        "sub_modifier",
        "notice",
        "prompt_place_anywhere",
        "mobile",
        "prompt_move_king_with_entourage",
        "prompt_swap_pieces",
        "prompt_move_king",
        "prompt_move_grande",
        "castillo_stays_lifted",
        "prompt_refused_special",
        "prompt_veto",
        "private_take_back_power_card",
        "correction_king_in_portugal",
        "scoring_general",
        "end_2023",
    ):
        _looks_like_a_screen(shots / f"{name}.png")


def test_a_short_2023_game_in_scoring_only_mode(launch_2023):
    outcome, shots = part(launch_2023, "scoring_only_2023")
    # The board entered by taps: the King in France, a Scoring tile, the dummy's Caballeros
    entered = outcome["entered"]
    assert entered["king"] == "france" and entered["tiles"] == {"tile_a": "toledo"}, entered
    assert entered["navarra"] == {"purple": 2, "white": 1}, entered
    # Each general scoring asks the two players for a disc, never the dummy; it scores nothing
    assert outcome["disc_buttons"] == [said("{who}: secret disc", who=who) for who in ("Ana", "Ben")]
    assert outcome["scorings"] == 3 and outcome["dummy_points"] == 0  # after rounds 3, 6 and 9
    assert outcome["winners"] and "white" not in outcome["winners"]
    assert any(ln["player"] == "blue" and ln["points"] > 0 for ln in outcome["toledo_lines"]), outcome["toledo_lines"]
    assert not {k: v for k, v in outcome["problems"].items() if v}, outcome["problems"]
    for name in ("scoring_only_board_entry", "scoring_only_general", "scoring_only_end"):
        _looks_like_a_screen(shots / f"{name}.png")


def test_a_five_player_2023_game_with_every_module_started_from_the_new_game_screen(launch_2023):
    """The 5-player game of test_game_2023_phones.py as a table starts it: the 2023 edition, five
    players, the three modules, Old Hands' returned cards, the labelled stand-in Modifier cards,
    full tracking, a full game; the board shown before the first 2023 game; the tower panel
    calibrating the colours the tower does not know."""
    outcome, shots = part(launch_2023, "five_players_new_game")
    names = dict(FIVE)
    setup = outcome["setup"]
    assert setup["rules"] == "2023" and sorted(setup["modules"]) == FIVE_MODULES, setup
    assert setup["players"] == list(names) and setup["names"] == names, setup
    assert setup["variant"] == "full" and setup["stand_in_modifiers"] and outcome["mode"] == "tracking", setup
    assert sorted(setup["removed_cards"]) == sorted(["infiltration", "withdrawal", "revelation", "standin_court"])
    assert outcome["board_shown"], "Your board was not shown before the first 2023 game"
    notice = outcome["start_notice"].lower()
    assert says(outcome["start_notice"], "does not know") and colour("purple").lower() in notice, notice
    assert colour("orange").lower() in notice, notice
    assert outcome["calibrated"] == sorted(names), outcome["calibrated"]  # then calibrated from the tower panel
    assert not {k: v for k, v in outcome["problems"].items() if v}, outcome["problems"]
    for name in ("new_game_2023_five", "table_2023_five"):
        _looks_like_a_screen(shots / f"{name}.png")


def test_the_2023_map_in_the_app(launch_2023):
    """test_map_2023.py's positions on the table screen's map at 1280x800 (the other shapes: the
    screen catalogue, catalogue_2023_ki.py)."""
    outcome, shots = part(launch_2023, "map_2023")
    map_2023_checks(outcome, shots, (1280, 800))
