"""Start: resume the last unfinished game (big), start a new one, try a demo game, see each
player's record, or pick any saved game: each listed with its date, rule set, players in their
colours, scores and winner; a finished one replays on the map.

Every log in the games folder is listed; a damaged one says what is wrong and
offers what the table authority allows (open up to its last intact record, or
keep it aside). Whatever is in the folder, this screen opens: reading a log
never raises (companion.table.game_check.check_game), and a failure while opening one
becomes the message under the buttons.
"""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from companion.history.people_words import and_list, spoken_when, standing, who_won
from companion.history.records import GameRecord, cached_records
from companion.input_errors import InputError
from companion.look.players import PLAYER_RGB, look_of
from companion.safe_text import for_markup
from companion.storage.files import display_name
from companion.storage.game_log import LogError
from companion.table.game_check import GameCheck
from companion.words import N_, _, ngettext, pgettext

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
log = logging.getLogger("companion.ui")


class GameRow(BoxLayout):
    """A saved game as a card: when it began, its rule set, its players as chips (colour, initial,
    name, score, "won"), where it stands, and what can be done with it."""

    title = StringProperty("")  # when it began (a damaged one: its file too, how it is known)
    rules = StringProperty("")  # the rule set by its printed name
    status = StringProperty("")
    damaged = BooleanProperty(False)
    file_name = StringProperty("")  # the game's file: in its Details, and on the card when damaged
    details = StringProperty("")  # the Details sheet's words (file, records, step)


class PlayerChip(BoxLayout):
    """One player on a game card: their colour with its initial (colour is never the only cue),
    their name, their score, and "won" in words for a winner."""

    rgb = ListProperty([0.5, 0.5, 0.5, 1])
    initial = StringProperty("?")
    initial_rgb = ListProperty([1, 1, 1, 1])
    words = StringProperty("")  # markup: the name (safe) and the score
    winner = BooleanProperty(False)


# An empty Home's first steps: (title, why, HomeScreen method)
FIRST_STEPS = (
    (N_("New game"), N_("Start a game: choose the rule set and seat the players."), "new_game"),
    (N_("Watch the demo"), N_("Learn a round in five minutes: a short game told step by step on the map."), "try_demo"),
    (N_("Your cards"), N_("For a 2023 box: enter your box's cards once; every game uses them."), "open_cards"),
)


class WelcomeCard(Button):
    """A first step on an empty Home: a big target with one line of why."""

    why = StringProperty("")


def _hex(pid: str) -> str:
    """A player's colour as markup hex (the replay's score line), light colours darkened to read."""
    r, g, b = PLAYER_RGB.get(pid, (0.5, 0.5, 0.5))
    if pid in ("yellow", "white", "orange", "pink"):
        r, g, b = r * 0.7, g * 0.7, b * 0.7
    return "".join(f"{round(c * 255):02x}" for c in (r, g, b))


def player_chip(colour: str, name: str, score: int | None, winner: bool) -> PlayerChip:
    look = look_of(colour)
    words = f"[b]{for_markup(name)}[/b]" + (f"  {score}" if score is not None else "")
    return PlayerChip(
        rgb=[*look.rgb, 1],
        initial=look.initial,
        initial_rgb=[0.1, 0.08, 0.05, 1] if look.dark_figures else [1, 1, 1, 1],
        # Translators: on a finished game's card, after the winner's name and score
        words=words + ("  " + pgettext("game card", "won") if winner else ""),
        winner=winner,
    )


def outcome_words(record: GameRecord | None, game: GameCheck) -> str:
    """ "Priya won" / "Ana and Bo share the win" / "Round 3, Ana's turn"."""
    if game.damaged:
        return _("Damaged: {why}").format(why=game.message())
    if game.finished:
        return (who_won(p.name for p in record.winners) if record else "") or _("Finished")
    return standing(game.where, game.names)


class HomeScreen(Screen):
    model = ObjectProperty(None)
    resume_text = StringProperty("")
    message = StringProperty("")
    games_heading = StringProperty("")
    empty = BooleanProperty(False)  # no game yet: Home says what to do first
    can_settings = BooleanProperty(False)
    _saved = None
    _records: dict = {}

    def on_pre_enter(self, *args) -> None:
        self.refresh()

    def refresh(self) -> None:
        from kivy.app import App

        # the settings sheet comes with the theme work: until the app has its own (not Kivy's
        # panel of Kivy's options), no button
        app = App.get_running_app()
        self.can_settings = getattr(type(app), "open_settings", App.open_settings) is not App.open_settings
        try:
            games = self.model.saved_games()
            self._records = {r.path: r for r in cached_records()}
        except OSError as exc:  # the folder itself unreadable: say so, still open
            games, self._records = [], {}
            self.message = _("Cannot read the saved games ({why})").format(why=exc.strerror or exc)
        self.empty = not games
        self._saved = next((g for g in games if not g.damaged and not g.finished), None)
        self.resume_text = (
            _("Continue the game started {when} ({who})").format(
                when=_lower_day(self._when(self._saved)), who=and_list(self._saved.names)
            )
            if self._saved
            else ""
        )
        damaged = sum(g.damaged for g in games)
        heading = (
            ngettext("Recent games ({n} damaged)", "Recent games ({n} damaged)", damaged).format(n=damaged)
            if damaged
            else _("Recent games")
        )
        self.games_heading = heading if games else ""
        self._welcome(games)
        box = self.ids.games
        box.clear_widgets()
        for game in games:
            box.add_widget(self._row(game))

    def _welcome(self, games: list) -> None:
        welcome = self.ids.welcome
        welcome.clear_widgets()
        if games:
            return
        for title, why, action in FIRST_STEPS:
            card = WelcomeCard(text=_(title), why=_(why))
            card.bind(on_release=lambda _, a=action: getattr(self, a)())
            welcome.add_widget(card)

    def new_game(self) -> None:
        self.manager.current = "setup"

    def open_settings(self) -> None:
        from kivy.app import App

        opener = getattr(App.get_running_app(), "open_settings", None)
        if callable(opener):
            opener()

    @staticmethod
    def _when(game: GameCheck) -> str:
        """When the game began (never its last write: opening a game does not move its date)."""
        return spoken_when(datetime.fromtimestamp(game.started or game.modified))

    def _row(self, game: GameCheck) -> GameRow:
        record = self._records.get(game.path)
        known = bool(record and record.players)
        status = outcome_words(record, game)
        if not game.damaged:
            prefix = f"{display_name(game.path)}: "
            status += "".join(". " + _("Note: {warning}").format(warning=w.removeprefix(prefix)) for w in game.warnings)
        row = GameRow(
            # A damaged game is known by its file (it may be kept aside, or sent to us); a sound
            # one by its day, its rule set and its players.
            title=self._when(game) + (f"  [{display_name(game.path)}]" if game.damaged else ""),
            rules=record.rules_label if known else "",
            file_name=game.path.name,
            status=status,
            damaged=game.damaged,
            details=_details(game),
        )
        chips = row.ids.chips
        if known:
            for p in sorted(record.players, key=lambda p: -p.score):
                chips.add_widget(player_chip(p.id, p.name, p.score, p.winner))
        else:
            chips.add_widget(Factory.ChipWords(text=for_markup(", ".join(game.names) or _("players unknown"))))
        choices = [(_("Continue") if a == "resume" and not game.finished else label, a) for label, a in game.choices()]
        if game.finished and not game.damaged:  # replay first: a finished game is looked back at
            choices = [(_("Replay"), "replay")] + choices
        for label, action in choices:
            row.ids.choices.add_widget(_choice_button(label, lambda a=action, g=game: self.choose(a, g.path)))
        return row

    def show_details(self, row: GameRow) -> None:
        """The game's file and records, for whoever looks after the tablet: never on the card."""
        Factory.DetailsSheet(details=row.details).open()

    def open_board(self) -> None:
        """The 2023 board the companion uses: the side of the last game's player count first."""
        self.manager.get_screen("board").open_side(self._last_side(), back_to="home")

    def open_cards(self) -> None:
        setup = self.manager.get_screen("setup")
        if setup.choice.rules == "king-intrigue":  # the last game's rules: its own card set
            n = len(setup.players())
            self.manager.get_screen("ki_cards").open_cards(
                back_to="home", players=n if 2 <= n <= 5 else 4, modules=setup.choice.modules_for(n)
            )
            return
        self.manager.get_screen("cards").open_cards(back_to="home")

    def _last_side(self) -> str:
        setup = self.manager.get_screen("setup")
        side = setup.choice.side(len(setup.players())) if setup.choice.rules == "2023" else "4-5"
        return side if side in ("4-5", "2-3") else "4-5"

    def resume(self) -> None:
        if self._saved:
            self.choose("resume", self._saved.path)

    def try_demo(self) -> None:
        """A short scripted game, stepped through on the map: no board, no group needed."""
        from companion.history.records import demo_replay

        self.manager.get_screen("replay").open_replay(
            demo_replay(), _("A demo game (4 players, short game)"), back_to="home", demo=True
        )
        self.manager.current = "replay"

    def open_stats(self) -> None:
        self.manager.current = "stats"

    def choose(self, action: str, path: Path) -> None:
        """replay | resume | open_intact | keep_aside, as the game's row offered."""
        try:
            if action == "replay":
                self._replay(path)
                return
            if action == "keep_aside":
                aside = self.model.keep_aside(path)
                self.message = _("{file} is kept aside as {aside}").format(
                    file=display_name(path), aside=display_name(aside)
                )
                self.refresh()
                return
            (self.model.open_intact if action == "open_intact" else self.model.resume)(path)
        except (LogError, InputError, OSError, ValueError) as exc:
            self.message = _("Cannot open {file}: {why}").format(file=display_name(path), why=exc)
            self.refresh()
            return
        except Exception as exc:  # a bug must not take the home screen (and every game) with it
            log.exception("opening %s failed", path)
            self.message = _("Cannot open {file}: {why}").format(
                file=display_name(path), why=f"{type(exc).__name__}: {exc}"
            )
            return
        self.manager.current = "table"

    def _replay(self, path: Path) -> None:
        from companion.history.records import replay_log

        record = self._records.get(path)
        title = f"{self._when_record(record)}  {record.rules_label}" if record else display_name(path)
        self.manager.get_screen("replay").open_replay(replay_log(path), title, back_to="home", record=record)
        self.manager.current = "replay"

    @staticmethod
    def _when_record(record: GameRecord) -> str:
        from companion.history.records import when

        return when(record)


def _lower_day(when: str) -> str:
    """ "Today, 19:30" inside a sentence: "today, 19:30" (a weekday keeps its capital; German
    "heute" and "gestern" are small inside a sentence too, as "hoy", "aujourd'hui")."""
    days = ("Today", "Yesterday", _("Today"), _("Yesterday"))
    return when[0].lower() + when[1:] if when.startswith(days) else when


def _details(game: GameCheck) -> str:
    lines = [_("File: {file}").format(file=game.path.name), _("Records: {n}").format(n=game.records)]
    if game.where:
        lines.append(_("Where it stopped: {where}").format(where=game.where))
    return "\n".join(lines)


def _choice_button(label: str, on_release):
    button = Factory.GameChoice(text=label)
    button.bind(on_release=lambda *_: on_release())
    return button
