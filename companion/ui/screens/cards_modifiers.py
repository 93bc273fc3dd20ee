"""Your cards' Power Shift Modifier cards: the list, one card's detail or the form for a new one,
and their taps (a part of CardsScreen, companion/ui/screens/cards.py: `self` is that screen)."""

from __future__ import annotations

from kivy.uix.textinput import TextInput

from companion.look.tokens import TYPE_SCALE
from companion.table_rules.card_file import MODIFIER_SET
from companion.ui.widgets.rule_widgets import TAP, button, filter_box, grid, stepper, text
from companion.words import _
from companion.words.sources import source_words

NOTE_SP = f"{TYPE_SCALE['caption']}sp"


class ModifierCards:
    """The Modifier cards' part of Your cards."""

    def _modifier_list(self, box) -> None:
        box.add_widget(
            button(
                _("Add a Modifier card"),
                lambda: self.choose_modifier(""),
                "on" if not self.selected else "normal",
                key="modifier:new",
            )
        )
        for m in self.draft.modifiers():
            box.add_widget(
                button(
                    _modifier_words(m),
                    lambda i=m.id: self.choose_modifier(i),
                    "on" if m.id == self.selected else "normal",
                    key=f"modifier:{m.id}",
                )
            )

    def _modifier_detail(self, box) -> None:
        if self.selected:
            m = next(m for m in self.draft.modifiers() if m.id == self.selected)
            box.add_widget(text(_modifier_words(m), bold=True))
            box.add_widget(text(_("Source: {source}").format(source=source_words(m.source)), font_size=NOTE_SP))
            box.add_widget(button(_("Remove this Modifier card"), self.remove_modifier, "quiet", key="modifier:remove"))
            return
        f = self.modifier_form
        box.add_widget(text(_("A Modifier card from the box:"), bold=True))
        box.add_widget(
            stepper(
                _("Its number"),
                f"{'+' if f['value'] > 0 else ''}{f['value']}",
                self._step_modifier,
                key="modifier:value",
            )
        )
        name = TextInput(
            text=f["name"], hint_text=_("its name, if it has one"), multiline=False, size_hint_y=None, height=TAP
        )
        name.bind(text=lambda w, v: f.__setitem__("name", v))
        name.key = "modifier:name"
        box.add_widget(name)
        box.add_widget(text(_("Its ability:"), bold=True))
        abilities = grid(2)
        abilities.add_widget(
            button(
                _("No ability"),
                lambda: self._modifier_ability(None),
                "on" if f["effect"] is None else "quiet",
                key="ability:none",
            )
        )
        for effect in self.abilities.values():
            abilities.add_widget(
                button(
                    effect.title,
                    lambda n=effect.name: self._modifier_ability(n),
                    "on" if f["effect"] == effect.name else "quiet",
                    key=f"ability:{effect.name}",
                )
            )
        box.add_widget(filter_box(abilities, keep=("ability:none",)))
        box.add_widget(abilities)
        if f["effect"]:
            effect = self.abilities[f["effect"]]
            box.add_widget(text(effect.rule_text, font_size="14sp"))
            self._param_controls(box, list(effect.params), f["params"], "modifier")
        self.ids.detail_foot.add_widget(  # fixed under the detail: never below 30 abilities
            button(_("Add this Modifier card"), self.add_modifier, "primary", key="modifier:add")
        )

    # ---- taps -------------------------------------------------------------------------

    def open_modifiers(self) -> None:
        self.mode, self.message, self.notice = "modifiers", "", ""
        self.choose_modifier("")
        self.ids.list_scroll.scroll_y = 1

    def choose_modifier(self, mid: str) -> None:
        self.selected = mid
        if not mid and not self.modifier_form:
            self.modifier_form = {"value": 1, "name": "", "effect": None, "params": {}}
        self._show()
        self.ids.detail_scroll.scroll_y = 1

    def _step_modifier(self, delta: int) -> None:
        before = self.modifier_form["value"]
        value = before + delta
        self.modifier_form["value"] = max(-13, min(13, value + delta if value == 0 else value))  # never 0
        self._show()
        self.message = (
            _("A Modifier card's number: -13 to +13, never 0") if before == self.modifier_form["value"] else ""
        )

    def _modifier_ability(self, effect) -> None:
        self.modifier_form["effect"] = effect
        self.modifier_form["params"] = {f.name: f.start() for f in self.abilities[effect].params} if effect else {}
        self._show()

    def add_modifier(self) -> None:
        f = self.modifier_form
        if self._call(
            lambda: self.draft.add_modifier(f["value"], f["name"], f["effect"], f["params"]),
            _("Added the Modifier card ({n} of {set})").format(n=len(self.draft.modifiers()) + 1, set=MODIFIER_SET),
        ):
            self.modifier_form = {}
            self.choose_modifier("")

    def remove_modifier(self) -> None:
        if self._call(lambda: self.draft.remove_modifier(self.selected), _("Removed the Modifier card")):
            self.choose_modifier("")


def _modifier_words(m) -> str:
    """ "+2: court (count: 2)", and its printed name when it has one of its own."""
    number = f"{'+' if m.value > 0 else '−'}{abs(m.value)}"
    return f"{number}: {m.ability}" + (f" ({m.name})" if m.name not in (number, m.id) else "")
