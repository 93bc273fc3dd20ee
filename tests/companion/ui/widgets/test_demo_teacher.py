"""companion.ui.widgets.demo_teacher: in the demo, the lesson of the step shown, what lies on the table
(Action cards, Power cards played, courts) and the key to the pieces; outside the demo, nothing
(its parts out of the widget tree: nothing hidden to tap)."""

from __future__ import annotations


def test_the_demo_shows_the_lesson_the_cards_and_the_courts(teacher_drawn):
    texts = [label["text"] for label in teacher_drawn["day-480"]["labels"]]
    assert any(t.startswith("New Caballeros may only go into the regions next to the King") for t in texts)
    assert any(t.startswith("Action cards face up") for t in texts)
    assert any(t.startswith("How the game works") for t in texts)


def test_outside_the_demo_it_is_empty(teacher_drawn):
    quiet = teacher_drawn["not_demo"]
    assert quiet == {"height": 0, "children": 0, "text": ""}
