"""A card the game's card set does not list, added from the box (its effect, name, stack, copies
and numbers), or a listed card's missing facts completed. Its layout is add_card.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.prompts.card_words import does, effect_choices
from companion.table_rules.card_learning import (
    card_id,
    new_card_entry,
    offered_params,
    printed_numbers,
)
from companion.ui.dialogs.sheet import Sheet, paint
from companion.ui.widgets.common import sheet_button, sheet_label
from companion.words import N_, _, language, names
from companion.words.effects import choice_word, effect_summary, meaning_words, parameter_word

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

# A listed card's facts nobody entered, by the board's field names ("cards.<id>.<field>")
FIELD_WORDS = {"stack": N_("stack"), "copies": N_("copies"), "outcome": N_("outcome"), "placement": N_("Caballeros")}


class AddCard(Sheet):
    """A card turned up that the game's card set does not list, added from the box at once:
    its effect chosen from the list with the rule book's text beside it
    (companion.prompts.card_words.effect_choices), its name, stack, copies and numbers; or a listed card
    whose facts nobody entered (Civil War's outcome, a stack) completed from the card. One
    input (Table.complete_card_set), checked like a card file: a mistake is shown in its words
    and nothing changes; what is accepted is kept in Your cards for the next games too."""

    intro = StringProperty("")

    def __init__(self, model, on_added=None, stack: int | None = None, keep=None):
        # `stack`: the compact entry of a card just turned up there (from NameCard): its stack is
        # known, its copies are left out (counted as they turn up), its numbers tapped from a row.
        # `keep`: the game is over (NameCardsLeft): the entry goes to it, not to the game; it says
        # '' or why not.
        from kivy.core.window import Window

        title = (
            _("Stack {stack}: a card not in the list").format(stack=stack)
            if stack
            else _("Add or complete a card of your card set")
        )
        intro = (
            _("Tap what it does (its rule text shows beside it), then type its name and tap the numbers printed on it.")
            if stack
            else _(
                "A card not in the list: tap what it does (its rule text shows beside it), "
                "then its name, stack and copies as printed."
            )
        )
        super().__init__(title, intro=intro, size_hint=(0.94, 0.94), portrait_hint=(0.96, 0.94))
        self.model, self.on_added, self.turned_up, self.keep = model, on_added, stack, keep
        self.effects = {e.name: e for e in effect_choices(model.board.rules)}
        self.effect = None
        self.completing = None  # a listed card's id, when its facts are entered
        self.name, self.stack, self.copies, self.params = "", stack or 1, 1, {}
        self.placement = None  # a ♠ card's Caballeros (compact entry on stack 5)
        ids = self.ids
        ids.panes.orientation = "horizontal" if Window.width >= Window.height else "vertical"
        self.effect_list, self.form, self.form_scroll = ids.effect_list, ids.form, ids.form_scroll
        self.add_button = ids.add_button
        self.effect_buttons = {}
        self.card_buttons = {}
        self.listed: list = []  # what the effects' list holds, in order (headings, cards, effects)
        incomplete = self.incomplete() if not stack else {}
        if incomplete:
            self._list(sheet_label(_("Listed, with facts to enter from the card:"), bold=True, font_size="15sp"))
            for cid, what in incomplete.items():
                card = model.board.cards[cid]
                button = sheet_button(
                    _("{card}: {what}").format(card=names.card(card.name), what=what),
                    lambda c=cid: self.complete(c),
                    height=dp(52),
                    font_size="14sp",
                )
                self.card_buttons[cid] = button
                self._list(button)
            self._list(sheet_label(_("A card not in the list, by what it does:"), bold=True, font_size="15sp"))
        for name, effect in self.effects.items():
            # its first sentence, without the book (another language: the team's one sentence)
            first = effect_summary(name).rstrip(".") if language() != "en" else ""
            first = first or effect.rule_text.split(") ", 1)[-1].split(". ")[0]
            words = first if len(first) <= 70 else first[:70].rsplit(" ", 1)[0] + " ..."
            button = sheet_button(
                _("{effect}: {words}").format(effect=effect.title, words=words),
                lambda n=name: self.choose(n),
                height=dp(56),
                font_size="14sp",
            )
            button.words = f"{effect.title} {effect.rule_text}".lower()  # what a typed filter looks in
            self.effect_buttons[name] = button
            self._list(button)
        self._form()

    def _list(self, widget) -> None:
        self.listed.append(widget)
        self.effect_list.add_widget(widget)

    def filter_effects(self, typed: str) -> None:
        """Only the effects whose name or rule text holds the letters typed (the listed cards and
        headings stay); nothing matching: said in the list."""
        typed = typed.strip().lower()
        box = self.effect_list
        box.clear_widgets()
        shown = 0
        for widget in self.listed:
            words = getattr(widget, "words", None)
            if words is None or not typed or typed in words:
                box.add_widget(widget)
                shown += words is not None
        if typed and not shown:
            box.add_widget(sheet_label(_('No effect has "{typed}": try fewer letters').format(typed=typed)))
        self.ids.effect_scroll.scroll_y = 1

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
                field = parts[-1]
                out.setdefault(parts[1], []).append(
                    _(FIELD_WORDS[field]) if field in FIELD_WORDS else field.replace("_", " ")
                )
        return {cid: _("enter its {fields}").format(fields=_(" and ").join(fields)) for cid, fields in out.items()}

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
            paint(button, "chosen" if chosen else "normal")
        for cid, button in self.card_buttons.items():
            paint(button, "chosen" if self.completing == cid else "normal")
        self.add_button.text = _("Save the card") if self.completing else _("Add the card")
        if self.effect is None:
            form.add_widget(sheet_label(_("No effect chosen yet."), font_size="16sp"))
            return
        e = self.effect
        heading = (
            _("{card} (in your set: {effect})").format(card=names.card(self.name), effect=e.title)
            if self.completing
            else e.title
        )
        form.add_widget(sheet_label(heading, bold=True, font_size="19sp", halign="left"))
        form.add_widget(sheet_label(e.rule_text, font_size="14sp", halign="left"))
        if not self.completing:  # a listed card keeps its name
            from kivy.uix.textinput import TextInput

            form.add_widget(sheet_label(_("Name, as printed on the card:"), bold=True, halign="left", font_size="15sp"))
            field = TextInput(text=self.name, multiline=False, size_hint_y=None, height=dp(48), font_size="18sp")
            field.bind(text=lambda w, v: setattr(self, "name", v))
            form.add_widget(field)
        if self.turned_up:
            form.add_widget(
                sheet_label(
                    _("Stack {stack}, where it turned up; its copies are counted as they turn up.").format(
                        stack=self.turned_up
                    ),
                    font_size="15sp",
                    halign="left",
                )
            )
            printed = self.printed_stacks()
            if len(printed) > 1:  # four stacks: stack 2 holds the printed 2s and 3s
                self._number_row(form, "stack", _("the stack number printed on it"), self.stack, printed)
            if self.stack == 5:  # a ♠ card prints its Caballeros
                self._number_row(form, "placement", _("Caballeros it places"), self.placement, range(0, 6))
            rows = {n.key: n for n in printed_numbers(e.name)}  # every number, "2 each" too
            for pname, spec in e.params.items():
                if pname in rows:
                    self._number_row(
                        form, pname, rows[pname].words, self.params.get(pname), rows[pname].options, rows[pname].label
                    )
                else:
                    self._param(form, pname, spec)
            return
        stack = _("{stack} (New Regency)").format(stack=self.stack) if self.stack == 5 else self.stack
        self._stepper(form, _("Stack"), stack, lambda d: self._set("stack", d, self.stacks()), "stack")
        self._stepper(
            form, _("Copies in the box"), self.copies, lambda d: self._set("copies", d, list(range(1, 11))), "copies"
        )
        for pname, spec in e.params.items():
            self._param(form, pname, spec)

    def _number_row(self, form, pname: str, meaning: str, value, values, label=str) -> None:
        """A number printed on the card: one tap on it (None: the card prints none)."""
        form.add_widget(
            sheet_label(
                _("{number}: {meaning}").format(number=parameter_word(pname), meaning=meaning),
                font_size="15sp",
                halign="left",
            )
        )
        grid = GridLayout(cols=6, spacing=dp(4), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for n in values:
            b = sheet_button(label(n), lambda v=n: self._set_number(pname, v), height=dp(48))
            paint(b, "chosen" if value == n else "normal")
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
        label = sheet_label(_("{what}: {value}").format(what=words, value=value), font_size="16sp", halign="left")
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
            low, high = allowed[0], allowed[-1]
            self.message.text = (
                _("The stacks of this game are {low} to {high}").format(low=low, high=high)
                if what == "stack"
                else _("A card's copies are {low} to {high}").format(low=low, high=high)
            )

    def _param(self, form, pname: str, spec: dict) -> None:
        kind, value = spec.get("type"), self.params.get(pname)
        meaning = meaning_words(spec.get("meaning", pname))
        if kind == "int":
            shown = _("left out") if value is None else value
            self._stepper(
                form,
                _("{number} ({meaning})").format(number=parameter_word(pname), meaning=meaning),
                shown,
                lambda d, n=pname, s=spec: self._step_param(n, s, d),
                pname,
            )
        elif kind in ("str", "bool"):
            form.add_widget(
                sheet_label(
                    _("{number}: {meaning}").format(number=parameter_word(pname), meaning=meaning),
                    font_size="15sp",
                    halign="left",
                )
            )
            options = spec.get("values") if kind == "str" else [True, False]
            grid = GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for option in options:
                b = sheet_button(
                    (_("yes") if option else _("no")) if isinstance(option, bool) else choice_word(option),
                    lambda n=pname, o=option: self._set_param(n, o),
                    height=dp(48),
                    font_size="15sp",
                )
                paint(b, "chosen" if value == option else "normal")
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
            words = parameter_word(pname)
            self.message.text = (
                _("{number}: {high} at most").format(number=words, high=high)
                if delta > 0
                else _("{number}: {low} at least").format(number=words, low=low)
                if spec.get("required")
                else _("{number}: left out already").format(number=words)
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
            self.message.text = _("Tap what the card does first (its effect, from the list), or a listed card")
            return
        if not self.name.strip():
            self.message.text = _("Give the card's name as printed on it")
            return
        if self.turned_up == 5 and self.placement is None:
            self.message.text = _("Tap how many Caballeros the card places (printed on it)")
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
        card = names.card(self.name.strip())
        kept = kept or _("Your cards keep it for the next games.")
        self.model.message = (
            _("{card} is complete: turn up the cards. {kept}")
            if self.completing
            else _("{card} is in the card set now: turn up the cards. {kept}")
        ).format(card=card, kept=kept)
        self.dismiss()
        if self.on_added is not None:
            self.on_added(entry["id"]) if self.turned_up else self.on_added()
