"""The table: the map in the middle, the phase bar on top, the legal choices
on the right, undo and the tower at the bottom. Draws the model's prompt and
sends back the events it builds; the only state kept here is an entry in
progress (taps not yet confirmed). Its parts: the players' rows (widgets/score_panel.py),
the bottom bar (widgets/table_bar.py), what a choice's action opens (table_actions.py) and
scoring-only mode's board entry (table_board_edit.py)."""

from __future__ import annotations

from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.look.players import PLAYER_RGB
from companion.prompts.builder import PromptBuilder
from companion.ui.dialogs.are_you_sure import AreYouSure
from companion.ui.dialogs.outcome_shown import OutcomeShown
from companion.ui.dialogs.reveal_cards import RevealCards
from companion.ui.screens.table_actions import ACTIONS
from companion.ui.screens.table_board_edit import show_board_edit
from companion.ui.widgets.common import ChoiceButton, Pool, WrappedLabel, dress
from companion.ui.widgets.map_view import MapView  # noqa: F401 (MapView is used in the .kv)
from companion.ui.widgets.phone_check import PhoneCheck
from companion.ui.widgets.score_panel import SIDE_TEXT
from companion.words import _, ngettext
from engine.board.model import CASTILLO

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

GRID_CELL = dp(56)  # the narrowest button of a grid of values (the Power cards)
STEP_COLUMNS = 2  # Modifier cards: two a row, so a card's name wraps onto two lines at most


def _played(table) -> bool:
    """Anything entered in this game yet (the tower's own records aside)."""
    return any(r["t"] == "event" for r in table.effective)


class TableScreen(Screen):
    model = ObjectProperty(None)
    prompt_title = StringProperty("")
    prompt_hint = StringProperty("")
    actor_rgb = ListProperty([0.5, 0.45, 0.4])
    message = StringProperty("")
    notice = StringProperty("")  # what happened or what to know, until the next step
    teach_offer = BooleanProperty(False)  # before the first step: the tower lacks a seat's colour
    entry_text = StringProperty("")
    landscape = BooleanProperty(True)  # the window's shape: the .kv arranges the map and panels by it
    _bound = False  # class level: `model` is set (and observed) during __init__
    _asked_for = None  # (title, actor, map mode) of the prompt the entry belongs to
    _game_shown = None
    _noted_table = None  # the table whose start notices were shown
    _colour_notice = ""  # the start's words about the colours the tower does not know, while shown
    _outcome_dialog = None  # the last "Now move these Caballeros" dialog
    private_dialog = None  # a private sheet opened in turn (opens_private)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.entry: dict[str, int] = {}  # count mode: area (or stepper key) -> Caballeros
        self.move_source: str = ""
        self.move_owner: str = ""
        self.board_edit = None  # scoring only: a BoardEntry while the board is entered
        self.sub_prompt = None  # a prompt that replaces the model's (mobile scoreboard)
        self._not_now: set[str] = set()  # who closed their private sheet unanswered at this question
        # The side panel's choices and notes: the same widgets each prompt, new words (making
        # them anew cost tens of ms an input and left garbage for the collector).
        self._choice_buttons = Pool(ChoiceButton)
        self._note_labels = Pool(lambda: WrappedLabel(font_size=SIDE_TEXT, color=(0.30, 0.22, 0.12, 1), halign="left"))
        self.choice_grid = GridLayout(spacing=dp(6), size_hint_y=None)
        self.choice_grid.bind(minimum_height=self.choice_grid.setter("height"))
        self._step_grid = GridLayout(spacing=dp(6), size_hint_y=None)
        self._step_grid.bind(minimum_height=self._step_grid.setter("height"))
        self._grid_asked = (4, [])  # (columns the prompt asks, labels) of the grid of values shown
        self.reveal_sheet = None
        Clock.schedule_once(self._warm_reveal_sheet, 0)  # after the first frame

    # ---- model -> view ------------------------------------------------------------------

    def on_kv_post(self, base_widget) -> None:
        if self.model and not self._bound:
            self._bound = True
            self.model.bind(
                prompt=self._prompt_changed,
                public=self._public_changed,
                tower=self._tower_changed,
                pulses=lambda *_: self.ids.map.flash(),
                message=lambda _, m: setattr(self, "message", m),
                club_status=lambda *_: self.ids.bar.show_club(),
                on_outcome=lambda _, words: self._outcome(words),
            )
            # The map draws the open game's board (the 2023 names, France and Portugal, the
            # Scoring tiles) and follows it when the table completes its card set or board.
            self.ids.map.board = self.model.board
            self.model.bind(board=self.ids.map.setter("board"))
            self.ids.actions.bind(width=lambda *_: setattr(self.choice_grid, "cols", self._columns()))
            PhoneCheck.watch(self.model)  # "Is this Ana's phone?" opens by itself when a phone joins

    def on_size(self, *args) -> None:
        self.landscape = self.width >= self.height

    def on_pre_enter(self, *args) -> None:
        self._game_shown = None
        self._game_opened()
        self._public_changed()
        self._prompt_changed()
        self._tower_changed()
        self.ids.bar.show_club()

    def _game_opened(self) -> None:
        """Once a game: its action cards' buttons made a few a frame (a 2023 set is not the one
        made at startup); at its start, the colours the tower does not know are said."""
        table = self.model.table
        if table is None or table is self._noted_table:
            return
        self._noted_table = table
        Clock.schedule_once(self._warm_reveal_sheet, 0)
        if not _played(table):
            self.notice = self._colour_notice = " ".join(table.setup.colour_notes())

    def _outcome(self, words) -> None:
        """What the table must do by hand in a dialog; what only happened (the dummy takes a
        card) in a notice, with no tap to close it."""
        if words.hands:
            dialog = self._outcome_dialog = OutcomeShown(words)
            dialog.bind(on_dismiss=self._outcome_closed)
            dialog.open()
        else:
            self.notice = " ".join(words.lines)

    def _public_changed(self, *args) -> None:
        public = self.model.public
        if not public:
            return
        game = public["game"]
        self.ids.bar.show_public(public)
        self._tower_changed()  # the tower's count may now differ from the table's
        if game != self._game_shown:  # a tower drop changes none of this: keep it cheap
            self._game_shown = game
            if self.board_edit is None:
                self.ids.map.public = game
            self.ids.players.show(game)

    def _tower_changed(self, *args) -> None:
        table = self.model.table
        if self.ids.bar.show_tower() and table and self.notice and self.notice == self._colour_notice:
            # said at the start: now told anew
            self.notice = self._colour_notice = " ".join(table.setup.colour_notes())
        self._offer_teaching()

    def _offer_teaching(self) -> None:
        """At the start only (later, from the tower panel): never in the way of a game under way."""
        link, table = self.model.tower_link, self.model.table
        self.teach_offer = bool(link and table and not _played(table) and link.teaching.offered())

    def teach_the_tower(self) -> None:
        from companion.ui.widgets.teach_panel import TeachPanel

        panel = TeachPanel(model=self.model)
        panel.open()
        panel.start()

    # ---- the prompt -----------------------------------------------------------------------

    def _prompt_changed(self, *args) -> None:
        prompt = self.model.prompt
        same_question = prompt is not None and self._asked_for == (prompt.title, prompt.actor, prompt.map_mode)
        if same_question and prompt.map_mode == "count" and self.sub_prompt is None:
            # Only the tower's count changed (a cube thrown while someone taps the regions):
            # keep the taps, take the Castillo's share from the tower.
            self.entry = {a: c for a, c in self.entry.items() if a != CASTILLO}
            self.entry.update({a: c for a, c in prompt.prefill.items() if a == CASTILLO})
            self.show()
            return
        self._asked_for = (prompt.title, prompt.actor, prompt.map_mode) if prompt else None
        self.entry, self.move_source, self.move_owner, self.sub_prompt = {}, "", "", None
        if self.model.table is not None and _played(self.model.table):
            self.notice = ""  # said for one step (the start's notes stay until the first input)
            self.teach_offer = False
        self.message = self.model.message  # a hint of this screen's own belongs to the step it was made at
        self.show()
        self.to_top()  # a new question's choices from their top
        if prompt is not None and any(c.action == "reveal_cards" for c in prompt.choices):
            # The one thing to do now: it opens without a tap, after this frame (the table's
            # frame and the sheet's each stay well inside a loop iteration).
            Clock.schedule_once(self.open_reveal_sheet, 0)
        if prompt is None or not prompt.opens_private:
            self._not_now = set()
        else:
            Clock.schedule_once(self._open_private_in_turn, 0)

    def to_top(self, *_) -> None:
        """The side panel's list at its top, still: a tap that changes the list's length is read
        by the scroll view as a fling, and the new question's list glided down after it."""
        scroll = self.ids.actions_scroll
        if scroll.effect_y is not None:
            scroll.effect_y.velocity = scroll.effect_y.overscroll = 0
        scroll.scroll_y = 1
        if _ == ():
            Clock.schedule_once(self.to_top, 0)  # and once the new choices are laid out

    def open_reveal_sheet(self, *_) -> None:
        if self._outcome_dialog is not None:
            return  # what the table must move first (the dummy's Region cards): the sheet once it is closed
        prompt = self.prompt
        if (
            prompt is not None
            and any(c.action == "reveal_cards" for c in prompt.choices)
            and self.manager
            and self.manager.current == self.name
        ):
            self.act("reveal_cards")

    def _outcome_closed(self, dialog) -> None:
        if dialog is self._outcome_dialog:
            self._outcome_dialog = None
        Clock.schedule_once(self.open_reveal_sheet, 0)  # returns None: a truthy answer would keep it open
        Clock.schedule_once(self._open_private_in_turn, 0)

    def _open_private_in_turn(self, *_) -> None:
        """The next player's private sheet opens without a tap (King and Intrigue's 13 kept): the
        first still to choose, in seat order, whose seat no phone holds and who did not close
        theirs with "Not now" at this question (their button on the side panel opens it again)."""
        prompt = self.prompt
        if (
            prompt is None
            or not prompt.opens_private
            or self._outcome_dialog is not None
            or self.private_dialog is not None
            or not self.manager
            or self.manager.current != self.name
        ):
            return
        phones = self.model.phone_seats or {}
        for choice in prompt.choices:
            kind, _sep, pid = (choice.action or "").partition(":")
            if kind == "private" and pid not in self._not_now and not (phones.get(pid) or {}).get("joined"):
                self.act("private", pid)
                return

    def private_closed(self, dialog) -> None:
        if dialog is not self.private_dialog:
            return
        self.private_dialog = None
        ask = self.model.ask()
        if ask is not None and dialog.pick.player in ask.players:
            self._not_now.add(dialog.pick.player)  # closed unanswered: not opened again by itself
        Clock.schedule_once(self._open_private_in_turn, 0)

    @property
    def prompt(self):
        return self.sub_prompt or self.model.prompt

    def show(self) -> None:
        if self.board_edit is not None:
            return show_board_edit(self)
        prompt = self.prompt
        if prompt is None:
            return
        self.prompt_title, self.prompt_hint = prompt.title, prompt.hint
        self.actor_rgb = list(PLAYER_RGB.get(prompt.actor, (0.5, 0.45, 0.4)))
        m = self.ids.map
        m.pending_colour = prompt.actor or ""
        if prompt.map_mode == "count" and not self.entry:
            self.entry = dict(prompt.prefill)
        m.pending = {a: c for a, c in self.entry.items() if not a.startswith("__")}
        if prompt.map_mode == "move":
            m.tappable = list(prompt.sources) if not self.move_source else list(prompt.areas)
            m.selected = self.move_source
        else:
            m.tappable = list(prompt.areas) if prompt.map_mode else []
            m.selected = ""
        self._actions(prompt)

    def clear_actions(self):
        """The side panel emptied; its widgets go back to their pools."""
        box = self.ids.actions
        box.clear_widgets()
        self.choice_grid.clear_widgets()
        self._step_grid.clear_widgets()
        self._choice_buttons.release()
        self._note_labels.release()
        return box

    def choice_button(
        self, text: str, on_release, style: str = "normal", height: float = dp(48), disabled: bool = False, why_not=None
    ) -> ChoiceButton:
        return dress(self._choice_buttons.take(), text, on_release, style, height, disabled, why_not)

    def _offer(self, choice, height: float = dp(48)) -> ChoiceButton:
        """A prompt's choice as a button; greyed out, a tap on it says why (the prompt's words)."""
        return self.choice_button(
            choice.label,
            lambda: self.choose(choice),
            choice.style,
            height=height,
            disabled=not choice.enabled,
            why_not=lambda: self._say_why_not(choice),
        )

    def _say_why_not(self, choice) -> None:
        self.message = choice.why_not or _("{choice}: not possible at this step").format(choice=choice.label)

    def _note(self, text: str, bold: bool = False, least: float = 0, **look) -> WrappedLabel:
        label = self._note_labels.take()
        label.text, label.bold, label.least = text, bold, least
        label.font_size = look.get("font_size", SIDE_TEXT)
        label.color = look.get("color", (0.30, 0.22, 0.12, 1))
        return label

    def _actions(self, prompt) -> None:
        box = self.clear_actions()
        self.entry_text = ""
        if prompt.map_mode == "count":
            self._count_controls(prompt, box)
        if prompt.map_mode == "move" and self.move_source:
            self._owner_controls(prompt, box)
        if prompt.columns > 1:
            # A grid of values (the Power cards); steps within it (a Modifier card played with
            # the Power card: Power Shift) in a grid of their own under a heading
            steps = [c for c in prompt.choices if (c.action or "").startswith("sub:") and c.action != "sub:"]
            back = [c for c in prompt.choices if c.action == "sub:"]  # "Without a Modifier card": full width
            # "Ana: why it was refused": full width, above the values (the card just tapped is refused)
            why = [c for c in prompt.choices if (c.action or "").startswith("private_note:")]
            values = [c for c in prompt.choices if c not in steps and c not in back and c not in why]
            for choice in why:
                box.add_widget(self.choice_button(choice.label, lambda c=choice: self.choose(c), choice.style))
            self._grid_asked = (prompt.columns, [c.label for c in values])
            self._grid(self.choice_grid, self._columns(), values, box)
            for choice in back:
                box.add_widget(self.choice_button(choice.label, lambda c=choice: self.choose(c), choice.style))
            if steps:
                box.add_widget(self._note(_("Played with a Modifier card? Tap it first:"), bold=True, least=dp(28)))
                self._grid(self._step_grid, STEP_COLUMNS, steps, box)
        else:
            for choice in prompt.choices:
                box.add_widget(self._offer(choice))
        self._notes(prompt, box)

    def _columns(self, *_) -> int:
        """In portrait, bare numbers (the Power cards) in as few rows as fit the panel's width at
        56 dp a button: height is what the side panel runs short of there (Power Shift)."""
        asked, labels = self._grid_asked
        fit = int(self.ids.actions.width // (GRID_CELL + dp(6)))
        if self.landscape or fit <= asked or not labels or not all(len(label) <= 2 for label in labels):
            return asked
        rows = -(-len(labels) // fit)
        return -(-len(labels) // rows)  # 13 cards: two rows of 7 rather than 12 and 1

    def _grid(self, grid, columns: int, choices, box) -> None:
        grid.cols = columns
        for choice in choices:
            grid.add_widget(self._offer(choice, height=dp(56)))
        box.add_widget(grid)

    def _notes(self, prompt, box) -> None:
        for i, note in enumerate(prompt.notes):
            box.add_widget(self._note(note, bold=i == 0))

    def _count_controls(self, prompt, box) -> None:
        total = sum(self.entry.values())
        self.entry_text = _("Entered {total} of up to {limit}").format(total=total, limit=prompt.limit)
        for key, (label, _low, high) in prompt.steppers.items():
            value = self.entry.get(key, 0)
            box.add_widget(self.choice_button(f"{label}: {value}   (+1)", lambda k=key, h=high: self._step(k, +1, h)))
            box.add_widget(
                self.choice_button(f"{label}: -1", lambda k=key: self._step(k, -1, 0), "quiet", height=dp(36))
            )
        if self.entry:
            box.add_widget(self.choice_button(_("Clear"), self._clear_entry, "quiet", height=dp(40)))
            box.add_widget(self.choice_button(_("Take one back"), self._take_back_last, "quiet", height=dp(40)))
        box.add_widget(self.choice_button(_("Confirm"), self._confirm_counts, "primary"))

    def _owner_controls(self, prompt, box) -> None:
        owners = prompt.sources.get(self.move_source, {})
        source = self.model.area_name(self.move_source)
        box.add_widget(
            self._note(
                _("From {area}: whose Caballero?").format(area=source),
                least=dp(30),
                font_size="15sp",
                color=(0.23, 0.16, 0.08, 1),
            )
        )
        for owner, n in owners.items():
            style = "primary" if owner == self.move_owner else "normal"
            box.add_widget(
                self.choice_button(
                    ngettext("{who} ({n} movable)", "{who} ({n} movable)", n).format(who=self.model.name(owner), n=n),
                    lambda o=owner: self._pick_owner(o),
                    style,
                    height=dp(40),
                )
            )
        box.add_widget(self.choice_button(_("Cancel this move"), self._cancel_move, "quiet", height=dp(40)))

    # ---- taps -------------------------------------------------------------------------------

    def map_tapped(self, area: str) -> None:
        if self.board_edit is not None:
            self.board_edit.tap(area)
            return show_board_edit(self)
        prompt = self.prompt
        if prompt is None or not prompt.map_mode:
            return
        if prompt.map_mode == "pick":
            self._submit(prompt.on_area(area))
        elif prompt.map_mode == "count":
            if sum(self.entry.values()) >= prompt.limit:
                self.message = self.model.builder.full_words(prompt)  # the card and its limit
                return
            if prompt.per_area and self.entry.get(area, 0) >= prompt.per_area:
                self.message = _(
                    "{area} is entered already (at most {n} each here): tap another, or take one back"
                ).format(area=self.model.area_name(area), n=prompt.per_area)
                return
            self.entry[area] = self.entry.get(area, 0) + 1
            self._last_tapped = area
            if prompt.auto_confirm and sum(self.entry.values()) >= prompt.limit:
                # The dummy's Region cards, Militia, a turn's last placement: no Confirm, and said
                entered = dict(self.entry)
                if self._submit_counts(entered):
                    self.model.message = self.model.builder.entered_words(prompt, entered)
                return
            self.show()
        elif prompt.map_mode == "move":
            if not self.move_source:
                self.move_source = area
                owners = prompt.sources.get(area, {})
                self.move_owner = next(iter(owners)) if len(owners) == 1 else ""
                self.show()
            elif not self.move_owner:
                self.message = _("First choose whose Caballero moves")
            else:
                event = prompt.on_move(self.move_source, area, self.move_owner)
                self.move_source = self.move_owner = ""
                self._submit(event)

    def map_closed(self, area: str) -> None:
        """A tap on an area that cannot be chosen now: why, in one line (the table's words)."""
        if self.board_edit is not None:
            self.message = self.board_edit.why_not(area)
            return
        prompt = self.prompt
        if prompt is not None:
            self.message = self.model.why_not_area(prompt, area, self.entry, self.move_source, self.move_owner)

    def _pick_owner(self, owner: str) -> None:
        self.move_owner = owner
        prompt = self.prompt
        self.ids.map.tappable = list(prompt.areas)
        self._actions(prompt)

    def _cancel_move(self) -> None:
        self.move_source = self.move_owner = ""
        self.show()

    def _step(self, key: str, delta: int, bound: int) -> None:
        value = self.entry.get(key, 0) + delta
        if (delta > 0 and value > bound) or value < 0:
            label = self.prompt.steppers[key][0]
            self.message = (
                _("{what}: {n} at most here").format(what=label, n=bound)
                if delta > 0
                else _("{what}: none entered to take back").format(what=label)
            )
            return
        self.entry[key] = value
        self.show()

    def _clear_entry(self) -> None:
        self.entry = {}
        self.show()

    def _take_back_last(self) -> None:
        area = getattr(self, "_last_tapped", None)
        if area and self.entry.get(area):
            self.entry[area] -= 1
        else:
            for a in reversed(list(self.entry)):
                if self.entry[a]:
                    self.entry[a] -= 1
                    break
        self.show()

    def _confirm_counts(self) -> None:
        counts = {a: c for a, c in self.entry.items()}
        question = self.prompt.confirm_empty
        if question and not any(counts.values()):
            AreYouSure(question, _("Yes"), lambda: self._submit_counts(counts)).open()
            return
        self._submit_counts(counts)

    def _submit_counts(self, counts: dict[str, int]) -> bool:
        # Cleared before, restored if refused: after a success the next prompt has already
        # put its own prefill (The Court, a tower count) into the entry.
        event, self.entry = self.prompt.on_counts(dict(counts)), {}
        if not self._submit(event):
            self.entry = counts
            self.show()
            return False
        return True

    def choose(self, choice) -> None:
        if choice.events:
            if not self.model.submit_many([dict(e) for e in choice.events]):
                self.show()
            return
        if choice.event is not None:
            event = dict(choice.event)
            prompt = self.prompt
            if choice.places_first and prompt.on_counts and any(self.entry.values()):
                # Caballeros tapped on the map are placed first, never dropped by this tap.
                entered, self.entry = dict(self.entry), {}
                if not self.model.submit_many([prompt.on_counts(entered), event]):
                    self.entry = entered
                    self.show()
                return
            self._submit(event)
            return
        if choice.places_first and self.prompt.on_counts and any(self.entry.values()):
            entered, self.entry = dict(self.entry), {}
            if not self._submit(self.prompt.on_counts(entered)):  # what was tapped, placed first
                self.entry = entered
                self.show()
                return
        action = choice.action or ""
        name, _sep, arg = action.partition(":")
        self.act(name, arg)

    def _submit(self, event: dict) -> bool:
        ok = self.model.submit(event)
        if not ok:
            self.show()
        return ok

    # ---- actions that open a step (table_actions.py) ---------------------------------------

    def act(self, name: str, arg: str = "") -> None:
        """What a choice's action opens (table_actions.ACTIONS); an unknown one does nothing."""
        action = ACTIONS.get(name)
        if action is not None:
            action(self, arg)

    def _warm_reveal_sheet(self, *_) -> None:
        """The action-cards sheet and its card buttons made before the first reveal, a few a
        frame (the classic game's cards; other cards are made when first offered)."""
        if self.reveal_sheet is None:
            self.reveal_sheet = RevealCards()
            return Clock.schedule_once(self._warm_reveal_sheet, 0)
        builder = (self.model.builder if self.model and self.model.builder else None) or PromptBuilder({})
        cards = [(cid, builder.card_label(cid)) for cid, card in builder.board.cards.items() if card.stack]
        left = self.reveal_sheet.unmade(cards)
        self.reveal_sheet.warm(left[:5])  # ~10 ms a frame
        if len(left) > 5:
            Clock.schedule_once(self._warm_reveal_sheet, 0)

    def end_board_edit(self) -> None:
        """Scoring only: the board saved or given up; the game as the table has it shown again."""
        self.board_edit = None
        self._game_shown = None
        self._public_changed()
        self.show()
