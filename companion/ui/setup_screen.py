"""New game: who plays which colour, seats, region cards, game length, tracking
mode and the tower. Builds a TableSetup; the table checks it."""
from __future__ import annotations

import random
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from pydantic import ValidationError

from engine.board import classic_board
from engine.events import GameSetup
from firmware_bridge.messages import COLOURS
from firmware_bridge.ports import list_ports

from ..table import InputError, TableSetup, TowerConfig
from ..tower import check_mqtt
from .map_view import PLAYER_RGB

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
BOARD = classic_board()
REGION_NAMES = list(BOARD.region_names)
REGION_IDS = dict(zip(BOARD.region_names, BOARD.region_ids))
TOWER_KINDS = {"Simulated (on-screen drops)": "simulated", "USB serial": "serial", "MQTT (Wi-Fi)": "mqtt",
               "No tower": "none"}


class PlayerRow(BoxLayout):
    colour = StringProperty("")
    rgb = ListProperty([0, 0, 0])
    plays = BooleanProperty(False)
    name = StringProperty("")
    seat = StringProperty("1")
    home = StringProperty("")
    region_names = ListProperty(REGION_NAMES)


class SetupScreen(Screen):
    model = ObjectProperty(None)
    region_names = ListProperty(REGION_NAMES)
    colour_names = ListProperty([c.title() for c in COLOURS])
    king = StringProperty(REGION_NAMES[5])
    start = StringProperty("Red")
    variant = StringProperty("Short game (6 rounds)")
    mode = StringProperty("Scoring only")
    tower = StringProperty("Simulated (on-screen drops)")
    port = StringProperty("")
    ports = ListProperty([])
    broker = StringProperty("mqtt://127.0.0.1:1883")
    tower_id = StringProperty("")
    mqtt_user = StringProperty("")
    mqtt_password = StringProperty("")
    ca_file = StringProperty("")
    cert_file = StringProperty("")
    key_file = StringProperty("")
    message = StringProperty("")
    from_position = BooleanProperty(False)  # tracking from the board in front of the table (a game under way)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rows: dict[str, PlayerRow] = {}
        for i, colour in enumerate(COLOURS):
            row = PlayerRow(colour=colour, rgb=list(PLAYER_RGB[colour]), plays=i < 4, seat=str(i + 1))
            self.rows[colour] = row
            self.ids.rows.add_widget(row)
        self.draw_regions(random.Random(7))

    def on_pre_enter(self, *args) -> None:
        found = list_ports(ids=())
        self.ports = [p.device for p in found] or ["no serial port found"]
        self.port = self.port or self.ports[0]

    def draw_regions(self, rng: random.Random | None = None) -> None:
        """Draw the King's card and a home card per player, as the table would."""
        rng = rng or random.Random()
        drawn = rng.sample(REGION_NAMES, 1 + len(COLOURS))
        self.king = drawn[0]
        for row, region in zip(self.rows.values(), drawn[1:]):
            row.home = region

    def build_setup(self) -> TableSetup:
        playing = [r for r in self.rows.values() if r.plays]
        seats = sorted(playing, key=lambda r: (int(r.seat), COLOURS.index(r.colour)))
        players = [r.colour for r in seats]
        start = self.start.lower()
        if start not in players and players:
            raise InputError(f"the start player ({self.start}) is not playing")
        kind = TOWER_KINDS[self.tower]
        tower = TowerConfig(kind=kind, port=self.port if kind == "serial" and "/" in self.port else None,
                            broker=self.broker.strip() or None, tower_id=self.tower_id.strip() or None,
                            **(self._mqtt_settings() if kind == "mqtt" else {}))
        if kind == "mqtt":
            check_mqtt(tower)  # a bad address or certificate file is said here, not at the table
        game = GameSetup(players=players, names={r.colour: r.name.strip() or r.colour.title() for r in seats},
                         variant="short" if self.variant.startswith("Short") else "full",
                         king=REGION_IDS[self.king], homes={r.colour: REGION_IDS[r.home] for r in seats},
                         start_player=start)
        return TableSetup(game=game, mode="scoring" if self.mode == "Scoring only" else "tracking", tower=tower)

    def _mqtt_settings(self) -> dict:
        return {"username": self.mqtt_user.strip() or None, "password": self.mqtt_password or None,
                "ca_file": self.ca_file.strip() or None, "cert_file": self.cert_file.strip() or None,
                "key_file": self.key_file.strip() or None}

    def start_game(self) -> None:
        try:
            self.model.new_game(self.build_setup())
        except ValidationError as exc:
            err = exc.errors()[0]
            self.message = err["msg"].removeprefix("Value error, ")
            return
        except (InputError, ValueError) as exc:
            self.message = str(exc)
            return
        self.message = ""
        if self.from_position and self.mode != "Scoring only":
            self.manager.get_screen("position").start_tracking()  # one event sets the board, round and cards
            return
        self.manager.current = "table"
