"""Old Hands: the cards the table drew from each stack and returned to the box, named by taps
(the new game screen opens it)."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion.ui.platform.shape import dialog_size
from companion.ui.widgets.rule_widgets import PAPER, button, grid, text
from companion.words import _, ngettext


class ReturnedCards(ModalView):
    """Old Hands: the cards the table drew from each stack and returned to the box, by taps."""

    def __init__(self, returns, removed: list[str], on_done):
        super().__init__(size_hint=dialog_size((0.7, 0.85)), auto_dismiss=False)
        self._anim_duration = 0
        self.returns, self.removed, self.on_done = returns, removed, on_done
        self.body = BoxLayout(orientation="vertical", padding=dp(18), spacing=dp(8))
        from kivy.graphics import Color, Rectangle

        with self.body.canvas.before:
            Color(*PAPER)
            bg = Rectangle()
        self.body.bind(pos=lambda w, v: setattr(bg, "pos", v), size=lambda w, v: setattr(bg, "size", v))
        self.add_widget(self.body)
        self._show()

    def _show(self) -> None:
        body = self.body
        body.clear_widgets()
        body.add_widget(
            text(_("Old Hands: the cards returned to the box"), bold=True, font_size="22sp", halign="center")
        )
        body.add_widget(
            text(
                _(
                    "For each Old Hands card added, one card drawn at random from its stack goes back "
                    "to the box. Tap the cards you drew."
                )
            )
        )
        scroll = ScrollView(do_scroll_x=False)
        rows = grid(1)
        for r in self.returns:
            words = ngettext("Stack {stack}: {n} card", "Stack {stack}: {n} cards", r.count)
            rows.add_widget(text(words.format(stack=r.stack, n=r.count), bold=True))
            if not r.cards:
                rows.add_widget(
                    text(
                        _(
                            "Your card set knows no card of stack {stack} yet: enter the card you "
                            "drew in Your cards first."
                        ).format(stack=r.stack)
                    )
                )
            cards = grid(2)
            for cid, name in r.cards:
                cards.add_widget(
                    button(
                        name,
                        lambda c=cid: self._toggle(c),
                        "on" if cid in self.removed else "quiet",
                        key=f"returned:{cid}",
                    )
                )
            rows.add_widget(cards)
        scroll.add_widget(rows)
        body.add_widget(scroll)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(button(_("Cancel"), self.dismiss, "quiet", size_hint_y=1))
        row.add_widget(button(_("Done"), self._done, "primary", size_hint_y=1, key="returned:done"))
        body.add_widget(row)

    def _toggle(self, cid: str) -> None:
        self.removed = [c for c in self.removed if c != cid] if cid in self.removed else self.removed + [cid]
        self._show()

    def _done(self) -> None:
        self.dismiss()
        self.on_done(self.removed)
