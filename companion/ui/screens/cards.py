"""Your cards: the 2023 card set the companion will use, browsed and completed from the box.

Every card with its stack, copies, text, effect and where each fact comes from; a listed
card's unknown stack, copies or numbers set by steppers; a card found in the box added by
choosing its effect from the list, each effect's rule text beside it, and its numbers by
steppers and choices; the set exported to a file and another tablet's file imported. A thin
view of companion.table_rules.card_file.CardSetDraft: each change is checked like a card file, a
mistake is refused with its one line and nothing is half-applied; what is accepted is saved
at once in the user data folder and goes into every new 2023 game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput

from companion.look.tokens import TYPE_SCALE
from companion.safe_text import for_markup
from companion.table_rules.card_file import MODIFIER_SET, CardSetDraft, unknown_words
from companion.table_rules.effect_offers import (
    ParamField,
    effect_offers,
    modifier_abilities,
    param_fields,
    params_words,
)
from companion.table_rules.storage import RuleFileError
from companion.ui.dialogs.import_cards import ImportDialog
from companion.ui.screens.cards_modifiers import ModifierCards
from companion.ui.widgets.rule_widgets import INK, TAP, button, grid, stepper, text
from companion.words import N_, _, names, ngettext
from companion.words.effects import choice_word, effect_title, meaning_words
from companion.words.file_refusals import refusal_words
from companion.words.sources import source_words

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

# (module, its name: the box's printed module names through names.module; the base game in our words)
MODULES = ((None, N_("Base game")), ("new-regency", "New Regency"), ("old-hands", "Old Hands"))
NOTE_SP = f"{TYPE_SCALE['caption']}sp"  # where a fact comes from, what is not set: small, still read
# A stepper's name in a message ("Stack: 1 to 5")
STEPPED = {"stack": N_("Stack"), "copies": N_("Copies in the box"), "placement": N_("Caballeros it places")}
MOST_COPIES = 10
EXCERPT = 150  # characters of an effect's rule text beside it in the list


def _excerpt(words: str) -> str:
    first = words.split("\n")[0]
    return first if len(first) <= EXCERPT else first[:EXCERPT].rsplit(" ", 1)[0] + " ..."


def _stack_words(stack: int | None) -> str:
    return "?" if stack is None else str(stack)


class CardsScreen(ModifierCards, Screen):
    model = ObjectProperty(None)
    title = StringProperty("")
    hint = StringProperty("")
    message = StringProperty("")
    notice = StringProperty("")  # what went well (an export's path)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.draft: CardSetDraft | None = None
        self.mode = "browse"  # browse | add | modifiers
        self.selected = ""  # a card id (browse) or an effect name (add)
        self.edit: dict[str, Any] = {}
        self.form: dict[str, Any] = {}
        self.back_to = "home"
        self.effects = {e.name: e for e in effect_offers("2023")}
        self.abilities = {e.name: e for e in modifier_abilities()}
        self.modifier_form: dict[str, Any] = {}

    # ---- opening --------------------------------------------------------------------

    def open_cards(self, back_to: str = "home") -> None:
        self.title = _("Your cards: the 2023 card set")
        self.back_to = back_to
        self.message = self.notice = ""
        try:
            self.draft = CardSetDraft.load()
        except RuleFileError as exc:
            self.draft = CardSetDraft()
            self.message = _(
                "Your saved card set could not be read ({why}); the shipped set is shown. "
                "Import a card file or enter the cards again."
            ).format(why=exc)
        self.mode, self.selected = "browse", ""
        self.manager.current = self.name
        self._show()
        self.ids.list_scroll.scroll_y = 1

    # ---- drawing ----------------------------------------------------------------------

    def _show(self) -> None:
        self.hint = self._hint()
        lst, detail = self.ids.list_box, self.ids.detail_box
        lst.clear_widgets()
        detail.clear_widgets()
        self.ids.detail_foot.clear_widgets()  # a form's own button, fixed under its scroll
        if self.mode == "add":
            self._effect_list(lst)
            self._add_form(detail)
        elif self.mode == "modifiers":
            self._modifier_list(lst)
            self._modifier_detail(detail)
        else:
            self._card_list(lst)
            self._card_detail(detail)
        self.ids.add.text = _("Back to the cards") if self.mode != "browse" else _("Add a card from the box")

    def _hint(self) -> str:
        rows = self.draft.rows()
        unknown = sum(1 for r in rows if r.unknown)
        if self.mode == "modifiers":
            return _(
                "Power Shift's {set} Modifier cards: enter each one's number and ability as printed "
                "({n} entered). A game takes them once all {set} are in."
            ).format(set=MODIFIER_SET, n=len(self.draft.modifiers()))
        if self.mode == "add":
            return _(
                "Add a card found in the box: choose its effect (each with the rule book's words), then its "
                "name, stack, copies and numbers as printed."
            )
        listed = ngettext("{n} card listed", "{n} cards listed", len(rows)).format(n=len(rows))
        return ngettext(
            "{listed}, {n} with facts not entered (marked ?). Tap a card to see it and set what your box shows.",
            "{listed}, {n} with facts not entered (marked ?). Tap a card to see it and set what your box shows.",
            unknown,
        ).format(listed=listed, n=unknown)

    def _card_list(self, box) -> None:
        for row in self.draft.rows():
            said = f"{names.card(row.name)} ({row.stack_words}, {row.copies_words})"
            if row.unknown:
                not_entered = ", ".join(_(w) for w in unknown_words(row.unknown))
                said = _("{card}  - not entered: {facts}").format(card=said, facts=not_entered)
            style = "on" if row.id == self.selected else "normal"
            box.add_widget(
                button(
                    said,
                    lambda c=row.id: self.choose(c),
                    style,
                    key=f"card:{row.id}",
                )
            )
        for note in self.draft.stack_notes():
            box.add_widget(text(note, font_size="14sp", color=(0.45, 0.2, 0.08, 1)))
        mods = self.draft.modifiers()
        box.add_widget(
            button(
                _("Power Shift Modifier cards: {n} of {set} entered").format(n=len(mods), set=MODIFIER_SET),
                self.open_modifiers,
                "quiet",
                key="modifiers",
            )
        )

    def _card_detail(self, box) -> None:
        if not self.selected:
            box.add_widget(
                text(
                    _(
                        "Tap a card in the list. Cards the rule book does not name are added with "
                        '"Add a card from the box".'
                    )
                )
            )
            return
        row = self.draft.row(self.selected)
        effect = self.effects.get(row.effect)
        box.add_widget(
            text(
                f"[b]{for_markup(names.card(row.name))}[/b]  {row.stack_words}, {row.copies_words}",
                markup=True,
                font_size="18sp",
            )
        )  # the card's name as the table typed it: never a tag
        if row.text:
            box.add_widget(text(names.card_text(row.text)))
        words = params_words(row.effect, row.params)
        title = effect.title if effect else effect_title(row.effect)
        said = _("Effect: {effect} ({numbers})") if words else _("Effect: {effect}")
        box.add_widget(text(said.format(effect=title, numbers=words), bold=True))
        box.add_widget(
            text(
                _("Source: {source}").format(source=source_words(row.source)),
                font_size=NOTE_SP,
                color=(0.4, 0.32, 0.22, 1),
            )
        )
        box.add_widget(text(_("Set what your card and box show:"), bold=True))
        e = self.edit
        box.add_widget(
            stepper(_("Stack"), _stack_words(e["stack"]), lambda d: self._step("stack", d, 1, 5), key="edit:stack")
        )
        box.add_widget(
            stepper(
                _("Copies in the box"),
                _stack_words(e["copies"]),
                lambda d: self._step("copies", d, 1, MOST_COPIES),
                key="edit:copies",
            )
        )
        if "placement" in row.unknown or e.get("placement") is not None:
            box.add_widget(
                stepper(
                    _("Caballeros it places"),
                    _stack_words(e.get("placement")),
                    lambda d: self._step("placement", d, 0, 10),
                    key="edit:placement",
                )
            )
        if row.effect in self.effects:
            self._param_controls(box, param_fields(row.effect), e["params"], "edit")
        box.add_widget(
            button(_("Save {card}").format(card=names.card(row.name)), self.save_card, "primary", key="save_card")
        )
        if any(c.get("id") == row.id for c in self.draft.file.get("cards", [])):
            box.add_widget(
                button(_("Take back what we entered for this card"), self.forget_card, "quiet", key="forget_card")
            )

    def _effect_list(self, box) -> None:
        for effect in self.effects.values():
            row = BoxLayout(size_hint_y=None, spacing=dp(8))
            b = button(
                effect.title,
                lambda n=effect.name: self.choose_effect(n),
                "on" if effect.name == self.selected else "normal",
                key=f"effect:{effect.name}",
                size_hint=(0.34, 1),
            )
            words = Label(
                text=_excerpt(effect.rule_text),
                font_size=NOTE_SP,
                color=INK,
                size_hint_x=0.66,
                halign="left",
                valign="middle",
            )
            words.bind(
                width=lambda w, v: setattr(w, "text_size", (v, None)),
                texture_size=lambda w, v, r=row: setattr(r, "height", max(TAP, v[1] + dp(6))),
            )
            row.add_widget(b)
            row.add_widget(words)
            row.height = TAP
            box.add_widget(row)

    def _add_form(self, box) -> None:
        if not self.selected:
            box.add_widget(
                text(
                    _(
                        "Choose the card's effect in the list: what the card lets its player do, "
                        "in the rule book's words."
                    )
                )
            )
            return
        effect = self.effects[self.selected]
        f = self.form
        box.add_widget(text(f"[b]{for_markup(effect.title)}[/b]", markup=True, font_size="18sp"))
        box.add_widget(text(effect.rule_text, font_size="14sp"))
        box.add_widget(text(_("The card's name as printed:"), bold=True))
        name = TextInput(text=f["name"], multiline=False, size_hint_y=None, height=TAP)
        name.bind(text=lambda w, v: f.__setitem__("name", v))
        name.key = "add:name"
        box.add_widget(name)
        modules = grid(3)
        for module, words in MODULES:
            modules.add_widget(
                button(
                    names.module(words) if module else _(words),
                    lambda m=module: self._set_form("module", m),
                    "on" if f["module"] == module else "quiet",
                    key=f"add:module:{module}",
                )
            )
        box.add_widget(modules)
        box.add_widget(
            stepper(_("Stack"), _stack_words(f["stack"]), lambda d: self._step_form("stack", d, 1, 5), key="add:stack")
        )
        box.add_widget(
            stepper(
                _("Copies in the box"),
                _stack_words(f["copies"]),
                lambda d: self._step_form("copies", d, 1, MOST_COPIES),
                key="add:copies",
            )
        )
        self._param_controls(box, list(effect.params), f["params"], "add")
        box.add_widget(
            button(
                _("Add {card} to our cards").format(card=f["name"].strip())
                if f["name"].strip()
                else _("Add this card to our cards"),
                self.add_card,
                "primary",
                key="add_card",
            )
        )

    def _param_controls(self, box, fields: list[ParamField], values: dict, key: str) -> None:
        """A stepper per number, a choice per kind, a toggle per yes/no: the effect's parameters."""
        for field in fields:
            value = values.get(field.name)
            if field.kind == "int":
                row = stepper(
                    meaning_words(field.meaning),
                    str(value) if value is not None else _("not set"),
                    lambda d, fl=field: self._step_param(values, fl, d),
                    key=f"{key}:param:{field.name}",
                )
                box.add_widget(row)
                if value is None:
                    box.add_widget(text(_("Not set: {meaning}").format(meaning=field.left_out()), font_size=NOTE_SP))
            elif field.kind == "bool":
                box.add_widget(text(meaning_words(field.meaning)))
                row = grid(2)
                for choice, words in ((True, _("Yes")), (False, _("No"))):
                    row.add_widget(
                        button(
                            words,
                            lambda c=choice, fl=field: self._set_param(values, fl, c),
                            "on" if value is choice else "quiet",
                            key=f"{key}:param:{field.name}:{str(choice).lower()}",
                        )
                    )
                box.add_widget(row)
            else:
                box.add_widget(text(meaning_words(field.meaning)))
                row = grid(2)
                for choice in field.values:
                    chosen = choice in (value or []) if field.kind == "multi" else choice == value
                    row.add_widget(
                        button(
                            choice_word(choice),
                            lambda c=choice, fl=field: self._pick_param(values, fl, c),
                            "on" if chosen else "quiet",
                            key=f"{key}:param:{field.name}:{choice}",
                        )
                    )
                box.add_widget(row)

    def choose(self, cid: str) -> None:
        self.selected, self.message, self.notice = cid, "", ""
        row = self.draft.row(cid)
        self.edit = {"stack": row.stack, "copies": row.copies, "params": dict(row.params), "placement": None}
        self._show()
        self.ids.detail_scroll.scroll_y = 1

    def toggle_add(self) -> None:
        self.mode = "browse" if self.mode != "browse" else "add"
        self.selected, self.message, self.notice = "", "", ""
        self._show()
        self.ids.list_scroll.scroll_y = 1

    def choose_effect(self, name: str) -> None:
        effect = self.effects[name]
        keep = self.form if self.mode == "add" and self.form else {}
        self.selected, self.message = name, ""
        self.form = {
            "name": keep.get("name") or effect.title,
            "module": keep.get("module"),
            "stack": keep.get("stack", 1),
            "copies": keep.get("copies", 1),
            "params": {f.name: f.start() for f in effect.params},
        }
        self._show()
        self.ids.detail_scroll.scroll_y = 1

    def _step(self, name: str, delta: int, low: int, high: int) -> None:
        before = self.edit.get(name)
        self.edit[name] = _bounded(before, delta, low, high)
        self._show()
        self._say_bound(name, before, self.edit[name], delta, low, high)

    def _step_form(self, name: str, delta: int, low: int, high: int) -> None:
        before = self.form.get(name)
        self.form[name] = _bounded(before, delta, low, high)
        self._show()
        self._say_bound(name, before, self.form[name], delta, low, high)

    def _say_bound(self, name: str, before, after, delta: int, low: int, high: int) -> None:
        """A stepper tapped past its end changes nothing: said, in one line."""
        what = _(STEPPED[name]) if name in STEPPED else name.replace("_", " ")
        self.message = _("{what}: {low} to {high}").format(what=what, low=low, high=high) if before == after else ""

    def _set_form(self, name: str, value) -> None:
        self.form[name] = value
        self._show()

    def _step_param(self, values: dict, field: ParamField, delta: int) -> None:
        before = values.get(field.name)
        values[field.name] = field.step(before, delta)
        self._show()
        said = _("{what}: {low} to {high}") if field.required else _("{what}: {low} to {high}, or left out")
        words = said.format(what=meaning_words(field.meaning), low=field.low, high=field.high)
        self.message = "" if before != values[field.name] else words

    def _set_param(self, values: dict, field: ParamField, value) -> None:
        values[field.name] = None if (not field.required and values.get(field.name) is value) else value
        self._show()

    def _pick_param(self, values: dict, field: ParamField, choice: str) -> None:
        if field.kind == "multi":
            chosen = list(values.get(field.name) or [])
            values[field.name] = [c for c in chosen if c != choice] if choice in chosen else chosen + [choice]
        else:
            values[field.name] = choice
        self._show()

    def save_card(self) -> None:
        e = self.edit
        self._call(
            lambda: self.draft.set_card(
                self.selected, stack=e["stack"], copies=e["copies"], params=e["params"], placement=e.get("placement")
            ),
            _("Saved {card}").format(card=names.card(self.draft.row(self.selected).name)),
        )

    def forget_card(self) -> None:
        cid = self.selected
        shipped = cid in CardSetDraft().cards.cards
        if self._call(lambda: self.draft.forget(cid), _("Our entries for the card are taken back")):
            if shipped:
                self.choose(cid)
            else:
                self.selected = ""
                self._show()

    def add_card(self) -> None:
        f = self.form
        added: list[str] = []
        ok = self._call(
            lambda: added.append(
                self.draft.add_card(f["name"], self.selected, f["stack"], f["copies"], f["params"], f["module"])
            ),
            _("Added {card} to your cards").format(card=f["name"].strip()),
            adding=f["name"],
        )
        if ok:
            self.mode = "browse"
            self.choose(added[0])

    def _call(self, edit: Callable[[], None], done: str, adding: str = "") -> bool:
        """An edit of the set, saved at once; a refusal is shown and nothing changes. `adding`: the
        name of a card being added (a refusal names it before it is in the set)."""
        before = (self.draft.cards, self.draft.file, list(self.draft.modifier_draft))
        card_names = {r.id: r.name for r in self.draft.rows()}
        if adding.strip():
            card_names[self.draft.new_id(adding)] = adding.strip()
        try:
            edit()
            self.draft.save()
        except RuleFileError as exc:
            self.message, self.notice = refusal_words(str(exc), card_names=card_names), ""
            self._show()
            return False
        except OSError as exc:
            self.draft.cards, self.draft.file, self.draft.modifier_draft = before
            self.message = _("Your cards could not be saved: {why}").format(why=exc.strerror or exc)
            self._show()
            return False
        self.message, self.notice = "", done
        self._show()
        return True

    def export(self) -> None:
        try:
            path = self.draft.export()
        except RuleFileError as exc:
            self.message = str(exc)
            return
        waiting = len(self.draft.modifier_draft)
        done = (
            ngettext(
                "Exported to {path} (copy it to the other tablet and import it there; the {n} Modifier card "
                "entered so far goes in once all {set} are)",
                "Exported to {path} (copy it to the other tablet and import it there; the {n} Modifier cards "
                "entered so far go in once all {set} are)",
                waiting,
            )
            if waiting
            else _("Exported to {path} (copy it to the other tablet and import it there)")
        )
        self.message, self.notice = "", done.format(path=path, n=waiting, set=MODIFIER_SET)

    def open_import(self) -> None:
        ImportDialog(self._import).open()

    def _import(self, path: str) -> str:
        """'' when imported; else the one-line refusal (the set is left as it was)."""
        trial = CardSetDraft(self.draft.file, self.draft.modifier_draft)
        try:
            trial.import_file(Path(path.strip()).expanduser())
            trial.save()
        except RuleFileError as exc:  # the set's cards by name; a field no card names: as the engine wrote it
            return refusal_words(str(exc), card_names={r.id: r.name for r in self.draft.rows()})
        except OSError as exc:
            return _("Your cards could not be saved: {why}").format(why=exc.strerror or exc)
        self.draft = trial
        self.mode, self.selected = "browse", ""
        n = len(trial.rows())
        self.message, self.notice = (
            "",
            ngettext("Imported your card file: {n} card", "Imported your card file: {n} cards", n).format(n=n),
        )
        self._show()
        return ""

    def back(self) -> None:
        self.manager.current = self.back_to


def _bounded(value: int | None, delta: int, low: int, high: int) -> int:
    if value is None:
        return low
    return max(low, min(high, value + delta))
