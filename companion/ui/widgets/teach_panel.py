"""Teaching the tower the game's colours: a thin view of companion.tower.teaching.TowerTeaching (which
cube to throw, how many are in, each colour learnt and how well it separates). It never stands
in the game's way: closing it leaves the teaching running, and the tower panel reopens it."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.look.players import PLAYER_RGB
from companion.words import N_, _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def colour_word(colour: str) -> str:
    """A player colour as a word inside a sentence ("a purple cube", "un cubo morado"): small,
    except in German, which writes a colour named as a noun with its capital ("in Rot")."""
    from companion.words import language
    from companion.words.colours import colour_word as word

    return word(colour) if language() == "de" else word(colour).lower()


ACTIONS = {"start": N_("Teach the tower"), "again": N_("Teach again"), "stop": N_("Stop teaching")}


class TeachPanel(ModalView):
    model = ObjectProperty(None)
    headline = StringProperty("")
    lines_text = StringProperty("")
    got = NumericProperty(0)
    need = NumericProperty(0)
    action = StringProperty("")
    action_text = StringProperty("")
    throw_text = StringProperty("")  # the simulated tower's button: a cube of the colour asked
    throw_rgba = ListProperty([0.7, 0.7, 0.7, 1])
    busy = BooleanProperty(False)
    refusal = StringProperty("")  # why the last tap could not start it, in one line

    def on_kv_post(self, base_widget) -> None:
        self.model.bind(tower=self._refresh)
        self._refresh()

    def on_dismiss(self) -> None:
        self.model.unbind(tower=self._refresh)

    def _refresh(self, *args) -> None:
        link = self.model.tower_link
        if link is None:
            return
        view = link.teaching.view()
        self.headline, self.got, self.need, self.busy = view.headline, view.got, view.need, view.busy
        self.lines_text = "\n".join(view.lines + ([self.refusal] if self.refusal and not view.busy else []))
        self.action, self.action_text = view.action, _(ACTIONS[view.action]) if view.action else ""
        simulated = link.sim is not None and view.throw
        self.throw_text = (
            _("Throw a {colour} cube (simulated tower)").format(colour=colour_word(view.throw)) if simulated else ""
        )
        if simulated:
            self.throw_rgba = [*PLAYER_RGB.get(view.throw, (0.7, 0.7, 0.7)), 1]

    def act(self) -> None:
        if self.action == "stop":
            self.model.tower_link.teaching.stop()
        elif self.action:
            self.refusal = self.model.teach(again=self.action == "again")
        self._refresh()

    def start(self) -> TeachPanel:
        """Opened to teach: it starts at once when the tower lacks a colour of the game."""
        if self.action == "start":
            self.act()
        return self

    def throw(self) -> None:
        view = self.model.tower_link.teaching.view()
        if view.throw:
            self.model.simulate_drop(view.throw)
