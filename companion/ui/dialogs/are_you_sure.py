"""Are you sure? A question before an entry that would otherwise pass in silence (Confirm with
no Caballero entered, say). Its layout is are_you_sure.kv (named apart from the other Ask
dialogs: a .kv rule goes by the class name)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import StringProperty

from companion.ui.dialogs.sheet import Sheet
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class AreYouSure(Sheet):
    """A question before an entry that would otherwise pass in silence."""

    question = StringProperty("")
    yes = StringProperty("")
    no = StringProperty("")

    def __init__(self, question: str, yes: str, on_yes: Callable[[], None], no: str = ""):
        no = no or _("No, go back")
        super().__init__(_("Are you sure?"), question=question, yes=yes, no=no, size_hint=(0.6, 0.45))
        self._then = on_yes

    def answer_yes(self) -> None:
        self.dismiss()
        self._then()
