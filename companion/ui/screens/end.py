"""Game end: final standings and each player's score over the game."""

from __future__ import annotations

from pathlib import Path

from kivy.graphics import Color, Line, Rectangle
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import DictProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.look.players import PLAYER_RGB
from companion.ui.widgets.common import hyphen_breaks, sheet_button, sheet_label
from companion.ui.widgets.map_view import INK, _text

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ScorePlot(Widget):
    """Score after each scoring, one line per player; rounds along the bottom."""

    history = DictProperty({})  # pid -> [(round, score), ...]
    rounds = ListProperty([])

    def on_history(self, *args):
        self.draw()

    def on_size(self, *args):
        self.draw()

    def on_pos(self, *args):
        self.draw()

    def draw(self) -> None:
        self.canvas.clear()
        if not self.history or not self.rounds:
            return
        left, bottom = self.x + dp(44), self.y + dp(34)
        width, height = self.width - dp(60), self.height - dp(50)
        top_score = max(max(s for _, s in pts) for pts in self.history.values()) or 1
        last_round = max(self.rounds)
        x_of = lambda r: left + width * r / last_round
        y_of = lambda s: bottom + height * s / top_score
        with self.canvas:
            Color(1, 1, 1, 0.6)
            Rectangle(pos=(left, bottom), size=(width, height))
            Color(*INK)
            Line(points=[left, bottom + height, left, bottom, left + width, bottom], width=1.2)
            for r in [0] + list(self.rounds):
                tex = _text(str(r), int(sp(14)))
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(x_of(r) - tex.width / 2, bottom - dp(24)), size=tex.size)
            for s in (0, top_score // 2, top_score):
                tex = _text(str(s), int(sp(14)))
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(left - tex.width - dp(6), y_of(s) - tex.height / 2), size=tex.size)
            for pid, pts in self.history.items():
                Color(*PLAYER_RGB.get(pid, (0.5, 0.5, 0.5)))
                Line(points=[c for r, s in pts for c in (x_of(r), y_of(s))], width=2.2)


class EndScreen(Screen):
    model = ObjectProperty(None)
    heading = StringProperty("Final standings")

    def on_pre_enter(self, *args) -> None:
        game = self.model.public["game"]
        winners = [self.model.name(w) for w in game.get("winners", [])]
        self.heading = ("El Grande: " + " and ".join(winners)) if winners else "Standings so far"
        grid = self.ids.standings
        grid.clear_widgets()
        ranked = sorted(game["players"], key=lambda p: -p["score"])
        for place, p in enumerate(ranked, start=1):
            grid.add_widget(Label(text=f"{place}.", size_hint=(None, None), size=(dp(36), dp(44)), font_size="20sp"))
            name = Label(
                text=p["name"],
                font_size="20sp",
                bold=p["id"] in game.get("winners", []),
                color=(*PLAYER_RGB[p["id"]], 1) if p["id"] != "yellow" else (0.6, 0.45, 0, 1),
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
        self.ids.plot.rounds = list(game["rounds"])
        self.ids.plot.history = self.model.table.score_history()
        self.offer_cards_left()

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
                    "The cards left are in Your cards: your next games know these stacks.",
                    font_size="16sp",
                    halign="left",
                )
            )
        if not left:
            return
        n = sum(s.to_name for s in left)
        words = "the card" if n == 1 else f"the {n} cards"
        row.add_widget(
            sheet_label(
                f"Turn over {words} left in the stacks and name them, so your next games ask nothing.",
                font_size="16sp",
                halign="left",
            )
        )
        button = sheet_button(
            "Name the cards left",
            lambda: NameCardsLeft(self.model, self.offer_cards_left).open(),
            primary=True,
            height=dp(56),
            size_hint_x=None,
            width=dp(240),
        )
        row.add_widget(button)

    def new_game(self) -> None:
        self.manager.current = "setup"
