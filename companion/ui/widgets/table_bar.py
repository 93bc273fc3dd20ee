"""The table screen's bottom bar: Undo, Home, History, Correct the board, Phones, the tower's state
(its colour says how the link is), the club board's link, the drops waiting for a person and,
with the simulated tower, a button per colour to drop a cube. Its layout is table_bar.kv; what
it says comes from the model (the tower's status, the public game, the club's status)."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.stacklayout import StackLayout

from companion.look.players import look_of
from companion.ui.dialogs.confirm import Confirm
from companion.ui.dialogs.history import History
from companion.ui.platform.navigation import GAME_KEPT
from companion.ui.widgets.map_view import figure_rgb
from companion.ui.widgets.tower_panel import LINK_STATES
from companion.words import _, ngettext

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PLAIN = [0.84, 0.77, 0.62, 1]  # a bar button's own colour
TOWER_RGBA = {
    "connected": (0.55, 0.78, 0.50, 1),
    "resyncing": (0.95, 0.80, 0.40, 1),
    "connecting": (0.95, 0.80, 0.40, 1),
    "disconnected": (0.90, 0.50, 0.40, 1),
    "incompatible": (0.90, 0.40, 0.40, 1),
}


class TableBar(StackLayout):
    """One row when it fits, two when the window is narrow. `screen`: the table screen (Correct
    the board opens the position screen from it)."""

    model = ObjectProperty(None, rebind=True)  # the .kv reads model.public: bound again once set
    screen = ObjectProperty(None)
    tower_text = StringProperty("")
    tower_rgba = ListProperty(PLAIN)
    drops_text = StringProperty("")
    club_text = StringProperty("")  # the club board link, "" without a club
    club_rgba = ListProperty([0.55, 0.78, 0.50, 1])
    can_undo = BooleanProperty(False)
    read_only = StringProperty("")  # a finished game opened again: why nothing can be entered

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._sim_shown = None  # (players, simulated, by hand) the drop buttons were made for
        self.tower_text = _("Tower: -")

    def show_public(self, public: dict) -> None:
        """Undo, a finished game and the drops waiting, as the public game says them."""
        self.can_undo = bool(public.get("undo"))
        self.read_only = public.get("read_only") or ""
        waiting = len(public.get("drops_waiting", []))
        self.drops_text = (
            ngettext("{n} drop to check", "{n} drops to check", waiting).format(n=waiting) if waiting else ""
        )

    def show_tower(self) -> bool:
        """The tower's state in words and colour; True when the drop buttons were made anew (the
        table's players or the colours the tower names changed)."""
        remade = self._sim_buttons()
        status = self.model.tower or {}
        state = status.get("state", "none")
        if self.model.table and self.model.table.setup.tower.kind == "none":
            self.tower_text, self.tower_rgba = _("No tower: Castillo by hand"), list(PLAIN)
            return remade
        if self.model.table and self.model.table.read_only:
            self.tower_text, self.tower_rgba = _("Tower: off (game over)"), list(PLAIN)
            return remade
        notes = [
            note
            for flag, note in (
                ((status.get("security") or {}).get("warning"), _("not secure")),
                (self.model.public.get("totals_mismatch"), _("counts differ")),
            )
            if flag
        ]
        shown = _(LINK_STATES[state]) if state in LINK_STATES else state
        self.tower_text = (
            _("Tower: {state} ({notes})").format(state=shown, notes=", ".join(notes))
            if notes
            else _("Tower: {state}").format(state=shown)
        )
        self.tower_rgba = list(TOWER_RGBA.get(state, PLAIN))
        if self.model.public.get("totals_mismatch") and state == "connected":
            self.tower_rgba = list(TOWER_RGBA["resyncing"])  # worth a look at the next Castillo opening
        return remade

    def show_club(self) -> None:
        from companion.club.publisher import club_bar

        self.club_text, up = club_bar(self.model.club_status)
        self.club_rgba = list(TOWER_RGBA["connected" if up else "disconnected"])

    def _sim_buttons(self) -> bool:
        link = self.model.tower_link
        table = self.model.table
        # Made once a game and again when a calibration changes the colours the tower names.
        shown = (
            tuple(table.players) if table else (),
            bool(link and link.sim),
            tuple(table.setup.by_hand()) if table else (),
        )
        if shown == self._sim_shown:
            return False
        self._sim_shown = shown
        box = self.ids.sim_drops
        box.clear_widgets()
        if not (link and link.sim):
            return True
        drop = Label(text=_("Drop:"), size_hint_x=None, font_size="14sp")
        drop.bind(texture_size=lambda w, v: setattr(w, "width", max(dp(44), v[0] + dp(6))))
        box.add_widget(drop)
        by_hand = self.model.table.setup.by_hand()  # colours the tower cannot report
        for pid in [p for p in self.model.table.players if p not in by_hand]:
            look = look_of(pid)  # the colour and its initial: never colour alone
            b = Button(
                text=look.initial,
                bold=True,
                color=(*figure_rgb(pid), 1),
                size_hint_x=None,
                width=dp(48),
                background_normal="",
                background_color=(*look.rgb, 1),
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
        return True

    # ---- its buttons ------------------------------------------------------------------------

    def undo(self) -> None:
        question = self.model.undo()
        if question:
            Confirm(question, lambda: self.model.undo(confirm=True)).open()

    def say_read_only(self) -> None:
        self.model.message = self.read_only

    def go_home(self) -> None:
        """Home, the game kept as it is (saved after every input): Home offers to continue it."""
        manager = self.screen.manager
        manager.get_screen("home").message = _(GAME_KEPT)
        manager.current = "home"

    def open_history(self) -> None:
        History(self.model.history(), self.model.reopen_scoring).open()

    def correct_board(self) -> None:
        self.screen.manager.get_screen("position").correct_board()

    def open_phones_panel(self) -> None:
        from companion.ui.widgets.phones_panel import PhonesPanel

        PhonesPanel(model=self.model).open()

    def open_tower_panel(self) -> None:
        from companion.ui.widgets.tower_panel import TowerPanel

        TowerPanel(model=self.model).open()

    def show_club_status(self) -> None:
        """The club link's whole status line (why it is offline, and that the game goes on)."""
        from companion.club.publisher import club_line

        self.model.message = club_line(self.model.club_status)
