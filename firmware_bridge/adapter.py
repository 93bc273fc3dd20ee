"""From tower drops to table inputs: each accepted drop becomes one TowerDrop,
handed to a callback `on_drop(drop)` (the table, `elgrande listen`, a test)."""

from __future__ import annotations

import time

from pydantic import BaseModel, ConfigDict

from .messages import Drop, TowerColour


class TowerDrop(BaseModel):
    """One Caballero (or a possible several) thrown into the Castillo.

    `colour` is None when the tower is not sure (`uncertain`): the table asks the
    players, offering `best` and, for a possible multiple drop, `est` cubes."""

    model_config = ConfigDict(frozen=True)

    tower: str
    boot: str
    seq: int
    colour: TowerColour | None  # a classic colour or one added since (purple, orange, white)
    uncertain: bool
    best: TowerColour | None = None
    conf: int = 0
    multi: bool = False
    est: int = 1
    received: float = 0.0  # host wall clock, seconds

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.tower, self.boot, self.seq)

    def brief(self) -> dict:
        """The JSON line of `elgrande listen --json`."""
        return {
            "tower": self.tower,
            "boot": self.boot,
            "seq": self.seq,
            "colour": self.colour,
            "uncertain": self.uncertain,
        }


def tower_drop(tower: str, msg: Drop, received: float | None = None) -> TowerDrop:
    return TowerDrop(
        tower=tower,
        boot=msg.boot,
        seq=msg.seq,
        colour=msg.colour,
        uncertain=msg.uncertain,
        best=msg.nearest,
        conf=msg.conf,
        multi=msg.multi,
        est=msg.est,
        received=time.time() if received is None else received,
    )
