"""The board as the table enters it, tap by tap. Plain data, no Kivy.

- BoardEntry: scoring-only mode, before a scoring; saved as one BoardEntered event.
- PositionEntry: tracking mode, the whole position for one TableCorrected event (a
  correction, or the start of tracking in a game under way). It refuses what no
  table could hold (a 31st Caballero, a fourth Power card laid down before round 4);
  the engine checks the whole event again when it is sent.

2023 (given the game's board): the King may stand by the Castillo (Rebellion) or in
France or Portugal (Exile), a Grande in the Castillo (Competition), the Scoring tiles
lie where the mobile scoreboards did (tool "mobile:<tile id>"), and the 2-player
dummy's Caballeros are entered like a player's (it has no Grande, court or score).

King and Intrigue (scoring only): the markers that change a score, each a tool tapped on a
region (`KI_TOOLS`: a tap places, a tap on the same region takes it off), the two mobile
scoreboards and their reversed side, the Mistress's holder and the bridge's owner as choices
(`ki_choices`, `choose`). Only the markers of the modules in play are offered; the engine
checks the whole event again (engine.snapshot.check_snapshot)."""

from __future__ import annotations

import copy

from engine.board.model import CASTILLO, Board
from engine.ki_markers import MARKERS
from engine.queries import LIMIT_MARKERS  # the public view's keys of the limit tables

TOOLS = ("add", "remove", "king", "grande")

# What each King and Intrigue marker tool is called in a sentence, and the snapshot field it fills
KI_WORDS = {
    "marker:double": "a 2x marker",
    "marker:alliance": "an Alliance marker",
    "castillo_at": "the moved Castillo",
    "quarantine": "the quarantine marker",
    "marker:bridge": "the bridge",
    "kings_guard": "the King's Guard",
    "marker:limit": "a limit table",
}
KI_FIELDS = {
    "marker:double": "double_scoring",
    "marker:alliance": "alliance",
    "castillo_at": "castillo_at",
    "quarantine": "quarantine",
    "marker:bridge": "bridge_regions",
    "kings_guard": "kings_guard",
    "marker:limit": "limit_tables",
}
# The marker tools: (tool, button words, module or None for the base game, how many); the module
# is the marker's (engine/ki_markers.py)
KI_TOOLS = tuple(
    (tool, words, MARKERS[KI_FIELDS[tool]].module, most)
    for tool, words, most in (
        ("marker:double", "2x marker", 2),
        ("marker:alliance", "Alliance", 2),
        ("castillo_at", "Castillo moved", 1),
        ("quarantine", "Quarantine", 1),
        ("marker:bridge", "Bridge", 2),
        ("kings_guard", "King's Guard", 1),
        ("marker:limit", "Limit table", 3),
    )
)
PLURALS = {"marker:double": "2x markers", "marker:alliance": "Alliance markers", "marker:limit": "limit tables"}
SCOREBOARDS = ("8-4-0", "4-0-0")


def ki_fields(markers: dict) -> dict:
    """The public view's King and Intrigue markers (engine.views keys: double_1, alliance_2,
    reversed_8-4-0 ...) as the snapshot's fields (double_scoring, alliance, reversed ...)."""

    def pair(prefix):
        return [markers[k] for k in (f"{prefix}_1", f"{prefix}_2") if markers.get(k)]

    return {
        "double_scoring": pair("double"),
        "alliance": pair("alliance"),
        "castillo_at": markers.get("castillo_at"),
        "reversed": [sid for sid in SCOREBOARDS if markers.get(f"reversed_{sid}")],
        "quarantine": markers.get("quarantine"),
        "kings_guard": markers.get("kings_guard"),
        "mistress": markers.get("mistress"),
        "bridge": markers.get("bridge_caballero"),
        "bridge_regions": pair("bridge"),
        "limit_tables": [markers[k] for k in LIMIT_MARKERS if markers.get(k)],
    }


def ki_markers(fields: dict) -> dict:
    """The snapshot's fields as the public view's markers (what the map draws)."""
    out: dict = {}
    for prefix, key in (("double", "double_scoring"), ("alliance", "alliance"), ("bridge", "bridge_regions")):
        out.update({f"{prefix}_{i + 1}": rid for i, rid in enumerate(fields.get(key) or [])})
    out.update({f"reversed_{sid}": True for sid in fields.get("reversed") or []})
    out.update(dict(zip(LIMIT_MARKERS, fields.get("limit_tables") or [])))
    for key in ("castillo_at", "quarantine", "kings_guard", "mistress"):
        if fields.get(key):
            out[key] = fields[key]
    if fields.get("bridge"):
        out["bridge_caballero"] = fields["bridge"]
    return out


class BoardEntry:
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
        if self.board is None:
            return [(sid, f"the {sid} scoreboard") for sid in ("8-4-0", "4-0-0")]
        out = [(sid, f"the {sid} scoreboard") for sid in self.board.mobile_scoreboards]
        for tid, values in getattr(self.board, "scoring_tiles", {}).items():
            shown = f" ({'·'.join(map(str, values))})" if values else " (values not entered)"
            out.append((tid, f"Scoring tile {tid.removeprefix('tile_').upper()}{shown}"))
        return out

    def king_places(self) -> list[str]:
        """Where the King may be tapped to: the regions, and in 2023 the Castillo and the spaces."""
        regions = list(self.board.region_ids) if self.board is not None else list(self.regions)
        return regions + ([CASTILLO] + self.spaces() if self.edition_2023 else [])

    def refusal(self, area: str) -> str:
        """Why this tap changes nothing ("" : it is taken). Shared by both entries."""
        tool, who = self.tool, self.names.get(self.colour, self.colour)
        if tool == "king":
            if area in (CASTILLO, *self.spaces()) and not self.edition_2023:
                return "The King stands in a region, never in the Castillo"
            return ""  # onto a marker too: "If the King is moved to the region where the Castillo is ..."
        if tool == "grande" and self.colour == self.dummy:
            return _cap(f"{who} has no Grande")
        if area in self.spaces():
            return f"{self._place(area)} is not a region: only the King stands there (Exile)"
        if tool == "grande" and area == CASTILLO and not self.edition_2023:
            return "The Grande stands in a region, never in the Castillo"
        return ""

    def why_not(self, area: str) -> str:
        """Why a tap on an area this tool cannot change (not in `tappable()`) does nothing."""
        why = self.refusal(area)
        if why:
            return why
        if area == CASTILLO:
            return (
                "The Castillo's Caballeros are not entered on the board: they come from the tower's count "
                "(or the table's own, when it is lifted)"
            )
        return _cap(f"{self._place(area)}: {self.tool_words()} changes nothing there")

    def _place(self, aid: str) -> str:
        if aid == CASTILLO:
            return "the Castillo"
        if self.board is not None and aid in self.board.area_index:
            return self.board.area_name(self.board.area_index[aid])
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
            return f"{sid!r} is not a mobile scoreboard or Scoring tile ({', '.join(known)})"
        tiles = getattr(self.board, "scoring_tiles", {}) if self.board is not None else {}
        if sid in tiles and tiles[sid] is None:
            return (
                self.board.missing.get(f"scoring_tiles.{sid}")
                or f"enter {known[sid]}'s values from your tile first (board file: scoring_tiles.{sid})"
            )
        if area is not None and area in self.spaces():
            return f"{self._place(area)} is not a region: no Scoring tile goes there"
        for other, where in self.mobile.items():
            if other != sid and where is not None and where == area:
                return (
                    f"{known.get(other, other)[:1].upper()}{known.get(other, other)[1:]} already lies on "
                    f"{self._place(area)}: one per area"
                )
        return ""

    # ---- King and Intrigue's markers ------------------------------------------------------------

    def ki_tools(self) -> list[tuple[str, str]]:
        """(tool, button words) of the markers this game's modules have; none for other rules."""
        if not (self.king_intrigue and self.enters_markers):
            return []
        return [(tool, words) for tool, words, module, _ in KI_TOOLS if module is None or module in self.modules]

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
        tiles = [(f"mobile:{sid}", f"Place {words}") for sid, words in self.pieces()] if pieces else []
        return [
            ("remove", "Take one off"),
            ("king", "Move the King"),
            ("grande", "Move a Grande"),
            *tiles,
            *self.ki_tools(),
        ]

    def _limit(self, tool: str) -> int:
        return next(n for t, _, _, n in KI_TOOLS if t == tool)

    def _marked(self, tool: str) -> list[str]:
        value = self.ki[KI_FIELDS[tool]]
        return list(value) if isinstance(value, list) else [value] if value else []

    def _marker_refusal(self, area: str) -> str:
        words = KI_WORDS[self.tool]
        if self.tool not in dict(self.ki_tools()):
            return _cap(f"{words} is not in this game (its module is not played)")
        if area == CASTILLO or self.board is None or area not in self.board.region_ids:
            return _cap(f"{words} lies on a region, not on {self._place(area)}")
        marked = self._marked(self.tool)
        if area in marked:
            return ""  # taken off
        # A marker on the King's region passes: placed before the King came ("If one of the
        # regions is the King's region ... bonus points are awarded accordingly").
        if (
            self.tool == "marker:bridge"
            and len(marked) == 1
            and self.board.area_index[area] not in self.board.neighbours[self.board.area_index[marked[0]]]
        ):
            return (
                f"The bridge joins two adjacent regions: {self._place(area)} does not border {self._place(marked[0])}"
            )
        limit = self._limit(self.tool)
        if limit > 1 and len(marked) >= limit:
            if self.tool == "marker:bridge":
                return (
                    f"The bridge lies between {' and '.join(self._place(r) for r in marked)}: tap one end to "
                    "take it off first"
                )
            places = ", ".join(self._place(r) for r in marked[:-1]) + " and " + self._place(marked[-1])
            return (
                f"{'Both' if limit == 2 else f'All {limit}'} {PLURALS[self.tool]} lie already (on {places}): "
                "tap one to take it off first"
            )
        return ""

    def _toggle_marker(self, area: str) -> None:
        key = KI_FIELDS[self.tool]
        if self._limit(self.tool) == 1:
            self.ki[key] = None if self.ki[key] == area else area  # one marker: a tap elsewhere moves it
            return
        marked = self._marked(self.tool)
        self.ki[key] = [r for r in marked if r != area] if area in marked else marked + [area]
        if key == "bridge_regions" and len(self.ki[key]) < 2:
            self.ki["bridge"] = None  # no bridge without both ends: its owner is chosen again

    def ki_choices(self) -> list[tuple[str, str, bool]]:
        """(key, button words, on) of the choices that are not a tap on the map: each mobile
        scoreboard's side (Revolt), the Mistress's holder, the bridge's owner."""
        if not (self.king_intrigue and self.enters_markers):
            return []
        out = []
        if "special-cards" in self.modules:
            for sid in SCOREBOARDS:
                on = sid in self.ki["reversed"]
                out.append(
                    (f"reversed:{sid}", f"{sid} scoreboard: {'reversed ' + sid[::-1] if on else 'as printed'}", on)
                )
            holder = self.ki["mistress"]
            out.append(
                ("mistress", f"Mistress: {self.names.get(holder, holder) if holder else 'nobody'}", bool(holder))
            )
        if "players-edition" in self.modules and len(self.ki["bridge_regions"]) == 2:
            owner = self.ki["bridge"]
            out.append(
                (
                    "bridge",
                    f"Bridge: {self.names.get(owner, owner) + chr(39) + 's' if owner else 'whose?'}",
                    bool(owner),
                )
            )
        return out

    def choose(self, key: str) -> None:
        """A choice of `ki_choices`: turn a scoreboard over, or pass the Mistress (the bridge) on to
        the next player (after the last: nobody). Never raises."""
        self.message = ""
        known = {k for k, _, _ in self.ki_choices()}
        if key not in known:
            self.message = f"{key!r} is not a choice of this game's board"
            return
        if key.startswith("reversed:"):
            sid = key.split(":", 1)[1]
            turned = self.ki["reversed"]
            self.ki["reversed"] = [s for s in turned if s != sid] if sid in turned else turned + [sid]
            return
        seats = [p for p in self.players if p != self.dummy]
        now = self.ki[key]
        self.ki[key] = (
            seats[0] if now is None else (seats[seats.index(now) + 1] if seats.index(now) + 1 < len(seats) else None)
        )

    def tool_words(self) -> str:
        who = self.names.get(self.colour, self.colour)
        if self.tool in KI_FIELDS:
            limit = self._limit(self.tool)
            return (
                f"tap a region to place or take off {KI_WORDS[self.tool]}"
                + (f" (up to {limit})" if limit > 1 and self.tool != "marker:bridge" else "")
                + (" (its two regions, one after the other)" if self.tool == "marker:bridge" else "")
            )
        if self.tool.startswith("mobile:"):
            return f"tap the area where {dict(self.pieces()).get(self.tool[7:], self.tool[7:])} lies"
        king = "tap the King's region" + (" (or the Castillo, France, Portugal)" if self.edition_2023 else "")
        return {
            "add": f"tap a region to add one of {who}'s Caballeros",
            "remove": f"tap a region to take one of {who}'s Caballeros off",
            "king": king,
            "grande": f"tap the region of {who}'s Grande",
        }[self.tool]

    def hint(self) -> str:
        return "Choose a colour or a tool on the right, then " + self.tool_words() + "."

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


class NotAllowed(Exception):
    """A tap the entry refuses; the message says what and which limit."""


CASTILLO_SOURCES = ("keep", "tower", "counted")


class PositionEntry(BoardEntry):
    """Tracking mode: the whole position as it lies on the table, for one
    `table_corrected` event. Either a correction mid-game (`starting` False) or
    the start of tracking in a game already under way (`starting` True: also the
    round, the start player, the Power cards laid down and who holds a Veto).

    Only entries the table could really have are accepted (`NotAllowed` says why);
    the engine checks the whole event again, hidden Castillo included.

    The Castillo comes from the tower (`tower`: the table's hidden tallies, never
    put into words here) or from the table after lifting it (`counted`: public from
    then on); a correction may also leave it as it is (`keep`)."""

    enters_markers = False

    def __init__(
        self,
        game: dict,
        names: dict[str, str],
        board: Board,
        *,
        starting: bool,
        tower_count: dict[str, int] | None = None,
    ):
        super().__init__(game, names, board)
        self.starting = starting
        self.scores = {p["id"]: p.get("score", 0) for p in game["players"]}
        self.rounds = list(game["rounds"])
        self.round = game["round"]
        self.start_player = game.get("start_player", self.players[0])
        self.power_spent: dict[str, set[int]] = {pid: set() for pid in self.players}
        self.vetoes: list[str] = []
        copies = [card.copies for card in board.cards.values() if card.effect in ("veto", "veto_2023")]
        # None: the table's card set does not say how many Veto cards there are
        self.veto_cards = None if None in copies else sum(copies)
        self.tower_count = {pid: (tower_count or {}).get(pid, 0) for pid in self.players}
        self.castillo_source = "keep" if not starting else ("tower" if self.tower_has_counted else "counted")
        self.castillo = {pid: 0 for pid in self.players}  # counted by the table, once lifted

    @property
    def tower_has_counted(self) -> bool:
        return any(self.tower_count.values())

    # ---- words -----------------------------------------------------------------------

    def who(self, pid: str) -> str:
        return self.names.get(pid, pid)

    def area(self, aid: str) -> str:
        return "the Castillo" if aid == CASTILLO else self.board.area_name(self.board.area_index[aid])

    def hint(self) -> str:
        return "Choose a colour or a tool, then " + self.tool_words() + "."

    # ---- the board ---------------------------------------------------------------------

    def on_table(self, pid: str) -> int:
        """The player's Caballeros the entry can see: regions, court, and the Castillo once counted."""
        regions = sum(row.get(pid, 0) for row in self.regions.values())
        castillo = self.castillo[pid] if self.castillo_source == "counted" else 0
        return regions + self.court[pid] + castillo

    def _room_for_one(self, pid: str) -> None:
        limit = self.board.caballeros_per_player
        if self.on_table(pid) >= limit:
            where = "regions, court and Castillo" if self.castillo_source == "counted" else "regions and court"
            raise NotAllowed(
                f"{self.who(pid)} already has all {limit} Caballeros on the table ({where}): "
                "take one off somewhere first"
            )

    def tap(self, area: str) -> None:
        tool = self.tool
        if tool.startswith("mobile:"):
            return self.place_scoreboard(tool[7:], area)
        refused = self.refusal(area) or self._unknown_space(area)
        if refused:
            raise NotAllowed(refused)
        if area == CASTILLO and tool not in ("king", "grande"):
            raise NotAllowed(
                "The Castillo is entered on its own page (Castillo): from the tower's count, "
                "or lifted and counted by the table"
            )
        row = self.regions.get(area, {})
        if tool == "add":
            self._room_for_one(self.colour)
        elif tool == "remove" and not row.get(self.colour):
            raise NotAllowed(f"{self.who(self.colour)} has no Caballero in {self.area(area)} to take off")
        super().tap(area)

    def _unknown_space(self, area: str) -> str:
        """Tracking: the King goes to France or Portugal only once its neighbours are entered
        (placement next to him needs them), as the engine says."""
        if self.tool != "king" or area not in self.spaces():
            return ""
        i = self.board.space_ids.index(area)
        if self.board.space_neighbours[i] is not None:
            return ""
        return (
            self.board.missing.get(f"spaces.{area}.neighbours")
            or f"{self.board.space_names[i]}'s neighbouring regions are not known: enter them on your board first"
        )

    def place_scoreboard(self, sid: str, area: str | None) -> None:
        """Put a mobile scoreboard (2023: a Scoring tile) on an area (a region or the Castillo),
        or off the board (None)."""
        if self.board.rules == "classic":
            if sid not in self.board.mobile_scoreboards:
                raise NotAllowed(f"{sid!r} is not a mobile scoreboard ({', '.join(self.board.mobile_scoreboards)})")
            for other, where in self.mobile.items():
                if other != sid and where is not None and where == area:
                    raise NotAllowed(
                        f"The {other} scoreboard already lies on {self.area(area)}: the two mobile "
                        "scoreboards never share an area"
                    )
        else:
            refused = self._piece_refusal(sid, area)
            if refused:
                raise NotAllowed(refused)
        self.mobile[sid] = area

    def step_court(self, pid: str, delta: int) -> None:
        if pid == self.dummy and delta > 0:
            raise NotAllowed(_cap(f"{self.who(pid)} has no court: its Caballeros off the board wait beside it"))
        if delta > 0:
            self._room_for_one(pid)
        elif self.court[pid] + delta < 0:
            raise NotAllowed(f"{self.who(pid)}'s court is empty")
        self.court[pid] += delta

    def set_score(self, pid: str, value: int) -> None:
        if pid == self.dummy and value:
            raise NotAllowed(_cap(f"{self.who(pid)} scores nothing"))
        if not 0 <= value <= 999:
            raise NotAllowed(f"{self.who(pid)}'s score: {value} is not a score (0 to 999)")
        self.scores[pid] = value

    # ---- the Castillo --------------------------------------------------------------------

    def set_castillo_source(self, source: str) -> None:
        if source not in CASTILLO_SOURCES or (source == "keep" and self.starting):
            raise NotAllowed("where tracking starts, the Castillo comes from the tower's count or the table's")
        if source == "tower" and not self.tower_has_counted:
            raise NotAllowed("The tower has counted nothing in this game: lift the Castillo and count")
        if source == "counted":
            self.castillo = {pid: 0 for pid in self.players}
        self.castillo_source = source

    def step_castillo(self, pid: str, delta: int) -> None:
        if self.castillo_source != "counted":
            raise NotAllowed("Lift the Castillo and count first: only then are its Caballeros entered here")
        if delta > 0:
            self._room_for_one(pid)
        elif self.castillo[pid] + delta < 0:
            raise NotAllowed(f"{self.who(pid)} has no Caballero in the Castillo to take off")
        self.castillo[pid] += delta

    # ---- where tracking starts --------------------------------------------------------------

    def _starting_only(self) -> None:
        if not self.starting:
            raise NotAllowed(
                "the round, the start player, the Power cards and the Vetoes are set only where "
                "tracking starts; a correction changes the board"
            )

    def rounds_before(self, round_: int | None = None) -> int:
        return self.rounds.index(self.round if round_ is None else round_)

    def set_round(self, round_: int) -> None:
        self._starting_only()
        if round_ not in self.rounds:
            raise NotAllowed(f"round {round_} is not a round of this game (rounds: {', '.join(map(str, self.rounds))})")
        before = self.rounds_before(round_)
        over = [self.who(p) for p, spent in self.power_spent.items() if len(spent) > before]
        if over:
            raise NotAllowed(
                f"round {round_} has {before} round{'s' * (before != 1)} before it, but "
                f"{', '.join(over)} laid down more Power cards: take some back first"
            )
        self.round = round_

    def set_start_player(self, pid: str) -> None:
        self._starting_only()
        self.start_player = pid

    def toggle_power(self, pid: str, value: int) -> None:
        self._starting_only()
        spent = self.power_spent[pid]
        if value in spent:
            spent.discard(value)
            return
        if value not in self.board.replenish:
            raise NotAllowed(f"{value} is not a Power card (1 to 13)")
        before = self.rounds_before()
        if len(spent) >= before:
            raise NotAllowed(
                f"round {self.round} has {before} round{'s' * (before != 1)} before it: "
                f"{self.who(pid)} has laid down at most {before} Power card{'s' * (before != 1)}"
            )
        spent.add(value)

    def toggle_veto(self, pid: str) -> None:
        self._starting_only()
        if pid in self.vetoes:
            self.vetoes.remove(pid)
            return
        if pid == self.dummy:
            raise NotAllowed(_cap(f"{self.who(pid)} never holds a Veto: it does not use its cards"))
        if self.veto_cards is not None and len(self.vetoes) >= self.veto_cards:
            raise NotAllowed(
                f"the game has {self.veto_cards} Veto cards and {', '.join(self.who(p) for p in self.vetoes)} hold them"
            )
        self.vetoes.append(pid)

    # ---- the result ------------------------------------------------------------------------------

    def preview(self) -> dict:
        game = super().preview()
        game["mobile_scoreboards"] = dict(self.mobile)
        for p in game["players"]:
            p["court"], p["score"] = self.court[p["id"]], self.scores[p["id"]]
        return game

    def event(self, reason: str = "") -> dict:
        event = {
            "type": "table_corrected",
            "regions": {r: {p: c for p, c in row.items() if c} for r, row in self.regions.items() if any(row.values())},
            "court": dict(self.court),
            "king": self.king,
            "grandes": {p: g for p, g in self.grandes.items() if g and p != self.dummy},
            "mobile_scoreboards": dict(self.mobile),
            "scores": dict(self.scores),
            "reason": reason[:REASON_LIMIT],
        }
        if self.castillo_source == "tower":
            event["castillo"] = {p: c for p, c in self.tower_count.items() if c}
        elif self.castillo_source == "counted":
            event["castillo"] = {p: c for p, c in self.castillo.items() if c}
        if self.starting:
            event.update(
                round=self.round,
                start_player=self.start_player,
                power_spent={p: sorted(s) for p, s in self.power_spent.items() if s},
                vetoes=list(self.vetoes),
            )
        return event

    def changes(self) -> list[str]:
        """What Confirm would change, in words everyone may read (never the tower's count)."""
        lines = position_changes(self._game, self.event(), self.names, self.board)
        if self.castillo_source == "counted":
            counted = ", ".join(f"{self.who(p)} {c}" for p, c in self.castillo.items() if c) or "empty"
            lines.append(f"The Castillo, as the table counted it: {counted}")
        elif self.castillo_source == "tower":
            lines.append("The Castillo: as the tower counted it (not shown)")
        return lines

    def reason(self, typed: str = "") -> str:
        """What the log and the undo button say: the table's words, else the first changes."""
        typed = " ".join(typed.split())
        if typed:
            return typed[:REASON_LIMIT]
        words = "; ".join(line for line in self.changes() if not line.startswith("The Castillo"))
        if len(words) > REASON_LIMIT:
            words = words[: REASON_LIMIT - 3].rsplit(" ", 1)[0] + "..."
        return words


REASON_LIMIT = 200  # engine.events.TableCorrected.reason


def _cap(text: str) -> str:
    """A sentence starts with a capital ("the dummy (White) ..." -> "The dummy (White) ...")."""
    return text[:1].upper() + text[1:]


def _names_list(names: dict[str, str], pids) -> str:
    return ", ".join(names.get(p, p) for p in pids)


def position_changes(before: dict, event: dict, names: dict[str, str], board: Board) -> list[str]:
    """A table_corrected event against the public view it was made on, in words:
    "Galicia: Red from 4 to 3" (no arrow: the app's font has none). The Castillo's
    figures are never put into words here."""
    players = [p["id"] for p in before["players"]]
    who = names.get
    area = lambda a: (
        "off the board" if a is None else ("the Castillo" if a == CASTILLO else board.area_name(board.area_index[a]))
    )
    lines = []
    if event.get("regions") is not None:
        for rid in board.region_ids:
            old, new = before["regions"].get(rid, {}), event["regions"].get(rid, {})
            parts = [
                f"{who(p, p)} from {old.get(p, 0)} to {new.get(p, 0)}"
                for p in players
                if old.get(p, 0) != new.get(p, 0)
            ]
            if parts:
                lines.append(f"{area(rid)}: {', '.join(parts)}")
    seen = {p["id"]: p for p in before["players"]}
    for pid, value in (event.get("court") or {}).items():
        if seen[pid].get("court", 0) != value:
            lines.append(f"{who(pid, pid)}'s court: from {seen[pid].get('court', 0)} to {value}")
    if event.get("king") is not None and event["king"] != before["king"]:
        lines.append(f"The King: from {area(before['king'])} to {area(event['king'])}")
    for pid, rid in (event.get("grandes") or {}).items():
        if seen[pid].get("grande") != rid:
            lines.append(f"{who(pid, pid)}'s Grande: from {area(seen[pid].get('grande'))} to {area(rid)}")
    for sid, where in (event.get("mobile_scoreboards") or {}).items():
        was = (before.get("mobile_scoreboards") or {}).get(sid)
        if was != where:
            piece = (
                f"Scoring tile {sid.removeprefix('tile_').upper()}"
                if sid in getattr(board, "scoring_tiles", {})
                else f"The {sid} scoreboard"
            )
            lines.append(f"{piece}: from {area(was)} to {area(where)}")
    for pid, value in (event.get("scores") or {}).items():
        if seen[pid].get("score", 0) != value:
            lines.append(f"{who(pid, pid)}'s score: from {seen[pid].get('score', 0)} to {value}")
    return lines


def start_words(event: dict, names: dict[str, str]) -> list[str]:
    """Where tracking started: the round, who started it, the Power cards and the Vetoes."""
    if event.get("round") is None:
        return []
    lines = [
        f"Tracking starts in round {event['round']}"
        + (
            f"; {names.get(event['start_player'], event['start_player'])} starts it"
            if event.get("start_player")
            else ""
        )
    ]
    spent = event.get("power_spent") or {}
    if spent:
        lines.append(
            "Power cards laid down: "
            + "; ".join(f"{names.get(p, p)} {', '.join(map(str, sorted(v)))}" for p, v in spent.items() if v)
        )
    if event.get("vetoes"):
        lines.append(f"Veto held by {_names_list(names, event['vetoes'])}")
    return lines
