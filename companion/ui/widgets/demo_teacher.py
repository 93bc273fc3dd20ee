"""In the demo replay: what a newcomer needs beside the map at each step (why the step happened,
from companion.history.step_story.lesson), what lies on the table (the round's Action cards, the
Power cards played, the courts: step_story.table_facts) and a key to the pieces on the map
(PieceKey). The replay screen holds one and calls show(replay, number, demo) at every step;
outside the demo it stays empty, and its parts leave the widget tree."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.history.demo_lessons import lesson
from companion.history.step_story import table_facts
from companion.ui.widgets.piece_key import PieceKey  # noqa: F401  (the .kv's PieceKey)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class DemoTeacher(BoxLayout):
    """The lesson of the step shown, the table's cards and courts, and the key to the pieces
    (only in the demo)."""

    text = StringProperty("")
    facts = StringProperty("")
    teaching = BooleanProperty(False)

    def on_kv_post(self, base_widget) -> None:
        # its own rule's ids exist only now (inside another screen's rule, not yet in __init__);
        # held here, not by the ids' weak proxy: out of the tree nothing else keeps it alive
        self._content = self.ids.content.__self__
        self.bind(teaching=self._shown)
        self._shown()

    def _shown(self, *args) -> None:
        content = getattr(self, "_content", None)
        if content is None:
            return
        if self.teaching and content.parent is None:
            self.add_widget(content)
        elif not self.teaching and content.parent is self:
            self.remove_widget(content)

    def show(self, replay, number: int, demo: bool = False) -> None:
        """Step `number` of `replay`; taught when `demo` says so or the replay is the demo's."""
        demo = bool(demo or getattr(replay, "demo", False))
        self.teaching = demo
        self.text = lesson(replay, number) if demo else ""
        self.facts = "\n".join(table_facts(replay, number)) if demo else ""
        if demo and replay.players:
            first = replay.players[0]
            self.ids.key.colour, self.ids.key.owner = first, replay.names.get(first, first)
