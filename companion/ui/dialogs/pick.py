"""Quick picks of the table screen, each a tap or two: a secret disc picked on the
tablet, the action cards turned up, a question before an entry that would pass in
silence. Plain views: what may be picked comes from companion.prompts.builder."""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion.safe_text import for_markup
from companion.table_rules.card_learning import (
    card_facts,
    card_id,
    does,
    learn_entry,
    new_card_entry,
    offered_params,
    option_words,
    printed_numbers,
)
from companion.ui.platform.shape import dialog_size
from companion.ui.widgets.common import STYLE_RGBA, sheet_button, sheet_label
from companion.ui.widgets.map_view import PLAYER_RGB

PAPER = (0.97, 0.94, 0.86, 1)
PRIMARY, NORMAL = STYLE_RGBA["primary"], STYLE_RGBA["normal"]
CHOSEN = (0.45, 0.62, 0.35, 1)


class _Sheet(ModalView):
    def __init__(self, title: str, **kwargs):
        kwargs["size_hint"] = dialog_size(kwargs.get("size_hint", (0.8, 0.9)), kwargs.pop("portrait_hint", None))
        super().__init__(**kwargs)  # the window dimmed by overlay_color; no background image (common.kv)
        self._anim_duration = 0
        self.body = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(8))
        with self.body.canvas.before:
            from kivy.graphics import Color, Rectangle

            Color(*PAPER)
            self._bg = Rectangle()
        self.body.bind(pos=lambda w, v: setattr(self._bg, "pos", v), size=lambda w, v: setattr(self._bg, "size", v))
        self.body.add_widget(sheet_label(title, bold=True, font_size="22sp"))
        self.message = sheet_label("", color=(0.6, 0.08, 0.08, 1), font_size="15sp")
        self.add_widget(self.body)


class SecretPick(_Sheet):
    """A player picks their disc on the tablet: one tap opened it, one tap picks. Nothing of
    the pick stays on screen; the regions offered are not secret, the pick is."""

    def __init__(
        self, model, pid: str, purpose: str, options: list[tuple[str, str]], make_event: Callable[[str], dict]
    ):
        name = model.name(pid)
        super().__init__(f"{name}'s secret disc")
        self.model, self.make_event = model, make_event
        self.body.add_widget(sheet_label(f"Only {name} looks. Choose {purpose}.", font_size="17sp"))
        grid = GridLayout(cols=3, spacing=dp(8), size_hint_y=None, row_default_height=dp(56), row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for value, label in options:
            grid.add_widget(sheet_button(label, lambda v=value: self.pick(v)))
        scroll = ScrollView()
        scroll.add_widget(grid)
        self.body.add_widget(scroll)
        self.body.add_widget(self.message)
        close = sheet_button("Not now", self.dismiss, height=dp(48))
        close.background_color = (*PLAYER_RGB.get(pid, (0.8, 0.75, 0.6)), 0.35)
        self.body.add_widget(close)

    def pick(self, value: str) -> None:
        if self.model.submit(self.make_event(value)):
            self.dismiss()
        else:
            self.message.text = self.model.message


class RevealCards(_Sheet):
    """The action cards turned up: one tap per stack, then Reveal (opened by itself).

    Made once and opened again each round with `offer`: a card's button is made once (`warm`
    makes them a few a frame before the first reveal; making all at once took ~80 ms, a loop
    iteration over 150 ms with its frame); a round only puts the cards still in each stack back
    in their columns."""

    def __init__(self):
        super().__init__("Which action cards were turned up?", size_hint=(0.94, 0.94), portrait_hint=(0.94, 0.94))
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
        self.columns = GridLayout(spacing=dp(8))
        self.body.add_widget(self.columns)
        self.message.height = dp(30)  # empty, not Kivy's 100 px: the columns take that room (its words grow it)
        self.body.add_widget(self.message)
        row = self.bar = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(sheet_button("Not now", self.dismiss, height=dp(56)))
        # 2023: a card the table's set does not list is added from here, then picked
        self.add_button = sheet_button("Add or complete a card", self.add_card, height=dp(56))
        self.reveal_button = sheet_button("Reveal", self.reveal, primary=True, height=dp(56))
        row.add_widget(self.reveal_button)
        self.body.add_widget(row)

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
                    f"No card of stack {stack} is known yet: tap Name the card, then its "
                    "name (asked once: your next games know it).",
                    font_size="14sp",
                )
            )
        if learned is not None:
            button = sheet_button(
                f"{learned.label} (learned now)",
                lambda s=stack: self.choose(s, self.learned[s].card),
                height=dp(64),
                font_size="14sp",
            )
            self.buttons[stack][learned.card] = button
            column.add_widget(button)
        words = "Name the card" if not known else "Another card: name it"
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
            column.add_widget(sheet_label(f"Stack {stack}", bold=True, font_size="17sp"))
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
            hint = Label(text="", color=PRIMARY, font_size="14sp", bold=True, size_hint_y=None, height=0)
            cell = BoxLayout(orientation="vertical")
            cell.add_widget(scroll)
            cell.add_widget(hint)
            self.columns.add_widget(cell)
            self._columns[stack] = column
            self._scrolls[stack] = scroll
            self._hints[stack] = hint
            update = lambda *_, s=stack: Clock.schedule_once(lambda dt: self._say_more_below(s), 0)  # noqa: E731
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
        words = f"{below} more below: scroll down" if below else ""
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
                b.background_color = CHOSEN if self.chosen.get(stack) == cid else NORMAL
        missing = [s for s in self.stacks if s not in self.chosen]
        self.reveal_button.text = "Reveal" if not missing else f"Reveal (stack {', '.join(map(str, missing))} to pick)"

    def add_card(self) -> None:
        self.dismiss()
        if self.on_add is not None:
            self.on_add()  # the table screen's: once added, the sheet opens again with the card in it
        else:
            AddCard(self.model).open()

    def reveal(self) -> None:
        missing = [s for s in self.stacks if s not in self.chosen]
        if missing:
            self.message.text = f"Tap the card showing on stack {missing[0]}"
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
                names = ", ".join(self.model.board.cards[e["id"]].name for e in learned)
                self.model.message = f"Learned: {names}. " + (kept[0] or "Your cards keep them for the next games.")
            self.dismiss()
        else:
            self.message.text = self.model.message


class NameCard(_Sheet):
    """Which card turned up on a stack the set cannot place it on: the cards the rule book names
    whose stack nobody entered, by name (type a few letters to narrow them), or a card not in
    the list (its name, effect and numbers). The name picked is learned with the reveal."""

    def __init__(self, sheet, stack: int, question: str = "which card turned up?"):
        super().__init__(f"Stack {stack}: {question}", size_hint=(0.9, 0.92), portrait_hint=(0.96, 0.9))
        self.sheet, self.stack = sheet, stack
        self.options = sheet.candidates.get(stack, [])
        from kivy.core.window import Window
        from kivy.uix.textinput import TextInput

        about = (
            (
                "The rule book names these cards but not their stacks. Tap the one lying on stack "
                f"{stack}: its stack is kept for your next games."
            )
            if self.options
            else f"Every card the rule book names has its stack already: a card on stack {stack} not listed is added below."
        )
        self.body.add_widget(sheet_label(about, font_size="16sp"))
        self.filter = TextInput(
            multiline=False,
            size_hint_y=None,
            height=dp(48),
            font_size="18sp",
            hint_text="Type a few letters of its name to narrow the list",
        )
        self.filter.bind(text=lambda *_: self._fill())
        if len(self.options) > 6:
            self.body.add_widget(self.filter)
        self.grid = GridLayout(cols=3 if Window.width >= Window.height else 2, spacing=dp(6), size_hint_y=None)
        self.grid.bind(minimum_height=self.grid.setter("height"))
        self.name_buttons: dict[str, Button] = {}
        scroll = ScrollView(do_scroll_x=False, bar_width=dp(8), bar_inactive_color=(0.45, 0.3, 0.15, 0.55))
        scroll.add_widget(self.grid)
        self.body.add_widget(scroll)
        self.body.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(sheet_button("Back", self.dismiss, height=dp(56)))
        row.add_widget(sheet_button("A card not in the list", self.not_listed, height=dp(56)))
        self.body.add_widget(row)
        self._fill()

    def _fill(self) -> None:
        typed = self.filter.text.strip().lower()
        self.grid.clear_widgets()
        self.name_buttons = {}
        shown = [c for c in self.options if typed in c.name.lower()] if typed else self.options
        for c in shown:
            key = f"{c.card}@{c.stack}"
            words = f"[b]{for_markup(c.name)}[/b]\n{for_markup(c.does)}" + (
                f" (printed stack {c.stack})" if len({o.stack for o in self.options if o.card == c.card}) > 1 else ""
            )
            self.name_buttons[key] = b = sheet_button(
                words, lambda c=c: self.pick(c), height=dp(64), font_size="14sp", markup=True
            )
            self.grid.add_widget(b)
        self.message.text = (
            ""
            if shown or not self.options
            else f'No listed card\'s name has "{typed}": tap A card not in the list to add it'
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


class CardFacts(_Sheet):
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


class Ask(_Sheet):
    """A question before an entry that would otherwise pass in silence."""

    def __init__(self, question: str, yes: str, on_yes: Callable[[], None], no: str = "No, go back"):
        super().__init__("Are you sure?", size_hint=(0.6, 0.45))
        self.body.add_widget(sheet_label(question, font_size="18sp"))
        self.body.add_widget(BoxLayout())
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(sheet_button(no, self.dismiss, height=dp(56)))
        row.add_widget(sheet_button(yes, lambda: (self.dismiss(), on_yes()), primary=True, height=dp(56)))
        self.body.add_widget(row)


class AddCard(_Sheet):
    """A card turned up that the game's card set does not list, added from the box at once:
    its effect chosen from the list with the rule book's text beside it
    (companion.prompts.builder.effect_choices), its name, stack, copies and numbers; or a listed card
    whose facts nobody entered (Civil War's outcome, a stack) completed from the card. One
    input (Table.complete_card_set), checked like a card file: a mistake is shown in its words
    and nothing changes; what is accepted is kept in Your cards for the next games too."""

    def __init__(self, model, on_added=None, stack: int | None = None, keep=None):
        # `stack`: the compact entry of a card just turned up there (from NameCard): its stack is
        # known, its copies are left out (counted as they turn up), its numbers tapped from a row.
        # `keep`: the game is over (NameCardsLeft): the entry goes to it, not to the game; it says
        # '' or why not.
        title = f"Stack {stack}: a card not in the list" if stack else "Add or complete a card of your card set"
        super().__init__(title, size_hint=(0.94, 0.94), portrait_hint=(0.96, 0.94))
        self.model, self.on_added, self.turned_up, self.keep = model, on_added, stack, keep
        self.effects = {e.name: e for e in model.table.effect_choices(model.board.rules)}
        self.effect = None
        self.completing = None  # a listed card's id, when its facts are entered
        self.name, self.stack, self.copies, self.params = "", stack or 1, 1, {}
        self.placement = None  # a ♠ card's Caballeros (compact entry on stack 5)
        self.body.add_widget(
            sheet_label(
                "Tap what it does (its rule text shows beside it), then type its name and tap the numbers printed "
                "on it."
                if stack
                else "A card not in the list: tap what it does (its rule text shows beside it), "
                "then its name, stack and copies as printed.",
                font_size="16sp",
            )
        )
        from kivy.core.window import Window

        panes = BoxLayout(orientation="horizontal" if Window.width >= Window.height else "vertical", spacing=dp(10))
        self.effect_list = GridLayout(cols=1, spacing=dp(4), size_hint_y=None)
        self.effect_list.bind(minimum_height=self.effect_list.setter("height"))
        self.effect_buttons = {}
        self.card_buttons = {}
        incomplete = self.incomplete() if not stack else {}
        if incomplete:
            self.effect_list.add_widget(
                sheet_label("Listed, with facts to enter from the card:", bold=True, font_size="15sp")
            )
            for cid, what in incomplete.items():
                card = model.board.cards[cid]
                button = sheet_button(
                    f"{card.name}: {what}", lambda c=cid: self.complete(c), height=dp(52), font_size="14sp"
                )
                self.card_buttons[cid] = button
                self.effect_list.add_widget(button)
            self.effect_list.add_widget(
                sheet_label("A card not in the list, by what it does:", bold=True, font_size="15sp")
            )
        for name, effect in self.effects.items():
            first = effect.rule_text.split(") ", 1)[-1].split(". ")[0]  # its first sentence, without the book
            words = first if len(first) <= 70 else first[:70].rsplit(" ", 1)[0] + " ..."
            button = sheet_button(
                f"{effect.title}: {words}", lambda n=name: self.choose(n), height=dp(56), font_size="14sp"
            )
            self.effect_buttons[name] = button
            self.effect_list.add_widget(button)
        left = ScrollView(do_scroll_x=False)
        left.add_widget(self.effect_list)
        self.form = GridLayout(cols=1, spacing=dp(6), size_hint_y=None)
        self.form.bind(minimum_height=self.form.setter("height"))
        self.form_scroll = ScrollView(do_scroll_x=False)
        self.form_scroll.add_widget(self.form)
        panes.add_widget(left)
        panes.add_widget(self.form_scroll)
        self.body.add_widget(panes)
        self.body.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(sheet_button("Not now", self.dismiss, height=dp(56)))
        self.add_button = sheet_button("Add the card", self.add, primary=True, height=dp(56))
        row.add_widget(self.add_button)
        self.body.add_widget(row)
        self._form()

    # ---- the form ---------------------------------------------------------------------

    def printed_stacks(self) -> list[int]:
        """The printed stacks the table stack a card turned up on holds (four stacks: 2 and 3)."""
        rules = self.model.table.state.rules if self.model.table.state is not None else None
        if rules is None or self.turned_up in (None, 5):
            return [self.turned_up] if self.turned_up else []
        return [p for p in (1, 2, 3, 4) if rules.table_stack(p) == self.turned_up]

    def stacks(self) -> list[int]:
        modules = getattr(self.model.table.setup.game, "modules", []) or []
        return [1, 2, 3, 4] + ([5] if "new-regency" in modules else [])

    def incomplete(self) -> dict[str, str]:
        """Listed cards with facts nobody entered (the board's `missing`: "cards.<id>.<field>")."""
        out: dict[str, list[str]] = {}
        for key in self.model.board.missing:
            parts = key.split(".")
            if parts[0] == "cards" and len(parts) > 2 and parts[1] in self.model.board.cards:
                out.setdefault(parts[1], []).append(parts[-1].replace("_", " "))
        return {cid: "enter its " + " and ".join(fields) for cid, fields in out.items()}

    def complete(self, cid: str) -> None:
        """A listed card: what is known prefilled, the rest entered from the card."""
        card = self.model.board.cards[cid]
        self.completing, self.effect = cid, self.effects.get(card.effect)
        self.name, self.stack, self.copies = card.name, card.stack or 1, card.copies or 1
        known = {k: v for k, v in card.params.items() if v is not None}
        specs = self.effect.params if self.effect else {}
        self.params = {**{p: self._default(spec) for p, spec in specs.items() if spec.get("required")}, **known}
        self.message.text = ""
        self._form()
        self.form_scroll.scroll_y = 1

    def choose(self, name: str) -> None:
        self.completing = None
        self.effect = self.effects[name]
        if not self.name or self.name in {c.name for c in self.model.board.cards.values()}:
            self.name = self.effect.title
        self.params = {p: self._default(spec) for p, spec in self.effect.params.items() if spec.get("required")}
        if self.turned_up:
            self.params = offered_params(name)
        self.message.text = ""
        self._form()
        self.form_scroll.scroll_y = 1

    @staticmethod
    def _default(spec: dict):
        kind = spec.get("type")
        if kind == "int":
            return spec.get("min", 1)
        if kind == "bool":
            return False
        if kind == "list":
            return list(spec.get("values", []))
        return (spec.get("values") or [""])[0]

    def _form(self) -> None:
        form = self.form
        form.clear_widgets()
        self.steppers = {}  # what each stepper sets -> its (-, +) buttons
        for name, button in self.effect_buttons.items():
            chosen = self.completing is None and self.effect is not None and self.effect.name == name
            button.background_color = CHOSEN if chosen else NORMAL
        for cid, button in self.card_buttons.items():
            button.background_color = CHOSEN if self.completing == cid else NORMAL
        self.add_button.text = "Save the card" if self.completing else "Add the card"
        if self.effect is None:
            form.add_widget(sheet_label("No effect chosen yet.", font_size="16sp"))
            return
        e = self.effect
        heading = f"{self.name} (in your set: {e.title})" if self.completing else e.title
        form.add_widget(sheet_label(heading, bold=True, font_size="19sp", halign="left"))
        form.add_widget(sheet_label(e.rule_text, font_size="14sp", halign="left"))
        if not self.completing:  # a listed card keeps its name
            from kivy.uix.textinput import TextInput

            form.add_widget(sheet_label("Name, as printed on the card:", bold=True, halign="left", font_size="15sp"))
            field = TextInput(text=self.name, multiline=False, size_hint_y=None, height=dp(48), font_size="18sp")
            field.bind(text=lambda w, v: setattr(self, "name", v))
            form.add_widget(field)
        if self.turned_up:
            form.add_widget(
                sheet_label(
                    f"Stack {self.turned_up}, where it turned up; its copies are counted as they turn up.",
                    font_size="15sp",
                    halign="left",
                )
            )
            printed = self.printed_stacks()
            if len(printed) > 1:  # four stacks: stack 2 holds the printed 2s and 3s
                self._number_row(form, "stack", "the stack number printed on it", self.stack, printed)
            if self.stack == 5:  # a ♠ card prints its Caballeros
                self._number_row(form, "placement", "Caballeros it places", self.placement, range(0, 6))
            rows = {n.key: n for n in printed_numbers(e.name)}  # every number, "2 each" too
            for pname, spec in e.params.items():
                if pname in rows:
                    self._number_row(
                        form, pname, rows[pname].words, self.params.get(pname), rows[pname].options, rows[pname].label
                    )
                else:
                    self._param(form, pname, spec)
            return
        stack = f"{self.stack} (New Regency)" if self.stack == 5 else self.stack
        self._stepper(form, "Stack", stack, lambda d: self._set("stack", d, self.stacks()), "stack")
        self._stepper(
            form, "Copies in the box", self.copies, lambda d: self._set("copies", d, list(range(1, 11))), "copies"
        )
        for pname, spec in e.params.items():
            self._param(form, pname, spec)

    def _number_row(self, form, pname: str, meaning: str, value, values, label=str) -> None:
        """A number printed on the card: one tap on it (None: the card prints none)."""
        form.add_widget(sheet_label(f"{pname.replace('_', ' ')}: {meaning}", font_size="15sp", halign="left"))
        grid = GridLayout(cols=6, spacing=dp(4), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for n in values:
            b = sheet_button(label(n), lambda v=n: self._set_number(pname, v), height=dp(48))
            b.background_color = CHOSEN if value == n else NORMAL
            grid.add_widget(b)
        form.add_widget(grid)

    def _set_number(self, pname: str, value: int) -> None:
        if pname == "placement":
            self.placement = value
        elif pname == "stack":
            self.stack = value
        elif value is None:  # none printed: the effect's rule for none (Decay: all of them)
            self.params.pop(pname, None)
        else:
            self.params[pname] = value
        self._form()

    def _stepper(self, form, words: str, value, on_step, key: str) -> None:
        row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(8))
        label = sheet_label(f"{words}: {value}", font_size="16sp", halign="left")
        label.bind(height=lambda w, h: setattr(row, "height", max(dp(52), h)))  # a long meaning wraps
        row.add_widget(label)
        minus = sheet_button("-", lambda: on_step(-1), height=dp(48), size_hint_x=None, width=dp(56))
        plus = sheet_button("+", lambda: on_step(+1), height=dp(48), size_hint_x=None, width=dp(56))
        row.add_widget(minus)
        row.add_widget(plus)
        self.steppers[key] = (minus, plus)
        form.add_widget(row)

    def _set(self, what: str, delta: int, allowed: list[int]) -> None:
        now = getattr(self, what)
        i = max(0, min(len(allowed) - 1, allowed.index(now) + delta)) if now in allowed else 0
        setattr(self, what, allowed[i])
        self._form()
        if allowed[i] == now:  # at its end: said, not ignored
            words = {"stack": "The stacks of this game are", "copies": "A card's copies are"}.get(what, what)
            self.message.text = f"{words} {allowed[0]} to {allowed[-1]}"

    def _param(self, form, pname: str, spec: dict) -> None:
        kind, value = spec.get("type"), self.params.get(pname)
        meaning = spec.get("meaning", pname)
        if kind == "int":
            shown = "left out" if value is None else value
            self._stepper(
                form,
                f"{pname.replace('_', ' ')} ({meaning})",
                shown,
                lambda d, n=pname, s=spec: self._step_param(n, s, d),
                pname,
            )
        elif kind in ("str", "bool"):
            form.add_widget(sheet_label(f"{pname.replace('_', ' ')}: {meaning}", font_size="15sp", halign="left"))
            options = spec.get("values") if kind == "str" else [True, False]
            grid = GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for option in options:
                b = sheet_button(
                    str(option).replace("_", " "),
                    lambda n=pname, o=option: self._set_param(n, o),
                    height=dp(48),
                    font_size="15sp",
                )
                b.background_color = CHOSEN if value == option else NORMAL
                grid.add_widget(b)
            form.add_widget(grid)
        else:  # a list fixed by the effect (Choice: its two options)
            form.add_widget(
                sheet_label(
                    f"{pname.replace('_', ' ')}: {', '.join(map(str, value or []))}", font_size="15sp", halign="left"
                )
            )

    def _step_param(self, pname: str, spec: dict, delta: int) -> None:
        low, high = spec.get("min", 0), spec.get("max", 30)
        value = before = self.params.get(pname)
        if value is None:
            value = low if delta > 0 else None
        else:
            value += delta
            if value < low:
                value = None if not spec.get("required") else low
            value = min(value, high) if value is not None else None
        if value is None:
            self.params.pop(pname, None)
        else:
            self.params[pname] = value
        self._form()
        if value == before:  # at its end: said, not ignored
            words = pname.replace("_", " ")
            self.message.text = (
                f"{words}: {high} at most"
                if delta > 0
                else f"{words}: {low} at least"
                if spec.get("required")
                else f"{words}: left out already"
            )

    def _set_param(self, pname: str, option) -> None:
        self.params[pname] = option
        self._form()

    # ---- sending ------------------------------------------------------------------------

    def entry(self) -> dict:
        """The card in the card-file vocabulary (a listed card: its id and what was entered)."""
        e = self.effect
        if self.turned_up and not self.completing:
            return new_card_entry(self.model.board, self.name, e.name, self.stack, dict(self.params), self.placement)[0]
        if self.completing:
            return {
                "id": self.completing,
                "stack": self.stack,
                "copies": self.copies,
                "params": dict(self.params),
                "source": "completed at the table",
            }
        name = self.name.strip()
        numbers = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.params.items() if not isinstance(v, list))
        words = does(e.name, self.params)  # what it does, as its short text says it elsewhere
        card = {
            "id": card_id(name, self.model.board.cards),
            "name": name,
            "stack": self.stack,
            "copies": self.copies,
            "effect": e.name,
            "params": dict(self.params),
            "text": words[:1].upper() + words[1:] if words else f"{e.title}" + (f" ({numbers})" if numbers else ""),
            "source": "added at the table",
        }
        if self.stack == 5:
            card["module"] = "new-regency"
        return card

    def add(self) -> None:
        from companion.input_errors import InputError

        if self.effect is None:
            self.message.text = "Tap what the card does first (its effect, from the list), or a listed card"
            return
        if not self.name.strip():
            self.message.text = "Give the card's name as printed on it"
            return
        if self.turned_up == 5 and self.placement is None:
            self.message.text = "Tap how many Caballeros the card places (printed on it)"
            return
        from companion.table_rules.card_file import remember_card_entries

        entry = self.entry()
        if self.keep is not None:
            why = self.keep(self.turned_up, entry)
            if why:
                self.message.text = why
                return
            self.dismiss()
            self.on_added(entry["id"])
            return
        try:
            self.model.table.complete_card_set([entry])
        except InputError as exc:
            self.message.text = str(exc)
            return
        # Kept in Your cards for the next games too (or said why not: this game has it either way)
        kept = remember_card_entries([entry])
        done = "is complete" if self.completing else "is in the card set now"
        self.model.message = f"{self.name.strip()} {done}: turn up the cards. " + (
            kept or "Your cards keep it for the next games."
        )
        self.dismiss()
        if self.on_added is not None:
            self.on_added(entry["id"]) if self.turned_up else self.on_added()


class NameCardsLeft(_Sheet):
    """The game is over and the set cannot place every card left face down: turned over, each is
    tapped by name (a card of the set placed on that stack, or Name the card: the rule book's
    cards whose stack nobody entered, or one not in the list), and the numbers of cards nobody
    played are tapped off them. Keep puts it all in Your cards (Table.name_cards_left), with the
    copies of every stack now seen whole: the next games ask nothing of them. Skippable."""

    def __init__(self, model, on_done: Callable[[], None] | None = None):
        super().__init__("The cards left in the stacks", size_hint=(0.94, 0.94), portrait_hint=(0.96, 0.94))
        self.model, self.on_done = model, on_done
        self.left = {s.stack: s for s in model.table.stacks_left()}
        self.candidates = {s: list(left.candidates) for s, left in self.left.items()}
        self.named: dict[int, list] = {s: [] for s in self.left}
        self.new: dict[str, dict] = {}  # cards not in the list, entered now: id -> entry
        self.values: dict[str, dict] = {}  # card id -> {fact key: value} read off it
        self.body.add_widget(
            sheet_label(
                "Turn over the cards left in each stack and tap their names, so your next games ask nothing.",
                font_size="16sp",
            )
        )
        self.form = GridLayout(cols=1, spacing=dp(8), size_hint_y=None)
        self.form.bind(minimum_height=self.form.setter("height"))
        scroll = ScrollView(do_scroll_x=False, bar_width=dp(8), bar_inactive_color=(0.45, 0.3, 0.15, 0.55))
        scroll.add_widget(self.form)
        self.body.add_widget(scroll)
        self.body.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(sheet_button("Not now", self.dismiss, height=dp(56)))
        self.keep_button = sheet_button("Keep in Your cards", self.keep, primary=True, height=dp(56))
        row.add_widget(self.keep_button)
        self.body.add_widget(row)
        self._fill()

    def _name(self, pick) -> str:
        if isinstance(pick, str):
            card = self.model.board.cards.get(pick)
            return card.name if card else self.new[pick]["name"]
        return pick.name

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
            words = f"{todo} to name" if todo else "all named"
            column.add_widget(sheet_label(f"Stack {stack}: {words}", bold=True, font_size="16sp"))
            for i, pick in enumerate(named):  # tapped again: taken back
                b = sheet_button(
                    f"{self._name(pick)} (tap to take back)",
                    lambda s=stack, i=i: self.take_back(s, i),
                    height=dp(52),
                    font_size="14sp",
                )
                b.background_color = CHOSEN
                column.add_widget(b)
            self.pick_buttons[stack] = {}
            if todo:
                for cid, name in left.known:
                    b = self.pick_buttons[stack][cid] = sheet_button(
                        name, lambda s=stack, c=cid: self.pick(s, c), height=dp(52), font_size="14sp"
                    )
                    column.add_widget(b)
                column.add_widget(
                    sheet_button(
                        "Name the card",
                        lambda s=stack: self.name_card(s),
                        primary=not left.known,
                        height=dp(52),
                        font_size="15sp",
                    )
                )
            columns.add_widget(cell)
        form.add_widget(columns)
        self.fact_buttons: dict[tuple, Button] = {}
        unread = self.model.table.facts_left(self._named_ids())
        if unread:
            form.add_widget(sheet_label("Nobody played these: tap what each card says.", bold=True, font_size="16sp"))
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
                    b.background_color = CHOSEN if self.values.get(cid, {}).get(fact.key) == value else NORMAL
                    grid.add_widget(b)
                form.add_widget(grid)

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
        NameCard(self, stack, "which card is left?").open()

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
            self.message.text = "Tap the name of a card left on a stack first (or Not now)"
            return
        kept = []
        if self.model._input(lambda _: kept.append(self.model.table.name_cards_left(named, self.values)), None):
            if kept[0]:
                self.message.text = kept[0]
                return
            self.model.message = "Your cards keep them: your next games know these stacks."
            self.dismiss()
            if self.on_done is not None:
                self.on_done()
        else:
            self.message.text = self.model.message


class BoardFacts(_Sheet):
    """A board fact the rule book does not print, entered when the game first needs it: one page
    per fact (a scoreboard's or tile's three numbers, tapped from the numbers offered; a space's
    neighbouring regions, tapped on and off), each checked like a board file when the table goes
    on. A thin view of companion.entry.facts.FactsEntry; the last page sends it and the step goes on."""

    COLUMNS = 7  # 0..12 in two rows per place: 48 dp buttons fit every tablet shape

    def __init__(self, model, entry, on_done: Callable[[], None] | None = None):
        from companion.entry.facts import needed_words

        super().__init__(
            f"From your board: {needed_words(entry.facts, entry.board.side)}",
            size_hint=(0.86, 0.94),
            portrait_hint=(0.96, 0.9),
        )
        self.model, self.entry, self.on_done = model, entry, on_done
        self.numbers: dict[int, dict[int, Button]] = {}  # place -> value -> button (the page shown)
        self.regions: dict[str, Button] = {}
        self.heading = sheet_label("", bold=True, font_size="18sp")
        self.instruction = sheet_label("", font_size="15sp")
        self.form = GridLayout(cols=1, spacing=dp(6), size_hint_y=None)
        self.form.bind(minimum_height=self.form.setter("height"))
        scroll = ScrollView()
        scroll.add_widget(self.form)
        for widget in (self.heading, self.instruction, scroll, self.message):
            self.body.add_widget(widget)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(sheet_button("Not now", self.dismiss, height=dp(56)))
        self.back_button = sheet_button("Back", self.back, height=dp(56))
        row.add_widget(self.back_button)
        self.next_button = sheet_button("Next", self.next, primary=True, height=dp(56))
        row.add_widget(self.next_button)
        self.body.add_widget(row)
        self._page()

    def _page(self) -> None:
        entry, form = self.entry, self.form
        fact = entry.current
        self.heading.text = entry.heading()
        self.instruction.text = entry.instruction()
        self.message.text = entry.message
        self.back_button.disabled = entry.page == 0
        self.back_button.opacity = 0 if entry.page == 0 else 1
        self.next_button.text = "Enter and go on" if entry.last_page else f"Next: {entry.facts[entry.page + 1].label}"
        form.clear_widgets()
        self.numbers, self.regions = {}, {}
        if fact.kind == "neighbours":
            form.add_widget(sheet_label(f"Chosen: {entry.shown()}", font_size="15sp", halign="left"))
            grid = GridLayout(cols=3, spacing=dp(6), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            chosen = set(entry.neighbours[fact.path])
            for rid, name in entry.regions():
                b = sheet_button(name, lambda r=rid: self.toggle(r), height=dp(52))
                b.background_color = CHOSEN if rid in chosen else NORMAL
                self.regions[rid] = b
                grid.add_widget(b)
            form.add_widget(grid)
            return
        from companion.entry.facts import PLACES, POINTS

        values = entry.values[fact.path]
        for place, words in enumerate(PLACES):
            shown = "?" if values[place] is None else values[place]
            form.add_widget(sheet_label(f"{words}: {shown}", font_size="15sp", halign="left"))
            grid = GridLayout(cols=self.COLUMNS, spacing=dp(4), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            self.numbers[place] = {}
            for value in POINTS:
                b = sheet_button(str(value), lambda p=place, v=value: self.pick(p, v), height=dp(48))
                b.background_color = CHOSEN if values[place] == value else NORMAL
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
