"""The action cards turned up, one tap per stack, then Reveal; 2023: a card named or added from
here. Made once and offered again each round. Its layout is reveal_cards.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion.table_rules.card_learning import (
    learn_entry,
)
from companion.ui.dialogs.add_card import AddCard
from companion.ui.dialogs.name_card import NameCard
from companion.ui.dialogs.sheet import Sheet, paint
from companion.ui.theme import THEME
from companion.ui.widgets.common import sheet_button, sheet_label
from companion.words import _, names, ngettext

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def teaching_offered(model) -> bool:
    """The table's offer to teach the tower its colours stands: the game's tower lacks a seat's
    colour and nothing is entered yet (as the table screen offers it)."""
    link, table = getattr(model, "tower_link", None), getattr(model, "table", None)
    if not (link and table) or any(r["t"] == "event" for r in table.effective):
        return False
    return bool(link.teaching.offered())


class RevealCards(Sheet):
    """The action cards turned up: one tap per stack, then Reveal (opened by itself).

    Made once and opened again each round with `offer`: a card's button is made once (`warm`
    makes them a few a frame before the first reveal; making all at once took ~80 ms, a loop
    iteration over 150 ms with its frame); a round only puts the cards still in each stack back
    in their columns."""

    def __init__(self):
        super().__init__(_("Which action cards were turned up?"), size_hint=(0.94, 0.94), portrait_hint=(0.94, 0.94))
        self.model = None
        self.on_add = None  # what "A card is not listed" does (the table screen sets it)
        self.stacks: list[int] = []
        self.chosen: dict[int, str] = {}
        # 2023: listed cards whose stack is learned from this reveal (stack -> Candidate), sent with it
        self.learned: dict = {}
        self.candidates: dict[int, list] = {}
        self._learn_buttons: dict[int, Button] = {}
        self.buttons: dict[int, dict[str, Button]] = {}  # the cards offered now, by stack
        self._made: dict[tuple[str, str], Button] = {}  # (card, words) -> its button
        self._stack_of: dict[str, int] = {}  # card -> the stack it is offered on now
        self._columns: dict[int, GridLayout] = {}
        self._scrolls: dict[int, ScrollView] = {}
        self._hints: dict[int, Label] = {}
        self.columns, self.bar, self.reveal_button = self.ids.columns, self.ids.bar, self.ids.reveal_button
        # 2023: a card the table's set does not list is added from here, then picked
        self.add_button = sheet_button(_("Add or complete a card"), self.add_card, height=dp(56))
        # The start's offer to teach the tower its colours (the table screen's, under this sheet):
        # in the sheet's own bar while it stands, so the sheet never hides it
        self.teach_button = sheet_button(_("Teach the tower these colours"), self.teach, height=dp(56))

    def offer(self, model, stacks: dict[int, list[tuple[str, str]]], keep: bool = False) -> RevealCards:
        """The cards each stack may show now (as companion.prompts.builder offers them), none picked
        but a stack's only card (`keep`: the sheet redrawn while open, its picks kept)."""
        again = keep
        kept = dict(self.chosen) if again else {}
        self.model = model
        self.stacks = sorted(stacks)
        completable = model.board.rules != "classic"
        if completable != (self.add_button.parent is not None):
            if completable:
                self.bar.add_widget(self.add_button, index=1)
            else:
                self.bar.remove_widget(self.add_button)
        teaching = teaching_offered(model)
        if teaching != (self.teach_button.parent is not None):
            if teaching:
                self.bar.add_widget(self.teach_button, index=len(self.bar.children))
            else:
                self.bar.remove_widget(self.teach_button)
        learning = model.board.rules == "2023"  # the 2023 book prints neither stacks nor copies
        self.candidates = model.table.reveal_candidates() if learning else {}
        self.learned = {s: c for s, c in self.learned.items() if again and c in self.candidates.get(s, [])}
        # A stack's only card is picked already, unless the stack may hold a card the set cannot place
        self.chosen = {
            s: cards[0][0]
            for s, cards in stacks.items()
            if len(cards) == 1 and not (learning and model.table.stack_may_hold_more(s))
        }
        self.chosen.update(
            {s: cid for s, cid in kept.items() if any(c == cid for c, _ in stacks[s]) or s in self.learned}
        )
        for column in self._columns.values():  # all emptied first: a card may change column (or the
            for child in list(column.children)[:-1]:  # columns: a new game's stacks), all but the heading
                column.remove_widget(child)
        if list(self._columns) != self.stacks:
            self._make_columns()
        self.buttons = {}
        self._learn_buttons = {}
        for stack in self.stacks:
            column = self._columns[stack]
            self.buttons[stack] = {}
            for cid, label in stacks[stack]:
                self._stack_of[cid] = stack
                button = self.buttons[stack][cid] = self._card_button(cid, label)
                column.add_widget(button)
            if learning:
                self._offer_learning(stack, column, bool(stacks[stack]))
        for scroll in self._scrolls.values():
            scroll.scroll_y = 1
        self.message.text = ""
        self._paint()
        return self

    def _offer_learning(self, stack: int, column, known: bool) -> None:
        """2023: a stack that may hold a card the set cannot place offers to name it (the cards
        the rule book names, or one it does not); a stack with no known card says so plainly."""
        learned = self.learned.get(stack)
        known = known or learned is not None
        if not known:
            column.add_widget(
                sheet_label(
                    _(
                        "No card of stack {stack} is known yet: tap Name the card, then its "
                        "name (asked once: your next games know it)."
                    ).format(stack=stack),
                    font_size="14sp",
                )
            )
        if learned is not None:
            button = sheet_button(
                _("{card} (learned now)").format(card=learned.label),
                lambda s=stack: self.choose(s, self.learned[s].card),
                height=dp(64),
                font_size="14sp",
            )
            self.buttons[stack][learned.card] = button
            column.add_widget(button)
        words = _("Name the card") if not known else _("Another card: name it")
        self._learn_buttons[stack] = sheet_button(
            words, lambda s=stack: self.name_card(s), primary=not known, height=dp(56), font_size="15sp"
        )
        column.add_widget(self._learn_buttons[stack])

    def name_card(self, stack: int) -> None:
        NameCard(self, stack).open()

    def learn(self, stack: int, candidate) -> None:
        """A listed card picked by name for this stack: its stack is learned with the reveal."""
        self.learned = {s: c for s, c in self.learned.items() if c.card != candidate.card}
        self.learned[stack] = candidate
        self.chosen[stack] = candidate.card
        self.offer(self.model, self.model.builder.reveal_choices(self.model.ask()), keep=True)
        self.chosen[stack] = candidate.card
        self._paint()

    def added(self, stack: int, cid: str) -> None:
        """A card not in the list, just added for this stack: offered again, and picked."""
        self.offer(self.model, self.model.builder.reveal_choices(self.model.ask()), keep=True)
        if cid in self.buttons.get(stack, {}):
            self.chosen[stack] = cid
        self._paint()

    def warm(self, cards: list[tuple[str, str]]) -> None:
        """Make the buttons of these (card, words) now, while nothing else happens."""
        for cid, label in cards:
            self._card_button(cid, label)

    def unmade(self, cards: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [card for card in cards if card not in self._made]

    def _card_button(self, cid: str, label: str) -> Button:
        button = self._made.get((cid, label))
        if button is None:
            button = self._made[(cid, label)] = sheet_button(
                label, lambda c=cid: self.choose(self._stack_of[c], c), height=dp(64), font_size="14sp"
            )
        return button

    def _make_columns(self) -> None:
        self.columns.clear_widgets()
        self._scrolls, self._hints = {}, {}
        self.columns.cols = len(self.stacks)
        self._columns = {}
        for stack in self.stacks:
            column = GridLayout(cols=1, spacing=dp(4), size_hint_y=None)
            column.bind(minimum_height=column.setter("height"))
            column.add_widget(sheet_label(_("Stack {stack}").format(stack=stack), bold=True, font_size="17sp"))
            # A column taller than the sheet shows its bar at all times: cards below the fold are seen
            scroll = ScrollView(
                do_scroll_x=False,
                bar_width=dp(8),
                bar_color=(0.45, 0.3, 0.15, 0.9),
                bar_inactive_color=(0.45, 0.3, 0.15, 0.55),
                scroll_type=["bars", "content"],
            )
            scroll.add_widget(column)
            # ... and says how many cards lie below it ("2 more below: scroll down"), until scrolled to them
            hint = Label(text="", color=THEME.accent, font_size="14sp", bold=True, size_hint_y=None, height=0)
            cell = BoxLayout(orientation="vertical")
            cell.add_widget(scroll)
            cell.add_widget(hint)
            self.columns.add_widget(cell)
            self._columns[stack] = column
            self._scrolls[stack] = scroll
            self._hints[stack] = hint
            update = lambda *_, s=stack: Clock.schedule_once(lambda dt: self._say_more_below(s), 0)
            scroll.bind(scroll_y=update, height=update)
            column.bind(height=update)

    def _say_more_below(self, stack: int) -> None:
        scroll, column, hint = self._scrolls.get(stack), self._columns.get(stack), self._hints.get(stack)
        if scroll is None or hint is None:
            return
        bottom = scroll.to_window(scroll.x, scroll.y)[1]
        below = sum(
            1 for w in column.children if isinstance(w, Button) and w.to_window(w.x, w.top)[1] < bottom + dp(12)
        )
        words = (
            ngettext("{n} more below: scroll down", "{n} more below: scroll down", below).format(n=below)
            if below
            else ""
        )
        if hint.text != words:
            hint.text = words
        hint.height = dp(24) if below else 0

    def on_pre_open(self) -> None:
        # Kivy 2.3's ModalView.open binds its centring to `center` and `size` each time and never
        # unbinds: a sheet opened every round would pile them up. The last opening's go first.
        self.funbind("center", self._align_center)
        self.funbind("size", self._align_center)

    def choose(self, stack: int, cid: str) -> None:
        self.chosen[stack] = cid
        self._paint()
        if len(self.chosen) == len(self.stacks):
            self.message.text = ""

    def _paint(self) -> None:
        for stack, buttons in self.buttons.items():
            for cid, b in buttons.items():
                paint(b, "chosen" if self.chosen.get(stack) == cid else "normal")
        missing = [s for s in self.stacks if s not in self.chosen]
        self.reveal_button.text = (
            _("Reveal")
            if not missing
            else ngettext("Reveal (stack {stacks} to pick)", "Reveal (stacks {stacks} to pick)", len(missing)).format(
                stacks=", ".join(map(str, missing))
            )
        )

    def teach(self) -> None:
        """The teaching panel over this sheet (the sheet stays: the reveal goes on after)."""
        from companion.ui.widgets.teach_panel import TeachPanel

        panel = TeachPanel(model=self.model)
        panel.open()
        panel.start()

    def add_card(self) -> None:
        self.dismiss()
        if self.on_add is not None:
            self.on_add()  # the table screen's: once added, the sheet opens again with the card in it
        else:
            AddCard(self.model).open()

    def reveal(self) -> None:
        missing = [s for s in self.stacks if s not in self.chosen]
        if missing:
            self.message.text = _("Tap the card showing on stack {stack}").format(stack=missing[0])
            return
        cards = [self.chosen[s] for s in self.stacks]
        learned = [
            learn_entry(self.model.table.state, c)
            for s, c in sorted(self.learned.items())
            if self.chosen.get(s) == c.card
        ]
        kept = []
        if self.model._input(lambda _: kept.append(self.model.table.reveal_learning(cards, learned)), None):
            self.learned = {}
            if learned:  # said once: the table's set knows them now
                cards = ", ".join(names.card(self.model.board.cards[e["id"]].name) for e in learned)
                self.model.message = _("Learned: {cards}. {kept}").format(
                    cards=cards, kept=kept[0] or _("Your cards keep them for the next games.")
                )
            self.dismiss()
        else:
            self.message.text = self.model.message
