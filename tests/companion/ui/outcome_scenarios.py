"""Scenarios (run by app_driver.py) for what the table is told after an effect on
everyone, and the history that reopens it."""

from scenarios import _reveal_cards, _start_tracked_three_player_game, _wait_for
from words_match import colour, says

from companion.words import names


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
    assert _court_back(texts, "yellow") and _court_back(texts, "green"), texts
    yield 0.2  # drawn before the picture is taken
    d.shot("outcome_decay")
    d.tap("Done", exact=True)
    yield 0.2
    d.tap("History", exact=True)
    yield 0.2
    d.shot("history")
    d.tap_widget(_history_item(d, "Decay of Authority"))
    yield 0.3
    d.shot("history_reopened")
    texts = [w.text for w in d.widgets() if isinstance(w, Label) and d.visible(w)]
    assert _court_back(texts, "yellow"), texts
    d.facts = {"outcomes": len(d.model.public["game"]["outcomes"])}


def _court_back(texts: list[str], who: str) -> bool:
    """The outcome's line for `who`: 7 Caballeros from their court back, in the language in use."""
    return any(
        says(t, "from their court back in the provinces") and t.startswith(colour(who)) and "7" in t for t in texts
    )


def _history_item(d, card: str):
    """History's line of the effect of `card` (its printed name in the language in use)."""
    from kivy.uix.button import Button

    printed = names.card(card)
    return next(w for w in d.widgets() if isinstance(w, Button) and d.visible(w) and printed in w.text)
