"""Scoring-only mode: the board as the table enters it, tap by tap, before a
scoring. Plain data (no Kivy, no rules): the engine checks the result when
it is saved as one BoardEntered event."""
from __future__ import annotations

import copy

from engine.board import CASTILLO

TOOLS = ("add", "remove", "king", "grande")


class BoardEntry:
    def __init__(self, game: dict, names: dict[str, str]):
        self.names = names
        self.players = [p["id"] for p in game["players"]]
        self.regions = {r: dict(row) for r, row in game.get("regions", {}).items()}
        self.king = game["king"]
        self.grandes = {p["id"]: p.get("grande") for p in game["players"]}
        self.court = {p["id"]: p.get("court", 0) for p in game["players"]}
        self.mobile = dict(game.get("mobile_scoreboards") or {})
        self._game = game
        self.tool = "add"
        self.colour = self.players[0]

    def tap(self, area: str) -> None:
        if area == CASTILLO:
            return  # the Castillo's content comes from the tower, never from the board entry
        row = self.regions.setdefault(area, {})
        if self.tool == "add":
            row[self.colour] = row.get(self.colour, 0) + 1
        elif self.tool == "remove" and row.get(self.colour):
            row[self.colour] -= 1
            if not row[self.colour]:
                del row[self.colour]
        elif self.tool == "king":
            self.king = area
        elif self.tool == "grande":
            self.grandes[self.colour] = area

    def tool_words(self) -> str:
        who = self.names.get(self.colour, self.colour)
        return {"add": f"tap a region to add one of {who}'s Caballeros",
                "remove": f"tap a region to take one of {who}'s Caballeros off",
                "king": "tap the King's region", "grande": f"tap the region of {who}'s Grande"}[self.tool]

    def hint(self) -> str:
        return "Choose a colour or a tool on the right, then " + self.tool_words() + "."

    def preview(self) -> dict:
        game = copy.deepcopy(self._game)
        game["regions"] = {r: dict(row) for r, row in self.regions.items() if row}
        game["king"] = self.king
        for p in game["players"]:
            p["grande"] = self.grandes.get(p["id"])
        return game

    def event(self) -> dict:
        return {"type": "board_entered", "king": self.king,
                "grandes": {p: g for p, g in self.grandes.items() if g},
                "regions": {r: {p: c for p, c in row.items() if c} for r, row in self.regions.items() if row},
                "court": self.court, "mobile_scoreboards": self.mobile}
