"""What every prompt reads, and the words they all share: `PromptContext`, the base of the
tablet's PromptBuilder (companion.prompts.builder). The functions that make each ask kind's
prompt (turn, special, discs, modules_2023, king_intrigue) take it as their `builder`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from companion.prompts.card_words import does
from companion.prompts.prompt import STAGE_WORDS, Choice, Prompt
from companion.words import _, language, names
from companion.words.colours import player_name
from engine.board.build import classic_board
from engine.board.model import CASTILLO, Board
from engine.primitives import Ask

BoardSource = Board | Callable[[], Board] | None


class PromptContext:
    """`board` may be a function giving the board now: a 2023 table completes its card set
    during a game, and the next prompt reads the new cards. `castillo_by_tower`: True (the
    tower counts every colour), False (no tower), or the colours the tower counts (or a
    function giving them now): a player whose colour it does not know taps their Castillo
    share by hand. `modifiers`: Power
    Shift's Modifier cards (id -> card), public facts; `public`: a function giving the public
    view (what everyone may see), for what a prompt must not take from a private ask."""

    PURPOSES: ClassVar[dict[str, str]] = {}  # what a secret disc is for, by purpose (PromptBuilder's)
    PUBLIC_PURPOSES: ClassVar[dict[str, str]] = {}

    def __init__(
        self,
        names: dict[str, str],
        board: BoardSource = None,
        castillo_by_tower=False,
        modifiers: Mapping | None = None,
        public: Callable[[], dict] | None = None,
        played_in: Callable[[str, int], int | None] | None = None,
        refused: Callable[[], tuple] | None = None,
    ):
        self.names = names
        self.played_in = played_in  # (player, Power card) -> the round they laid it down, if known
        self._board = board if board is not None else classic_board()
        # With a tower, the Castillo's share of a placement is what it counted: tapping the
        # Castillo as well would count one cube twice, so it is not tappable then.
        self.castillo_by_tower = castillo_by_tower
        self.modifiers = modifiers or {}
        self.public = public
        # Who had an input refused for a reason only they may read (a card not in a secret hand):
        # who, never why (Table.private_notes)
        self.refused = refused
        self._twins_of: tuple[int, set] = (0, set())
        # card labels and names as shown, by (language, board) they were worded for
        self._shown: tuple[tuple, dict] = ((), {})
        self._names_in: tuple[str, dict] = ("", {})

    @property
    def board(self) -> Board:
        return self._board() if callable(self._board) else self._board

    @property
    def _twins(self) -> set:
        """Cards that read the same (the chosen-region scoring on stacks 2 and 3), told apart."""
        board = self.board
        if self._twins_of[0] != id(board):
            seen: dict[tuple[str, str], int] = {}
            for c in board.cards.values():
                seen[(c.name, c.text)] = seen.get((c.name, c.text), 0) + 1
            self._twins_of = (id(board), {key for key, n in seen.items() if n > 1})
        return self._twins_of[1]

    def tower_counts(self, pid: str | None) -> bool:
        by_tower = self.castillo_by_tower
        if callable(by_tower):  # the table's colours now: a calibration may add one mid-game
            by_tower = by_tower()
        if isinstance(by_tower, bool):
            return by_tower
        return pid in by_tower

    def placeable(self, areas, pid: str | None = None) -> list[str]:
        return [a for a in areas if not (a == CASTILLO and self.tower_counts(pid))]

    def public_view(self) -> dict:
        """The public view, or {} when the builder was given none."""
        if self.public is None:
            return {}
        try:
            return self.public() or {}
        except Exception:  # a nicety for labels: never let it stop a prompt
            return {}

    # ---- words ------------------------------------------------------------------------

    def _memo(self) -> dict:
        """What is worded once per language and board (the names, the card labels)."""
        lang, board = language(), self.board
        seen = self._shown[0]
        if not seen or seen[0] != lang or seen[1] is not board:  # the board itself: a new one is new
            self._shown = ((lang, board), {})
        return self._shown[1]

    def name(self, pid: str) -> str:
        """A player's name as shown (a seat named by its colour: the colour in the table's language)."""
        lang, memo = self._names_in
        if lang != language():
            lang, memo = self._names_in = (language(), {})
        shown = memo.get(pid)
        if shown is None:
            shown = memo[pid] = player_name(self.names, pid) if self.names.get(pid) else self.names.get(pid, pid)
        return shown

    def area(self, aid: str) -> str:
        return names.area(self.board, self.board.area_index[aid])

    def card(self, cid: str | None) -> str:
        if cid is None:
            return ""
        if cid == "veto":
            return names.card("Veto")
        card = self.board.cards.get(cid)
        return names.card(card.name) if card else cid

    def card_label(self, cid: str) -> str:
        """Name and text: several cards share a name (nine are called Intrigue)."""
        memo = self._memo()
        key = ("card", cid)
        label = memo.get(key)
        if label is None:
            label = memo[key] = self._card_label(cid)
        return label

    def _card_label(self, cid: str) -> str:
        card = self.board.cards.get(cid)
        if card is None:
            return self.card(cid)
        short = does(card.effect, card.params) if self.board.rules == "2023" else ""
        name = names.card(card.name)
        if not short:
            # whole: the sheet's buttons wrap their words and grow (a cut text hid what the card does)
            short = names.card_text(card.text)
            if short == card.text:  # English: the card's own words, without "You may"
                short = short.removeprefix("You may ")
            short = short.rstrip(".")
        if (card.name, card.text) in self._twins:
            # Translators: two cards that read the same, told apart by stack and Caballeros placed
            return _("{card}: {text} (stack {stack}, places {places})").format(
                card=name, text=short, stack=card.stack, places=card.placement
            )
        return _("{card}: {text}").format(card=name, text=short)

    def title(self, ask: Ask, doing: str) -> str:
        stage = STAGE_WORDS.get(ask.stage)
        # Translators: the phase bar: "Round 4 - power cards - Yellow plays next"
        return _("Round {round} - {stage} - {doing}").format(
            round=ask.round, stage=_(stage) if stage else ask.stage, doing=doing
        )

    def placing_card(self, ask: Ask) -> str:
        """The card whose number of Caballeros a turn places: the Action card played."""
        return self.card(ask.card)

    def piece(self, sid: str) -> str:
        """A mobile scoreboard ("the 8-4-0 scoreboard") or a 2023 Scoring tile ("Scoring tile A, 8·4·0")."""
        tiles = getattr(self.board, "scoring_tiles", {})
        if sid in tiles:
            letter = sid.removeprefix("tile_").upper()
            values = tiles[sid]
            if values:
                return _("Scoring tile {letter} ({values})").format(letter=letter, values="·".join(map(str, values)))
            return _("Scoring tile {letter}").format(letter=letter)
        return _("the {values} scoreboard").format(values=sid)

    def entered_words(self, prompt: Prompt, counts: Mapping[str, int]) -> str:
        """What a count entry that confirmed itself sent, for the table to read: nothing goes in
        unseen ("Entered for Red: Castilla 2, the Castillo 1. Undo takes it back.")."""
        parts = [
            _("{area} {count}").format(area=_("the Castillo") if a == CASTILLO else self.area(a), count=c)
            for a, c in counts.items()
            if c and not a.startswith("__") and (a == CASTILLO or a in self.board.area_index)
        ]
        what = ", ".join(parts) or _("nothing")
        if prompt.actor:
            return _("Entered for {who}: {what}. Undo takes it back.").format(who=self.name(prompt.actor), what=what)
        return _("Entered: {what}. Undo takes it back.").format(what=what)

    @staticmethod
    def full_words(prompt: Prompt) -> str:
        """A tap past a count entry's limit, refused naming the card and the limit ("That is all:
        Armada places up to 2 Caballeros")."""
        limit = prompt.full or _("up to {n} here").format(n=prompt.limit)
        return _("That is all: {limit} (Confirm, or take one back)").format(limit=limit)

    def power_gone_words(self, pid: str, value: int) -> str:
        """Why `pid` cannot play Power card `value`, from what everyone knows (never the hand):
        "Power card 5 was played by Ana this round", "Bo played Power card 5 in round 2"."""
        for p in self.public_view().get("players", []):
            card, total = p.get("power_card_played"), p.get("power_total")
            if (card if total is None else total) != value:  # Power Shift: the totals count
                continue
            who = self.name(p["id"]) if self.names.get(p["id"]) else p.get("name") or p["id"]
            if card == value:
                return _("Power card {value} was played by {who} this round (each value once a round)").format(
                    value=value, who=who
                )
            return _(
                "{who} played a total of {value} this round ({card} with a Modifier card; each value once a round)"
            ).format(who=who, value=value, card=card)
        rnd = self.played_in(pid, value) if self.played_in else None
        if rnd:
            return _("{who} played Power card {value} in round {round}: it is no longer in their hand").format(
                who=self.name(pid), value=value, round=rnd
            )
        return _("{who} played Power card {value} in an earlier round: it is no longer in their hand").format(
            who=self.name(pid), value=value
        )

    def why_in_private(self, pid: str) -> Choice | None:
        """ "Ana: why it was refused (only Ana looks)": the reason of a refused card, behind the
        private screen, for a player whose reason is their secret; None for anyone else."""
        try:
            refused = self.refused() if self.refused else ()
        except Exception:  # a nicety: never let it stop a prompt
            refused = ()
        if pid not in refused:
            return None
        who = self.name(pid)
        return Choice(
            _("{who}: why it was refused (only {who} looks)").format(who=who),
            action=f"private_note:{pid}",
            style="quiet",
        )
