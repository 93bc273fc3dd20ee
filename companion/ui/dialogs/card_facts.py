"""A listed card played whose numbers nobody entered: only those, tapped off the card, then the
turn goes on. Its layout is card_facts.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout

from companion.table_rules.card_learning import (
    card_facts,
    option_words,
)
from companion.ui.dialogs.sheet import Sheet, paint
from companion.ui.widgets.common import sheet_button, sheet_label
from companion.words import _, names

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class CardFacts(Sheet):
    """A listed card played whose numbers nobody entered (Civil War's outcome, a ♠ card's
    Caballeros ...): only those, tapped off the card, then the turn goes on. One input, kept in
    Your cards."""

    def __init__(self, model, cid: str, on_done: Callable[[], None] | None = None):
        card = model.board.cards[cid]
        super().__init__(
            _("{card}: read it off the card").format(card=names.card(card.name)),
            size_hint=(0.8, 0.8),
            portrait_hint=(0.96, 0.7),
        )
        self.model, self.cid, self.on_done = model, cid, on_done
        self.facts = card_facts(model.board, cid)
        self.values: dict = {}
        self.option_buttons: dict[str, dict] = {}
        self.enter_button = self.ids.enter_button
        form = self.ids.form
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

    def pick(self, key: str, value) -> None:
        self.values[key] = value
        for v, b in self.option_buttons[key].items():
            paint(b, "chosen" if v == value else "normal")
        self.message.text = ""

    def enter(self) -> None:
        left = [f for f in self.facts if f.key not in self.values]
        if left:
            self.message.text = _("Tap one for: {fact}").format(fact=left[0].words)
            return
        kept = []
        if self.model._input(lambda v: kept.append(self.model.table.enter_card_facts(self.cid, v)), self.values):
            self.model.message = _("{card} is complete: play on. {kept}").format(
                card=names.card(self.model.board.cards[self.cid].name),
                kept=kept[0] or _("Your cards keep it for the next games."),
            )
            self.dismiss()
            if self.on_done is not None:
                self.on_done()
        else:
            self.message.text = self.model.message
