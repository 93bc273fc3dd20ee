"""Add a card (companion/ui/dialogs/add_card.py): a few letters typed over the effects narrow
their list (about 30 in a 2023 game), the listed cards' headings stay; Add is the sheet's own
fixed button, never below the list."""

from types import SimpleNamespace

from engine.board.build import classic_board


def _sheet():
    from companion.ui.dialogs.add_card import AddCard

    return AddCard(SimpleNamespace(board=classic_board(), table=None))


def _effects_shown(sheet) -> list[str]:
    return [w.text for w in reversed(sheet.effect_list.children)]


def test_letters_typed_narrow_the_effects_and_nothing_matching_is_said():
    sheet = _sheet()
    every = _effects_shown(sheet)
    assert len(every) >= 5
    sheet.ids.effect_filter.text = "veto"
    narrowed = _effects_shown(sheet)
    assert narrowed and all("veto" in words.lower() for words in narrowed) and len(narrowed) < len(every)
    sheet.ids.effect_filter.text = "xyzzy"
    assert _effects_shown(sheet) == ['No effect has "xyzzy": try fewer letters']
    sheet.ids.effect_filter.text = ""
    assert _effects_shown(sheet) == every


def test_add_is_in_the_sheets_foot_not_in_the_list():
    sheet = _sheet()
    assert sheet.add_button.parent is not None
    inside = [*sheet.effect_list.walk(restrict=True), *sheet.form.walk(restrict=True)]
    assert all(w is not sheet.add_button.__self__ for w in inside)
