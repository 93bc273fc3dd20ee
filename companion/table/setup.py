"""What the new-game screen decides: the game, the mode, the tower, the club (companion.table.authority
re-exports all of it). Player ids are Caballero colours, so a drop's colour names its owner."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from companion.club.config import ClubConfig
from companion.words import _
from companion.words.colours import colour_adjective, player_name
from engine.board.load import player_range
from engine.events import GameSetup
from firmware_bridge.messages import COLOURS

Mode = Literal["tracking", "scoring"]

# Player ids are Caballero colours. The tower reports the classic box's five (COLOURS); the
# 2023 box's are purple, blue, green, orange and a fifth its rule book does not name. A 2023
# table may play any of these; the tower counts only the colours it knows, and a player
# (or the dummy) of another colour enters their Castillo throws by hand.
TABLE_COLOURS = {"classic": COLOURS, "2023": COLOURS + ("purple", "orange", "white")}


def colours_for(rules: str) -> tuple[str, ...]:
    """The colours a table of `rules` may seat (the new-game screen's list)."""
    return TABLE_COLOURS.get(rules, COLOURS)


# The 2023 box's colours first (the first four play unless the table says otherwise).
BOX_FIRST = {"classic": COLOURS, "2023": ("purple", "blue", "green", "orange"), "king-intrigue": COLOURS}
DEFAULT_SEATS = 4


def seat_colours(rules: str) -> list[str]:
    """The colours a table of these rules may seat, the box's own first."""
    allowed = list(colours_for(rules))
    first = BOX_FIRST.get(rules, COLOURS)
    return [c for c in first if c in allowed] + [c for c in allowed if c not in first]


def seats_ticked(rules: str, playing: list[str], named: set[str]) -> list[str]:
    """The colours that play once the new-game screen switches to `rules`: as many seats as were
    ticked, within what `rules` takes (engine.board.load.player_range: never a count Start refuses);
    the colours with a name typed in keep playing, the rest are the box's own colours first
    (the 2023 box's purple, blue, green, orange, not the classic colours ticked before)."""
    low, high = player_range(rules)
    colours = seat_colours(rules)
    count = max(low, min(high, len(playing)))
    kept = [c for c in playing if c in named and c in colours][:count]
    return kept + [c for c in colours if c not in kept][: count - len(kept)]


class TowerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["simulated", "serial", "mqtt", "none"] = "simulated"
    port: str | None = None  # serial: device path or pyserial URL
    broker: str | None = None  # mqtt: mqtts://host:port (TLS) or mqtt://host:port
    tower_id: str | None = None  # mqtt: the device id; the only tower whose topics are read
    # mqtt, a locked-down broker (hardware/README.md); all optional, so older saved games load
    username: str | None = None
    password: str | None = Field(default=None, repr=False)
    ca_file: str | None = None  # mqtts: the CA that signed the broker's certificate
    cert_file: str | None = None  # mqtts: an optional client certificate ...
    key_file: str | None = None  # ... and its key

    @model_validator(mode="after")
    def _check(self) -> TowerConfig:
        if self.kind == "serial" and not self.port:
            raise ValueError(_("a serial tower needs its port (pick one from the list)"))
        if self.kind == "mqtt" and not (self.broker and self.tower_id):
            raise ValueError(_("an MQTT tower needs the broker address and the tower id"))
        return self


class TableSetup(BaseModel):
    """What the new-game screen decides. Player ids are the Caballero colours the
    tower reports, so a drop's colour names its owner."""

    model_config = ConfigDict(extra="forbid")

    game: GameSetup
    mode: Mode = "tracking"
    tower: TowerConfig = Field(default_factory=TowerConfig)
    # A club broker the table publishes its public state to (companion.club); None: no club.
    club: ClubConfig | None = None
    # The colours the tower says it is calibrated for (companion.tower.connection, from its hello); not saved.
    _tower_colours: tuple[str, ...] = PrivateAttr(default=COLOURS)

    def tower_calibrated(self, colours) -> None:
        self._tower_colours = tuple(colours)

    @model_validator(mode="after")
    def _check(self) -> TableSetup:
        allowed = colours_for(self.game.rules)
        seats = list(self.game.players) + ([self.game.dummy] if self.game.dummy else [])
        wrong = [p for p in seats if p not in allowed]
        if wrong:
            raise ValueError(
                f"players are named by their Caballero colour ({', '.join(allowed)}); not a colour: {', '.join(wrong)}"
            )
        return self

    def by_hand(self) -> list[str]:
        """Seats (the dummy too) whose colour the tower is not calibrated for: their Castillo
        throws are entered by hand. None without a tower."""
        if self.tower.kind == "none":
            return []
        seats = list(self.game.players) + ([self.game.dummy] if self.game.dummy else [])
        return [p for p in seats if p not in self._tower_colours]

    def colour_notes(self) -> list[str]:
        """What the table is told about colours the tower does not know (public)."""
        notes = []
        for pid in self.by_hand():
            name, colour = player_name(self.game.names, pid), colour_adjective(pid)
            if pid == self.game.dummy:
                # The dummy never places; its Caballeros reach the Castillo only when a player moves them.
                how = (
                    _("a player who moves them there taps the Castillo")
                    if self.mode == "tracking"
                    else _("enter them in the Castillo when you enter the board")
                )
                notes.append(
                    _(
                        "The tower does not know {colour}: the dummy's ({who}) Caballeros in the Castillo "
                        "are entered by hand ({how})."
                    ).format(colour=colour, who=name, how=how)
                )
                continue
            how = (
                _("tap the Castillo when placing")
                if self.mode == "tracking"
                else _("enter their count when you enter the board")
            )
            notes.append(
                _("The tower does not know {colour}: enter {who}'s throws into the Castillo by hand ({how}).").format(
                    colour=colour, who=name, how=how
                )
            )
        if notes:
            notes.append(
                _(
                    "Or calibrate the tower for this game's colours (tap Tower:, then Calibrate the colours) "
                    "and it counts them."
                )
            )
        return notes


def saved_setup(data: Any) -> TableSetup:
    """A saved game keeps the rules revision it was played under (none written: revision 1)."""
    if isinstance(data, dict) and isinstance(data.get("game"), dict):
        data = {**data, "game": GameSetup.from_saved(data["game"])}
    return TableSetup.model_validate(data)
