"""Which card turned up on a stack the card set cannot place it on: by name (typed letters
narrow the list) or a card not in the list. Its layout is name_card.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.button import Button

from companion.safe_text import for_markup
from companion.ui.dialogs.add_card import AddCard
from companion.ui.dialogs.sheet import Sheet
from companion.ui.widgets.common import sheet_button
from companion.words import _, names

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class NameCard(Sheet):
    """Which card turned up on a stack the set cannot place it on: the cards the rule book names
    whose stack nobody entered, by name (type a few letters to narrow them), or a card not in
    the list (its name, effect and numbers). The name picked is learned with the reveal."""

    about = StringProperty("")

    def __init__(self, sheet, stack: int, title: str = ""):
        # `title`: the whole title in the table's words ("Stack 2: which card is left?")
        from kivy.core.window import Window

        self.sheet, self.stack = sheet, stack
        self.options = sheet.candidates.get(stack, [])
        about = (
            _(
                "The rule book names these cards but not their stacks. Tap the one lying on stack "
                "{stack}: its stack is kept for your next games."
            )
            if self.options
            else _(
                "Every card the rule book names has its stack already: "
                "a card on stack {stack} not listed is added below."
            )
        ).format(stack=stack)
        title = title or _("Stack {stack}: which card turned up?").format(stack=stack)
        super().__init__(title, about=about, size_hint=(0.9, 0.92), portrait_hint=(0.96, 0.9))
        self.filter, self.grid = self.ids.filter, self.ids.names
        if len(self.options) <= 6:
            self.body.remove_widget(self.filter)
        self.grid.cols = 3 if Window.width >= Window.height else 2
        self.name_buttons: dict[str, Button] = {}
        self._fill()

    def _fill(self) -> None:
        typed = self.filter.text.strip().lower()
        self.grid.clear_widgets()
        self.name_buttons = {}
        shown = [c for c in self.options if typed in names.card(c.name).lower()] if typed else self.options
        for c in shown:
            key = f"{c.card}@{c.stack}"
            words = f"[b]{for_markup(names.card(c.name))}[/b]\n{for_markup(c.does)}"
            if len({o.stack for o in self.options if o.card == c.card}) > 1:
                words = _("{card} (printed stack {stack})").format(card=words, stack=c.stack)
            self.name_buttons[key] = b = sheet_button(
                words, lambda c=c: self.pick(c), height=dp(64), font_size="14sp", markup=True
            )
            self.grid.add_widget(b)
        self.message.text = (
            ""
            if shown or not self.options
            else _('No listed card\'s name has "{typed}": tap A card not in the list to add it').format(typed=typed)
        )

    def pick(self, candidate) -> None:
        self.dismiss()
        self.sheet.learn(self.stack, candidate)

    def not_listed(self) -> None:
        self.dismiss()
        AddCard(
            self.sheet.model,
            stack=self.stack,
            on_added=lambda cid: self.sheet.added(self.stack, cid),
            keep=getattr(self.sheet, "keep_new", None),
        ).open()
