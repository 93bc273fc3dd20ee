"""The table: the map in the middle, the phase bar on top, the legal choices
on the right, undo and the tower at the bottom. Draws the model's prompt and
sends back the events it builds; the only state kept here is an entry in
progress (taps not yet confirmed)."""

from __future__ import annotations

from pathlib import Path

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.entry.board import BoardEntry
from companion.prompts.builder import PromptBuilder
from companion.safe_text import for_markup, for_terminal
from companion.ui.dialogs import common as dialogs
from companion.ui.dialogs import pick as pick_dialogs
from companion.ui.widgets.common import ChoiceButton, Pool, WrappedLabel, dress, hyphen_breaks
from companion.ui.widgets.map_view import PLAYER_RGB, MapView  # noqa: F401 (MapView is used in the .kv)
from companion.ui.widgets.phone_check import PhoneCheck
from engine.board.model import CASTILLO

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SIDE_TEXT = "14sp"  # the side panel's smallest words (court, Power card, notes): 21 px at 1920x1200
GRID_CELL = dp(56)  # the narrowest button of a grid of values (the Power cards)
STEP_COLUMNS = 2  # Modifier cards: two a row, so a card's name wraps onto two lines at most
TOWER_RGBA = {
    "connected": (0.55, 0.78, 0.50, 1),
    "resyncing": (0.95, 0.80, 0.40, 1),
    "connecting": (0.95, 0.80, 0.40, 1),
    "disconnected": (0.90, 0.50, 0.40, 1),
    "incompatible": (0.90, 0.40, 0.40, 1),
}


def _cell(text: str, width: float | None = None, **kwargs) -> Label:
    """A cell of the players' table: its words wrap at its width and the row grows to fit."""
    label = Label(
        text=text,
        size_hint=(1 if width is None else None, None),
        width=width or 100,
        height=dp(30),
        valign="middle",
        **kwargs,
    )
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(30), v[1] + dp(6))),
    )
    return label


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
    tower_text = StringProperty("Tower: -")
    tower_rgba = ListProperty([0.84, 0.77, 0.62, 1])
    drops_text = StringProperty("")
    club_text = StringProperty("")  # the club board link, "" without a club
    club_rgba = ListProperty([0.55, 0.78, 0.50, 1])
    entry_text = StringProperty("")
    can_undo = BooleanProperty(False)
    read_only = StringProperty("")  # a finished game opened again: why nothing can be entered
    landscape = BooleanProperty(True)  # the window's shape: the .kv arranges the map and panels by it
    _bound = False  # class level: `model` is set (and observed) during __init__
    _asked_for = None  # (title, actor, map mode) of the prompt the entry belongs to
    _rounds_shown = None  # (rounds, current round) the round track shows
    _game_shown = None
    _noted_table = None  # the table whose start notices were shown
    _outcome_dialog = None  # the last "Now move these Caballeros" dialog
    _private_dialog = None  # a private sheet opened in turn (opens_private)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._score_cells: dict = {}  # pid -> that player's row: name, score, court, Power card
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
        self._choice_grid = GridLayout(spacing=dp(6), size_hint_y=None)
        self._choice_grid.bind(minimum_height=self._choice_grid.setter("height"))
        self._step_grid = GridLayout(spacing=dp(6), size_hint_y=None)
        self._step_grid.bind(minimum_height=self._step_grid.setter("height"))
        self._grid_asked = (4, [])  # (columns the prompt asks, labels) of the grid of values shown
        self._sim_shown = None  # (players, simulated) the drop buttons were made for
        self._reveal_sheet = None
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
                club_status=self._club_changed,
                on_outcome=lambda _, words: self._outcome(words),
            )
            # The map draws the open game's board (the 2023 names, France and Portugal, the
            # Scoring tiles) and follows it when the table completes its card set or board.
            self.ids.map.board = self.model.board
            self.model.bind(board=self.ids.map.setter("board"))
            self.ids.actions.bind(width=lambda *_: setattr(self._choice_grid, "cols", self._columns()))
            PhoneCheck.watch(self.model)  # "Is this Ana's phone?" opens by itself when a phone joins

    def on_size(self, *args) -> None:
        self.landscape = self.width >= self.height

    def on_pre_enter(self, *args) -> None:
        self._game_shown = None
        self._game_opened()
        self._sim_buttons()
        self._public_changed()
        self._prompt_changed()
        self._tower_changed()
        self._club_changed()

    def _game_opened(self) -> None:
        """Once a game: its action cards' buttons made a few a frame (a 2023 set is not the one
        made at startup); at its start, the colours the tower does not know are said."""
        table = self.model.table
        if table is None or table is self._noted_table:
            return
        self._noted_table = table
        Clock.schedule_once(self._warm_reveal_sheet, 0)
        if not _played(table):
            self.notice = " ".join(table.setup.colour_notes())

    def _outcome(self, words) -> None:
        """What the table must do by hand in a dialog; what only happened (the dummy takes a
        card) in a notice, with no tap to close it."""
        if words.hands:
            dialog = self._outcome_dialog = dialogs.OutcomeShown(words)
            dialog.bind(on_dismiss=self._outcome_closed)
            dialog.open()
        else:
            self.notice = " ".join(words.lines)

    def open_history(self) -> None:
        dialogs.History(self.model.history(), self.model.reopen_scoring).open()

    def _public_changed(self, *args) -> None:
        public = self.model.public
        if not public:
            return
        game = public["game"]
        self.can_undo = bool(public.get("undo"))
        self.read_only = public.get("read_only") or ""
        self._tower_changed()  # the tower's count may now differ from the table's
        waiting = len(public.get("drops_waiting", []))
        self.drops_text = f"{waiting} drop{'s' if waiting > 1 else ''} to check" if waiting else ""
        if game != self._game_shown:  # a tower drop changes none of this: keep it cheap
            self._game_shown = game
            if self.board_edit is None:
                self.ids.map.public = game
            self._scores(game)
            self._rounds(game)

    def _scores(self, game: dict) -> None:
        """A row per player: colour, name (wrapped, with VETO when they hold one), score, court,
        Power card and place in the turn order. The rows are built once per set of players;
        an input only changes their texts (rebuilding them cost ~70 ms an input)."""
        rows = {
            p["id"]: (
                (p["name"], "  [b][color=8a1c0c]VETO[/color][/b]" if p.get("vetoes_held") else ""),
                str(p["score"]),
                f"court {p.get('court', 0)}",
                self._power_words(game, p),
            )
            for p in game["players"]
        }
        if list(rows) != list(self._score_cells):
            self._score_rows(list(rows))
        for pid, (name, *texts) in rows.items():
            name_cell, *cells = self._score_cells[pid]
            name_cell.words = name
            self._fit_name(name_cell)
            for cell, text in zip(cells, texts):
                if cell.text != text:
                    cell.text = text

    @staticmethod
    def _fit_name(cell, *_) -> None:
        """A name cell's words at its width: a long name broken after a hyphen, never mid-word."""
        name, suffix = getattr(cell, "words", ("", ""))
        broken = hyphen_breaks(for_terminal(name), cell)  # measured as drawn: control characters as escapes
        text = "\n".join(map(for_markup, broken.split("\n"))) + suffix  # the breaks kept; a name is never a tag
        if cell.text != text:
            cell.text = text

    def _score_rows(self, players: list[str]) -> None:
        grid = self.ids.scores
        grid.clear_widgets()
        self._score_cells = {}
        for pid in players:
            chip = Widget(size_hint=(None, None), size=(dp(22), dp(30)))
            with chip.canvas.before:
                Color(*PLAYER_RGB[pid])
                rect = Rectangle(pos=chip.pos, size=chip.size)
            chip.bind(
                pos=lambda w, v, r=rect: setattr(r, "pos", (v[0], v[1] + dp(4))),
                size=lambda w, v, r=rect: setattr(r, "size", (v[0], v[1] - dp(8))),
            )
            grid.add_widget(chip)
            name = _cell("", markup=True, halign="left")
            name.bind(text_size=self._fit_name)
            cells = (
                name,
                _cell("", bold=True, width=dp(40)),
                _cell("", font_size=SIDE_TEXT, width=dp(62)),
                _cell("", font_size=SIDE_TEXT, width=dp(96)),
            )
            for cell in cells:
                grid.add_widget(cell)
            self._score_cells[pid] = cells

    @staticmethod
    def _power_words(game: dict, player: dict) -> str:
        """The Power card laid down this round and, once all are down, the place in the turn order."""
        card = player.get("power_card_played")
        if card is None:
            return ""
        # Power Shift: the total with the Modifier card decides the order, and is shown
        total = player.get("power_total")
        words = f"card {card}" if total in (None, card) else f"{card}{total - card:+d}={total}"  # fits the cell
        played = [
            q.get("power_total") if q.get("power_total") is not None else q.get("power_card_played")
            for q in game["players"]
        ]
        if None in played:
            return words
        mine = total if total is not None else card
        place = sorted(played, reverse=True).index(mine) + 1
        return f"{words} · {place}{'st' if place == 1 else 'nd' if place == 2 else 'rd' if place == 3 else 'th'}"

    def _rounds(self, game: dict) -> None:
        """The round track: its labels made once a game, restyled when the round changes."""
        shown = (tuple(game["rounds"]), game["round"])
        if shown == self._rounds_shown:  # it changes once a round
            return
        if self._rounds_shown is None or self._rounds_shown[0] != shown[0]:
            self._round_labels = self._round_track(game["rounds"])
        self._rounds_shown = shown
        for r, (label, highlight) in self._round_labels.items():
            current = r == game["round"]
            label.bold, label.font_size = current, "17sp" if current else "14sp"
            label.color = (1, 0.96, 0.86, 1) if current else (0.35, 0.28, 0.2, 1)
            highlight.a = 1 if current else 0

    def _round_track(self, rounds) -> dict:
        box = self.ids.rounds
        box.clear_widgets()
        scoring_rounds = {3, 6, 9}
        labels = {}
        for r in rounds:
            label = Label(text=f"{r}*" if r in scoring_rounds else str(r))
            with label.canvas.before:
                highlight = Color(0.62, 0.20, 0.12, 0)  # shown behind the current round
                rr = RoundedRectangle(pos=label.pos, size=label.size, radius=[dp(6)])
            label.bind(pos=lambda w, v, r=rr: setattr(r, "pos", v), size=lambda w, v, r=rr: setattr(r, "size", v))
            box.add_widget(label)
            labels[r] = (label, highlight)
        return labels

    def _club_changed(self, *args) -> None:
        from companion.club.publisher import club_bar

        self.club_text, up = club_bar(self.model.club_status)
        self.club_rgba = list(TOWER_RGBA["connected" if up else "disconnected"])

    def show_club_status(self) -> None:
        """The club link's whole status line (why it is offline, and that the game goes on)."""
        self.model.message = self.model.club_status

    def _tower_changed(self, *args) -> None:
        self._sim_buttons()
        self._offer_teaching()
        status = self.model.tower or {}
        state = status.get("state", "none")
        if self.model.table and self.model.table.setup.tower.kind == "none":
            self.tower_text, self.tower_rgba = "No tower: Castillo by hand", [0.84, 0.77, 0.62, 1]
            return
        if self.model.table and self.model.table.read_only:
            self.tower_text, self.tower_rgba = "Tower: off (game over)", [0.84, 0.77, 0.62, 1]
            return
        notes = [
            note
            for flag, note in (
                ((status.get("security") or {}).get("warning"), "not secure"),
                (self.model.public.get("totals_mismatch"), "counts differ"),
            )
            if flag
        ]
        self.tower_text = f"Tower: {state}" + (f" ({', '.join(notes)})" if notes else "")
        self.tower_rgba = list(TOWER_RGBA.get(state, (0.84, 0.77, 0.62, 1)))
        if self.model.public.get("totals_mismatch") and state == "connected":
            self.tower_rgba = list(TOWER_RGBA["resyncing"])  # worth a look at the next Castillo opening

    def _offer_teaching(self) -> None:
        """At the start only (later, from the tower panel): never in the way of a game under way."""
        link, table = self.model.tower_link, self.model.table
        self.teach_offer = bool(link and table and not _played(table) and link.teaching.offered())

    def teach_the_tower(self) -> None:
        from companion.ui.widgets.teach_panel import TeachPanel

        panel = TeachPanel(model=self.model)
        panel.open()
        panel.start()

    def _sim_buttons(self) -> None:
        link = self.model.tower_link
        table = self.model.table
        # Made once a game and again when a calibration changes the colours the tower names.
        shown = (
            tuple(table.players) if table else (),
            bool(link and link.sim),
            tuple(table.setup.by_hand()) if table else (),
        )
        if shown == self._sim_shown:
            return
        self._sim_shown = shown
        if table and self.notice.startswith("The tower does not know"):  # said at the start: now told anew
            self.notice = " ".join(table.setup.colour_notes())
        box = self.ids.sim_drops
        box.clear_widgets()
        if not (link and link.sim):
            return
        box.add_widget(Label(text="Drop:", size_hint_x=None, width=dp(44), font_size="14sp"))
        by_hand = self.model.table.setup.by_hand()  # colours the tower cannot report
        for pid in [p for p in self.model.table.players if p not in by_hand]:
            b = Button(
                text="", size_hint_x=None, width=dp(48), background_normal="", background_color=(*PLAYER_RGB[pid], 1)
            )
            b.bind(on_release=lambda _, c=pid: self.model.simulate_drop(c))
            b.sim_colour = pid
            box.add_widget(b)
        unsure = Button(
            text="?",
            size_hint_x=None,
            width=dp(48),
            background_normal="",
            background_color=(0.7, 0.7, 0.7, 1),
            bold=True,
        )
        unsure.bind(on_release=lambda _: self.model.simulate_drop("uncertain"))
        unsure.sim_colour = "uncertain"
        box.add_widget(unsure)

    # ---- the prompt -----------------------------------------------------------------------

    def _prompt_changed(self, *args) -> None:
        prompt = self.model.prompt
        same_question = prompt is not None and self._asked_for == (prompt.title, prompt.actor, prompt.map_mode)
        if same_question and prompt.map_mode == "count" and self.sub_prompt is None:
            # Only the tower's count changed (a cube thrown while someone taps the regions):
            # keep the taps, take the Castillo's share from the tower.
            self.entry = {a: c for a, c in self.entry.items() if a != CASTILLO}
            self.entry.update({a: c for a, c in prompt.prefill.items() if a == CASTILLO})
            self._show()
            return
        self._asked_for = (prompt.title, prompt.actor, prompt.map_mode) if prompt else None
        self.entry, self.move_source, self.move_owner, self.sub_prompt = {}, "", "", None
        if self.model.table is not None and _played(self.model.table):
            self.notice = ""  # said for one step (the start's notes stay until the first input)
            self.teach_offer = False
        self.message = self.model.message  # a hint of this screen's own belongs to the step it was made at
        self._show()
        self._to_top()  # a new question's choices from their top
        if prompt is not None and any(c.action == "reveal_cards" for c in prompt.choices):
            # The one thing to do now: it opens without a tap, after this frame (the table's
            # frame and the sheet's each stay well inside a loop iteration).
            Clock.schedule_once(self._open_reveal_sheet, 0)
        if prompt is None or not prompt.opens_private:
            self._not_now = set()
        else:
            Clock.schedule_once(self._open_private_in_turn, 0)

    def _to_top(self, *_) -> None:
        """The side panel's list at its top, still: a tap that changes the list's length is read
        by the scroll view as a fling, and the new question's list glided down after it."""
        scroll = self.ids.actions_scroll
        if scroll.effect_y is not None:
            scroll.effect_y.velocity = scroll.effect_y.overscroll = 0
        scroll.scroll_y = 1
        if _ == ():
            Clock.schedule_once(self._to_top, 0)  # and once the new choices are laid out

    def _open_reveal_sheet(self, *_) -> None:
        if self._outcome_dialog is not None:
            return  # what the table must move first (the dummy's Region cards): the sheet once it is closed
        prompt = self.prompt
        if (
            prompt is not None
            and any(c.action == "reveal_cards" for c in prompt.choices)
            and self.manager
            and self.manager.current == self.name
        ):
            self._action_reveal_cards("")

    def _outcome_closed(self, dialog) -> None:
        if dialog is self._outcome_dialog:
            self._outcome_dialog = None
        Clock.schedule_once(self._open_reveal_sheet, 0)  # returns None: a truthy answer would keep it open
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
            or self._private_dialog is not None
            or not self.manager
            or self.manager.current != self.name
        ):
            return
        phones = self.model.phone_seats or {}
        for choice in prompt.choices:
            kind, _, pid = (choice.action or "").partition(":")
            if kind == "private" and pid not in self._not_now and not (phones.get(pid) or {}).get("joined"):
                self._action_private(pid)
                return

    def _private_closed(self, dialog) -> None:
        if dialog is not self._private_dialog:
            return
        self._private_dialog = None
        ask = self.model.ask()
        if ask is not None and dialog.pick.player in ask.players:
            self._not_now.add(dialog.pick.player)  # closed unanswered: not opened again by itself
        Clock.schedule_once(self._open_private_in_turn, 0)

    @property
    def prompt(self):
        return self.sub_prompt or self.model.prompt

    def _show(self) -> None:
        if self.board_edit is not None:
            return self._show_board_edit()
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

    def _clear_actions(self):
        """The side panel emptied; its widgets go back to their pools."""
        box = self.ids.actions
        box.clear_widgets()
        self._choice_grid.clear_widgets()
        self._step_grid.clear_widgets()
        self._choice_buttons.release()
        self._note_labels.release()
        return box

    def _choice(
        self, text: str, on_release, style: str = "normal", height: float = dp(48), disabled: bool = False, why_not=None
    ) -> ChoiceButton:
        return dress(self._choice_buttons.take(), text, on_release, style, height, disabled, why_not)

    def _offer(self, choice, height: float = dp(48)) -> ChoiceButton:
        """A prompt's choice as a button; greyed out, a tap on it says why (the prompt's words)."""
        return self._choice(
            choice.label,
            lambda: self.choose(choice),
            choice.style,
            height=height,
            disabled=not choice.enabled,
            why_not=lambda: self._say_why_not(choice),
        )

    def _say_why_not(self, choice) -> None:
        self.message = choice.why_not or f"{choice.label}: not possible at this step"

    def _note(self, text: str, bold: bool = False, least: float = 0, **look) -> WrappedLabel:
        label = self._note_labels.take()
        label.text, label.bold, label.least = text, bold, least
        label.font_size = look.get("font_size", SIDE_TEXT)
        label.color = look.get("color", (0.30, 0.22, 0.12, 1))
        return label

    def _actions(self, prompt) -> None:
        box = self._clear_actions()
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
                box.add_widget(self._choice(choice.label, lambda c=choice: self.choose(c), choice.style))
            self._grid_asked = (prompt.columns, [c.label for c in values])
            self._grid(self._choice_grid, self._columns(), values, box)
            for choice in back:
                box.add_widget(self._choice(choice.label, lambda c=choice: self.choose(c), choice.style))
            if steps:
                box.add_widget(self._note("Played with a Modifier card? Tap it first:", bold=True, least=dp(28)))
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
        self.entry_text = f"Entered {total} of up to {prompt.limit}"
        for key, (label, low, high) in prompt.steppers.items():
            value = self.entry.get(key, 0)
            box.add_widget(self._choice(f"{label}: {value}   (+1)", lambda k=key, h=high: self._step(k, +1, h)))
            box.add_widget(self._choice(f"{label}: -1", lambda k=key: self._step(k, -1, 0), "quiet", height=dp(36)))
        if self.entry:
            box.add_widget(self._choice("Clear", self._clear_entry, "quiet", height=dp(40)))
            box.add_widget(self._choice("Take one back", self._take_back_last, "quiet", height=dp(40)))
        box.add_widget(self._choice("Confirm", self._confirm_counts, "primary"))

    def _owner_controls(self, prompt, box) -> None:
        owners = prompt.sources.get(self.move_source, {})
        source = self.model.area_name(self.move_source)
        box.add_widget(
            self._note(f"From {source}: whose Caballero?", least=dp(30), font_size="15sp", color=(0.23, 0.16, 0.08, 1))
        )
        for owner, n in owners.items():
            style = "primary" if owner == self.move_owner else "normal"
            box.add_widget(
                self._choice(
                    f"{self.model.name(owner)} ({n} movable)", lambda o=owner: self._pick_owner(o), style, height=dp(40)
                )
            )
        box.add_widget(self._choice("Cancel this move", self._cancel_move, "quiet", height=dp(40)))

    # ---- taps -------------------------------------------------------------------------------

    def map_tapped(self, area: str) -> None:
        if self.board_edit is not None:
            self.board_edit.tap(area)
            return self._show_board_edit()
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
                self.message = (
                    f"{self.model.area_name(area)} is entered already (at most {prompt.per_area} "
                    "each here): tap another, or take one back"
                )
                return
            self.entry[area] = self.entry.get(area, 0) + 1
            self._last_tapped = area
            if prompt.auto_confirm and sum(self.entry.values()) >= prompt.limit:
                # The dummy's Region cards, Militia, a turn's last placement: no Confirm, and said
                entered = dict(self.entry)
                if self._submit_counts(entered):
                    self.model.message = self.model.builder.entered_words(prompt, entered)
                return
            self._show()
        elif prompt.map_mode == "move":
            if not self.move_source:
                self.move_source = area
                owners = prompt.sources.get(area, {})
                self.move_owner = next(iter(owners)) if len(owners) == 1 else ""
                self._show()
            elif not self.move_owner:
                self.message = "First choose whose Caballero moves"
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
        self._show()

    def _step(self, key: str, delta: int, bound: int) -> None:
        value = self.entry.get(key, 0) + delta
        if (delta > 0 and value > bound) or value < 0:
            label = self.prompt.steppers[key][0]
            self.message = f"{label}: {bound} at most here" if delta > 0 else f"{label}: none entered to take back"
            return
        self.entry[key] = value
        self._show()

    def _clear_entry(self) -> None:
        self.entry = {}
        self._show()

    def _take_back_last(self) -> None:
        area = getattr(self, "_last_tapped", None)
        if area and self.entry.get(area):
            self.entry[area] -= 1
        else:
            for a in reversed(list(self.entry)):
                if self.entry[a]:
                    self.entry[a] -= 1
                    break
        self._show()

    def _confirm_counts(self) -> None:
        counts = {a: c for a, c in self.entry.items()}
        question = self.prompt.confirm_empty
        if question and not any(counts.values()):
            pick_dialogs.Ask(question, "Yes", lambda: self._submit_counts(counts)).open()
            return
        self._submit_counts(counts)

    def _submit_counts(self, counts: dict[str, int]) -> bool:
        # Cleared before, restored if refused: after a success the next prompt has already
        # put its own prefill (The Court, a tower count) into the entry.
        event, self.entry = self.prompt.on_counts(dict(counts)), {}
        if not self._submit(event):
            self.entry = counts
            self._show()
            return False
        return True

    def choose(self, choice) -> None:
        if choice.events:
            if not self.model.submit_many([dict(e) for e in choice.events]):
                self._show()
            return
        if choice.event is not None:
            event = dict(choice.event)
            prompt = self.prompt
            if choice.places_first and prompt.on_counts and any(self.entry.values()):
                # Caballeros tapped on the map are placed first, never dropped by this tap.
                entered, self.entry = dict(self.entry), {}
                if not self.model.submit_many([prompt.on_counts(entered), event]):
                    self.entry = entered
                    self._show()
                return
            self._submit(event)
            return
        if choice.places_first and self.prompt.on_counts and any(self.entry.values()):
            entered, self.entry = dict(self.entry), {}
            if not self._submit(self.prompt.on_counts(entered)):  # what was tapped, placed first
                self.entry = entered
                self._show()
                return
        action = choice.action or ""
        name, _, arg = action.partition(":")
        handler = getattr(self, f"_action_{name}", None)
        if handler:
            handler(arg)

    def _submit(self, event: dict) -> bool:
        ok = self.model.submit(event)
        if not ok:
            self._show()
        return ok

    # ---- actions that open a step -----------------------------------------------------------

    def _action_reveal_cards(self, _arg) -> None:
        sheet = self._reveal_sheet
        if sheet is not None and sheet.parent is not None:
            return  # already open (the prompt and the screen's entry both ask for it)
        if sheet is None:  # one sheet for the app's life, its card buttons kept (see RevealCards)
            sheet = self._reveal_sheet = pick_dialogs.RevealCards()
        ask = self.model.ask()
        if ask.kind != "reveal_action_cards":
            return  # entered meanwhile (a phone, another input before this frame): nothing to turn up
        sheet.on_add = lambda: self._action_add_card("")
        sheet.offer(self.model, self.model.builder.reveal_choices(ask)).open()

    def _warm_reveal_sheet(self, *_) -> None:
        """The action-cards sheet and its card buttons made before the first reveal, a few a
        frame (the classic game's cards; other cards are made when first offered)."""
        if self._reveal_sheet is None:
            self._reveal_sheet = pick_dialogs.RevealCards()
            return Clock.schedule_once(self._warm_reveal_sheet, 0)
        builder = (self.model.builder if self.model and self.model.builder else None) or PromptBuilder({})
        cards = [(cid, builder.card_label(cid)) for cid, card in builder.board.cards.items() if card.stack]
        left = self._reveal_sheet.unmade(cards)
        self._reveal_sheet.warm(left[:5])  # ~10 ms a frame
        if len(left) > 5:
            Clock.schedule_once(self._warm_reveal_sheet, 0)

    def _action_secret(self, pid: str) -> None:
        ask = self.model.ask()
        builder = self.model.builder
        pick_dialogs.SecretPick(
            self.model,
            pid,
            builder.secret_purpose(ask),
            builder.secret_options(ask, pid),
            lambda region: {"type": "secret_disc_set", "player": pid, "region": region},
        ).open()

    def _action_replenish_custom(self, _arg) -> None:
        self.sub_prompt = self.model.builder.replenish_custom(self.model.ask())
        self.entry = dict(self.sub_prompt.prefill)
        self._show()

    def _action_powerback(self, pid: str) -> None:
        ask = self.model.ask()
        choices = [(str(c.event["card"]), str(c.event["card"])) for c in self.model.builder.power_back_choices(ask)]
        dialogs.PrivatePick(
            self.model, pid, choices, lambda card: {"type": "power_card_taken_back", "player": pid, "card": int(card)}
        ).open()

    def _action_sub(self, key: str) -> None:
        """A step within the prompt (a Modifier card played with the Power card, who goes with
        the King); "sub:" goes back to the prompt itself."""
        self.sub_prompt = self.model.builder.sub_prompt(self.model.ask(), key) if key else None
        self.entry, self.move_source, self.move_owner = {}, "", ""
        self.message = ""  # a line of the step left behind ("That is all: ...") goes with it
        self._show()
        self._to_top()  # a Modifier card tapped low in the list: its totals are at the top

    def _action_private(self, pid: str) -> None:
        """One player's secret choice on the tablet (Modifier cards dealt or passed, a card taken
        back): only they look; nothing of it stays on screen."""
        from companion.input_errors import InputError

        try:
            pick = self.model.table.private_question(pid)
        except InputError as exc:
            self.message = str(exc)
            return
        if pick is None:
            self.message = f"Nothing is asked of {self.model.name(pid)} in private now"
            return
        dialog = dialogs.PrivateQuestion(self.model, pick)
        if self.prompt is not None and self.prompt.opens_private:
            self._private_dialog = dialog
            dialog.bind(on_dismiss=self._private_closed)
        dialog.open()

    def _action_private_note(self, pid: str) -> None:
        """Why the table refused a player's card, for their eyes only (a card not in a secret
        hand): the public line says no more than that it was refused."""
        table = self.model.table
        words = table.private_notes.get(pid) if table is not None else None
        if not words:
            self.message = f"Nothing was refused of {self.model.name(pid)} at this step"
            return
        dialogs.PrivateNote(self.model, pid, words).open()

    def _action_board_facts(self, _arg) -> None:
        """A board fact nobody published, needed now: entered from the table's board, right here."""
        from companion.entry.facts import FactsEntry

        entry = FactsEntry.for_table(self.model.table)
        if entry is None:
            self.message = "Nothing is missing from your board for this step"
            return
        self._facts_dialog = pick_dialogs.BoardFacts(self.model, entry, on_done=self.model._refresh)
        self._facts_dialog.open()

    def _action_card_facts(self, cid: str) -> None:
        """A card played whose numbers nobody entered: read off the card, and the turn goes on."""
        if cid not in self.model.board.cards:
            self.message = "That card is not in the card set"
            return
        pick_dialogs.CardFacts(self.model, cid, on_done=self.model._refresh).open()

    def _action_add_card(self, _arg) -> None:
        """A card the set does not list: added from the box, then the cards are turned up (the
        reveal's prompt reads the same, so the sheet is opened again here)."""
        pick_dialogs.AddCard(self.model, on_added=lambda: Clock.schedule_once(self._open_reveal_sheet, 0)).open()

    def _action_mobile(self, sid: str) -> None:
        self.sub_prompt = self.model.builder.mobile_prompt(self.model.ask(), sid)
        self._show()

    def _action_count_castillo(self, _arg) -> None:
        """The Castillo scoring card: lifted and counted like at a general scoring, then scored."""
        self.sub_prompt = self.model.builder.count_castillo_prompt(self.model.ask())
        self._show()

    def _action_open_castillo(self, _arg) -> None:
        self.manager.get_screen("scoring").open_castillo()
        self.manager.current = "scoring"

    def _action_special_scoring(self, _arg) -> None:
        choices = self.model.builder.special_scoring_choices(self.model.ask())
        dialogs.ChoiceList(self.model, "Which special scoring?", choices).open()

    def _action_standings(self, _arg) -> None:
        self.manager.current = "end"

    def _action_enter_board(self, _arg) -> None:
        # The game's board: 2023 names, the King by the Castillo or in France/Portugal, Scoring tiles
        self.board_edit = BoardEntry(self.model.public["game"], dict(self.model.table.names), self.model.board)
        self._show_board_edit()

    # ---- scoring only: entering the board ----------------------------------------------------

    def _show_board_edit(self) -> None:
        edit = self.board_edit
        self.prompt_title = "Enter the board as it lies"
        self.prompt_hint = edit.hint()
        self.actor_rgb = list(PLAYER_RGB.get(edit.colour, (0.5, 0.45, 0.4)))
        m = self.ids.map
        m.public = {**edit.preview(), "mobile_scoreboards": dict(edit.mobile)}  # a tile placed shows at once
        m.pending = {}
        m.tappable = edit.tappable()
        m.selected = ""
        self.message = edit.message
        box = self._clear_actions()
        self.entry_text = f"Tool: {edit.tool_words()}"
        adds = [
            self._choice(
                f"{self.model.name(pid)}: add",
                lambda p=pid: self._tool("add", p),
                "primary" if edit.tool == "add" and edit.colour == pid else "normal",
                height=dp(40),
            )
            for pid in edit.players
        ]  # the 2-player dummy's Caballeros are on the board too
        tools = [
            self._choice(
                words,
                lambda t=tool: self._tool(t, edit.colour),
                "primary" if edit.tool == tool else "quiet",
                height=dp(40),
            )
            for tool, words in edit.tool_buttons()
        ]
        tools += [
            self._choice(words, lambda k=key: self._board_choice(k), "primary" if on else "quiet")
            for key, words, on in edit.ki_choices()
        ]  # King and Intrigue: a scoreboard's side, ...
        save = self._choice("Save the board", self._save_board, "primary")
        cancel = self._choice("Cancel", self._cancel_board, "quiet", height=dp(40))
        if edit.king_intrigue:  # its many markers: two to a row, Save first (the rest may scroll)
            self._choice_grid.cols = 2
            for button in (save, cancel, *adds, *tools):
                self._choice_grid.add_widget(button)
            box.add_widget(self._choice_grid)
            return
        for button in (*adds, *tools, save, cancel):
            box.add_widget(button)

    def _board_choice(self, key: str) -> None:
        self.board_edit.choose(key)
        self._show_board_edit()

    def _tool(self, tool: str, colour: str) -> None:
        self.board_edit.tool, self.board_edit.colour = tool, colour
        self._show_board_edit()

    def _save_board(self) -> None:
        if self.model.submit(self.board_edit.event()):
            self.board_edit = None
            self._game_shown = None
            self._public_changed()
            self._show()
        else:
            self._show_board_edit()

    def _cancel_board(self) -> None:
        self.board_edit = None
        self._game_shown = None
        self._public_changed()
        self._show()

    # ---- bottom bar -----------------------------------------------------------------------------

    def say_read_only(self) -> None:
        self.model.message = self.read_only

    def undo(self) -> None:
        question = self.model.undo()
        if question:
            dialogs.Confirm(question, lambda: self.model.undo(confirm=True)).open()

    def open_phones_panel(self) -> None:
        from companion.ui.widgets.phones_panel import PhonesPanel

        PhonesPanel(model=self.model).open()

    def open_tower_panel(self) -> None:
        from companion.ui.widgets.tower_panel import TowerPanel

        TowerPanel(model=self.model).open()
