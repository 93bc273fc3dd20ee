"""The table screen's players: the round track (the current round marked, the scoring rounds
starred) and a row per player: colour, name (VETO when they hold one), score, court, Power card
and place in the turn order. Its layout is score_panel.kv; the words come from the public game
the model gives (no rule here)."""

from __future__ import annotations

from pathlib import Path

from kivy.graphics import Color, RoundedRectangle
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.safe_text import for_markup, for_terminal
from companion.ui.widgets.common import hyphen_breaks
from companion.ui.widgets.player_mark import PlayerMark
from companion.words import N_, _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

# The place in the turn order, after the Power card ("card 13 · 1st"): one message per place
ORDINALS = {
    1: N_("{card} · {place}st"),
    2: N_("{card} · {place}nd"),
    3: N_("{card} · {place}rd"),
}
ORDINAL_OTHER = N_("{card} · {place}th")
SIDE_TEXT = "14sp"  # the side panel's smallest words (court, Power card, notes): 21 px at 1920x1200


def score_cell(text: str, width: float | None = None, **kwargs) -> Label:
    """A cell of the players' table: its words wrap at its width and the row grows to fit."""
    label = Label(
        text=text,
        size_hint=(1 if width is None else None, None),
        width=width or 100,
        height=dp(30),
        valign="middle",
        **kwargs,
    )
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(30), v[1] + dp(6))),
    )
    return label


class ScorePanel(BoxLayout):
    """The round track and the players' rows: built once per game (or set of players), an input
    changes only their words."""

    landscape = BooleanProperty(True)  # the table screen's shape: a spacer fills the column in portrait

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._score_cells: dict = {}  # pid -> that player's row: name, score, court, Power card
        self._rounds_shown = None  # (rounds, current round) the round track shows
        self._round_labels: dict = {}

    def show(self, game: dict) -> None:
        """The public game's scores and round."""
        self._scores(game)
        self._rounds(game)

    def _scores(self, game: dict) -> None:
        """A row per player: colour, name (wrapped, with VETO when they hold one), score, court,
        Power card and place in the turn order. The rows are built once per set of players;
        an input only changes their texts (rebuilding them cost ~70 ms an input)."""
        rows = {
            p["id"]: (
                (p["name"], "  [b][color=8a1c0c]" + _("VETO") + "[/color][/b]" if p.get("vetoes_held") else ""),
                str(p["score"]),
                _("court {n}").format(n=p.get("court", 0)),
                self._power_words(game, p),
            )
            for p in game["players"]
        }
        if list(rows) != list(self._score_cells):
            self._score_rows(list(rows))
        for pid, (name, *texts) in rows.items():
            name_cell, *cells = self._score_cells[pid]
            name_cell.words = name
            self.fit_name(name_cell)
            for cell, text in zip(cells, texts):
                if cell.text != text:
                    cell.text = text

    @staticmethod
    def fit_name(cell, *_) -> None:
        """A name cell's words at its width: a long name broken after a hyphen, never mid-word."""
        name, suffix = getattr(cell, "words", ("", ""))
        broken = hyphen_breaks(for_terminal(name), cell)  # measured as drawn: control characters as escapes
        text = "\n".join(map(for_markup, broken.split("\n"))) + suffix  # the breaks kept; a name is never a tag
        if cell.text != text:
            cell.text = text

    def _score_rows(self, players: list[str]) -> None:
        grid = self.ids.scores
        grid.clear_widgets()
        self._score_cells = {}
        for pid in players:
            grid.add_widget(PlayerMark(colour=pid, size_hint=(None, None), size=(dp(24), dp(30))))
            name = score_cell("", markup=True, halign="left")
            name.bind(text_size=self.fit_name)
            cells = (
                name,
                score_cell("", bold=True, width=dp(40)),
                score_cell("", font_size=SIDE_TEXT, width=dp(62)),
                score_cell("", font_size=SIDE_TEXT, width=dp(96)),
            )
            for cell in cells:
                grid.add_widget(cell)
            self._score_cells[pid] = cells

    @staticmethod
    def _power_words(game: dict, player: dict) -> str:
        """The Power card laid down this round and, once all are down, the place in the turn order."""
        card = player.get("power_card_played")
        if card is None:
            return ""
        # Power Shift: the total with the Modifier card decides the order, and is shown
        total = player.get("power_total")
        words = (  # fits the cell
            _("card {card}").format(card=card) if total in (None, card) else f"{card}{total - card:+d}={total}"
        )
        played = [
            q.get("power_total") if q.get("power_total") is not None else q.get("power_card_played")
            for q in game["players"]
        ]
        if None in played:
            return words
        mine = total if total is not None else card
        place = sorted(played, reverse=True).index(mine) + 1
        # Translators: the Power card played, then its place in the turn order ("card 13 · 1st")
        return _(ORDINALS.get(place, ORDINAL_OTHER)).format(card=words, place=place)

    def _rounds(self, game: dict) -> None:
        """The round track: its labels made once a game, restyled when the round changes."""
        shown = (tuple(game["rounds"]), game["round"])
        if shown == self._rounds_shown:  # it changes once a round
            return
        if self._rounds_shown is None or self._rounds_shown[0] != shown[0]:
            self._round_labels = self._round_track(game["rounds"])
        self._rounds_shown = shown
        for r, (label, highlight) in self._round_labels.items():
            current = r == game["round"]
            label.bold, label.font_size = current, "17sp" if current else "14sp"
            label.color = (1, 0.96, 0.86, 1) if current else (0.35, 0.28, 0.2, 1)
            highlight.a = 1 if current else 0

    def _round_track(self, rounds) -> dict:
        box = self.ids.rounds
        box.clear_widgets()
        scoring_rounds = {3, 6, 9}
        labels = {}
        for r in rounds:
            label = Label(text=f"{r}*" if r in scoring_rounds else str(r))
            with label.canvas.before:
                highlight = Color(0.62, 0.20, 0.12, 0)  # shown behind the current round
                rr = RoundedRectangle(pos=label.pos, size=label.size, radius=[dp(6)])
            label.bind(pos=lambda w, v, r=rr: setattr(r, "pos", v), size=lambda w, v, r=rr: setattr(r, "size", v))
            box.add_widget(label)
            labels[r] = (label, highlight)
        return labels
