"""At the game's end, the cards left face down named (and their numbers read off them), kept
in Your cards for the next games. Its layout is name_cards_left.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout

from companion.table_rules.card_learning import (
    option_words,
)
from companion.ui.dialogs.name_card import NameCard
from companion.ui.dialogs.sheet import Sheet, paint
from companion.ui.widgets.common import sheet_button, sheet_label
from companion.words import _, names, ngettext

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class NameCardsLeft(Sheet):
    """The game is over and the set cannot place every card left face down: turned over, each is
    tapped by name (a card of the set placed on that stack, or Name the card: the rule book's
    cards whose stack nobody entered, or one not in the list), and the numbers of cards nobody
    played are tapped off them. Keep puts it all in Your cards (Table.name_cards_left), with the
    copies of every stack now seen whole: the next games ask nothing of them. Skippable."""

    def __init__(self, model, on_done: Callable[[], None] | None = None):
        super().__init__(_("The cards left in the stacks"), size_hint=(0.94, 0.94), portrait_hint=(0.96, 0.94))
        self.model, self.on_done = model, on_done
        self.left = {s.stack: s for s in model.table.stacks_left()}
        self.candidates = {s: list(left.candidates) for s, left in self.left.items()}
        self.named: dict[int, list] = {s: [] for s in self.left}
        self.new: dict[str, dict] = {}  # cards not in the list, entered now: id -> entry
        self.values: dict[str, dict] = {}  # card id -> {fact key: value} read off it
        self.form, self.keep_button = self.ids.form, self.ids.keep_button
        self._fill()

    def _name(self, pick) -> str:
        if isinstance(pick, str):
            card = self.model.board.cards.get(pick)
            return names.card(card.name) if card else self.new[pick]["name"]
        return names.card(pick.name)

    def _fill(self) -> None:
        form = self.form
        form.clear_widgets()
        from kivy.core.window import Window

        columns = GridLayout(
            cols=len(self.left) if Window.width >= Window.height else min(3, len(self.left)),
            spacing=dp(8),
            size_hint_y=None,
        )
        columns.bind(minimum_height=columns.setter("height"))
        self.pick_buttons: dict[int, dict[str, Button]] = {}
        from kivy.uix.anchorlayout import AnchorLayout

        cells, made = [], []

        def level(*_):  # every column's top on one line: each cell as tall as the tallest column
            tallest = max(c.height for c in made)
            for cell in cells:
                cell.height = tallest

        for stack, left in self.left.items():
            column = GridLayout(cols=1, spacing=dp(4), size_hint_y=None)
            column.bind(minimum_height=column.setter("height"))
            column.bind(height=level)
            cell = AnchorLayout(anchor_y="top", size_hint_y=None)
            cell.add_widget(column)
            cells.append(cell)
            made.append(column)
            named = self.named[stack]
            todo = left.to_name - len(named)
            words = (
                ngettext("Stack {stack}: {n} to name", "Stack {stack}: {n} to name", todo).format(stack=stack, n=todo)
                if todo
                else _("Stack {stack}: all named").format(stack=stack)
            )
            column.add_widget(sheet_label(words, bold=True, font_size="16sp"))
            for i, pick in enumerate(named):  # tapped again: taken back
                b = sheet_button(
                    _("{card} (tap to take back)").format(card=self._name(pick)),
                    lambda s=stack, i=i: self.take_back(s, i),
                    height=dp(52),
                    font_size="14sp",
                )
                paint(b, "chosen")
                column.add_widget(b)
            self.pick_buttons[stack] = {}
            if todo:
                for cid, name in left.known:
                    b = self.pick_buttons[stack][cid] = sheet_button(
                        names.card(name), lambda s=stack, c=cid: self.pick(s, c), height=dp(52), font_size="14sp"
                    )
                    column.add_widget(b)
                column.add_widget(
                    sheet_button(
                        _("Name the card"),
                        lambda s=stack: self.name_card(s),
                        primary=not left.known,
                        height=dp(52),
                        font_size="15sp",
                    )
                )
            columns.add_widget(cell)
        self.fact_buttons: dict[tuple, Button] = {}
        unread = self.model.table.facts_left(self._named_ids())
        if unread:
            form.add_widget(
                sheet_label(_("Nobody played these: tap what each card says."), bold=True, font_size="16sp")
            )
        for cid, facts in unread.items():
            for fact in facts:
                form.add_widget(sheet_label(fact.words, font_size="15sp", halign="left"))
                grid = GridLayout(
                    cols=min(6, len(fact.options)) if isinstance(fact.options[0], int) else 2,
                    spacing=dp(6),
                    size_hint_y=None,
                )
                grid.bind(minimum_height=grid.setter("height"))
                for value in fact.options:
                    b = self.fact_buttons[(cid, fact.key, value)] = sheet_button(
                        option_words(value), lambda c=cid, k=fact.key, v=value: self.read(c, k, v), height=dp(48)
                    )
                    paint(b, "chosen" if self.values.get(cid, {}).get(fact.key) == value else "normal")
                    grid.add_widget(b)
                form.add_widget(grid)
        # the numbers to read off (what the last tap asked for) above the stacks' long columns,
        # in sight at every shape (issue 33: they were below the fold)
        form.add_widget(columns)

    def _named_ids(self) -> list[str]:
        return [
            p if isinstance(p, str) else p.card
            for picks in self.named.values()
            for p in picks
            if not (isinstance(p, str) and p in self.new)
        ]

    def pick(self, stack: int, cid: str) -> None:
        self.named[stack].append(cid)
        self.message.text = ""
        self._fill()

    def take_back(self, stack: int, i: int) -> None:
        self.named[stack].pop(i)
        self._fill()

    def name_card(self, stack: int) -> None:
        NameCard(self, stack, _("Stack {stack}: which card is left?").format(stack=stack)).open()

    def learn(self, stack: int, candidate) -> None:  # NameCard's pick
        self.pick(stack, candidate)

    def keep_new(self, stack: int, entry: dict) -> str:
        """A card not in the list (AddCard): checked like a card file now, kept with the rest."""
        from companion.table_rules.card_file import CardSetDraft
        from companion.table_rules.storage import RuleFileError

        try:
            CardSetDraft.load()._edit([entry])
        except (RuleFileError, OSError) as exc:
            return str(exc)
        self.new[entry["id"]] = entry
        return ""

    def added(self, stack: int, cid: str) -> None:  # AddCard's, once kept here
        self.pick(stack, cid)

    def read(self, cid: str, key: str, value) -> None:
        self.values.setdefault(cid, {})[key] = value
        self._fill()

    def keep(self) -> None:
        named = {
            s: [self.new.get(p, p) if isinstance(p, str) else p for p in picks]
            for s, picks in self.named.items()
            if picks
        }
        if not named and not self.values:
            self.message.text = _("Tap the name of a card left on a stack first (or Not now)")
            return
        kept = []
        if self.model._input(lambda _: kept.append(self.model.table.name_cards_left(named, self.values)), None):
            if kept[0]:
                self.message.text = kept[0]
                return
            self.model.message = _("Your cards keep them: your next games know these stacks.")
            self.dismiss()
            if self.on_done is not None:
                self.on_done()
        else:
            self.message.text = self.model.message
