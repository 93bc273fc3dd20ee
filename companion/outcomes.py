"""What the table must do with its hands after a reveal or an effect on everyone, in words.

The engine records each such outcome (engine.state.Outcome: the discs shown and
the Caballeros that moved); this turns one into plain sentences for the tablet,
one per player, so nobody has to work out from the map which cubes go where.
Pure Python, no Kivy.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.board import CASTILLO, Board, classic_board


@dataclass(frozen=True)
class Instructions:
    round: int
    title: str
    discs: str            # "Discs: Red - Valencia, Blue - Galicia" or ""
    lines: list[str]      # one sentence per move; "Nothing to move." when none


def _caballeros(n: int) -> str:
    return f"{n} Caballero{'s' if n != 1 else ''}"


class OutcomeWords:
    def __init__(self, names: dict[str, str], board: Board | None = None):
        self.names = names
        self.board = board or classic_board()

    def place(self, where: str) -> str:
        if where == "court":
            return "their court"
        if where == "provinces":
            return "the provinces"
        if where == CASTILLO:
            return "the Castillo"
        return self.board.area_name(self.board.area_index[where])

    def move(self, m: dict) -> str:
        who, n, src, dst = self.names.get(m["player"], m["player"]), m["count"], m["source"], m["target"]
        if src == "court" and dst == "provinces":
            return f"{who}: put {_caballeros(n)} from their court back in the provinces."
        if dst == "provinces":
            return f"{who}: take {_caballeros(n)} from {self.place(src)} back to the provinces."
        if dst == "court":
            return f"{who}: take {_caballeros(n)} from {self.place(src)} into their court."
        return f"{who}: move {_caballeros(n)} from {self.place(src)} to {self.place(dst)}."

    def discs(self, discs: dict[str, str]) -> str:
        if not discs:
            return ""
        shown = ", ".join(f"{self.names.get(p, p)} - {self.place(r)}" for p, r in discs.items())
        return f"Discs: {shown}"

    def instructions(self, outcome: dict) -> Instructions:
        lines = [self.move(m) for m in outcome["moves"]] or ["Nothing to move."]
        return Instructions(outcome["round"], f"Round {outcome['round']}: {outcome['title']}",
                            self.discs(outcome["discs"]), lines)
