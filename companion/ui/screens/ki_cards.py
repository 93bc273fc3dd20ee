"""Your cards for King and Intrigue: the numbers the rule text does not print, entered once from
the box by taps, in one table (a thin view of companion.table_rules.ki_cards.KICardsDraft and of
its box table, companion.table_rules.ki_box_table).

What a game of this many players with these modules still needs is listed first; then what
each Action card places per player count (one chip row each, 0..10), and each Power card as a
row of the table: its name (and, once chosen, its action in words) on the left, and a line of
one-tap chips per fact: Caballeros to the court (0..8), which scoring a scoring card is, what
the 30 card does, the 140 card's foreign count, a module card's word choices. A module card's
value is typed on a keypad (its digits, then Set); the 30 card's count is a stepper. Each tap
is checked by the engine's loader: a mistake is refused with its one line naming the card and
the field, and nothing changes; what is accepted is saved at once and goes into every King and
Intrigue game. Export and import as the 2023 set does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.look.tokens import TYPE_SCALE
from companion.safe_text import for_markup
from companion.table_rules.ki_box_table import (
    MODULE_WORDS,
    BoxCell,
    KICardRow,
    card_cells,
    placement_cells,
    stepped,
    typed,
)
from companion.table_rules.ki_cards import KICardsDraft
from companion.table_rules.storage import RuleFileError
from companion.ui.dialogs.import_cards import ImportDialog
from companion.ui.widgets.rule_widgets import INK, TAP, WARN, button, grid, text
from companion.words import N_, _, names, ngettext
from companion.words.file_refusals import refusal_words
from engine.rules.king_intrigue.cards import MODULE_IDS

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PLAYER_COUNTS = (2, 3, 4, 5)
# a section's button (a module's: its name)
SECTION_WORDS = {None: N_("Power cards"), "players-edition or special-cards": N_("Either module")}
NOTE_SP = TYPE_SCALE["caption"]  # a card's action in words under its name: small, still read
MISSING_SHOWN = 8


def _caption(words: str, width: float) -> Label:
    """A short caption beside a row of buttons, centred on them."""
    label = Label(
        text=words,
        color=INK,
        font_size="14sp",
        size_hint=(None, None),
        width=width,
        height=dp(48),
        halign="left",
        valign="middle",
        text_size=(width, dp(48)),
        pos_hint={"top": 1},
    )
    return label  # beside the first line of its buttons


class KICardsScreen(Screen):
    model = ObjectProperty(None)
    title = StringProperty("")
    hint = StringProperty("")
    message = StringProperty("")
    notice = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.draft: KICardsDraft | None = None
        self.back_to = "home"
        self.players = 4
        self.modules: tuple = ()
        self.blocks: dict[str, BoxLayout] = {}
        self.typed: dict[str, str] = {}  # card -> the digits of its value typed, not yet Set
        self._built_for = 0.0
        self.section_headings: dict[str, Widget] = {}  # a section button's words -> its heading

    # ---- opening --------------------------------------------------------------------------

    def open_cards(self, back_to: str = "home", players: int = 4, modules=()) -> None:
        self.title = _("Your cards: King and Intrigue")
        self.back_to, self.players, self.modules = back_to, players, tuple(modules)
        self.message = self.notice = ""
        self.typed = {}
        try:
            self.draft = KICardsDraft.load()
        except RuleFileError as exc:
            self.draft = KICardsDraft()
            self.message = _(
                "Your saved King and Intrigue cards could not be read ({why}); the shipped set is "
                "shown. Import a card file or enter the numbers again."
            ).format(why=exc)
        self.manager.current = self.name
        self._show()
        self.ids.list_scroll.scroll_y = 1

    # ---- drawing ----------------------------------------------------------------------------

    def _show(self) -> None:
        self._built_for = self._wide()
        box = self.ids.list_box
        box.clear_widgets()
        self.blocks = {}
        self.summary = grid(1)
        box.add_widget(self.summary)
        self._summary()
        heading = text(
            _("What each Action card places (left to right): tap the number on the card"),
            bold=True,
            font_size="18sp",
        )
        box.add_widget(heading)
        sections = [(_("Action cards"), heading)]
        self.placements = grid(1)
        box.add_widget(self.placements)
        self._placements()
        current: object = ()  # no group yet (None is the Power cards' group: it has a heading too)
        for row in self.draft.rows():
            if row.left_out:
                continue
            if row.group != current:
                current = row.group
                words = (
                    _("Power cards (the same numbers in every colour: tap each card's once)")
                    if current is None
                    else _("{module}'s cards").format(module=names.module(MODULE_WORDS[current]))
                    if current in MODULE_IDS
                    else _group_name(current)
                )
                heading = text(words, bold=True, font_size="18sp")
                box.add_widget(heading)
                words = _(SECTION_WORDS[current]) if current in SECTION_WORDS else _group_name(current)
                sections.append((words, heading))
            block = grid(2, spacing=dp(4))
            self.blocks[row.id] = block
            box.add_widget(block)
            self._card(block, row)
        self._section_buttons(sections)
        left = [r.name for r in self.draft.rows() if r.left_out]
        if left:
            box.add_widget(
                text(
                    _("Left in the box (this companion does not play them yet): {cards}.").format(
                        cards=", ".join(left)
                    ),
                    font_size="14sp",
                    color=(0.45, 0.2, 0.08, 1),
                )
            )

    def _section_buttons(self, sections: list[tuple[str, Widget]]) -> None:
        """A button per section over the table: a tap brings its heading to the top."""
        row = self.ids.sections
        row.clear_widgets()
        self.section_headings = dict(sections)
        for words, heading in sections:
            b = button(words, lambda h=heading: self._to_the_top(h))
            b.size_hint_x = None
            b.width = max(dp(120), len(words) * dp(9) + dp(24))
            row.add_widget(b)

    def _to_the_top(self, heading: Widget) -> None:
        """The section's heading at the top of the view (scroll_to only brings it into view, at the bottom)."""
        scroll, box = self.ids.list_scroll, self.ids.list_box
        room = box.height - scroll.height
        if room > 0:
            below_top = box.height - heading.top - dp(8)
            scroll.scroll_y = min(1.0, max(0.0, 1 - below_top / room))

    def _summary(self) -> None:
        self.summary.clear_widgets()
        missing = self.draft.missing_words(self.players, self.modules)
        mods = ", ".join(names.module(MODULE_WORDS.get(m, m)) for m in self.modules) or _("no modules")
        if missing:
            n = len(missing)
            self.hint = ngettext(
                "{n} fact still to enter for a {players}-player game ({modules}). "
                "Tap the numbers your cards show; each tap is kept.",
                "{n} facts still to enter for a {players}-player game ({modules}). "
                "Tap the numbers your cards show; each tap is kept.",
                n,
            ).format(n=n, players=self.players, modules=mods)
            more = n - MISSING_SHOWN
            shown = missing[:MISSING_SHOWN] + (
                [ngettext("and {n} more", "and {n} more", more).format(n=more)] if more > 0 else []
            )
            self.summary.add_widget(text(_("Still to enter: {facts}.").format(facts="; ".join(shown)), color=WARN))
        else:
            self.hint = _(
                "Complete for a {players}-player game ({modules}): a King and Intrigue game can start."
            ).format(players=self.players, modules=mods)
            self.summary.add_widget(text(_("Nothing missing for this game."), color=(0.16, 0.4, 0.18, 1), bold=True))

    def _wide(self) -> float:
        """The width the table is laid out for: the window's (this screen is sized only once shown)."""
        return self.manager.width if self.manager is not None else self.width

    def on_size(self, *_) -> None:
        """A turned tablet: the table laid out again for its new width (chips a line as fit)."""
        if self.draft is not None and self.blocks and abs(self._built_for - self._wide()) > 1:
            self._show()

    def _label_width(self) -> float:
        return dp(150) if self._wide() < dp(1000) else dp(200)

    def _placements(self) -> None:
        self.placements.clear_widgets()
        for n in PLAYER_COUNTS:
            for cell in placement_cells(self.draft, n):
                self.placements.add_widget(self._cell_line(cell, self._wide() - dp(20) - dp(8), dp(170)))

    def _card(self, block, row: KICardRow) -> None:
        """The card's row of the table: its name (and what it still lacks) on the left, a line of
        chips per fact on the right."""
        block.clear_widgets()
        width = self._label_width()
        to_enter = _("to enter: {facts}").format(facts=", ".join(row.unknown))
        unknown = f"\n[color=992222]{for_markup(to_enter)}[/color]" if row.unknown else ""
        words = f"\n[size={NOTE_SP}sp]{for_markup(row.effect_words)}[/size]" if row.effect_words else ""
        name = text(
            f"[b]{for_markup(row.label)}[/b]{words}{unknown}",
            markup=True,
            font_size="15sp",
            size_hint_x=None,
            width=width,
            text_size=(width, None),
        )
        cells = grid(1, spacing=dp(4))
        room = self._wide() - dp(20) - width - dp(8)
        for cell in card_cells(row):
            cells.add_widget(self._cell_line(cell, room, dp(104)))
        # the name at the top of its row, as tall as its chips
        column = BoxLayout(orientation="vertical", size_hint=(None, None), width=width)
        column.add_widget(name)
        column.add_widget(Widget())
        fit = lambda *_: setattr(column, "height", max(name.height, cells.height))
        name.bind(height=fit)
        cells.bind(height=fit)
        fit()
        block.add_widget(column)
        block.add_widget(cells)

    def _cell_line(self, cell: BoxCell, room: float, caption_width: float):
        """caption + its chips (as many a line as fit, the rest below) or its stepper."""
        line = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(4))
        line.add_widget(_caption(cell.caption, caption_width))
        if cell.field == "value":
            pad = self._keypad(cell, room - caption_width)
            line.height = pad.height
            pad.bind(height=lambda w, v: setattr(line, "height", v))
            line.add_widget(pad)
            return line
        if not cell.chips:
            line.add_widget(self._stepper_cell(cell))
            return line
        numbers = all(label.isdigit() for _value, label in cell.chips)
        chip = dp(48) if numbers else max(dp(92), _longest_word_width(label for _value, label in cell.chips) + dp(16))
        fit = max(1, int((room - caption_width) // (chip + dp(4))))
        chips = grid(min(fit, len(cell.chips)), spacing=dp(4), size_hint_x=None, pos_hint={"top": 1})
        chips.width = min(fit, len(cell.chips)) * (chip + dp(4))
        for value, label in cell.chips:
            b = button(
                label,
                lambda v=value, c=cell: self.enter(c, v),
                "on" if cell.now == value else "quiet" if not numbers else "normal",
                key=f"{cell.key}:{value}",
                size_hint_x=None,
                width=chip,
                height=dp(48),
                font_size="14sp" if not numbers else "16sp",
            )
            b.text_size = (chip - dp(12), None)  # its width is set once: words wrap, the chip grows
            chips.add_widget(b)
        rows = -(-len(cell.chips) // chips.cols)
        chips.height = rows * dp(48) + (rows - 1) * dp(4)  # as it will be: a height that stays fires nothing
        line.height = max(TAP, chips.height)
        chips.bind(height=lambda w, v: setattr(line, "height", max(TAP, v)))
        line.add_widget(chips)
        line.add_widget(Widget())
        return line

    def _stepper_cell(self, cell: BoxCell) -> BoxLayout:
        line = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(6))
        line.add_widget(
            button("−", lambda c=cell: self.step(c, -1), key=f"{cell.key}:-1", size_hint=(None, None), width=TAP)
        )
        line.add_widget(
            Label(text="?" if cell.now is None else str(cell.now), bold=True, color=INK, size_hint_x=None, width=dp(64))
        )
        line.add_widget(
            button("+", lambda c=cell: self.step(c, 1), key=f"{cell.key}:+1", size_hint=(None, None), width=TAP)
        )
        line.add_widget(Widget())
        return line

    def _keypad(self, cell: BoxCell, room: float) -> BoxLayout:
        """The value as printed on the card: its digits, then Set (shown: what is typed, else the
        value entered, else "?")."""
        line = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(4))
        keys = [(str(n), str(n)) for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)]
        side = dp(64) + dp(72) + dp(72) + dp(16)
        fit = max(1, int((room - side) // dp(52)))
        pad = grid(min(fit, len(keys)), spacing=dp(4), size_hint_x=None, pos_hint={"top": 1})
        pad.width = min(fit, len(keys)) * dp(52)
        for key, label in keys:
            pad.add_widget(
                button(
                    label,
                    lambda k=key, c=cell: self.type_digit(c, k),
                    key=f"{cell.key}:key:{key}",
                    size_hint_x=None,
                    width=dp(48),
                    height=dp(48),
                    font_size="16sp",
                )
            )
        line.add_widget(pad)
        line.add_widget(
            button(
                _("Clear"),
                lambda c=cell: self.type_digit(c, "clear"),
                "quiet",
                key=f"{cell.key}:clear",
                size_hint=(None, None),
                width=dp(72),
                height=dp(48),
                pos_hint={"top": 1},
            )
        )
        rows = -(-len(keys) // pad.cols)
        pad.height = rows * dp(48) + (rows - 1) * dp(4)
        line.height = max(TAP, pad.height)
        pad.bind(height=lambda w, v: setattr(line, "height", max(TAP, v)))
        digits = self.typed.get(cell.card, "")
        shown = digits + "_" if digits else ("?" if cell.now is None else str(cell.now))
        line.add_widget(
            Label(
                text=shown,
                bold=True,
                color=WARN if digits else INK,
                size_hint=(None, None),
                width=dp(64),
                height=dp(48),
                pos_hint={"top": 1},
            )
        )
        line.add_widget(
            button(
                _("Set"),
                lambda c=cell: self.set_typed(c),
                "primary" if digits else "quiet",
                key=f"{cell.key}:set",
                size_hint=(None, None),
                width=dp(72),
                height=dp(48),
                pos_hint={"top": 1},
            )
        )
        line.add_widget(Widget())
        return line

    # ---- taps ---------------------------------------------------------------------------------

    def _call(self, edit: Callable[[], None], cid: str = "") -> bool:
        try:
            edit()
        except RuleFileError as exc:
            self.message, self.notice = (
                refusal_words(str(exc), card_names={r.id: r.label for r in self.draft.rows()}),
                "",
            )
            return False
        except OSError as exc:
            self.message, self.notice = _("Your cards could not be saved: {why}").format(why=exc.strerror or exc), ""
            return False
        self.message = ""
        if cid in self.blocks:
            self._card(self.blocks[cid], self.draft.row(cid))
        self._summary()
        return True

    def enter(self, cell: BoxCell, value) -> None:
        """A chip tapped: that value in the cell (checked whole by the engine's loader)."""
        if self._call(lambda: self.draft.enter(cell, value), cell.card) and not cell.card:
            self._placements()

    def step(self, cell: BoxCell, delta: int) -> None:
        self.enter(cell, stepped(cell, delta))

    def type_digit(self, cell: BoxCell, key: str) -> None:
        self.typed[cell.card] = typed(self.typed.get(cell.card, ""), key)
        self.message = ""
        self._card(self.blocks[cell.card], self.draft.row(cell.card))

    def set_typed(self, cell: BoxCell) -> None:
        """The typed value into the card (checked: a value another card has is refused, the digits stay)."""
        digits = self.typed.get(cell.card, "")
        if not digits:
            self.message = _("{card}: type the value printed on the card first, then Set").format(
                card=self.draft.row(cell.card).label
            )
            return
        self.typed.pop(cell.card)
        if not self._call(lambda: self.draft.enter(cell, int(digits)), cell.card):
            self.typed[cell.card] = digits
            self._card(self.blocks[cell.card], self.draft.row(cell.card))

    def set_court(self, cid: str, n: int) -> None:
        self._call(lambda: self.draft.set_court(cid, n), cid)

    def export(self) -> None:
        try:
            path = self.draft.export()
        except (RuleFileError, OSError) as exc:
            self.message = str(exc)
            return
        self.message, self.notice = (
            "",
            _("Exported to {path} (copy it to the other tablet and import it there)").format(path=path),
        )

    def open_import(self) -> None:
        ImportDialog(self._import).open()

    def _import(self, path: str) -> str:
        """'' when imported; else the one-line refusal (the set is left as it was)."""
        trial = KICardsDraft(self.draft.file)
        try:
            trial.import_file(Path(path.strip()).expanduser())
        except RuleFileError as exc:  # the set's cards by name; a field no card names: as the engine wrote it
            return refusal_words(str(exc), card_names={r.id: r.label for r in self.draft.rows()})
        except OSError as exc:
            return _("Your cards could not be saved: {why}").format(why=exc.strerror or exc)
        self.draft = trial
        self.message, self.notice = "", _("Imported your card file")
        self.typed = {}
        self._show()
        return ""

    def back(self) -> None:
        self.manager.current = self.back_to
        if self.back_to == "setup":
            self.manager.get_screen("setup").refresh_rules()


def _longest_word_width(labels) -> float:
    """The width of the widest word of `labels` at the chips' 14 sp: a chip is never narrower
    than a word it holds ("Sonderkarten" in German is wider than the English "Special cards")."""
    from kivy.core.text import Label as CoreLabel
    from kivy.metrics import sp

    widest = 0.0
    for label in labels:
        for word in label.split():
            measured = CoreLabel(text=word, font_size=sp(14))
            measured.refresh()
            widest = max(widest, measured.texture.size[0])
    return widest


def _group_name(group) -> str:
    """A group of cards by its module's printed name, or in the app's words (the cards of either
    module: "the symbol on each card says which")."""
    name = MODULE_WORDS.get(group, str(group))
    return names.module(name) if group in MODULE_IDS else _(name)
