"""The table's two modes behind one interface: what the game is, how an input is read, checked
and applied, and what it shows.

- TrackedGame: every move is entered; the engine's GameState checks and keeps it.
- ScoringOnlyGame: the board is played by hand and only the scorings are entered
  (engine.freeplay's FreeState).

companion.table.authority holds one of them (rebuilt from the log on undo) and never asks which.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from typing import Any

from pydantic import BaseModel, ValidationError

from companion.entry.facts import facts_needed
from companion.entry.ki_markers import ki_markers
from companion.input_errors import InputError
from companion.table_rules.card_learning import candidates, end_entries, facts_left, stacks_left
from companion.words import _
from engine import card_entry
from engine import events as ev
from engine.board.model import Board
from engine.events import GameSetup
from engine.flow import apply_event, asked
from engine.freeplay import FREE_EVENT_ADAPTER, KI_MARKERS, FreeState, free_apply, free_asked, free_state
from engine.game import start_state
from engine.primitives import Ask
from engine.views import castillo_tallies, player_view, public_view


class GameMode(ABC):
    """What both modes offer the table. `state` is the tracked game's GameState (None when
    scoring only), `free` the scoring-only FreeState (None when tracking)."""

    mode: str
    state = None
    free = None

    @property
    def current(self):
        """The mode's game state: names, board, round and the scorings are read the same way."""
        return self.state or self.free

    # ---- inputs ----

    @abstractmethod
    def asked(self) -> Ask:
        """What the game asks now."""

    @abstractmethod
    def parse(self, event: dict):
        """An input as the mode's event model (pydantic ValidationError when it is none)."""

    def parse_input(self, event: Any):
        """An input as it came (a model, or a dict from a tap or a phone) as the mode's event
        model; a dict that is none is refused in one line naming the field."""
        if isinstance(event, BaseModel):
            return event
        try:
            return self.parse(event)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise InputError(f"not a valid input ({where}: {err['msg']})") from None

    @abstractmethod
    def apply(self, event) -> None:
        """Checked and applied (RuleViolation, with nothing changed, when refused)."""

    @abstractmethod
    def try_on_copy(self, events: list) -> None:
        """Applied in turn to a copy: RuleViolation when one is refused; this game is untouched."""

    @abstractmethod
    def castillo_from_tower(self, event, tally: dict[str, int]):
        """The event, with a Castillo it leaves out taken from the tower's count."""

    @abstractmethod
    def held_twin(self, event):
        """The event, with a Modifier card the player does not hold replaced by the twin they do."""

    # ---- the Castillo ----

    @abstractmethod
    def castillo_stays(self) -> bool:
        """Whether the Castillo's Caballeros stay in it after a general scoring (the King stands by it)."""

    @abstractmethod
    def placing_now(self, colour: str, ask: Ask) -> bool:
        """Could a Caballero of this colour go into the Castillo at this step?"""

    @abstractmethod
    def moves_dummy_in(self, ask: Ask) -> bool:
        """Whether a dummy's Caballero thrown in now is expected (a player moves it there)."""

    @abstractmethod
    def recorded_castillo(self) -> dict[str, int] | None:
        """What the entered turns put in the Castillo (None: no turns are entered)."""

    # ---- views ----

    @abstractmethod
    def public(self) -> dict:
        """The game's public view, as JSON."""

    @abstractmethod
    def private(self, player: str, tally: dict[str, int]) -> dict:
        """`player`'s own view (`tally`: the tower's Castillo count)."""

    @abstractmethod
    def shown(self) -> tuple[list[str], list[str]]:
        """The titles of the scorings and of the outcomes everyone has been shown."""

    @abstractmethod
    def modifiers(self):
        """Power Shift's Modifier cards (None: none in this game)."""

    @abstractmethod
    def played_in(self, player: str, card: int) -> int | None:
        """The round `player` laid Power card `card` down in (public), or None."""

    # ---- the 2023 card set, completed from the table's own box (companion.table_rules.card_learning) ----

    @abstractmethod
    def card_set_refusal(self) -> str | None:
        """Why no card may be added in this mode, or None."""

    @abstractmethod
    def card_set_open(self) -> bool:
        """Whether a card may be added now: between steps (engine.card_entry's rule)."""

    @abstractmethod
    def reveal_candidates(self) -> dict[int, list]:
        """Per stack, the listed cards whose stack nobody entered that it could hold, by name."""

    @abstractmethod
    def stack_may_hold_more(self, stack: int) -> bool:
        """Whether the table stack may hold a card other than those its set places there."""

    @abstractmethod
    def stacks_left(self) -> list:
        """Once the game is over: the stacks whose cards left the set cannot all place."""

    @abstractmethod
    def facts_left(self, also=()) -> dict:
        """Once the game is over: card id -> [CardFact] nobody read; `also`: cards just named."""

    @abstractmethod
    def cards_left_entries(self, named: dict[int, list], facts: dict | None) -> list[dict]:
        """The card-file entries for the cards left in the stacks, named, and the numbers read."""

    @abstractmethod
    def facts_needed(self, board: Board) -> list:
        """Board facts nobody published that the step asked now needs (companion.entry.facts)."""

    # ---- shared ----

    def general_scoring_emptied(self) -> bool:
        """A general scoring just emptied the Castillo. Not while the King stands by it
        (Rebellion): its Caballeros go back under it, and the tower counts on from them."""
        logbook = self.current.scoring_log
        return bool(logbook) and logbook[-1].title.startswith("General scoring") and not self.castillo_stays()

    def score_history(self, players: tuple[str, ...]) -> dict[str, list[tuple[int, int]]]:
        """(round, score) after each scoring, per player: for the end-of-game plot."""
        # Worked back from the scores as they stand, so scores entered or corrected on
        # the board (a start from a position) are in the plot, not only scoring lines.
        totals = {p["id"]: p["score"] for p in self.public()["players"]}
        points = []
        for record in reversed(self.current.scoring_log):
            points.append((record.round, dict(totals)))
            for line in record.lines:
                totals[line.player] -= line.points
        history = {pid: [(0, max(0, totals[pid]))] for pid in players}
        for rnd, after in reversed(points):
            for pid in players:
                history[pid].append((rnd, after[pid]))
        return history


class TrackedGame(GameMode):
    """Tracking: the engine's GameState, and when each Power card was laid down (public)."""

    mode = "tracking"

    def __init__(self, setup: GameSetup, board: Board):
        self.state = start_state(setup, board)
        self.power_rounds: dict[tuple[str, int], int] = {}  # (player, Power card) -> round laid down

    def asked(self) -> Ask:
        return asked(self.state)

    def parse(self, event: dict):
        return ev.event_from_dict(event)

    def apply(self, event) -> None:
        apply_event(self.state, event)
        if event.type == "power_card_played":  # public: the card lies face up from then on
            self.power_rounds[(event.player, event.card)] = self.state.round

    def try_on_copy(self, events: list) -> None:
        trial = self.state.clone()
        for event in events:
            apply_event(trial, event)

    def castillo_from_tower(self, event, tally: dict[str, int]):
        return event  # a tracked game's Castillo scoring reads the turns entered

    def held_twin(self, event):
        """Power Shift: a Modifier card is tapped by what is printed on it, and twins cannot be
        told apart at the table (a phone names them by face): a copy the player does not hold
        stands for the twin they do hold."""
        mid = getattr(event, "modifier", None)
        if not mid or getattr(event, "type", "") != "power_card_played" or event.player not in self.state.players:
            return event
        mods = self.state.modifiers
        hand = self.state.modifier_hands[self.state.players.index(event.player)] if self.state.modifier_hands else ()
        if mid in hand or mid not in mods:
            return event
        face = _modifier_face(mods[mid])
        twin = next((m for m in sorted(hand) if m in mods and _modifier_face(mods[m]) == face), None)
        return event.model_copy(update={"modifier": twin}) if twin else event

    def castillo_stays(self) -> bool:
        return self.state.king == self.state.board.castillo

    def placing_now(self, colour: str, ask: Ask) -> bool:
        if ask.kind == "turn_action":
            place = ask.options.get("place")
            return bool(place) and ask.players == (colour,)
        if ask.kind == "place_extra":
            return ask.players == (colour,)
        if ask.kind == "move_caballeros":
            return True  # some cards move other players' Caballeros into the Castillo
        return False

    def moves_dummy_in(self, ask: Ask) -> bool:
        return ask.kind == "move_caballeros"  # a player moves the dummy's in: the move entered counts it

    def recorded_castillo(self) -> dict[str, int] | None:
        return castillo_tallies(self.state)

    def public(self) -> dict:
        return public_view(self.state).model_dump(mode="json")

    def private(self, player: str, tally: dict[str, int]) -> dict:
        return player_view(self.state, player).model_dump(mode="json")["private"]

    def shown(self) -> tuple[list[str], list[str]]:
        return [s.title for s in self.state.scoring_log], [o.title for o in self.state.outcomes]

    def modifiers(self):
        return self.state.modifiers

    def played_in(self, player: str, card: int) -> int | None:
        return self.power_rounds.get((player, card))

    def card_set_refusal(self) -> str | None:
        return None

    def card_set_open(self) -> bool:
        return self.state.stage not in card_entry.CLOSED_STAGES

    def reveal_candidates(self) -> dict[int, list]:
        if self.state.stage != "reveal":
            return {}
        return {int(s): candidates(self.state, int(s)) for s in self.asked().options.get("stacks", {})}

    def stack_may_hold_more(self, stack: int) -> bool:
        state = self.state
        if state.rules.id != "2023":
            return False
        printed = [5] if stack == 5 else [p for p in (1, 2, 3, 4) if state.rules.table_stack(p) == stack]
        module = "new-regency" if stack == 5 and state.rules.new_regency else None
        return any((card_entry.stack_room(state, module, p) or 0) > 0 for p in printed)

    def stacks_left(self) -> list:
        return stacks_left(self.state)

    def facts_left(self, also=()) -> dict:
        return facts_left(self.state, also)

    def cards_left_entries(self, named: dict[int, list], facts: dict | None) -> list[dict]:
        return end_entries(self.state, named, facts)

    def facts_needed(self, board: Board) -> list:
        if self.state.stage in card_entry.CLOSED_STAGES:
            return []
        return facts_needed(board, self.asked())


class ScoringOnlyGame(GameMode):
    """Scoring only: engine.freeplay's FreeState; the tower's count is each player's Castillo."""

    mode = "scoring"

    def __init__(self, setup: GameSetup, board: Board):
        self.free: FreeState = free_state(setup, board)

    def asked(self) -> Ask:
        return free_asked(self.free)

    def parse(self, event: dict):
        return FREE_EVENT_ADAPTER.validate_python(event)

    def apply(self, event) -> None:
        free_apply(self.free, event)

    def try_on_copy(self, events: list) -> None:
        trial = copy.deepcopy(self.free)
        for event in events:
            free_apply(trial, event)

    def castillo_from_tower(self, event, tally: dict[str, int]):
        """A Castillo scoring entered without its content: what the tower counted."""
        if getattr(event, "type", "") == "special_scored" and event.kind == "castillo" and not event.castillo:
            return event.model_copy(update={"castillo": {p: c for p, c in tally.items() if c}})
        return event

    def held_twin(self, event):
        return event  # no Modifier cards without the tracked game

    def castillo_stays(self) -> bool:
        return self.free.castillo_stays

    def placing_now(self, colour: str, ask: Ask) -> bool:
        return ask.kind == "play_round"  # the round is played by hand: any throw may be a placement

    def moves_dummy_in(self, ask: Ask) -> bool:
        return False

    def recorded_castillo(self) -> dict[str, int] | None:
        return None  # no turns entered

    def public(self) -> dict:
        return free_public(self.free)

    def private(self, player: str, tally: dict[str, int]) -> dict:
        # The tower's count is the player's own Castillo figure.
        return {
            "player": player,
            "provinces": None,
            "castillo": tally[player],
            "power_cards_in_hand": [],
            "power_cards_discarded": [],
            "secret_disc": self.free.discs.get(player),
        }

    def shown(self) -> tuple[list[str], list[str]]:
        return [s.title for s in self.free.scoring_log], []

    def modifiers(self):
        return None

    def played_in(self, player: str, card: int) -> int | None:
        return None

    def card_set_refusal(self) -> str | None:
        return _("the card set is completed in a tracked game; scoring only needs no cards")

    def card_set_open(self) -> bool:
        return False

    def reveal_candidates(self) -> dict[int, list]:
        return {}

    def stack_may_hold_more(self, stack: int) -> bool:
        return False

    def stacks_left(self) -> list:
        return []

    def facts_left(self, also=()) -> dict:
        return {}

    def cards_left_entries(self, named: dict[int, list], facts: dict | None) -> list[dict]:
        return []

    def facts_needed(self, board: Board) -> list:
        return []


MODES = {"tracking": TrackedGame, "scoring": ScoringOnlyGame}


def game_for(mode: str, setup: GameSetup, board: Board) -> GameMode:
    """A new game of `mode` ("tracking" or "scoring") at its start."""
    return MODES[mode](setup, board)


def _modifier_face(m) -> tuple:
    """What is printed on a Modifier card (the phones' faces group twins the same way)."""
    return m.name, m.value, m.effect, repr(sorted((m.params or {}).items())), m.text


def free_public(free: FreeState) -> dict:
    ask = free_asked(free)
    table = free.table
    return {
        "rules": free.rules,
        "dummy": free.dummy,
        "round": free.round,
        "rounds": list(free.schedule),
        "variant": free.variant,
        "stage": free.stage,
        "asked": {
            "kind": ask.kind,
            "players": list(ask.players),
            "options": {k: v for k, v in ask.options.items() if k != "regions"},
            "vetoes": [],
            "card": None,
            "round": ask.round,
            "stage": ask.stage,
        },
        "players": [
            {
                "id": pid,
                "name": free.names[pid],
                "score": table.scores.get(pid, 0),
                "court": table.court.get(pid, 0),
                "grande": table.grandes.get(pid),
            }
            for pid in free.players
        ],
        "king": table.king,
        "regions": {r: dict(row) for r, row in table.regions.items()},
        "mobile_scoreboards": dict(table.mobile_scoreboards),
        **(
            {"modules": list(free.modules), "markers": ki_markers(table.model_dump(include=set(KI_MARKERS)))}
            if free.rules == "king-intrigue"
            else {}
        ),  # the map draws them as in a tracked game
        "secret_discs_chosen": [pid for pid in free.players if pid in free.discs],
        "scorings": [
            {
                "round": s.round,
                "title": s.title,
                "lines": [ln.to_dict() for ln in s.lines],
                "transfers": list(s.transfers),
            }
            for s in free.scoring_log
        ],
        "winners": list(free.winners),
    }
