"""The tablet's prompt builder: what it offers now, built from the engine's asks (no Kivy).

`PromptBuilder` holds what every prompt reads (the names, the board as it is now, the tower's
colours, Power Shift's Modifier cards, the public view) and the words all of them share. Each
ask kind is made by the function registered for it in companion.prompts.registry (`PROMPTS`,
and `PRIVATE_PICKS` for what a player chooses in private); King and Intrigue's builder
registers its own (companion.prompts.king_intrigue). The shapes are in companion.prompts.prompt.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.entry.facts import facts_needed, needed_words
from companion.prompts import discs, modules_2023, special, turn
from companion.prompts.card_words import does
from companion.prompts.prompt import MODIFIER_PREFIX as MODIFIER_PREFIX  # for companion/phones/server.py: to repoint
from companion.prompts.prompt import STAGE_WORDS, Choice, PrivatePick, Prompt, first_sentence
from companion.prompts.registry import CASTILLO_PREFILLED, PRIVATE_PICKS, PROMPTS
from engine.board import CASTILLO, Board, classic_board
from engine.flow import Ask

BoardSource = Board | Callable[[], Board] | None


class PromptBuilder:
    """`board` may be a function giving the board now: a 2023 table completes its card set
    during a game, and the next prompt reads the new cards. `castillo_by_tower`: True (the
    tower counts every colour), False (no tower), or the colours the tower counts (or a
    function giving them now): a player whose colour it does not know taps their Castillo
    share by hand. `modifiers`: Power
    Shift's Modifier cards (id -> card), public facts; `public`: a function giving the public
    view (what everyone may see), for what a prompt must not take from a private ask."""

    prompts = PROMPTS  # ask kind -> the function that makes its prompt
    private_picks = PRIVATE_PICKS  # ask kind -> the function that makes a player's private pick
    PURPOSES = discs.PURPOSES  # what a secret disc is for, by purpose
    PUBLIC_PURPOSES = discs.PUBLIC_PURPOSES

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
        text = card.text.removeprefix("You may ").rstrip(".")
        if len(text) > 90:  # cut at a word, never mid-word; buttons wrap onto two lines
            text = text[:88].rsplit(" ", 1)[0].rstrip(",;:") + "…"
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

    # ---- the prompt for an ask ----------------------------------------------------------

    def build(self, ask: Ask, prefill_castillo: int = 0) -> Prompt:
        """The prompt for `ask`, made by the builder its kind is registered with (`prompts`)."""
        maker = self.prompts.get(ask.kind)
        if maker is None:
            return Prompt(self.title(ask, ask.kind.replace("_", " ")))
        prompt = maker(self, ask, prefill_castillo) if ask.kind in CASTILLO_PREFILLED else maker(self, ask)
        facts = facts_needed(self.board, ask)
        if facts:
            self._ask_for_facts(prompt, ask, facts)
        if ask.vetoes and ask.kind != "veto":
            prompt.choices += [
                Choice(f"{self.name(p)}: Veto!", {"type": "veto_used", "player": p}, style="quiet") for p in ask.vetoes
            ]
        return prompt

    def _ask_for_facts(self, prompt: Prompt, ask: Ask, facts) -> None:
        """A fact the rule book does not print, needed by this step: entered right here from the
        table's board (companion.entry.facts), then the step goes on; kept for the next games."""
        words = needed_words(facts, self.board.side)
        prompt.choices.insert(0, Choice(f"Enter {words} from your board", action="board_facts", style="primary"))
        if ask.kind == "turn_action":
            prompt.notes = [n for n in prompt.notes if not n.startswith("Skip it now; enter the fact")]
            prompt.notes.append(
                f"Enter {words} now and the special action can be done (your next games keep them), or skip it."
            )
            return
        for choice in prompt.choices[1:]:
            if choice.action == "open_castillo" or choice.event == {"type": "secret_discs_revealed"}:
                choice.enabled = False  # the scoring would be refused, naming the fact
                choice.why_not = f'This general scoring needs {words} first: tap "Enter {words} from your board"'
        prompt.notes.insert(
            0,
            f"This general scoring needs {words}, which the rule book does not print: "
            "enter them from your board first (your next games keep them).",
        )

    def sub_prompt(self, ask: Ask, key: str) -> Prompt:
        """The prompt a "sub:<key>" choice shows in place of the current one ("" : the current one)."""
        kind, _, arg = key.partition(":")
        if kind == "modifier" and arg in self.modifiers:
            return modules_2023.modifier_power_prompt(self, ask, arg)
        if kind == "entourage":
            return special.entourage_prompt(self, ask, special.split_from_key(arg))
        return self.build(ask)

    def private_pick(self, ask: Ask, pid: str) -> PrivatePick | None:
        """What `pid` chooses in private now, or None (`private_picks`). For their phone or the
        private screen only."""
        maker = self.private_picks.get(ask.kind)
        return maker(self, ask, pid) if maker is not None else None

    # ---- the public steps the views open by name -----------------------------------------------

    def reveal_choices(self, ask: Ask) -> dict[int, list[tuple[str, str]]]:
        return turn.reveal_choices(self, ask)

    def replenish_custom(self, ask: Ask) -> Prompt:
        return turn.replenish_custom(self, ask)

    def mobile_prompt(self, ask: Ask, sid: str) -> Prompt:
        return special.mobile_prompt(self, ask, sid)

    def power_back_choices(self, ask: Ask) -> list[Choice]:
        return special.power_back_choices(self, ask)

    def special_scoring_choices(self, ask: Ask) -> list[Choice]:
        return special.special_scoring_choices(self, ask)

    def count_castillo_prompt(self, ask: Ask) -> Prompt:
        return discs.count_castillo_prompt(self, ask)

    def secret_purpose(self, ask: Ask, pid: str | None = None) -> str:
        return discs.secret_purpose(self, ask, pid)

    def secret_options(self, ask: Ask, pid: str) -> list[tuple[str, str]]:
        return discs.secret_options(self, ask, pid)

    def modifier_label(self, mid: str, numbered: bool = True) -> str:
        return modules_2023.modifier_label(self, mid, numbered)

    # ---- a tap on what cannot be chosen ---------------------------------------------------

    def why_not_area(
        self,
        prompt: Prompt,
        area: str,
        refusal: Callable[[dict], str | None],
        entry: Mapping[str, int] | None = None,
        source: str = "",
        owner: str = "",
    ) -> str:
        """Why a tap on `area` chooses nothing at `prompt`, in one line. The engine's refusal of
        the input the tap would make (`refusal(event)`: its words and rule, None if it would
        accept it) when it refuses; else what the prompt holds back (the Castillo, when the
        tower counts it); else what the step asks for instead."""
        name = "The Castillo" if area == CASTILLO else self.area(area)
        doing = first_sentence(prompt.hint) or "see the choices"
        if not prompt.map_mode:
            return f"{name}: nothing is chosen on the map at this step ({doing})"
        event = tap_event(prompt, area, dict(entry or {}), source, owner)
        why = refusal(event) if event is not None else None
        if why and area == CASTILLO and any(ch.isdigit() for ch in why):
            why = None  # what lies in the Castillo is secret: no refusal that holds a figure of it
        if why:
            return first_sentence(why[:1].upper() + why[1:])
        if area == CASTILLO and prompt.map_mode == "count" and self.tower_counts(prompt.actor):
            return "The Castillo: the tower counts the Caballeros thrown in, so it is not tapped here"
        return f"{name} cannot be chosen now ({doing})"


def tap_event(prompt: Prompt, area: str, entry: dict, source: str, owner: str) -> dict | None:
    """The input a tap on `area` would make at `prompt` (a move: from it, to anywhere offered)."""
    try:
        if prompt.map_mode == "pick" and prompt.on_area:
            return prompt.on_area(area)
        if prompt.map_mode == "count" and prompt.on_counts:
            return prompt.on_counts({**entry, area: entry.get(area, 0) + 1})
        if prompt.map_mode == "move" and prompt.on_move:
            if source:
                return prompt.on_move(source, area, owner or next(iter(prompt.sources.get(source, {})), None))
            target = next((a for a in prompt.areas if a != area), None)
            return prompt.on_move(area, target, prompt.actor) if target else None
    except (KeyError, ValueError, TypeError):  # a tap the prompt cannot turn into an input at all
        return None
    return None


# ---- the prompt for an ask --------------------------------------------------------
