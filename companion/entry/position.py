"""Tracking mode's board entry: the whole position as it lies on the table, for one
TableCorrected event (a correction, or the start of tracking in a game under way). It refuses
what no table could hold (a 31st Caballero, a fourth Power card laid down before round 4); the
engine checks the whole event again when it is sent. Plain data, no Kivy."""

from __future__ import annotations

from companion.entry.board import BoardEntry
from companion.entry.position_words import as_logged, capitalised, position_changes
from companion.words import _, names, ngettext
from companion.words.colours import player_name
from engine.board.model import CASTILLO, Board

REASON_LIMIT = 200  # engine.events.TableCorrected.reason


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
        return player_name(self.names, pid) if self.names.get(pid) else self.names.get(pid, pid)

    def area(self, aid: str) -> str:
        return _("the Castillo") if aid == CASTILLO else names.area(self.board, self.board.area_index[aid])

    def hint(self) -> str:
        return _("Choose a colour or a tool, then {tool}.").format(tool=self.tool_words())

    # ---- the board ---------------------------------------------------------------------

    def on_table(self, pid: str) -> int:
        """The player's Caballeros the entry can see: regions, court, and the Castillo once counted."""
        regions = sum(row.get(pid, 0) for row in self.regions.values())
        castillo = self.castillo[pid] if self.castillo_source == "counted" else 0
        return regions + self.court[pid] + castillo

    def _room_for_one(self, pid: str) -> None:
        limit = self.board.caballeros_per_player
        if self.on_table(pid) >= limit:
            raise NotAllowed(
                (
                    _(
                        "{who} already has all {n} Caballeros on the table (regions, court and Castillo): "
                        "take one off somewhere first"
                    )
                    if self.castillo_source == "counted"
                    else _(
                        "{who} already has all {n} Caballeros on the table (regions and court): "
                        "take one off somewhere first"
                    )
                ).format(who=self.who(pid), n=limit)
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
                _(
                    "The Castillo is entered on its own page (Castillo): from the tower's count, "
                    "or lifted and counted by the table"
                )
            )
        row = self.regions.get(area, {})
        if tool == "add":
            self._room_for_one(self.colour)
        elif tool == "remove" and not row.get(self.colour):
            raise NotAllowed(
                _("{who} has no Caballero in {area} to take off").format(
                    who=self.who(self.colour), area=self.area(area)
                )
            )
        super().tap(area)

    def _unknown_space(self, area: str) -> str:
        """Tracking: the King goes to France or Portugal only once its neighbours are entered
        (placement next to him needs them), as the engine says."""
        if self.tool != "king" or area not in self.spaces():
            return ""
        i = self.board.space_ids.index(area)
        if self.board.space_neighbours[i] is not None:
            return ""
        return self.board.missing.get(f"spaces.{area}.neighbours") or _(
            "{place}'s neighbouring regions are not known: enter them on your board first"
        ).format(place=names.place(self.board.space_names[i], self.board.rules))

    def place_scoreboard(self, sid: str, area: str | None) -> None:
        """Put a mobile scoreboard (2023: a Scoring tile) on an area (a region or the Castillo),
        or off the board (None)."""
        if self.board.rules == "classic":
            if sid not in self.board.mobile_scoreboards:
                raise NotAllowed(
                    _("{piece} is not a mobile scoreboard ({known})").format(
                        piece=repr(sid), known=", ".join(self.board.mobile_scoreboards)
                    )
                )
            for other, where in self.mobile.items():
                if other != sid and where is not None and where == area:
                    raise NotAllowed(
                        _(
                            "The {values} scoreboard already lies on {area}: "
                            "the two mobile scoreboards never share an area"
                        ).format(values=other, area=self.area(area))
                    )
        else:
            refused = self._piece_refusal(sid, area)
            if refused:
                raise NotAllowed(refused)
        self.mobile[sid] = area

    def step_court(self, pid: str, delta: int) -> None:
        if pid == self.dummy and delta > 0:
            raise NotAllowed(
                capitalised(
                    _("{who} has no court: its Caballeros off the board wait beside it").format(who=self.who(pid))
                )
            )
        if delta > 0:
            self._room_for_one(pid)
        elif self.court[pid] + delta < 0:
            raise NotAllowed(_("{who}'s court is empty").format(who=self.who(pid)))
        self.court[pid] += delta

    def set_score(self, pid: str, value: int) -> None:
        if pid == self.dummy and value:
            raise NotAllowed(capitalised(_("{who} scores nothing").format(who=self.who(pid))))
        if not 0 <= value <= 999:
            raise NotAllowed(
                _("{who}'s score: {value} is not a score (0 to 999)").format(who=self.who(pid), value=value)
            )
        self.scores[pid] = value

    # ---- the Castillo --------------------------------------------------------------------

    def set_castillo_source(self, source: str) -> None:
        if source not in CASTILLO_SOURCES or (source == "keep" and self.starting):
            raise NotAllowed(_("where tracking starts, the Castillo comes from the tower's count or the table's"))
        if source == "tower" and not self.tower_has_counted:
            raise NotAllowed(_("The tower has counted nothing in this game: lift the Castillo and count"))
        if source == "counted":
            self.castillo = {pid: 0 for pid in self.players}
        self.castillo_source = source

    def step_castillo(self, pid: str, delta: int) -> None:
        if self.castillo_source != "counted":
            raise NotAllowed(_("Lift the Castillo and count first: only then are its Caballeros entered here"))
        if delta > 0:
            self._room_for_one(pid)
        elif self.castillo[pid] + delta < 0:
            raise NotAllowed(_("{who} has no Caballero in the Castillo to take off").format(who=self.who(pid)))
        self.castillo[pid] += delta

    # ---- where tracking starts --------------------------------------------------------------

    def _starting_only(self) -> None:
        if not self.starting:
            raise NotAllowed(
                _(
                    "the round, the start player, the Power cards and the Vetoes are set only where "
                    "tracking starts; a correction changes the board"
                )
            )

    def rounds_before(self, round_: int | None = None) -> int:
        return self.rounds.index(self.round if round_ is None else round_)

    def set_round(self, round_: int) -> None:
        self._starting_only()
        if round_ not in self.rounds:
            raise NotAllowed(
                _("round {round} is not a round of this game (rounds: {rounds})").format(
                    round=round_, rounds=", ".join(map(str, self.rounds))
                )
            )
        before = self.rounds_before(round_)
        over = [self.who(p) for p, spent in self.power_spent.items() if len(spent) > before]
        if over:
            raise NotAllowed(
                ngettext(
                    "round {round} has {n} round before it, but {players} laid down more Power cards: "
                    "take some back first",
                    "round {round} has {n} rounds before it, but {players} laid down more Power cards: "
                    "take some back first",
                    before,
                ).format(round=round_, n=before, players=", ".join(over))
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
            raise NotAllowed(_("{value} is not a Power card (1 to 13)").format(value=value))
        before = self.rounds_before()
        if len(spent) >= before:
            raise NotAllowed(
                ngettext(
                    "round {round} has {n} round before it: {who} has laid down at most {n} Power card",
                    "round {round} has {n} rounds before it: {who} has laid down at most {n} Power cards",
                    before,
                ).format(round=self.round, n=before, who=self.who(pid))
            )
        spent.add(value)

    def toggle_veto(self, pid: str) -> None:
        self._starting_only()
        if pid in self.vetoes:
            self.vetoes.remove(pid)
            return
        if pid == self.dummy:
            raise NotAllowed(
                capitalised(_("{who} never holds a Veto: it does not use its cards").format(who=self.who(pid)))
            )
        if self.veto_cards is not None and len(self.vetoes) >= self.veto_cards:
            raise NotAllowed(
                _("the game has {n} Veto cards and {players} hold them").format(
                    n=self.veto_cards, players=", ".join(self.who(p) for p in self.vetoes)
                )
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

    def changes(self, say=_) -> list[str]:
        """What Confirm would change, in words everyone may read (never the tower's count);
        `say`: position_words.as_logged for the log's English words."""
        lines = position_changes(self._game, self.event(), self.names, self.board, say)
        if self.castillo_source == "counted":
            counted = ", ".join(_("{who} {n}").format(who=self.who(p), n=c) for p, c in self.castillo.items() if c)
            lines.append(_("The Castillo, as the table counted it: {counts}").format(counts=counted or _("empty")))
        elif self.castillo_source == "tower":
            lines.append(_("The Castillo: as the tower counted it (not shown)"))
        return lines

    def reason(self, typed: str = "") -> str:
        """What the log and the undo button say: the table's words, else the first changes."""
        typed = " ".join(typed.split())
        if typed:
            return typed[:REASON_LIMIT]
        # the log keeps English words (a log does not depend on the language it was played in)
        words = "; ".join(position_changes(self._game, self.event(), self.names, self.board, as_logged))
        if len(words) > REASON_LIMIT:
            words = words[: REASON_LIMIT - 3].rsplit(" ", 1)[0] + "..."
        return words
