"""Every past scoring and every revealed choice, newest first, to reopen. Its layout is
history.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp

from companion.history.scoring_words import scoring_title
from companion.ui.dialogs.dialog import Dialog, dialog_button, wrapped_label
from companion.ui.dialogs.outcome_shown import OutcomeShown
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class History(Dialog):
    """Every past scoring and every revealed choice, to reopen."""

    def __init__(self, items, open_scoring: Callable[[object], None]):
        super().__init__(_("History"), size_hint=(0.8, 0.9))
        grid = self.ids.entries
        if not items:
            grid.add_widget(wrapped_label(_("Nothing scored or revealed yet.")))
        for kind, thing in reversed(items):  # newest first
            if kind == "scoring":
                shown = scoring_title(thing.title)
                label = (  # the engine's title says its round already, or the round is said first
                    shown
                    if "round" in thing.title
                    else _("Round {round}: {title}").format(round=thing.round, title=shown)
                )
                button = dialog_button(label, lambda r=thing: (self.dismiss(), open_scoring(r)))
            else:
                button = dialog_button(thing.title, lambda o=thing: OutcomeShown(o, _("What the table moved")).open())
            button.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(16), None)))
            grid.add_widget(button)
