"""New game: the rules (classic or the 2023 edition and its modules), who plays which colour,
seats, region cards, game length, tracking mode and the tower. Builds a TableSetup; the table
checks it. What the rules allow and the table's own board and card files are
companion.table_rules' (no Kivy here decides a rule); the rule choice is remembered for the
next game. A 2023 game on a side of the board the table has not confirmed yet opens "Your
board" first, then starts."""

from __future__ import annotations

import random
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from pydantic import ValidationError

from companion.input_errors import InputError
from companion.look.players import PLAYER_RGB
from companion.safe_text import typed
from companion.table.setup import DEFAULT_SEATS, TableSetup, TowerConfig, seat_colours, seats_ticked
from companion.table_rules.ki_cards import ki_game_files
from companion.table_rules.new_game import check_game_setup, game_files, old_hands_returns, tower_note
from companion.table_rules.rules_choice import RulesChoice, dummy_colours, load_choice, save_choice
from companion.table_rules.storage import RuleFileError
from companion.tower.connection import check_mqtt
from companion.ui.screens.screen_words import (
    MODES_SHOWN,
    RULES_SHOWN,
    TOWERS_SHOWN,
    VARIANTS_SHOWN,
    colour_of,
    colour_word,
    id_of,
    shown,
    shown_one,
)
from companion.ui.widgets.player_mark import PlayerMark  # noqa: F401  (setup.kv's rows)
from companion.words import _, names, ngettext
from engine.board.build import classic_board
from engine.board.load import load_board
from engine.events import GameSetup
from engine.rules import MODULES as RULE_MODULES
from firmware_bridge.messages import COLOURS
from firmware_bridge.ports import list_ports

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
BOARD = classic_board()
REGION_NAMES = list(BOARD.region_names)
ON_CLASSIC_BOARD = ("classic", "king-intrigue")  # King and Intrigue plays on the classic board


def _board(rules: str):
    return BOARD if rules in ON_CLASSIC_BOARD else load_board(rules, 4)


NAME_MAX = 22  # characters in a player's name: every screen is laid out (and checked) for that many


class NameInput(TextInput):
    """A player's name: typing stops at NAME_MAX characters, so no screen gets a longer one."""

    def insert_text(self, substring, from_undo=False):
        substring = typed(substring)  # a pasted ESC, NUL or RTL override is no part of a name
        room = NAME_MAX - len(self.text) + len(self.selection_text)
        return super().insert_text(substring[: max(0, room)], from_undo=from_undo)


class PlayerRow(BoxLayout):
    colour = StringProperty("")
    rgb = ListProperty([0, 0, 0])
    plays = BooleanProperty(False)
    name = StringProperty("")
    seat = StringProperty("1")
    home = StringProperty("")
    region_names = ListProperty(REGION_NAMES)


class KnownPlayerButton(Button):
    """Someone from earlier games, with a mark in their usual colour."""

    colour_rgb = ListProperty([0.5, 0.5, 0.5])


class ModuleToggle(BoxLayout):
    """A module of the rule set: on or off (or always on, and said why)."""

    module = StringProperty("")
    words = StringProperty("")
    chosen = BooleanProperty(False)
    always = BooleanProperty(False)
    screen = ObjectProperty(None)


class SetupScreen(Screen):
    model = ObjectProperty(None)
    region_names = ListProperty(REGION_NAMES)
    colour_names = ListProperty([c.title() for c in COLOURS])
    king = StringProperty(REGION_NAMES[5])
    # The choices are shown in the table's language (the spinners' words) and read back as ids
    # (screen_words.id_of): the *_id properties are what the .kv and the game use.
    start = StringProperty("Red")
    variant = StringProperty("Short game (6 rounds)")
    mode = StringProperty("Scoring only")
    tower = StringProperty("Simulated (on-screen drops)")
    rules_values = ListProperty([])
    variant_values = ListProperty([])
    mode_values = ListProperty([])
    tower_values = ListProperty([])
    rules_id = StringProperty("classic")
    mode_id = StringProperty("scoring")
    tower_kind = StringProperty("simulated")
    port = StringProperty("")
    ports = ListProperty([])
    broker = StringProperty("mqtt://127.0.0.1:1883")
    tower_id = StringProperty("")
    mqtt_user = StringProperty("")
    mqtt_password = StringProperty("")
    ca_file = StringProperty("")
    cert_file = StringProperty("")
    key_file = StringProperty("")
    club_url = StringProperty("")  # optional: the club broker this table publishes to (companion.club)
    club_ca = StringProperty("")
    club_password = StringProperty("")
    club_name = StringProperty("")  # the club's name in the topics (`elgrande club --club`); empty: "club"
    message = StringProperty("")
    from_position = BooleanProperty(False)  # tracking from the board in front of the table (a game under way)
    # the rules
    rules = StringProperty("Classic (1995)")
    rules_words = StringProperty("")  # what the choice means (side of the board, the dummy)
    rules_notes = StringProperty("")  # the table's board and cards, the tower's colours
    dummy = StringProperty("")  # the dummy's colour (2023, 2 players), as a name
    dummy_names = ListProperty([])
    has_dummy = BooleanProperty(False)
    stand_in_offered = BooleanProperty(False)
    stand_in = BooleanProperty(False)
    returns_words = StringProperty("")  # Old Hands: the cards the table returned to the box

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rules_values, self.variant_values = shown(RULES_SHOWN), shown(VARIANTS_SHOWN)
        self.mode_values, self.tower_values = shown(MODES_SHOWN), shown(TOWERS_SHOWN)
        self.start, self.variant = colour_word("red"), _(VARIANTS_SHOWN["short"])
        self.mode, self.tower = _(MODES_SHOWN["scoring"]), _(TOWERS_SHOWN["simulated"])
        self.rows: dict[str, PlayerRow] = {}
        self.removed: list[str] = []  # Old Hands: drawn at random and returned to the box (this game)
        self.returns = []
        self.choice = load_choice()
        self.rules = shown_one(RULES_SHOWN, self.choice.rules)
        self.stand_in = self.choice.stand_in_modifiers
        self._make_rows(self.choice.rules)
        self.draw_regions(random.Random(7))
        self.bind(
            rules=self._rules_changed,
            tower=self.refresh_rules,
            dummy=self._dummy_changed,
            stand_in=self._stand_in_changed,
        )
        self.refresh_rules()

    def on_rules(self, *args) -> None:
        self.rules_id = id_of(self.rules, RULES_SHOWN)

    def on_mode(self, *args) -> None:
        self.mode_id = id_of(self.mode, MODES_SHOWN)

    def on_tower(self, *args) -> None:
        self.tower_kind = id_of(self.tower, TOWERS_SHOWN)

    def _start_colour(self) -> str:
        return colour_of(self.start, list(self.rows) or COLOURS)

    def _region_ids(self) -> dict[str, str]:
        """A region's id by its name as shown (the table's language) or as the board files name it."""
        board = _board(self.choice.rules)
        shown_names = [names.place(n, board.rules) for n in board.region_names]
        return {**dict(zip(board.region_names, board.region_ids)), **dict(zip(shown_names, board.region_ids))}

    def on_pre_enter(self, *args) -> None:
        self._show_known()
        found = list_ports(ids=())
        self.ports = [p.device for p in found] or [_("no serial port found")]
        self.port = self.port or self.ports[0]
        self.refresh_rules()  # the table's board and cards may have changed meanwhile

    # ---- the players the table knows (companion.history.records) ----------------------------------

    def _show_known(self) -> None:
        from companion.history.records import cached_records, known_players

        box = self.ids.known
        box.clear_widgets()
        try:
            known = known_players(cached_records())
        except OSError:  # the games folder unreadable: nobody is offered, the game still starts
            known = []
        for person in known[:12]:
            button = KnownPlayerButton(
                text=person.name, colour_rgb=list(PLAYER_RGB.get(person.colour, (0.5, 0.5, 0.5)))
            )
            button.bind(on_release=lambda _b, p=person: self.seat_known(p.name, p.colour))
            box.add_widget(button)

    def seat_known(self, name: str, colour: str) -> None:
        """One tap: the person plays, at their usual colour when its name is free, else at the
        first colour without a name."""
        seated = next((r for r in self.rows.values() if r.name.strip().casefold() == name.casefold()), None)
        if seated is not None:
            self.message = _("{name} already plays {colour}.").format(name=name, colour=colour_word(seated.colour))
            return
        free = [r for r in self.rows.values() if not r.name.strip()]
        row = self.rows.get(colour) if self.rows.get(colour) in free else (free[0] if free else None)
        if row is None:
            self.message = _("Every colour has a name: clear one to seat {name}.").format(name=name)
            return
        row.plays, row.name = True, name
        row.ids.name.text = name
        self.message = ""

    # ---- the rules ------------------------------------------------------------------

    def _make_rows(self, rules: str) -> None:
        """One row per colour these rules seat; names and choices kept for colours in both."""
        old = self.rows
        # As many seats as were ticked, within what these rules take; a typed name keeps its seat
        playing = self.players() if old else seat_colours(rules)[:DEFAULT_SEATS]
        ticked = set(seats_ticked(rules, playing, {c for c, r in old.items() if r.name.strip()}))
        board = _board(rules)
        shown_names = [names.place(n, board.rules) for n in board.region_names]
        self.region_names = list(shown_names)
        self.colour_names = [colour_word(c) for c in seat_colours(rules)]
        self.ids.rows.clear_widgets()
        self.rows = {}
        for i, colour in enumerate(seat_colours(rules)):
            before = old.get(colour)
            row = PlayerRow(
                colour=colour,
                rgb=list(PLAYER_RGB.get(colour, (0.5, 0.5, 0.5))),
                seat=str(i + 1),
                plays=colour in ticked,
                name=before.name if before else "",
                region_names=list(shown_names),
            )
            row.bind(plays=self.refresh_rules)
            self.rows[colour] = row
            self.ids.rows.add_widget(row)

    def _rules_changed(self, *args) -> None:
        rules = id_of(self.rules, RULES_SHOWN)
        if rules == self.choice.rules:
            return
        modules = tuple(m for m in self.choice.modules if m in RULE_MODULES.get(rules, ()))
        self.choice = RulesChoice(rules, modules, self.choice.dummy, self.choice.stand_in_modifiers)
        self._make_rows(rules)
        self.draw_regions()  # the other edition's region cards (its names, its colours' homes)
        self.refresh_rules()

    def players(self) -> list[str]:
        playing = [r for r in self.rows.values() if r.plays]
        return [r.colour for r in sorted(playing, key=lambda r: (int(r.seat), list(self.rows).index(r.colour)))]

    def refresh_rules(self, *args) -> None:
        """The modules offered, the dummy, the stand-in choice and the notes for this many players."""
        players = self.players()
        n = len(players)
        choice = self.choice
        box = self.ids.modules
        box.clear_widgets()
        for offer in choice.offers(n):
            box.add_widget(
                ModuleToggle(
                    module=offer.id,
                    chosen=offer.chosen,
                    always=offer.always,
                    screen=self,
                    words=_("{module} (always with 2 players)").format(module=offer.label)
                    if offer.always
                    else _("{module}: {about}").format(module=offer.label, about=offer.about),
                )
            )
        if players and self._start_colour() not in players:
            self.start = colour_word(players[0])  # the start player is someone who plays
        self.rules_words = choice.words(n)
        self.has_dummy = choice.rules == "2023" and n == 2
        free = dummy_colours(list(self.rows), players)
        self.dummy_names = [colour_word(c) for c in free]
        if self.has_dummy and colour_of(self.dummy, free) not in free:
            self.dummy = colour_word(choice.dummy if choice.dummy in free else free[0]) if free else ""
        files = game_files(choice, n)
        self.stand_in_offered = (
            "power-shift" in choice.modules_for(n)
            and (files.needs_modifiers or choice.stand_in_modifiers)
            and not self._file_has_modifiers(files)
        )
        notes = ([files.problem] if files.problem else []) + files.notes
        notes += self._old_hands(n, files)
        notes += tower_note(
            players + ([self._dummy_colour()] if self.has_dummy and self.dummy else []), self.tower_kind
        )
        self.rules_notes = "\n".join(notes)

    def _old_hands(self, players: int, files) -> list[str]:
        """Old Hands: what goes back to the box (a note when the card set cannot say yet)."""
        try:
            self.returns = old_hands_returns(self.choice, players, files.cards_file)
        except RuleFileError as exc:
            self.returns, self.removed, self.returns_words = [], [], ""
            return [str(exc)]
        known = {cid for r in self.returns for cid, _name in r.cards}
        self.removed = [c for c in self.removed if c in known]
        if not self.returns:
            self.returns_words = ""
            return []
        wanted = ", ".join(
            ngettext("{n} from stack {stack}", "{n} from stack {stack}", r.count).format(n=r.count, stack=r.stack)
            for r in self.returns
        )
        chosen = ", ".join(self._card_name(c) for c in self.removed) or _("none named yet")
        self.returns_words = _("Old Hands: cards returned to the box ({wanted}): {chosen}").format(
            wanted=wanted, chosen=chosen
        )
        return []

    def _card_name(self, cid: str) -> str:
        return next((name for r in self.returns for c, name in r.cards if c == cid), cid)

    def choose_returned(self) -> None:
        from companion.ui.screens.returned_cards import ReturnedCards

        """Old Hands: the table names the cards it drew and returned to the box."""
        ReturnedCards(self.returns, list(self.removed), self._returned_chosen).open()

    def _returned_chosen(self, removed: list[str]) -> None:
        self.removed = removed
        self.refresh_rules()

    @staticmethod
    def _file_has_modifiers(files) -> bool:
        return bool((files.cards_file or {}).get("modifiers"))

    def toggle_module(self, module: str) -> None:
        self.choice = self.choice.toggled(module)
        self.message = ""
        self.refresh_rules()

    def _dummy_colour(self) -> str:
        return colour_of(self.dummy, list(self.rows))

    def _dummy_changed(self, *args) -> None:
        if self.dummy:
            self.choice = RulesChoice(
                self.choice.rules, self.choice.modules, self._dummy_colour(), self.choice.stand_in_modifiers
            )
        self.refresh_rules()

    def _stand_in_changed(self, *args) -> None:
        self.choice = RulesChoice(self.choice.rules, self.choice.modules, self.choice.dummy, self.stand_in)
        self.refresh_rules()

    def _ki_cards_ready(self) -> bool:
        """King and Intrigue: a game starts only with every card fact it needs entered; else the
        screen says what is missing and Your cards opens on it."""
        files = ki_game_files(len(self.players()), self.choice.modules_for(len(self.players())))
        if files.problem or files.missing:
            n = len(files.missing)
            self.message = files.problem or ngettext(
                "King and Intrigue cannot start yet: {n} card fact to enter from your box "
                "(first: {first}). Enter it in Your cards.",
                "King and Intrigue cannot start yet: {n} card facts to enter from your box "
                "(first: {first}). Enter them in Your cards.",
                n,
            ).format(n=n, first=files.missing[0])
            self.open_rule_screen("cards")
            return False
        return True

    def open_rule_screen(self, name: str) -> None:
        """Your board (the side this many players use) or Your cards, back here after."""
        if self.choice.rules == "king-intrigue" and name == "cards":
            n = len(self.players())
            self.manager.get_screen("ki_cards").open_cards(
                back_to="setup", players=n if 2 <= n <= 5 else 4, modules=self.choice.modules_for(n)
            )
            return
        screen = self.manager.get_screen(name)
        if name == "board":
            side = self.choice.side(len(self.players()))
            screen.open_side(side if side in ("4-5", "2-3") else "4-5", back_to="setup")
        else:
            screen.open_cards(back_to="setup")

    # ---- the game -------------------------------------------------------------------

    def draw_regions(self, rng: random.Random | None = None) -> None:
        """Draw the King's card and a home card per player, as the table would."""
        rng = rng or random.Random()
        drawn = rng.sample(list(self.region_names), 1 + min(5, len(self.rows)))
        self.king = drawn[0]
        for row in self.rows.values():
            row.home = ""
        playing = [r for r in self.rows.values() if r.plays] + [r for r in self.rows.values() if not r.plays]
        for row, region in zip(playing, drawn[1:]):
            row.home = region

    def build_setup(self) -> TableSetup:
        players = self.players()
        seats = [self.rows[c] for c in players]
        start = self._start_colour()
        if start not in players and players:
            raise InputError(_("the start player ({who}) is not playing").format(who=self.start))
        kind = self.tower_kind
        tower = TowerConfig(
            kind=kind,
            port=self.port if kind == "serial" and "/" in self.port else None,
            broker=self.broker.strip() or None,
            tower_id=self.tower_id.strip() or None,
            **(self._mqtt_settings() if kind == "mqtt" else {}),
        )
        if kind == "mqtt":
            check_mqtt(tower)  # a bad address or certificate file is said here, not at the table
        region_ids = self._region_ids()
        game = GameSetup(
            players=players,
            names={r.colour: typed(r.name).strip()[:NAME_MAX] or r.colour.title() for r in seats},
            variant=id_of(self.variant, VARIANTS_SHOWN),
            king=region_ids[self.king],
            homes={r.colour: region_ids[r.home] for r in seats if r.home in region_ids},
            start_player=start,
            **self._rules_fields(players),
        )
        return TableSetup(game=game, mode=id_of(self.mode, MODES_SHOWN), tower=tower, club=self._club())

    def _club(self):
        """The club broker (mqtts://table-1@host:8883: the user is the table's id), its password and CA
        file; None when left empty. A bad address or file is said here."""
        if not self.club_url.strip():
            return None
        from companion.club.config import ClubConfig
        from companion.club.publisher import check_club

        config = ClubConfig(
            broker=self.club_url.strip(),
            password=self.club_password or None,
            ca_file=self.club_ca.strip() or None,
            club=self.club_name.strip() or "club",
        )
        check_club(config)
        return config

    def _rules_fields(self, players: list[str]) -> dict:
        """The GameSetup's rule set, modules, dummy and the table's own files."""
        choice = self.choice
        if choice.rules == "classic":
            return {}
        files = game_files(choice, len(players))
        if files.problem:
            raise InputError(files.problem)
        if choice.rules == "king-intrigue":
            return {
                "rules": "king-intrigue",
                "modules": choice.modules_for(len(players)),
                "cards_file": files.cards_file,
            }
        if files.needs_modifiers:
            raise InputError(
                _(
                    "Power Shift needs its 16 Modifier cards: import your card file in Your cards, "
                    'or tick "use the stand-in Modifier cards" (labelled: not the printed cards)'
                )
            )
        stand_in = (
            "power-shift" in choice.modules_for(len(players))
            and choice.stand_in_modifiers
            and not self._file_has_modifiers(files)
        )
        return {
            "rules": "2023",
            "modules": choice.modules_for(len(players)),
            "dummy": self._dummy_colour() if len(players) == 2 and self.dummy else None,
            "board_file": files.board_file,
            "cards_file": files.cards_file,
            "stand_in_modifiers": stand_in,
            "removed_cards": list(self.removed) if self.returns else [],
        }

    def _mqtt_settings(self) -> dict:
        return {
            "username": self.mqtt_user.strip() or None,
            "password": self.mqtt_password or None,
            "ca_file": self.ca_file.strip() or None,
            "cert_file": self.cert_file.strip() or None,
            "key_file": self.key_file.strip() or None,
        }

    def _setup_or_message(self) -> TableSetup | None:
        scoring = id_of(self.mode, MODES_SHOWN) == "scoring"
        if self.choice.rules == "king-intrigue" and not scoring and not self._ki_cards_ready():
            return None
        try:
            setup = self.build_setup()
            check_game_setup(setup.game, cards_played=setup.mode == "tracking")
        except ValidationError as exc:
            err = exc.errors()[0]
            self.message = err["msg"].removeprefix("Value error, ")
            return None
        except (InputError, RuleFileError, ValueError) as exc:
            self.message = str(exc)
            return None
        return setup

    def start_game(self) -> None:
        """Checked first; a 2023 side of the board not confirmed yet is shown before the game starts."""
        setup = self._setup_or_message()
        if setup is None:
            return
        self.message = ""
        save_choice(self.choice)  # remembered for the next game
        files = game_files(self.choice, len(setup.game.players))
        if self.choice.rules == "king-intrigue":
            self._begin()
            return
        if files.confirm_board:
            self.manager.get_screen("board").open_side(
                files.side, back_to="setup", modules=setup.game.modules, then=self._begin
            )
            return
        self._begin()

    def _begin(self) -> None:
        setup = self._setup_or_message()  # again: the board just confirmed goes into it
        if setup is None:
            self.manager.current = "setup"
            return
        try:
            self.model.new_game(setup)
        except (InputError, ValueError) as exc:
            self.manager.current = "setup"
            self.message = str(exc)
            return
        self.message = ""
        if self.from_position and id_of(self.mode, MODES_SHOWN) != "scoring":
            self.manager.get_screen("position").start_tracking()  # one event sets the board, round and cards
            return
        self.manager.current = "table"
