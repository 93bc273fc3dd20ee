"""Your cards for King and Intrigue: the numbers the rule text does not print, entered once from
the box by taps (a thin view of companion.ki_cards.KICardsDraft).

What a game of this many players with these modules still needs is listed first; then what
each Action card places per player count (steppers), and each Power card: its Caballeros to the
court (one tap on 0..8), a module card's value (steppers of 1 and 10), which scoring a scoring
card is and what the 30 card does (one tap on its choice), the 140 card's foreign count. Each
tap is checked by the engine's loader: a mistake is refused with its one line naming the card
and the field, and nothing changes; what is accepted is saved at once and goes into every King
and Intrigue game. Export and import as the 2023 set does.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from ..ki_cards import (ACTION_NAMES, COUNTED, COURT_CHOICES, FIELD_WORDS, MODULE_IDS, MODULE_WORDS, OPPONENT_EFFECTS,
                        SCORINGS, WORD_LABELS, KICardRow, KICardsDraft, param_spec, value_step)
from ..rule_files import RuleFileError
from .cards_screen import ImportDialog
from .rule_widgets import INK, TAP, WARN, button, grid, stepper, text

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PLAYER_COUNTS = (2, 3, 4, 5)
MISSING_SHOWN = 8


def action_names(players: int) -> list[str]:
    """The Action cards of a game, left to right: the Intrigue card, the Caballero cards, the King's Card."""
    middle = [ACTION_NAMES["caballero"] + (f" {i + 1}" if players > 3 else "") for i in range(players - 2)]
    return [ACTION_NAMES["intrigue"], *middle, ACTION_NAMES["kings_card"]]


def _caption(words: str, width: float) -> Label:
    """A short caption beside a row of buttons, centred on them."""
    label = Label(text=words, color=INK, font_size="14sp", size_hint=(None, None), width=width, height=TAP,
                  halign="left", valign="middle", text_size=(width, TAP))
    return label


class KICardsScreen(Screen):
    model = ObjectProperty(None)
    title = StringProperty("Your cards: King and Intrigue")
    hint = StringProperty("")
    message = StringProperty("")
    notice = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.draft: Optional[KICardsDraft] = None
        self.back_to = "home"
        self.players = 4
        self.modules: tuple = ()
        self.blocks: dict[str, BoxLayout] = {}

    # ---- opening --------------------------------------------------------------------------

    def open_cards(self, back_to: str = "home", players: int = 4, modules=()) -> None:
        self.back_to, self.players, self.modules = back_to, players, tuple(modules)
        self.message = self.notice = ""
        try:
            self.draft = KICardsDraft.load()
        except RuleFileError as exc:
            self.draft = KICardsDraft()
            self.message = (f"Your saved King and Intrigue cards could not be read ({exc}); the shipped set is "
                            "shown. Import a card file or enter the numbers again.")
        self.manager.current = self.name
        self._show()
        self.ids.list_scroll.scroll_y = 1

    # ---- drawing ----------------------------------------------------------------------------

    def _show(self) -> None:
        box = self.ids.list_box
        box.clear_widgets()
        self.blocks = {}
        self.summary = grid(1)
        box.add_widget(self.summary)
        self._summary()
        box.add_widget(text("What each Action card places (left to right)", bold=True, font_size="18sp"))
        self.placements = grid(2 if self.width >= self.height else 1)
        box.add_widget(self.placements)
        self._placements()
        current = None
        for row in self.draft.rows():
            if row.left_out:
                continue
            if row.group != current:
                current = row.group
                words = ("Power cards" if current is None else f"{MODULE_WORDS[current]}'s cards"
                         if current in MODULE_IDS else MODULE_WORDS.get(current, current))
                box.add_widget(text(words, bold=True, font_size="18sp"))
            block = grid(1)
            self.blocks[row.id] = block
            box.add_widget(block)
            self._card(block, row)
        left = [r.name for r in self.draft.rows() if r.left_out]
        if left:
            box.add_widget(text("Left in the box (this companion does not play them yet): " + ", ".join(left) + ".",
                                font_size="14sp", color=(0.45, 0.2, 0.08, 1)))

    def _summary(self) -> None:
        self.summary.clear_widgets()
        missing = self.draft.missing_words(self.players, self.modules)
        mods = ", ".join(MODULE_WORDS.get(m, m) for m in self.modules) or "no modules"
        if missing:
            self.hint = (f"{len(missing)} fact{'s' * (len(missing) != 1)} still to enter for a {self.players}-player "
                         f"game ({mods}). Tap the numbers your cards show; each tap is kept.")
            shown = missing[:MISSING_SHOWN] + ([f"and {len(missing) - MISSING_SHOWN} more"]
                                               if len(missing) > MISSING_SHOWN else [])
            self.summary.add_widget(text("Still to enter: " + "; ".join(shown) + ".", color=WARN))
        else:
            self.hint = f"Complete for a {self.players}-player game ({mods}): a King and Intrigue game can start."
            self.summary.add_widget(text("Nothing missing for this game.", color=(0.16, 0.4, 0.18, 1), bold=True))

    def _placements(self) -> None:
        self.placements.clear_widgets()
        for n in PLAYER_COUNTS:
            row = self.draft.placements(n)
            for i, name in enumerate(action_names(n)):
                shown = "?" if row[i] is None else str(row[i])
                self.placements.add_widget(stepper(f"{n} players: {name}", shown,
                                                   lambda d, n=n, i=i: self.step_placement(n, i, d),
                                                   key=f"place:{n}:{i}"))

    def _card(self, block, row: KICardRow) -> None:
        block.clear_widgets()
        unknown = f"  [color=992222](to enter: {', '.join(row.unknown)})[/color]" if row.unknown else ""
        block.add_widget(text(f"[b]{row.label}[/b]{unknown}", markup=True, font_size="17sp"))
        if row.ask_value:
            block.add_widget(self._value_row(row))
        if row.ask_module:   # the text does not say: the symbol on the card does
            mods = grid(3)
            mods.add_widget(_caption("its module", dp(96)))
            for module in MODULE_IDS:
                mods.add_widget(button(MODULE_WORDS[module], lambda m=module, c=row.id: self.set_module(c, m),
                                       "on" if row.module == module else "quiet", key=f"module:{row.id}:{module}"))
            block.add_widget(mods)
        court = grid(len(COURT_CHOICES) + 1)
        court.add_widget(_caption("to the court", dp(96)))
        for n in COURT_CHOICES:
            court.add_widget(button(str(n), lambda n=n, c=row.id: self.set_court(c, n),
                                    "on" if row.court == n else "normal", key=f"court:{row.id}:{n}",
                                    size_hint_x=None, width=TAP))
        block.add_widget(court)
        if row.ask_effect == "scoring":
            choices = grid(2)
            for i, (effect, params, words) in enumerate(SCORINGS):
                on = row.effect == effect and all(row.params.get(k) == v for k, v in params.items())
                choices.add_widget(button(f"Scores {words}", lambda i=i, c=row.id: self.set_scoring(c, i),
                                          "on" if on else "quiet", key=f"scoring:{row.id}:{i}"))
            block.add_widget(choices)
        elif row.ask_effect == "opponents":
            choices = grid(1)
            for effect, words in OPPONENT_EFFECTS:
                choices.add_widget(button(words, lambda e=effect, c=row.id: self.set_opponents(c, e),
                                          "on" if row.effect == effect else "quiet", key=f"effect:{row.id}:{effect}"))
            block.add_widget(choices)
            if row.effect in COUNTED:
                count = row.params.get("count")
                block.add_widget(stepper("how many Caballeros", "all" if count is None else str(count),
                                         lambda d, c=row.id: self.step_param(c, "count", d, 1, 30),
                                         key=f"param:{row.id}:count"))
        for name in row.ask_params:
            value = row.params.get(name)
            spec = param_spec(row.effect, name)
            caption = FIELD_WORDS.get(name, name)
            if spec[0] == "choice":
                block.add_widget(text(caption, font_size="14sp"))
                choices = grid(2)
                for word in spec[1]:
                    choices.add_widget(button(WORD_LABELS.get(word, word.replace("_", " ")),
                                              lambda w=word, c=row.id, p=name: self.set_param(c, p, w),
                                              "on" if value == word else "quiet", key=f"param:{row.id}:{name}:{word}"))
                block.add_widget(choices)
                continue
            low, high = spec[1], spec[2]
            block.add_widget(stepper(caption, "?" if value is None else str(value),
                                     lambda d, c=row.id, p=name, lo=low, hi=high: self.step_param(c, p, d, lo, hi),
                                     key=f"param:{row.id}:{name}"))

    def _value_row(self, row: KICardRow) -> BoxLayout:
        line = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(6))
        line.add_widget(_caption("its value", dp(96)))
        for delta in (-10, -1):
            line.add_widget(button(str(delta).replace("-", "−"), lambda d=delta, c=row.id: self.step_value(c, d),
                                   key=f"value:{row.id}:{delta}", size_hint=(None, None), width=TAP))
        shown = "?" if row.value is None else str(row.value)
        line.add_widget(Label(text=shown, bold=True, color=INK, size_hint_x=None, width=dp(64)))
        for delta in (1, 10):
            line.add_widget(button(f"+{delta}", lambda d=delta, c=row.id: self.step_value(c, d),
                                   key=f"value:{row.id}:{delta}", size_hint=(None, None), width=TAP))
        line.add_widget(Widget())
        return line

    # ---- taps ---------------------------------------------------------------------------------

    def _call(self, edit: Callable[[], None], cid: str = "") -> bool:
        try:
            edit()
        except RuleFileError as exc:
            self.message, self.notice = str(exc), ""
            return False
        except OSError as exc:
            self.message, self.notice = f"Your cards could not be saved: {exc.strerror or exc}", ""
            return False
        self.message = ""
        if cid in self.blocks:
            self._card(self.blocks[cid], self.draft.row(cid))
        self._summary()
        return True

    def set_module(self, cid: str, module: str) -> None:
        self._call(lambda: self.draft.set_module(cid, module), cid)

    def set_court(self, cid: str, n: int) -> None:
        self._call(lambda: self.draft.set_court(cid, n), cid)

    def step_value(self, cid: str, delta: int) -> None:
        taken = {r.value for r in self.draft.rows() if r.value is not None and r.id != cid}
        self._call(lambda: self.draft.set_value(cid, value_step(self.draft.row(cid).value, delta, taken)), cid)

    def set_scoring(self, cid: str, index: int) -> None:
        effect, params, _ = SCORINGS[index]
        self._call(lambda: self.draft.set_effect(cid, effect, params), cid)

    def set_opponents(self, cid: str, effect: str) -> None:
        params = {"count": COUNTED[effect]} if effect in COUNTED else {}
        self._call(lambda: self.draft.set_effect(cid, effect, params), cid)

    def set_param(self, cid: str, name: str, value) -> None:
        self._call(lambda: self.draft.set_param(cid, name, value), cid)

    def step_param(self, cid: str, name: str, delta: int, low: int, high: int) -> None:
        value = self.draft.row(cid).params.get(name)
        new = low if value is None else max(low, min(high, value + delta))
        self._call(lambda: self.draft.set_param(cid, name, new), cid)

    def step_placement(self, players: int, index: int, delta: int) -> None:
        value = self.draft.placements(players)[index]
        new = max(0, min(10, (1 if value is None else value + delta)))
        if self._call(lambda: self.draft.set_placement(players, index, new)):
            self._placements()

    def export(self) -> None:
        try:
            path = self.draft.export()
        except (RuleFileError, OSError) as exc:
            self.message = str(exc)
            return
        self.message, self.notice = "", f"Exported to {path} (copy it to the other tablet and import it there)"

    def open_import(self) -> None:
        ImportDialog(self._import).open()

    def _import(self, path: str) -> str:
        """'' when imported; else the one-line refusal (the set is left as it was)."""
        trial = KICardsDraft(self.draft.file)
        try:
            trial.import_file(Path(path.strip()).expanduser())
        except RuleFileError as exc:
            return str(exc)
        except OSError as exc:
            return f"Your cards could not be saved: {exc.strerror or exc}"
        self.draft = trial
        self.message, self.notice = "", f"Imported {Path(path).name}"
        self._show()
        return ""

    def back(self) -> None:
        self.manager.current = self.back_to
        if self.back_to == "setup":
            self.manager.get_screen("setup").refresh_rules()
