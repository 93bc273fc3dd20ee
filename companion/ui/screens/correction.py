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
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.entry.position import NotAllowed, PositionEntry
from companion.ui.dialogs.position_pads import CorrectionConfirm, DropAsk, NumberPad
from companion.ui.widgets.map_view import MapView  # noqa: F401 (MapView is used in the .kv)
from companion.ui.widgets.position_parts import (
    INK,
    TAP,
    button,
    grid,
    name_chip,
    player_button,
    wrapped_text,
)
from companion.words import N_, _, ngettext
from engine.board.model import CASTILLO
from engine.correction import CORRECTABLE_STAGES

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SECTIONS = (
    ("board", N_("Board")),
    ("court", N_("Courts, scores")),
    ("castillo", N_("Castillo")),
    ("start", N_("Round, cards")),
)


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
            self.model.message = _("Correcting the board is for full tracking; in scoring only, use Enter the board")
            return
        state = table.state
        if state.stage not in CORRECTABLE_STAGES or state.special is not None:
            self.model.message = _(
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
            self.title = _("Start from the board in front of you")
            self.confirm_text, self.cancel_text = _("Start from this board"), _("Start from round 1 instead")
        else:
            self.title = _("Correct the board: enter it as it really lies")
            self.confirm_text, self.cancel_text = _("Confirm the correction"), _("Cancel")
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
            return _(
                "The table at the start of round {round}, before its action cards are turned up. "
                "Tap a Power card each player has laid down in an earlier round."
            ).format(round=entry.round)
        if self.section == "castillo":
            return _("The Castillo: from the tower's count, or lifted and counted by the table.")
        return _("Each player's court and score. Tap a score to type it.")

    def _section_buttons(self) -> None:
        bar = self.ids.sections
        bar.clear_widgets()
        for key, words in SECTIONS:
            if key == "start" and not self.entry.starting:
                continue
            bar.add_widget(
                button(
                    _(words),
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
        box.add_widget(wrapped_text(_("Whose Caballeros (or Grande)?"), bold=True))
        players = grid(3)
        for pid in entry.players:
            players.add_widget(
                player_button(
                    pid,
                    f"> {self.model.name(pid)} <" if entry.colour == pid else self.model.name(pid),
                    lambda p=pid: self._colour(p),
                    entry.colour == pid,
                    key=f"colour:{pid}",
                )
            )
        box.add_widget(players)
        box.add_widget(wrapped_text(_("Then, on the map:"), bold=True))
        tools = grid(2)
        named = dict(entry.pieces())  # the mobile scoreboards (classic) or the Scoring tiles (2023)
        pieces = [(f"mobile:{sid}", _("Place {piece}").format(piece=words)) for sid, words in named.items()]
        for tool, words in (
            ("add", _("Add a Caballero")),
            ("remove", _("Take one off")),
            ("king", _("Move the King")),
            ("grande", _("Move the Grande")),
            *pieces,
        ):
            tools.add_widget(
                button(
                    words, lambda t=tool: self._tool(t), "on" if entry.tool == tool else "normal", key=f"tool:{tool}"
                )
            )
        for sid, where in entry.mobile.items():
            if where is not None:
                tools.add_widget(
                    button(
                        _("Take {piece} off the board").format(piece=named.get(sid, sid)),
                        lambda s=sid: self._off_board(s),
                        "quiet",
                        key=f"off:{sid}",
                    )
                )
        box.add_widget(tools)
        lying = [
            _("{piece} on {area}").format(piece=named.get(sid, sid), area=entry.area(where))
            for sid, where in entry.mobile.items()
            if where is not None
        ]
        said = "; ".join(lying) if lying else _("none on the board")
        heading = _("Scoring tiles: {where}") if entry.edition_2023 else _("Mobile scoreboards: {where}")
        box.add_widget(wrapped_text(heading.format(where=said), font_size="15sp"))

    def _page_court(self, box) -> None:
        entry = self.entry
        for pid in entry.players:
            row = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(6))
            row.add_widget(name_chip(pid, self.model.name(pid)))
            row.add_widget(
                button("-", lambda p=pid: self._court(p, -1), key=f"court:{pid}:-1", size_hint_x=None, width=TAP)
            )
            row.add_widget(
                Label(text=_("court {n}").format(n=entry.court[pid]), color=INK, size_hint_x=None, width=dp(84))
            )
            row.add_widget(
                button("+", lambda p=pid: self._court(p, +1), key=f"court:{pid}:+1", size_hint_x=None, width=TAP)
            )
            row.add_widget(
                button(
                    _("score {n}").format(n=entry.scores[pid]),
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
        sources = [("tower", _("Use the tower's count (not shown)")), ("counted", _("Lift the Castillo and count"))]
        if not entry.starting:
            sources.insert(0, ("keep", _("Keep it as it is (hidden)")))
        for source, words in sources:
            box.add_widget(
                button(
                    words,
                    lambda s=source: self._castillo_source(s),
                    "on" if entry.castillo_source == source else "normal",
                    key=f"castillo:{source}",
                )
            )
        if not entry.tower_has_counted:
            box.add_widget(
                wrapped_text(
                    _("The tower has counted nothing in this game, so its count cannot be used."), font_size="14sp"
                )
            )
        if entry.castillo_source == "counted":
            box.add_widget(
                wrapped_text(
                    _(
                        "Lift the Castillo, count each colour's Caballeros and enter them here, then "
                        "put them back inside. Everyone sees these counts."
                    ),
                    bold=True,
                )
            )
            for pid in entry.players:
                row = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(6))
                row.add_widget(name_chip(pid, self.model.name(pid)))
                row.add_widget(
                    button(
                        "-", lambda p=pid: self._castillo(p, -1), key=f"castillo:{pid}:-1", size_hint_x=None, width=TAP
                    )
                )
                row.add_widget(
                    Label(text=str(entry.castillo[pid]), color=INK, bold=True, size_hint_x=None, width=dp(48))
                )
                row.add_widget(
                    button(
                        "+", lambda p=pid: self._castillo(p, +1), key=f"castillo:{pid}:+1", size_hint_x=None, width=TAP
                    )
                )
                box.add_widget(row)
        elif entry.castillo_source == "tower":
            box.add_widget(
                wrapped_text(_("The Castillo stays closed: the tower's count goes in unseen."), font_size="14sp")
            )

    def _page_start(self, box) -> None:
        entry = self.entry
        box.add_widget(wrapped_text(_("Round now starting"), bold=True))
        rounds = grid(min(len(entry.rounds), 9))
        for r in entry.rounds:
            rounds.add_widget(
                button(
                    str(r),
                    lambda r=r: self._call(entry.set_round, r),
                    "on" if r == entry.round else "normal",
                    key=f"round:{r}",
                )
            )
        box.add_widget(rounds)
        box.add_widget(wrapped_text(_("Who starts the round (the start player)"), bold=True))
        starts = grid(3)
        for pid in entry.players:
            words = (
                _("{who} starts").format(who=self.model.name(pid))
                if entry.start_player == pid
                else self.model.name(pid)
            )
            starts.add_widget(
                player_button(
                    pid,
                    words,
                    lambda p=pid: self._call(entry.set_start_player, p),
                    entry.start_player == pid,
                    key=f"start:{pid}",
                )
            )
        box.add_widget(starts)
        before = entry.rounds_before()
        box.add_widget(
            wrapped_text(
                ngettext(
                    "Power cards laid down in the {n} earlier round",
                    "Power cards laid down in the {n} earlier rounds",
                    before,
                ).format(n=before),
                bold=True,
            )
        )
        for pid in entry.players:
            spent = entry.power_spent[pid]
            box.add_widget(
                wrapped_text(
                    _("{who}: {n} of {total}").format(who=self.model.name(pid), n=len(spent), total=before),
                    font_size="15sp",
                )
            )
            cards = grid(7)
            for value in sorted(self.model.board.replenish):
                cards.add_widget(
                    button(
                        str(value),
                        lambda p=pid, v=value: self._call(entry.toggle_power, p, v),
                        "on" if value in spent else "quiet",
                        key=f"power:{pid}:{value}",
                    )
                )
            box.add_widget(cards)
        box.add_widget(
            wrapped_text(
                ngettext(
                    "Who holds a Veto card ({n} in the game)",
                    "Who holds a Veto card ({n} in the game)",
                    entry.veto_cards,
                ).format(n=entry.veto_cards),
                bold=True,
            )
        )
        vetoes = grid(3)
        for pid in entry.players:
            who = self.model.name(pid)
            words = _("{who}: Veto").format(who=who) if pid in entry.vetoes else _("{who}: none").format(who=who)
            vetoes.add_widget(
                player_button(
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
            _("{who}'s score").format(who=self.model.name(pid)),
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
            self.message = _("Nothing differs from the board on the tablet: change something, or Cancel")
            return
        CorrectionConfirm(changes, lambda typed: self._send(entry.event(entry.reason(typed)))).open()

    def _send(self, event: dict) -> None:
        if self.model.submit(event):
            words = (
                _("Tracking starts from this board")
                if self.entry.starting
                else _("Board corrected (History shows what changed; Undo takes it back)")
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
                _("Track from round 1 instead, with the board as set up? What you entered here is dropped")
                if entry.starting
                else _("Leave the board as the tablet has it? What you entered here is dropped")
            )
            DropAsk(question, _("Yes, drop what I entered"), _("No, keep entering"), self._leave).open()
            return
        self._leave()

    def _leave(self) -> None:
        self.entry = None
        self.message = ""
        self.manager.current = "table"
