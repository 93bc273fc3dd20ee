"""Game end: final standings and each player's score over the game (the replay's plot: the same steps,
the final scoring a band of its own)."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.history.people_words import who_won
from companion.history.records import replay_table
from companion.ui.widgets.common import hyphen_breaks, sheet_button, sheet_label
from companion.ui.widgets.player_mark import PlayerMark
from companion.ui.widgets.step_plot import StepPlot  # noqa: F401  (the .kv's)
from companion.words import _, ngettext

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class EndScreen(Screen):
    model = ObjectProperty(None)
    heading = StringProperty("Final standings")

    def on_pre_enter(self, *args) -> None:
        game = self.model.public["game"]
        winners = [self.model.name(w) for w in game.get("winners", [])]
        self.heading = who_won(winners) or _("Standings so far")
        grid = self.ids.standings
        grid.clear_widgets()
        ranked = sorted(game["players"], key=lambda p: -p["score"])
        for place, p in enumerate(ranked, start=1):
            grid.add_widget(Label(text=f"{place}.", size_hint=(None, None), size=(dp(36), dp(44)), font_size="20sp"))
            grid.add_widget(PlayerMark(colour=p["id"], size_hint=(None, None), size=(dp(32), dp(44))))
            name = Label(
                text=p["name"],
                font_size="20sp",
                bold=p["id"] in game.get("winners", []),
                size_hint_y=None,
                height=dp(44),
                halign="left",
                valign="middle",
            )
            name.bind(
                width=lambda w, v: setattr(w, "text_size", (v, None)),  # a long name wraps, the row grows
                texture_size=lambda w, v: setattr(w, "height", max(dp(44), v[1] + dp(8))),
                text_size=lambda w, v, words=p["name"]: setattr(w, "text", hyphen_breaks(words, w)),
            )
            grid.add_widget(name)
            grid.add_widget(
                Label(text=str(p["score"]), font_size="22sp", bold=True, size_hint=(None, None), size=(dp(60), dp(44)))
            )
        self.ids.plot.replay = replay_table(self.model.table)  # the replay's plot: scorings as bands
        self.offer_cards_left()
        self.play_code()

    def play_code(self) -> None:
        """BG Stats' code of the finished play, beside the standings (companion.plays)."""
        from companion.history.records import record_of_table
        from companion.plays.play_code import PlayCode

        slot, table = self.ids.play_code, self.model.table
        slot.clear_widgets()
        if table.over and table.path is not None:
            code = PlayCode()
            code.show(record_of_table(table, table.path))
            code.bind(size=lambda w, v: setattr(slot, "size", v))
            slot.size = code.size
            slot.add_widget(code)

    def offer_cards_left(self) -> None:
        """2023: a stack's cards left face down that the set cannot place are offered to name,
        skippable, saying why in one line; gone once kept."""
        from companion.ui.dialogs.name_cards_left import NameCardsLeft

        row = self.ids.learn
        row.clear_widgets()
        left = self.model.table.stacks_left()
        kept = self.model.table.cards_left_named
        row.height = dp(64) if left or kept else 0
        if kept:  # said once kept, where the offer was
            row.add_widget(
                sheet_label(
                    _("The cards left are in Your cards: your next games know these stacks."),
                    font_size="16sp",
                    halign="left",
                )
            )
        if not left:
            return
        n = sum(s.to_name for s in left)
        row.add_widget(
            sheet_label(
                ngettext(
                    "Turn over the card left in the stacks and name it, so your next games ask nothing.",
                    "Turn over the {n} cards left in the stacks and name them, so your next games ask nothing.",
                    n,
                ).format(n=n),
                font_size="16sp",
                halign="left",
            )
        )
        button = sheet_button(
            _("Name the cards left"),
            lambda: NameCardsLeft(self.model, self.offer_cards_left).open(),
            primary=True,
            height=dp(56),
            size_hint_x=None,
            width=dp(240),
        )
        row.add_widget(button)

    def new_game(self) -> None:
        self.manager.current = "setup"
