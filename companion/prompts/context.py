"""What every prompt reads, and the words they all share: `PromptContext`, the base of the
tablet's PromptBuilder (companion.prompts.builder). The functions that make each ask kind's
prompt (turn, special, discs, modules_2023, king_intrigue) take it as their `builder`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from companion.prompts.card_words import does
from companion.prompts.prompt import STAGE_WORDS, Choice, Prompt
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

    def name(self, pid: str) -> str:
        return self.names.get(pid, pid)

    def area(self, aid: str) -> str:
        return self.board.area_name(self.board.area_index[aid])

    def card(self, cid: str | None) -> str:
        if cid is None:
            return ""
        if cid == "veto":
            return "Veto"
        card = self.board.cards.get(cid)
        return card.name if card else cid

    def card_label(self, cid: str) -> str:
        """Name and text: several cards share a name (nine are called Intrigue)."""
        card = self.board.cards.get(cid)
        if card is None:
            return self.card(cid)
        short = does(card.effect, card.params) if self.board.rules == "2023" else ""
        if short:  # 2023: the book's texts explain rather than say what the card does
            twin = f" (stack {card.stack}, places {card.placement})" if (card.name, card.text) in self._twins else ""
            return f"{card.name}: {short}{twin}"
        # whole: the sheet's buttons wrap their words and grow (a cut text hid what the card does)
        text = card.text.removeprefix("You may ").rstrip(".")
        twin = f" (stack {card.stack}, places {card.placement})" if (card.name, card.text) in self._twins else ""
        return f"{card.name}: {text}{twin}"

    def title(self, ask: Ask, doing: str) -> str:
        return f"Round {ask.round} - {STAGE_WORDS.get(ask.stage, ask.stage)} - {doing}"

    def placing_card(self, ask: Ask) -> str:
        """The card whose number of Caballeros a turn places: the Action card played."""
        return self.card(ask.card)

    def piece(self, sid: str) -> str:
        """A mobile scoreboard ("the 8-4-0 scoreboard") or a 2023 Scoring tile ("Scoring tile A, 8·4·0")."""
        tiles = getattr(self.board, "scoring_tiles", {})
        if sid in tiles:
            letter = sid.removeprefix("tile_").upper()
            values = tiles[sid]
            return f"Scoring tile {letter}" + (f" ({'·'.join(map(str, values))})" if values else "")
        return f"the {sid} scoreboard"

    def entered_words(self, prompt: Prompt, counts: Mapping[str, int]) -> str:
        """What a count entry that confirmed itself sent, for the table to read: nothing goes in
        unseen ("Entered for Red: Castilla 2, the Castillo 1. Undo takes it back.")."""
        parts = [
            f"{'the Castillo' if a == CASTILLO else self.area(a)} {c}"
            for a, c in counts.items()
            if c and not a.startswith("__") and (a == CASTILLO or a in self.board.area_index)
        ]
        who = f" for {self.name(prompt.actor)}" if prompt.actor else ""
        return f"Entered{who}: {', '.join(parts) or 'nothing'}. Undo takes it back."

    @staticmethod
    def full_words(prompt: Prompt) -> str:
        """A tap past a count entry's limit, refused naming the card and the limit ("That is all:
        Armada places up to 2 Caballeros")."""
        limit = prompt.full or f"up to {prompt.limit} here"
        return f"That is all: {limit} (Confirm, or take one back)"

    def power_gone_words(self, pid: str, value: int) -> str:
        """Why `pid` cannot play Power card `value`, from what everyone knows (never the hand):
        "Power card 5 was played by Ana this round", "Bo played Power card 5 in round 2"."""
        for p in self.public_view().get("players", []):
            card, total = p.get("power_card_played"), p.get("power_total")
            if (card if total is None else total) != value:  # Power Shift: the totals count
                continue
            who = p.get("name") or self.name(p["id"])
            if card == value:
                return f"Power card {value} was played by {who} this round (each value once a round)"
            return f"{who} played a total of {value} this round ({card} with a Modifier card; each value once a round)"
        rnd = self.played_in(pid, value) if self.played_in else None
        when = f"in round {rnd}" if rnd else "in an earlier round"
        return f"{self.name(pid)} played Power card {value} {when}: it is no longer in their hand"

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
        return Choice(f"{who}: why it was refused (only {who} looks)", action=f"private_note:{pid}", style="quiet")
