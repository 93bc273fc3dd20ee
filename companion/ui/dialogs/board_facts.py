"""A board fact the rule book does not print, entered when the game first needs it, a page a
fact (companion.entry.facts.FactsEntry). Its layout is board_facts.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout

from companion.ui.dialogs.sheet import Sheet, paint
from companion.ui.widgets.common import sheet_button, sheet_label
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class BoardFacts(Sheet):
    """A board fact the rule book does not print, entered when the game first needs it: one page
    per fact (a scoreboard's or tile's three numbers, tapped from the numbers offered; a space's
    neighbouring regions, tapped on and off), each checked like a board file when the table goes
    on. A thin view of companion.entry.facts.FactsEntry; the last page sends it and the step goes on."""

    COLUMNS = 7  # 0..12 in two rows per place: 48 dp buttons fit every tablet shape

    def __init__(self, model, entry, on_done: Callable[[], None] | None = None):
        from companion.entry.facts import needed_words

        super().__init__(
            _("From your board: {facts}").format(facts=needed_words(entry.facts, entry.board.side)),
            size_hint=(0.86, 0.94),
            portrait_hint=(0.96, 0.9),
        )
        self.model, self.entry, self.on_done = model, entry, on_done
        self.numbers: dict[int, dict[int, Button]] = {}  # place -> value -> button (the page shown)
        self.regions: dict[str, Button] = {}
        ids = self.ids
        self.heading, self.instruction, self.form = ids.heading, ids.instruction, ids.form
        self.back_button, self.next_button = ids.back_button, ids.next_button
        self._page()

    def _page(self) -> None:
        entry, form = self.entry, self.form
        fact = entry.current
        self.heading.text = entry.heading()
        self.instruction.text = entry.instruction()
        self.message.text = entry.message
        self.back_button.disabled = entry.page == 0
        self.back_button.opacity = 0 if entry.page == 0 else 1
        self.next_button.text = (
            _("Enter and go on")
            if entry.last_page
            else _("Next: {fact}").format(fact=entry.facts[entry.page + 1].label)
        )
        form.clear_widgets()
        self.numbers, self.regions = {}, {}
        if fact.kind == "neighbours":
            form.add_widget(
                sheet_label(_("Chosen: {regions}").format(regions=entry.shown()), font_size="15sp", halign="left")
            )
            grid = GridLayout(cols=3, spacing=dp(6), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            chosen = set(entry.neighbours[fact.path])
            for rid, name in entry.regions():
                b = sheet_button(name, lambda r=rid: self.toggle(r), height=dp(52))
                paint(b, "chosen" if rid in chosen else "normal")
                self.regions[rid] = b
                grid.add_widget(b)
            form.add_widget(grid)
            return
        from companion.entry.facts import PLACES, POINTS

        values = entry.values[fact.path]
        for place, words in enumerate(PLACES):
            shown = "?" if values[place] is None else values[place]
            form.add_widget(
                sheet_label(_("{place}: {value}").format(place=words, value=shown), font_size="15sp", halign="left")
            )
            grid = GridLayout(cols=self.COLUMNS, spacing=dp(4), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            self.numbers[place] = {}
            for value in POINTS:
                b = sheet_button(str(value), lambda p=place, v=value: self.pick(p, v), height=dp(48))
                paint(b, "chosen" if values[place] == value else "normal")
                self.numbers[place][value] = b
                grid.add_widget(b)
            form.add_widget(grid)

    def pick(self, place: int, value: int) -> None:
        self.entry.pick(place, value)
        self._page()

    def toggle(self, region: str) -> None:
        self.entry.toggle(region)
        self._page()

    def back(self) -> None:
        self.entry.back()
        self._page()

    def next(self) -> None:
        entry = self.entry
        if not entry.next():
            return self._page()  # refused: the board's rule, in its words
        if entry.complete and entry.last_page:
            if entry.send(self.model.table):
                self.model.message = entry.message
                self.dismiss()
                if self.on_done is not None:
                    self.on_done()
                return
        self._page()
