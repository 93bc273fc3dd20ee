"""In the demo replay: what a newcomer needs beside the map at each step (why the step happened,
from companion.history.step_story.lesson) and a key to the pieces on the map. The replay screen
holds one and calls show(replay, number) at every step; outside the demo it stays empty."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.history.step_story import lesson

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class DemoTeacher(BoxLayout):
    """The lesson of the step shown, and the key to the pieces (only in the demo)."""

    text = StringProperty("")
    teaching = BooleanProperty(False)

    def show(self, replay, number: int, demo: bool) -> None:
        self.teaching = demo
        self.text = lesson(replay, number) if demo else ""
