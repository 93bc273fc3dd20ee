"""The reveal sheet and the start's offer to teach the tower its colours
(companion/ui/dialogs/reveal_cards.py): while the offer stands the sheet carries it in its own bar,
so the sheet never hides it; once anything is entered it is gone, as on the table screen."""

from types import SimpleNamespace

from companion.ui.dialogs.reveal_cards import teaching_offered


def _model(offered: bool, records: list[dict], tower: bool = True):
    teaching = SimpleNamespace(offered=lambda: offered)
    link = SimpleNamespace(teaching=teaching) if tower else None
    return SimpleNamespace(tower_link=link, table=SimpleNamespace(effective=records))


def test_the_offer_stands_before_anything_is_entered_when_the_tower_lacks_a_colour():
    assert teaching_offered(_model(True, [{"t": "tower"}]))


def test_no_offer_once_something_is_entered_or_the_tower_knows_its_colours_or_there_is_none():
    assert not teaching_offered(_model(True, [{"t": "event"}]))
    assert not teaching_offered(_model(False, []))
    assert not teaching_offered(_model(True, [], tower=False))


def _bar_words(sheet) -> list[str]:
    return [b.text for b in reversed(sheet.bar.children)]


def test_the_sheet_carries_the_offer_in_its_bar_while_it_stands():
    from companion.ui.dialogs.reveal_cards import RevealCards

    model = _model(True, [])
    model.board = SimpleNamespace(rules="classic")
    sheet = RevealCards().offer(model, {1: [("a", "Card A")], 2: [("b", "Card B"), ("c", "Card C")]})
    assert _bar_words(sheet) == ["Teach the tower these colours", "Not now", "Reveal (stack 2 to pick)"]
    model.table.effective = [{"t": "event"}]  # something entered: the offer is gone
    sheet.offer(model, {1: [("a", "Card A")], 2: [("b", "Card B")]})
    assert _bar_words(sheet) == ["Not now", "Reveal"]
