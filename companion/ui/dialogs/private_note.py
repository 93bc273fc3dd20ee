"""The dialog PrivateNote (its layout: private_note.kv)."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.ui.dialogs.dialog import Dialog, dialog_button, wrapped_label
from companion.ui.widgets.map_view import PLAYER_RGB


class PrivateNote(Dialog):
    """Why the table refused one player's card, behind the private screen (the reason is their
    secret: a card left out of their hand); their hand beside it. Nothing stays on screen."""

    def __init__(self, model, pid: str, words: str):
        name = model.name(pid)
        super().__init__(
            f"Only {name} looks: why the card was refused", size_hint=(0.7, 0.6), portrait_hint=(0.94, 0.5)
        )
        self.body.add_widget(wrapped_label(words, font_size="18sp", halign="center"))
        try:
            hand = model.table.private(pid).get("power_cards_in_hand") or []
        except Exception:  # the hand is a help here: never let it keep the reason from showing
            hand = []
        if hand:
            self.body.add_widget(
                wrapped_label(
                    "Your hand: " + ", ".join(str(c) for c in sorted(hand)), font_size="17sp", halign="center"
                )
            )
        self.body.add_widget(BoxLayout())
        done = dialog_button("Done", self.dismiss, height=dp(56))
        done.background_color = (*PLAYER_RGB.get(pid, (0.8, 0.75, 0.6)), 0.35)
        self.body.add_widget(done)
