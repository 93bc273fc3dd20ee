"""Why the table refused one player's card, for their eyes only, their hand beside it. Its
layout is private_note.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ListProperty, StringProperty

from companion.look.players import PLAYER_RGB
from companion.ui.dialogs.dialog import Dialog, wrapped_label
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class PrivateNote(Dialog):
    """Why the table refused one player's card, behind the private screen (the reason is their
    secret: a card left out of their hand); their hand beside it. Nothing stays on screen."""

    words = StringProperty("")
    close_rgba = ListProperty([0.8, 0.75, 0.6, 0.35])  # Done in the player's colour

    def __init__(self, model, pid: str, words: str):
        name = model.name(pid)
        super().__init__(
            _("Only {name} looks: why the card was refused").format(name=name),
            words=words,
            close_rgba=[*PLAYER_RGB.get(pid, (0.8, 0.75, 0.6)), 0.35],
            size_hint=(0.7, 0.6),
            portrait_hint=(0.94, 0.5),
        )
        try:
            hand = model.table.private(pid).get("power_cards_in_hand") or []
        except Exception:  # the hand is a help here: never let it keep the reason from showing
            hand = []
        if hand:  # under the reason, above the room left and Done
            words = _("Your hand: {cards}").format(cards=", ".join(str(c) for c in sorted(hand)))
            self.body.add_widget(wrapped_label(words, font_size="17sp", halign="center"), index=2)
