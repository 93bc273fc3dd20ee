"""The app's model without a window (companion/ui/model.py): a real table, its real phone server
on a free port. A screen's own line ("That is all: ...") goes with the step it was said at: every
accepted input tells the screen so, even when the model's own message was already empty; a King
and Intrigue card refused in private brings its "why" button to the prompt, naming only who."""

from __future__ import annotations

import pytest

from companion.ui import model as app_model
from tests.companion.table.test_authority_king_intrigue import ki_setup
from tests.companion.tablet_driver import TabletDriver


@pytest.fixture
def model(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(app_model, "PHONE_PORT", 0)  # any free port: the real phone server, not a stand-in
    m = app_model.AppModel()
    from companion.table.setup import TableSetup

    m.new_game(TableSetup(game=ki_setup(3), mode="tracking", tower={"kind": "none"}))
    yield m
    m.close()


def test_an_accepted_input_tells_the_screen_even_when_the_message_was_empty(model):
    told = []
    model.bind(message=lambda _, words: told.append(words))
    driver = TabletDriver(model.table, seed=3)
    while model.table.asked().kind != "play_power_card":
        driver.step()
    ask = model.table.asked()
    pid = ask.players[0]
    assert model.message == ""
    assert model.submit({"type": "power_card_played", "player": pid, "card": ask.options["cards"][0]})
    assert told == [""]  # the screen's "That is all" (its own line) is cleared by this


def test_a_card_refused_in_private_offers_why_to_its_player_only_and_goes_with_the_next_step(model):
    driver = TabletDriver(model.table, seed=3)
    while model.table.asked().kind != "play_power_card":
        driver.step()
    model._refresh()
    ask = model.table.asked()
    pid, who = ask.players[0], model.table.names[ask.players[0]]
    hand = model.table.private(pid)["power_cards_in_hand"]
    left_out = next(v for v in sorted(model.table.board.ki_cards.by_value(())) if v not in hand)
    assert not model.submit({"type": "power_card_played", "player": pid, "card": left_out})
    assert model.message.startswith(f"{who} cannot play Power card {left_out} now") and "left" not in model.message
    model._refresh()  # the table's notice, as the next frame takes it
    why = [c for c in model.prompt.choices if c.action == f"private_note:{pid}"]
    assert [c.label for c in why] == [f"{who}: why it was refused (only {who} looks)"]
    assert model.submit({"type": "power_card_played", "player": pid, "card": hand[0]})
    assert not any((c.action or "").startswith("private_note:") for c in model.prompt.choices)
