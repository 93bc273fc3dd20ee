"""Every screen at the two other tablet shapes (issue 11 item 7, issue 23): 1920x1200 landscape
and 800x1280 portrait, one launch each of the screen catalogue (catalogue_scenarios.py). Each
screen is checked as it is shown (layout_checks.py): touch targets of at least 48 dp, no
interactive widgets overlapping or off the window, no text cut or broken mid-word, no mark on
the map covering another; no English sentence left; and each picture is one of the window's size
and not flat. Every shape is seen in German, chosen in Settings (issue 34: its words are the
longest; Spanish and French: screens/test_words_audit.py). The 1280x800 shape runs the same
catalogue in test_app.py's launch. The pictures are kept with
ELGRANDE_SHOTS=DIR (DIR/catalogue_WxH/...)."""

import json

import pytest
from PIL import Image, ImageStat

from companion.words import _
from companion.words.catalogue import speaking
from tests.companion.ui.test_app import CATALOGUE_IN_GERMAN, CATALOGUE_LANG, Launch
from tests.companion.ui.test_screen_registry import check_every_registered_screen_visited
from tests.companion.ui.words_match import says

SHAPES = ((1280, 800), (1920, 1200), (800, 1280))  # the tablet shapes (1280x800: test_app.py's launch)
OTHER_SHAPES = SHAPES[1:]


def check_catalogue(outcome: dict, shots, width: int, height: int, lang: str = "en") -> None:
    """What the catalogue proves at a shape (also called by test_app.py at 1280x800), its words
    read in the language the app spoke (`lang`)."""
    with speaking(lang):
        _check_catalogue(outcome, shots, width, height)


def _check_catalogue(outcome: dict, shots, width: int, height: int) -> None:
    problems = {screen: found for screen, found in outcome["problems"].items() if found}
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
    # issue 34: seen in another language, no screen shows an English sentence
    assert not outcome.get("english_left"), json.dumps(outcome["english_left"], indent=1, ensure_ascii=False)
    assert len(outcome["screens"]) >= 18
    check_every_registered_screen_visited(outcome)  # so the layout checks cover every screen
    # issue 26, at the end of the crowded game's visit: the finished game replayed, the records, the demo
    assert {
        "home_recent_games",
        "replay_end",
        "replay_middle",
        "player_records",
        "demo_game",
        "setup_known_players",
    } <= set(outcome["screens"])
    assert outcome["turning_step"] > 0 and outcome["demo_step"] == 2
    # issue 33: every turning point listed has its button, on the window without scrolling
    turning = outcome["turning_points"]
    assert turning["listed"] == turning["buttons"] == turning["on_window"] == 3, turning
    # the export folder picked by taps, and the game written there
    assert outcome["folder_chosen"].endswith("exports") and "replay_folder_picker" in outcome["screens"]
    assert any(name.endswith(".png") for name in outcome["exported"])
    # issue 33: a first launch's Home says what to do first
    assert "home_empty" in outcome["screens"] and outcome["home_empty"]
    # the other theme chosen in settings: the screen recoloured at once, the choice kept; then the
    # launch's own theme again (portrait runs in the evening theme: test_screen_catalogue_portrait.py)
    switch = outcome["theme_switch"]
    other = "evening" if switch["started"] == "day" else "day"
    assert switch == {
        "started": switch["started"],
        "name": other,
        "kept": other,
        "words_recoloured": True,
        "ground_recoloured": True,
        "back_to": switch["started"],
    }, switch
    assert {"settings", f"settings_{other}", f"home_empty_{other}"} <= set(outcome["screens"])
    # the records' table: a heading's tap sorts by it; a player's row opens their points' sources
    assert outcome["records_sorted"] == ["best", True] and "player_records_sorted" in outcome["screens"]
    assert len(outcome["records_detail"]) == 1
    lead = _("{name}: points from {points}.").partition("{points}")[0].replace("{name}", "")  # ": points from "
    assert lead in outcome["records_detail"][0] and _("the regions") in outcome["records_detail"][0], outcome
    assert sorted(outcome["first_steps"]) == sorted(_(w) for w in ("New game", "Watch the demo", "Your cards"))
    assert "Bartholomew-Maximilian" in outcome["stats_text"] and "Bo" in outcome["known_players"]
    assert len(outcome["seated"]) == 1 and says(outcome["seated_again"], "already plays")
    # The side panel's smallest words grow with the window: 14 sp, 21 px at 1920x1200
    scale = min(max(width, height) / 1280, min(width, height) / 800)
    assert outcome["side_text_px"] >= 14 * max(1.0, scale) - 0.5, outcome["side_text_px"]
    # the position screen at this shape: the whole position of round 4 entered, then a turn
    assert outcome["round"] == 4 and outcome["valencia"] == {"yellow": 5}
    assert outcome["entry_taps"] <= 40  # the whole position of round 4, and two refused taps
    # a correction confirmed in words, kept in the history and undone
    assert outcome["applied"] == 1 and outcome["corrections"] == 0
    # an effect on everyone told to the table
    assert outcome["outcomes"] == 1
    # the 2023 edition's rule screens (rules chosen, Your board, Your cards, an import, a Modifier)
    assert {
        "rules_home",
        "rules_setup_2023",
        "rules_setup_2023_two_players",
        "rules_board_2_3",
        "rules_board_scoreboard",
        "rules_board_borders",
        "rules_board_tiles",
        "rules_cards",
        "rules_card_detail",
        "rules_add_card",
        "rules_import",
        "rules_modifier",
    } <= set(outcome["screens"])
    for name in (
        "setup_from_position",
        "position_board",
        "position_score_pad",
        "position_courts",
        "position_castillo",
        "position_start",
        "round_4_power",
        "round_4_after_a_turn",
        "correction_refused",
        "correction_confirm",
        "table_after_correction",
        "history_with_correction",
        "history_correction_reopened",
        "outcome_decay",
        "history",
    ):
        assert name in outcome["screens"], name
    # the 2023 and King and Intrigue screens (catalogue_2023_ki.visit_every_2023_and_ki_screen)
    assert outcome["parts_2023_ki"] == ["2023_first_rounds", "ki_screens", "ki_marker_buttons", "map_2023"]
    assert sum("/" in name for name in outcome["screens"]) >= 40, outcome["screens"]
    # a visit in parts keeps each part's pictures in a folder of its own; el-grande-*.png is a
    # game exported as a picture (its own size: tests/companion/history/test_export.py), not a screen
    pictures = sorted(p for p in shots.rglob("*.png") if not p.name.startswith("el-grande-"))
    taken = {path.stem for path in pictures}
    for name in outcome["screens"]:
        if "/" not in name:  # the 2023 and K&I parts name some checks apart from their pictures
            assert name in taken, name
    assert len(pictures) >= 58, len(pictures)
    # the smallest words of every screen, kept beside its pictures for bench/smallest_text.py
    smallest = outcome["smallest_text"]
    unmeasured = {name for name in outcome["screens"] if "/" not in name} - set(smallest)
    assert not unmeasured, unmeasured
    (shots / "smallest_text.json").write_text(json.dumps(smallest, indent=1, ensure_ascii=False))
    # the longest word against its box on each screen (no word is broken: check_screen says so)
    tightest = outcome.get("tightest_word", {})
    assert all(ratio <= 1.0 for ratio, _word, _words in tightest.values()), max(tightest.values())
    (shots / "tightest_word.json").write_text(json.dumps(tightest, indent=1, ensure_ascii=False))
    for path in pictures:
        image = Image.open(path).convert("RGB")
        assert image.size == (width, height), f"{path.name}: {image.size}"
        assert max(ImageStat.Stat(image).stddev) > 8, f"{path.name} is (nearly) one flat colour"


def run_catalogue(width: int, height: int, tmp_path, theme: str = "day") -> None:
    env = {"ELGRANDE_THEME": theme, **CATALOGUE_IN_GERMAN}
    launch = Launch(
        f"catalogue_{width}x{height}", ["catalogue_scenarios:catalogue"], tmp_path, f"{width}x{height}", env
    )
    outcome, shots = launch.of("catalogue_scenarios:catalogue")
    check_catalogue(outcome, shots, width, height, lang=CATALOGUE_LANG)


# One shape a file: the suite runs its files on two cores (pytest -n 2 --dist loadfile), and
# each catalogue launch is about two minutes (portrait: test_screen_catalogue_portrait.py).
@pytest.mark.parametrize("width,height", [(1920, 1200)], ids=["1920x1200"])
def test_every_screen_fits_the_tablet(width, height, tmp_path):
    run_catalogue(width, height, tmp_path)
