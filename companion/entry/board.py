"""The board as the table enters it in scoring-only mode, tap by tap, before a scoring; saved as
one BoardEntered event. Plain data, no Kivy. Tracking mode's entry of the whole position builds
on it (companion.entry.position).

2023 (given the game's board): the King may stand by the Castillo (Rebellion) or in
France or Portugal (Exile), a Grande in the Castillo (Competition), the Scoring tiles
lie where the mobile scoreboards did (tool "mobile:<tile id>"), and the 2-player
dummy's Caballeros are entered like a player's (it has no Grande, court or score).

King and Intrigue (scoring only): the markers that change a score, each a tool tapped on a
region, and the choices that are not a tap (companion.entry.ki_markers)."""

from __future__ import annotations

import copy

from companion.entry.ki_markers import KI_FIELDS, KIMarkerTools, ki_fields, ki_markers
from companion.entry.position_words import capitalised
from companion.words import _, names
from companion.words.colours import player_name
from engine.board.model import CASTILLO, Board

TOOLS = ("add", "remove", "king", "grande")


class BoardEntry(KIMarkerTools):
    """Scoring only: the board as it lies, tap by tap. Never raises: a tap the board
    cannot take changes nothing and says why in `message`."""

    enters_markers = True  # King and Intrigue's markers too (a tracking correction leaves them to the game)

    def __init__(self, game: dict, names: dict[str, str], board: Board | None = None):
        self.names = names
        self.board = board
        self.players = [p["id"] for p in game["players"]]
        self.dummy: str | None = game.get("dummy")
        self.regions = {r: dict(row) for r, row in game.get("regions", {}).items()}
        self.king = game["king"]
        self.grandes = {p["id"]: p.get("grande") for p in game["players"]}
        self.court = {p["id"]: p.get("court", 0) for p in game["players"]}
        self.mobile = dict(game.get("mobile_scoreboards") or {})
        self._game = game
        self.tool = "add"
        self.colour = self.players[0]
        self.message = ""
        self.modules = tuple(game.get("modules") or ())
        self.ki = ki_fields(game.get("markers") or {})  # King and Intrigue's markers, as the snapshot says them

    @property
    def king_intrigue(self) -> bool:
        return self.board is not None and self.board.rules == "king-intrigue"

    # ---- what this board allows (2023: the King beside the Castillo or in France/Portugal) ----

    @property
    def edition_2023(self) -> bool:
        return self.board is not None and self.board.rules == "2023"

    def spaces(self) -> list[str]:
        return list(getattr(self.board, "space_ids", ())) if self.board is not None else []

    def pieces(self) -> list[tuple[str, str]]:
        """(id, words) of the mobile scoreboards (classic) or Scoring tiles (2023)."""
        scoreboard = _("the {values} scoreboard")
        if self.board is None:
            return [(sid, scoreboard.format(values=sid)) for sid in ("8-4-0", "4-0-0")]
        out = [(sid, scoreboard.format(values=sid)) for sid in self.board.mobile_scoreboards]
        for tid, values in getattr(self.board, "scoring_tiles", {}).items():
            letter = tid.removeprefix("tile_").upper()
            if values:
                words = _("Scoring tile {letter} ({values})").format(letter=letter, values="·".join(map(str, values)))
            else:
                words = _("Scoring tile {letter} (values not entered)").format(letter=letter)
            out.append((tid, words))
        return out

    def who(self, pid: str) -> str:
        """A player's name as shown (a seat named by its colour: the colour in the table's language)."""
        return player_name(self.names, pid) if self.names.get(pid) else self.names.get(pid, pid)

    def king_places(self) -> list[str]:
        """Where the King may be tapped to: the regions, and in 2023 the Castillo and the spaces."""
        regions = list(self.board.region_ids) if self.board is not None else list(self.regions)
        return regions + ([CASTILLO] + self.spaces() if self.edition_2023 else [])

    def refusal(self, area: str) -> str:
        """Why this tap changes nothing ("" : it is taken). Shared by both entries."""
        tool, who = self.tool, self.who(self.colour)
        if tool == "king":
            if area in (CASTILLO, *self.spaces()) and not self.edition_2023:
                return _("The King stands in a region, never in the Castillo")
            return ""  # onto a marker too: "If the King is moved to the region where the Castillo is ..."
        if tool == "grande" and self.colour == self.dummy:
            return capitalised(_("{who} has no Grande").format(who=who))
        if area in self.spaces():
            return _("{place} is not a region: only the King stands there (Exile)").format(place=self._place(area))
        if tool == "grande" and area == CASTILLO and not self.edition_2023:
            return _("The Grande stands in a region, never in the Castillo")
        return ""

    def why_not(self, area: str) -> str:
        """Why a tap on an area this tool cannot change (not in `tappable()`) does nothing."""
        why = self.refusal(area)
        if why:
            return why
        if area == CASTILLO:
            return _(
                "The Castillo's Caballeros are not entered on the board: they come from the tower's count "
                "(or the table's own, when it is lifted)"
            )
        # Translators: "Galicia: tap a region to add one of Ana's Caballeros changes nothing there"
        return capitalised(
            _("{place}: {tool} changes nothing there").format(place=self._place(area), tool=self.tool_words())
        )

    def _place(self, aid: str) -> str:
        if aid == CASTILLO:
            return _("the Castillo")
        if self.board is not None and aid in self.board.area_index:
            return names.area(self.board, self.board.area_index[aid])
        return aid

    def tap(self, area: str) -> None:
        self.message = self.refusal(area)
        if self.message:
            return
        if self.tool in KI_FIELDS:
            self.message = self._marker_refusal(area)
            if not self.message:
                self._toggle_marker(area)
            return
        if self.tool.startswith("mobile:"):
            sid = self.tool[7:]
            self.message = self._piece_refusal(sid, area)
            if not self.message:
                self.mobile[sid] = area
            return
        if self.tool == "king":
            self.king = area
            return
        if self.tool == "grande" and area == CASTILLO:
            self.grandes[self.colour] = area  # 2023: Competition
            return
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

    def _piece_refusal(self, sid: str, area: str | None) -> str:
        known = dict(self.pieces())
        if sid not in known:
            return _("{piece} is not a mobile scoreboard or Scoring tile ({known})").format(
                piece=repr(sid), known=", ".join(known)
            )
        tiles = getattr(self.board, "scoring_tiles", {}) if self.board is not None else {}
        if sid in tiles and tiles[sid] is None:
            return self.board.missing.get(f"scoring_tiles.{sid}") or _(
                "enter {piece}'s values from your tile first (board file: {path})"
            ).format(piece=known[sid], path=f"scoring_tiles.{sid}")
        if area is not None and area in self.spaces():
            return _("{place} is not a region: no Scoring tile goes there").format(place=self._place(area))
        for other, where in self.mobile.items():
            if other != sid and where is not None and where == area:
                return capitalised(
                    _("{piece} already lies on {place}: one per area").format(
                        piece=known.get(other, other), place=self._place(area)
                    )
                )
        return ""

    def tappable(self) -> list[str]:
        """The areas a tap with this tool may change: the King's places, the regions, and the
        Castillo for a Grande (2023) or a scoreboard (2023, King and Intrigue)."""
        if self.tool == "king":
            return self.king_places()
        regions = list(self.board.region_ids) if self.board is not None else list(self.regions)
        castillo = (self.edition_2023 and self.tool == "grande") or (
            self.tool.startswith("mobile:") and (self.edition_2023 or self.king_intrigue)
        )
        return regions + ([CASTILLO] if castillo else [])

    def tool_buttons(self) -> list[tuple[str, str]]:
        """Every tool but a colour's "add" (one button per colour), in the order shown."""
        pieces = self.edition_2023 or self.king_intrigue  # classic scoring only: the scoreboards stay put
        tiles = (
            [(f"mobile:{sid}", _("Place {piece}").format(piece=words)) for sid, words in self.pieces()]
            if pieces
            else []
        )
        return [
            ("remove", _("Take one off")),
            ("king", _("Move the King")),
            ("grande", _("Move a Grande")),
            *tiles,
            *self.ki_tools(),
        ]

    def tool_words(self) -> str:
        who = self.who(self.colour)
        if self.tool in KI_FIELDS:
            return self._marker_tool_words()
        if self.tool.startswith("mobile:"):
            piece = dict(self.pieces()).get(self.tool[7:], self.tool[7:])
            return _("tap the area where {piece} lies").format(piece=piece)
        if self.tool == "king":
            if self.edition_2023:
                return _("tap the King's region (or the Castillo, France, Portugal)")
            return _("tap the King's region")
        return {
            "add": _("tap a region to add one of {who}'s Caballeros"),
            "remove": _("tap a region to take one of {who}'s Caballeros off"),
            "grande": _("tap the region of {who}'s Grande"),
        }[self.tool].format(who=who)

    def hint(self) -> str:
        return _("Choose a colour or a tool on the right, then {tool}.").format(tool=self.tool_words())

    def preview(self) -> dict:
        game = copy.deepcopy(self._game)
        game["regions"] = {r: dict(row) for r, row in self.regions.items() if row}
        game["king"] = self.king
        for p in game["players"]:
            p["grande"] = self.grandes.get(p["id"])
        if self.king_intrigue:
            game["markers"] = ki_markers(self.ki)
        return game

    def event(self) -> dict:
        event = {
            "type": "board_entered",
            "king": self.king,
            "grandes": {p: g for p, g in self.grandes.items() if g and p != self.dummy},
            "regions": {r: {p: c for p, c in row.items() if c} for r, row in self.regions.items() if row},
            "court": self.court,
            "mobile_scoreboards": self.mobile,
        }
        if self.king_intrigue:
            event.update(copy.deepcopy(self.ki))
        return event
