"""The dialog CardFacts (its layout: card_facts.kv)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion.table_rules.card_learning import (
    card_facts,
    option_words,
)
from companion.ui.dialogs.sheet import CHOSEN, NORMAL, Sheet
from companion.ui.widgets.common import sheet_button, sheet_label


class CardFacts(Sheet):
    """A listed card played whose numbers nobody entered (Civil War's outcome, a ♠ card's
    Caballeros ...): only those, tapped off the card, then the turn goes on. One input, kept in
    Your cards."""

    def __init__(self, model, cid: str, on_done: Callable[[], None] | None = None):
        card = model.board.cards[cid]
        super().__init__(f"{card.name}: read it off the card", size_hint=(0.8, 0.8), portrait_hint=(0.96, 0.7))
        self.model, self.cid, self.on_done = model, cid, on_done
        self.facts = card_facts(model.board, cid)
        self.values: dict = {}
        self.option_buttons: dict[str, dict] = {}
        self.body.add_widget(
            sheet_label(
                "Your card set does not know this yet; tap what the card says (asked once: your next games keep it).",
                font_size="16sp",
            )
        )
        form = GridLayout(cols=1, spacing=dp(6), size_hint_y=None)
        form.bind(minimum_height=form.setter("height"))
        for fact in self.facts:
            form.add_widget(sheet_label(fact.words, font_size="15sp", halign="left"))
            grid = GridLayout(
                cols=min(6, len(fact.options)) if isinstance(fact.options[0], int) else 2,
                spacing=dp(6),
                size_hint_y=None,
            )
            grid.bind(minimum_height=grid.setter("height"))
            self.option_buttons[fact.key] = {}
            for value in fact.options:
                b = sheet_button(option_words(value), lambda k=fact.key, v=value: self.pick(k, v), height=dp(48))
                self.option_buttons[fact.key][value] = b
                grid.add_widget(b)
            form.add_widget(grid)
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(form)
        self.body.add_widget(scroll)
        self.body.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(sheet_button("Not now", self.dismiss, height=dp(56)))
        self.enter_button = sheet_button("Enter and go on", self.enter, primary=True, height=dp(56))
        row.add_widget(self.enter_button)
        self.body.add_widget(row)

    def pick(self, key: str, value) -> None:
        self.values[key] = value
        for v, b in self.option_buttons[key].items():
            b.background_color = CHOSEN if v == value else NORMAL
        self.message.text = ""

    def enter(self) -> None:
        left = [f for f in self.facts if f.key not in self.values]
        if left:
            self.message.text = f"Tap one for: {left[0].words}"
            return
        kept = []
        if self.model._input(lambda v: kept.append(self.model.table.enter_card_facts(self.cid, v)), self.values):
            self.model.message = f"{self.model.board.cards[self.cid].name} is complete: play on. " + (
                kept[0] or "Your cards keep it for the next games."
            )
            self.dismiss()
            if self.on_done is not None:
                self.on_done()
        else:
            self.message.text = self.model.message
