"""The Settings sheet's language, in the real app under Xvfb (settings_scenarios.py): chosen, in
use at once on every screen (made again on the same model, the game under way untouched), kept
in settings.json; and back to English."""

import json

import pytest

from tests.companion.ui.test_app import _drive, _looks_like_a_screen


@pytest.fixture(scope="module")
def switched(tmp_path_factory):
    folder = tmp_path_factory.mktemp("settings_language")
    outcome, shots = _drive("tests.companion.ui.dialogs.settings_scenarios:language_switch", folder)
    return outcome, shots, folder / "data"


def test_deutsch_is_in_use_at_once_and_kept(switched):
    facts, shots, data = switched
    de = facts["de"]
    assert de["language"] == "de" and de["kept"] == "de"
    assert "Einstellungen" in de["sheet"] and "Fertig" in de["sheet"], de["sheet"]
    assert any(t.startswith("Deutsch") and "(aktiv)" in t for t in de["sheet"]), de["sheet"]
    assert "Systemsprache" in de["sheet"]
    assert de["showing"] == "home" and de["screens_made_again"]
    _looks_like_a_screen(shots / "settings_de.png")


def test_the_game_under_way_goes_on_in_german(switched):
    de = switched[0]["de"]
    assert de["same_game"]
    assert de["bar"] == ["Rückgängig", "Startseite", "Verlauf"], de["bar"]
    assert de["old_screen_unbound"]
    before, after = de["observers"]
    assert after == before > 0, de["observers"]  # nothing of the old screens answers the model any more
    assert "Welche Aktionskarten wurden aufgedeckt?" in de["reveal_sheet"], de["reveal_sheet"]
    _looks_like_a_screen(switched[1] / "table_de.png")


def test_english_again_is_kept_too(switched):
    facts, _, data = switched
    en = facts["en"]
    assert en["language"] == "en" and en["kept"] == "en"
    assert "Settings" in en["sheet"] and "Done" in en["sheet"]
    assert en["bar"] == "Undo"
    assert json.loads((data / "settings.json").read_text())["language"] == "en"


def test_a_filter_box_narrows_a_long_list_of_buttons(switched):
    # companion.ui.widgets.rule_widgets.filter_box (Your cards' Modifier abilities), in the same app
    shown = switched[0]["filter"]
    assert shown["king"] == ["No ability", "King"]
    assert shown["COURT"] == ["No ability", "Court: 2 Caballeros"]
    assert shown["zzz"] == ["No ability", 'Nothing has "zzz": try fewer letters']
    assert shown[""] == ["No ability", "Court: 2 Caballeros", "King"]
