"""Scenarios (run by app_driver.py) for what the table is told after an effect on
everyone, and the history that reopens it."""

from scenarios import _reveal_cards, _start_tracked_three_player_game, _wait_for


def decay_outcome_and_history(d):
    """Red plays Decay of Authority: the tablet says who puts what back; History reopens it."""
    yield from _start_tracked_three_player_game(d)
    yield from _reveal_cards(
        d, ("any 3 Caballeros", "send all of the Caballeros", "Score the Castillo", "relocate your Grande")
    )
    for value in ("13", "12", "11"):
        d.tap(value, exact=True)
        yield 0.1
    d.tap("Decay of Authority")
    yield 0.1
    d.tap("Do the special action")
    yield from _wait_for(d, lambda: d.has_button("Done"))
    from kivy.uix.label import Label

    texts = [w.text for w in d.widgets() if isinstance(w, Label) and d.visible(w)]
    assert "Yellow: put 7 Caballeros from their court back in the provinces." in texts, texts
    assert "Green: put 7 Caballeros from their court back in the provinces." in texts, texts
    yield 0.2  # drawn before the picture is taken
    d.shot("outcome_decay")
    d.tap("Done", exact=True)
    yield 0.2
    d.tap("History", exact=True)
    yield 0.2
    d.shot("history")
    d.tap("Decay of Authority, played by Red")
    yield 0.3
    d.shot("history_reopened")
    texts = [w.text for w in d.widgets() if isinstance(w, Label) and d.visible(w)]
    assert "Yellow: put 7 Caballeros from their court back in the provinces." in texts, texts
    d.facts = {"outcomes": len(d.model.public["game"]["outcomes"])}
