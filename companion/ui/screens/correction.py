"""The position as it lies on the table, for tracking mode: where tracking starts
in a game already under way ("Start from the board in front of you" on the new
game screen), or a correction of the board mid-game ("Correct the board" on the
table). One screen for both: the map to tap Caballeros on and off, and pages for
the courts and scores, the Castillo, and (at a start) the round, the Power cards
and the Vetoes.

A thin view of companion.entry.position.PositionEntry, which refuses what no table
could hold; Confirm sends ONE table_corrected event and the engine checks it
whole. A correction first says what changes, for everyone to see.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from companion.entry.position import NotAllowed, PositionEntry
from companion.ui.widgets.common import hyphen_breaks
from companion.ui.widgets.map_view import PLAYER_RGB, MapView  # noqa: F401 (MapView is used in the .kv)
from engine.board.model import CASTILLO
from engine.correction import CORRECTABLE_STAGES

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

INK = (0.23, 0.16, 0.08, 1)
PAPER = (0.97, 0.94, 0.86, 1)
STYLES = {
    "primary": ((0.62, 0.20, 0.12, 1), (1, 0.97, 0.9, 1)),
    "normal": ((0.84, 0.77, 0.62, 1), INK),
    "quiet": ((0.90, 0.86, 0.78, 1), (0.35, 0.28, 0.2, 1)),
    "on": ((0.35, 0.22, 0.12, 1), (1, 0.96, 0.86, 1)),
}
TAP = dp(52)  # every touch target here is at least 48 dp
SECTIONS = (("board", "Board"), ("court", "Courts, scores"), ("castillo", "Castillo"), ("start", "Round, cards"))


def _btn(text: str, on_release: Callable[[], None], style: str = "normal", key: str = "", **kwargs) -> Button:
    """`key` names what the button does ("power:red:13"): the tests find it by that."""
    background, colour = STYLES[style]
    kwargs.setdefault("size_hint_y", None)
    kwargs.setdefault("height", TAP)
    b = Button(
        text=text,
        background_normal="",
        background_color=background,
        color=colour,
        bold=style in ("primary", "on"),
        halign="center",
        valign="middle",
        **kwargs,
    )
    b.bind(size=lambda inst, size: setattr(inst, "text_size", (size[0] - dp(8), None)))
    if kwargs["height"] == TAP:  # words on more lines (a long name): the button grows, never cuts them
        b.bind(texture_size=lambda inst, ts: setattr(inst, "height", max(TAP, ts[1] + dp(12))))
    b.bind(on_release=lambda *_: on_release())
    b.key = key
    return b


def _player_btn(pid: str, text: str, on_release, chosen: bool, **kwargs) -> Button:
    """A player's colour: full and bold when chosen, pale with dark words when not."""
    b = _btn(text, on_release, **kwargs)
    b.background_color = (*PLAYER_RGB.get(pid, (0.5, 0.5, 0.5)), 1 if chosen else 0.45)
    b.color = INK if pid == "yellow" or not chosen else (1, 1, 1, 1)
    b.bold = chosen
    b.bind(text_size=lambda inst, v, words=text: setattr(inst, "text", hyphen_breaks(words, inst)))  # a long name
    return b


def _name_chip(pid: str, text: str, **kwargs) -> Label:
    """A player's name on their colour: not a button, nothing happens on a tap."""
    label = Label(
        text=text, color=INK if pid == "yellow" else (1, 1, 1, 1), bold=True, halign="center", valign="middle", **kwargs
    )
    from kivy.graphics import Color, Rectangle

    with label.canvas.before:
        Color(*PLAYER_RGB.get(pid, (0.5, 0.5, 0.5)))
        rect = Rectangle()
    label.bind(pos=lambda w, v: setattr(rect, "pos", v), size=lambda w, v: setattr(rect, "size", v))
    label.bind(size=lambda w, v: setattr(w, "text_size", (v[0] - dp(6), None)))
    return label


def _text(text: str, **kwargs) -> Label:
    """A label that wraps at its width and grows to fit (never cut mid-word)."""
    kwargs.setdefault("color", INK)
    label = Label(text=text, size_hint_y=None, halign="left", valign="middle", **kwargs)
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(28), v[1] + dp(6))),
    )
    return label


def _grid(cols: int, **kwargs) -> GridLayout:
    grid = GridLayout(cols=cols, spacing=dp(6), size_hint_y=None, **kwargs)
    grid.bind(minimum_height=grid.setter("height"))
    return grid


class PositionScreen(Screen):
    model = ObjectProperty(None)
    title = StringProperty("")
    hint = StringProperty("")
    message = StringProperty("")
    confirm_text = StringProperty("Confirm")
    cancel_text = StringProperty("Cancel")
    starting = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.entry: PositionEntry | None = None
        self.section = "board"

    # ---- opening --------------------------------------------------------------------

    def start_tracking(self) -> None:
        """Right after a new tracking game is made: enter the board in front of the table."""
        self._open(starting=True)

    def correct_board(self) -> None:
        """From the table: the board as it lies now, to correct (or, before anything was
        entered, to say where tracking starts)."""
        table = self.model.table
        if table is None or table.state is None:
            self.model.message = "Correcting the board is for full tracking; in scoring only, use Enter the board"
            return
        state = table.state
        if state.stage not in CORRECTABLE_STAGES or state.special is not None:
            self.model.message = (
                "The board can be corrected between steps: finish the special action or the scoring under way first"
            )
            return
        self._open(starting=state.event_count == 0)

    def _open(self, starting: bool) -> None:
        model = self.model
        self.entry = PositionEntry(
            model.public["game"],
            dict(model.table.names),
            model.board,
            starting=starting,
            tower_count=self._tower_count(),
        )
        self._opened_as = self.entry.event()  # Cancel asks first once anything was entered
        self.starting = starting
        self.section = "board"
        self.message = ""
        if starting:
            self.title = "Start from the board in front of you"
            self.confirm_text, self.cancel_text = "Start from this board", "Start from round 1 instead"
        else:
            self.title = "Correct the board: enter it as it really lies"
            self.confirm_text, self.cancel_text = "Confirm the correction", "Cancel"
        self.ids.map.board = model.board  # the game's board: its names, France and Portugal, its tiles
        self.manager.current = self.name
        self._show()
        self.ids.scroll.scroll_y = 1

    def _tower_count(self) -> dict[str, int]:
        """What the tower counted in the Castillo: the table's hidden tallies. Never shown."""
        return self.model.table.hidden_tallies()

    # ---- drawing ----------------------------------------------------------------------

    def _show(self) -> None:
        entry = self.entry
        if entry is None:
            return
        self.hint = self._hint()
        m = self.ids.map
        m.public = entry.preview()
        # The King may also stand by the Castillo or in France/Portugal (2023)
        m.tappable = entry.king_places() if entry.tool == "king" else list(self.model.board.region_ids) + [CASTILLO]
        m.selected = ""
        self._section_buttons()
        box = self.ids.controls
        box.clear_widgets()
        pages = {
            "board": self._page_board,
            "court": self._page_court,
            "castillo": self._page_castillo,
            "start": self._page_start,
        }
        pages[self.section](box)

    def _hint(self) -> str:
        entry = self.entry
        if self.section == "board":
            return entry.hint()
        if self.section == "start":
            return (
                f"The table at the start of round {entry.round}, before its action cards are turned up. "
                "Tap a Power card each player has laid down in an earlier round."
            )
        if self.section == "castillo":
            return "The Castillo: from the tower's count, or lifted and counted by the table."
        return "Each player's court and score. Tap a score to type it."

    def _section_buttons(self) -> None:
        bar = self.ids.sections
        bar.clear_widgets()
        for key, words in SECTIONS:
            if key == "start" and not self.entry.starting:
                continue
            bar.add_widget(
                _btn(
                    words,
                    lambda k=key: self.show_section(k),
                    "on" if key == self.section else "quiet",
                    key=f"section:{key}",
                )
            )

    def show_section(self, key: str) -> None:
        self.section = key
        self.message = ""
        self._show()
        self.ids.scroll.scroll_y = 1  # a page starts at its top

    def _page_board(self, box) -> None:
        entry = self.entry
        box.add_widget(_text("Whose Caballeros (or Grande)?", bold=True))
        players = _grid(3)
        for pid in entry.players:
            players.add_widget(
                _player_btn(
                    pid,
                    f"> {self.model.name(pid)} <" if entry.colour == pid else self.model.name(pid),
                    lambda p=pid: self._colour(p),
                    entry.colour == pid,
                    key=f"colour:{pid}",
                )
            )
        box.add_widget(players)
        box.add_widget(_text("Then, on the map:", bold=True))
        tools = _grid(2)
        named = dict(entry.pieces())  # the mobile scoreboards (classic) or the Scoring tiles (2023)
        pieces = [(f"mobile:{sid}", f"Place {words}") for sid, words in named.items()]
        for tool, words in (
            ("add", "Add a Caballero"),
            ("remove", "Take one off"),
            ("king", "Move the King"),
            ("grande", "Move the Grande"),
            *pieces,
        ):
            tools.add_widget(
                _btn(words, lambda t=tool: self._tool(t), "on" if entry.tool == tool else "normal", key=f"tool:{tool}")
            )
        for sid, where in entry.mobile.items():
            if where is not None:
                tools.add_widget(
                    _btn(
                        f"Take {named.get(sid, sid)} off the board",
                        lambda s=sid: self._off_board(s),
                        "quiet",
                        key=f"off:{sid}",
                    )
                )
        box.add_widget(tools)
        lying = [
            f"{named.get(sid, sid)} on {entry.area(where)}" for sid, where in entry.mobile.items() if where is not None
        ]
        heading = "Scoring tiles" if entry.edition_2023 else "Mobile scoreboards"
        box.add_widget(_text(f"{heading}: " + ("; ".join(lying) if lying else "none on the board"), font_size="15sp"))

    def _page_court(self, box) -> None:
        entry = self.entry
        for pid in entry.players:
            row = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(6))
            row.add_widget(_name_chip(pid, self.model.name(pid)))
            row.add_widget(
                _btn("-", lambda p=pid: self._court(p, -1), key=f"court:{pid}:-1", size_hint_x=None, width=TAP)
            )
            row.add_widget(Label(text=f"court {entry.court[pid]}", color=INK, size_hint_x=None, width=dp(84)))
            row.add_widget(
                _btn("+", lambda p=pid: self._court(p, +1), key=f"court:{pid}:+1", size_hint_x=None, width=TAP)
            )
            row.add_widget(
                _btn(
                    f"score {entry.scores[pid]}",
                    lambda p=pid: self._ask_score(p),
                    key=f"score:{pid}",
                    size_hint_x=None,
                    width=dp(118),
                )
            )
            box.add_widget(row)

    def _page_castillo(self, box) -> None:
        entry = self.entry
        entry.tower_count = self._tower_count()  # cubes thrown in meanwhile count too
        sources = [("tower", "Use the tower's count (not shown)"), ("counted", "Lift the Castillo and count")]
        if not entry.starting:
            sources.insert(0, ("keep", "Keep it as it is (hidden)"))
        for source, words in sources:
            box.add_widget(
                _btn(
                    words,
                    lambda s=source: self._castillo_source(s),
                    "on" if entry.castillo_source == source else "normal",
                    key=f"castillo:{source}",
                )
            )
        if not entry.tower_has_counted:
            box.add_widget(
                _text("The tower has counted nothing in this game, so its count cannot be used.", font_size="14sp")
            )
        if entry.castillo_source == "counted":
            box.add_widget(
                _text(
                    "Lift the Castillo, count each colour's Caballeros and enter them here, then "
                    "put them back inside. Everyone sees these counts.",
                    bold=True,
                )
            )
            for pid in entry.players:
                row = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(6))
                row.add_widget(_name_chip(pid, self.model.name(pid)))
                row.add_widget(
                    _btn(
                        "-", lambda p=pid: self._castillo(p, -1), key=f"castillo:{pid}:-1", size_hint_x=None, width=TAP
                    )
                )
                row.add_widget(
                    Label(text=str(entry.castillo[pid]), color=INK, bold=True, size_hint_x=None, width=dp(48))
                )
                row.add_widget(
                    _btn(
                        "+", lambda p=pid: self._castillo(p, +1), key=f"castillo:{pid}:+1", size_hint_x=None, width=TAP
                    )
                )
                box.add_widget(row)
        elif entry.castillo_source == "tower":
            box.add_widget(_text("The Castillo stays closed: the tower's count goes in unseen.", font_size="14sp"))

    def _page_start(self, box) -> None:
        entry = self.entry
        box.add_widget(_text("Round now starting", bold=True))
        rounds = _grid(min(len(entry.rounds), 9))
        for r in entry.rounds:
            rounds.add_widget(
                _btn(
                    str(r),
                    lambda r=r: self._call(entry.set_round, r),
                    "on" if r == entry.round else "normal",
                    key=f"round:{r}",
                )
            )
        box.add_widget(rounds)
        box.add_widget(_text("Who starts the round (the start player)", bold=True))
        starts = _grid(3)
        for pid in entry.players:
            words = f"{self.model.name(pid)} starts" if entry.start_player == pid else self.model.name(pid)
            starts.add_widget(
                _player_btn(
                    pid,
                    words,
                    lambda p=pid: self._call(entry.set_start_player, p),
                    entry.start_player == pid,
                    key=f"start:{pid}",
                )
            )
        box.add_widget(starts)
        before = entry.rounds_before()
        box.add_widget(_text(f"Power cards laid down in the {before} earlier round{'s' * (before != 1)}", bold=True))
        for pid in entry.players:
            spent = entry.power_spent[pid]
            box.add_widget(_text(f"{self.model.name(pid)}: {len(spent)} of {before}", font_size="15sp"))
            cards = _grid(7)
            for value in sorted(self.model.board.replenish):
                cards.add_widget(
                    _btn(
                        str(value),
                        lambda p=pid, v=value: self._call(entry.toggle_power, p, v),
                        "on" if value in spent else "quiet",
                        key=f"power:{pid}:{value}",
                    )
                )
            box.add_widget(cards)
        box.add_widget(_text(f"Who holds a Veto card ({entry.veto_cards} in the game)", bold=True))
        vetoes = _grid(3)
        for pid in entry.players:
            words = f"{self.model.name(pid)}: Veto" if pid in entry.vetoes else f"{self.model.name(pid)}: none"
            vetoes.add_widget(
                _player_btn(
                    pid, words, lambda p=pid: self._call(entry.toggle_veto, p), pid in entry.vetoes, key=f"veto:{pid}"
                )
            )
        box.add_widget(vetoes)

    # ---- taps ---------------------------------------------------------------------------

    def _call(self, action: Callable, *args) -> bool:
        """Run an entry step; a refusal is said on screen and changes nothing."""
        try:
            action(*args)
        except NotAllowed as exc:
            words = str(exc)
            self.message = words[:1].upper() + words[1:]
            return False
        self.message = ""
        self._show()
        return True

    def map_tapped(self, area: str) -> None:
        if self.entry is not None:
            self._call(self.entry.tap, area)

    def map_closed(self, area: str) -> None:
        """A tap on an area this tool cannot change: why, in one line."""
        if self.entry is not None:
            self.message = self.entry.why_not(area)

    def _colour(self, pid: str) -> None:
        self.entry.colour = pid
        if self.entry.tool not in ("add", "remove", "grande"):
            self.entry.tool = "add"
        self.message = ""
        self._show()

    def _tool(self, tool: str) -> None:
        self.entry.tool = tool
        self.message = ""
        self._show()

    def _off_board(self, sid: str) -> None:
        self._call(self.entry.place_scoreboard, sid, None)

    def _court(self, pid: str, delta: int) -> None:
        self._call(self.entry.step_court, pid, delta)

    def _castillo_source(self, source: str) -> None:
        self._call(self.entry.set_castillo_source, source)

    def _castillo(self, pid: str, delta: int) -> None:
        self._call(self.entry.step_castillo, pid, delta)

    def _ask_score(self, pid: str) -> None:
        NumberPad(
            f"{self.model.name(pid)}'s score",
            self.entry.scores[pid],
            lambda value: self._call(self.entry.set_score, pid, value),
        ).open()

    # ---- confirm and cancel ---------------------------------------------------------------

    def confirm(self) -> None:
        entry = self.entry
        if entry is None:
            return
        entry.tower_count = self._tower_count()  # cubes thrown in while the board was entered count too
        if entry.starting:
            return self._send(entry.event(f"started from the board in round {entry.round}"))
        changes = entry.changes()
        if not changes:
            self.message = "Nothing differs from the board on the tablet: change something, or Cancel"
            return
        CorrectionConfirm(changes, lambda typed: self._send(entry.event(entry.reason(typed)))).open()

    def _send(self, event: dict) -> None:
        if self.model.submit(event):
            words = (
                "Tracking starts from this board"
                if self.entry.starting
                else "Board corrected (History shows what changed; Undo takes it back)"
            )
            self.entry = None
            self.manager.current = "table"
            self.model.message = words
        else:
            self.message = self.model.message  # the engine's words, naming the field; nothing applied

    def cancel(self) -> None:
        entry = self.entry
        if entry is not None and entry.event() != self._opened_as:
            question = (
                "Track from round 1 instead, with the board as set up? What you entered here is dropped"
                if entry.starting
                else "Leave the board as the tablet has it? What you entered here is dropped"
            )
            Ask(question, "Yes, drop what I entered", "No, keep entering", self._leave).open()
            return
        self._leave()

    def _leave(self) -> None:
        self.entry = None
        self.message = ""
        self.manager.current = "table"


class _Modal(ModalView):
    def __init__(self, title: str, **kwargs):
        super().__init__(background_color=(0, 0, 0, 0.6), **kwargs)
        self._anim_duration = 0
        self.body = BoxLayout(orientation="vertical", padding=dp(18), spacing=dp(10))
        from kivy.graphics import Color, Rectangle

        with self.body.canvas.before:
            Color(*PAPER)
            bg = Rectangle()
        self.body.bind(pos=lambda w, v: setattr(bg, "pos", v), size=lambda w, v: setattr(bg, "size", v))
        self.body.add_widget(_text(title, bold=True, font_size="22sp"))
        self.add_widget(self.body)


class Ask(_Modal):
    """A yes-or-no question before something entered is dropped."""

    def __init__(self, question: str, yes: str, no: str, on_yes: Callable[[], None]):
        super().__init__(question, size_hint=(0.7, None), height=dp(230))
        row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(10))
        row.add_widget(_btn(no, self.dismiss, "normal", size_hint_y=1))
        row.add_widget(_btn(yes, lambda: (self.dismiss(), on_yes()), "primary", size_hint_y=1))
        self.body.add_widget(row)


class NumberPad(_Modal):
    """A score typed on big keys (no keyboard pops up over the board)."""

    def __init__(self, title: str, value: int, on_done: Callable[[int], bool]):
        super().__init__(title, size_hint=(None, None), size=(dp(360), dp(520)))
        self.digits = str(value)
        self.on_done = on_done
        self.shown = Label(text=self.digits, font_size="34sp", bold=True, color=INK, size_hint_y=None, height=dp(56))
        self.body.add_widget(self.shown)
        keys = GridLayout(cols=3, spacing=dp(6))
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Clear", "0", "Delete"):
            keys.add_widget(
                _btn(
                    key,
                    lambda k=key: self.key(k),
                    "quiet" if len(key) > 1 else "normal",
                    key=f"pad:{key}",
                    size_hint_y=1,
                )
            )
        self.body.add_widget(keys)
        row = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(8))
        row.add_widget(_btn("Cancel", self.dismiss, "quiet"))
        row.add_widget(_btn("OK", self.done, "primary", key="pad:OK"))
        self.body.add_widget(row)

    def key(self, key: str) -> None:
        if key == "Clear":
            self.digits = ""
        elif key == "Delete":
            self.digits = self.digits[:-1]
        elif len(self.digits) < 3:  # scores stay under 1,000
            self.digits = (self.digits + key).lstrip("0") or "0"
        self.shown.text = self.digits or "0"

    def done(self) -> None:
        self.on_done(int(self.digits or "0"))
        self.dismiss()


class CorrectionConfirm(_Modal):
    """Change the board to this? Everyone reads what changes before it does."""

    def __init__(self, changes: list[str], on_yes: Callable[[str], None]):
        from kivy.core.window import Window

        height = min(Window.height * 0.9, dp(250) + dp(40) * len(changes))  # as tall as the changes need
        super().__init__(
            "Change the board to this? Everyone can see what changes", size_hint=(0.86, None), height=height
        )
        self.on_yes = on_yes
        scroll = ScrollView(do_scroll_x=False)
        lines = _grid(1)
        for line in changes:
            lines.add_widget(_text(line, font_size="19sp"))
        scroll.add_widget(lines)
        self.body.add_widget(scroll)
        self.reason = TextInput(
            hint_text="What was wrong? (optional, kept in the history)",
            multiline=False,
            size_hint_y=None,
            height=TAP,
            font_size="17sp",
        )
        self.body.add_widget(self.reason)
        row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(10))
        row.add_widget(_btn("No, go back", self.dismiss, "normal", size_hint_y=1))
        row.add_widget(_btn("Yes, change the board", self.yes, "primary", size_hint_y=1))
        self.body.add_widget(row)

    def yes(self) -> None:
        self.dismiss()
        self.on_yes(self.reason.text)
