"""A game is its setup plus its events. Replay rebuilds it; undo is replay
without the last event; both serialise to JSON lines."""

from __future__ import annotations

import json
from collections.abc import Iterable

from .board.build import classic_board
from .board.load import load_board
from .board.model import Board
from .errors import RuleViolation, Said
from .events import Event, GameSetup, event_from_dict
from .flow import apply_event, asked
from .primitives import Ask
from .rules import RulesChoiceError, rule_set
from .rules.edition_2023.power_shift import modifiers_for
from .rules.king_intrigue.round import prepare as prepare_king_intrigue
from .state import GameState, new_state


def board_for(setup: GameSetup) -> Board:
    """The board and cards a setup plays with: its rule set's, completed or corrected by
    the table's own files kept in the setup. Raises ValueError naming what is wrong."""
    if setup.rules == "classic" and setup.board_file is None and setup.cards_file is None:
        return classic_board()
    return load_board(
        setup.rules, len(setup.players), setup.board_file, setup.cards_file, spade_printed=setup.revision >= 3
    )


def _check_dummy(setup: GameSetup) -> None:
    wanted = setup.rules == "2023" and len(setup.players) == 2
    if wanted and setup.dummy is None:
        raise RuleViolation("setup", "the 2-player game of the 2023 rules needs a dummy: name its colour")
    if not wanted and setup.dummy is not None:
        raise RuleViolation("setup", "only the 2-player game of the 2023 rules has a dummy")
    if setup.dummy in setup.players:
        raise RuleViolation("setup", "the dummy's colour {dummy!r} is a player's colour", dummy=setup.dummy)


def _check_setup(board: Board, setup: GameSetup) -> None:
    players = setup.players
    try:
        rule_set(setup.rules, setup.modules, len(players))
    except RulesChoiceError as e:
        said = e.args[0] if e.args and isinstance(e.args[0], Said) else Said("{problem}", problem=str(e))
        raise RuleViolation("setup", said) from None
    _check_dummy(setup)
    if not board.min_players <= len(players) <= board.max_players:
        raise RuleViolation(
            "setup",
            "{count} players: El Grande takes {min_players} to {max_players}",
            count=len(players),
            min_players=board.min_players,
            max_players=board.max_players,
        )
    if len(set(players)) != len(players):
        raise RuleViolation("setup", "player ids must differ: {players}", players=players)
    if setup.king not in board.region_ids:
        raise RuleViolation("setup", "the King's region {king!r} is not a region", king=setup.king)
    if set(setup.homes) != set(players):
        raise RuleViolation("setup", "every player needs exactly one home region card")
    homes = list(setup.homes.values())
    for home in homes:
        if home not in board.region_ids:
            raise RuleViolation("setup", "home region {home!r} is not a region", home=home)
    if len(set(homes)) != len(homes) or setup.king in homes:
        raise RuleViolation(
            "setup",
            "region cards are drawn without replacement: home regions "
            "differ from each other and from the King's region",
        )
    if setup.start_player not in players:
        raise RuleViolation("setup", "start player {start_player!r} is not a player", start_player=setup.start_player)
    unknown = set(setup.names) - set(players)
    if unknown:
        raise RuleViolation("setup", "names given for unknown players: {unknown}", unknown=sorted(unknown))


def start_state(setup: GameSetup, board: Board | None = None, cards_played: bool = True) -> GameState:
    """The position after setup. `cards_played=False` (scoring only: the table plays its cards
    itself) leaves out King and Intrigue's hands, and with them the check of its card set."""
    board = board or board_for(setup)
    _check_setup(board, setup)
    index = board.area_index
    seats = list(setup.players) + ([setup.dummy] if setup.dummy else [])
    names = {pid: setup.names.get(pid) or pid.replace("_", " ").title() for pid in seats}
    if setup.dummy:
        names[setup.dummy] = f"the dummy ({names[setup.dummy]})"
    homes = [index[setup.homes[pid]] for pid in setup.players] + ([None] if setup.dummy else [])
    state = new_state(
        board,
        seats,
        names,
        setup.variant,
        index[setup.king],
        homes,
        setup.players.index(setup.start_player),
        rule_set(setup.rules, setup.modules, len(setup.players)),
        dummy=len(setup.players) if setup.dummy else None,
        removed=tuple(setup.removed_cards),
        added=tuple(setup.added_cards),
        modifiers=modifiers_for(setup),
    )
    state.veto_on_take = setup.revision >= 2
    state.castillo_after_veto = setup.revision >= 3
    state.spade_printed = setup.revision >= 3
    state.table_files = (setup.board_file, setup.cards_file)
    if state.rules.king_intrigue and cards_played:
        prepare_king_intrigue(state)  # refuses an incomplete card set, naming what is missing
    return state


class Game:
    """One game: its setup, its accepted events, and the state they lead to."""

    def __init__(self, setup: GameSetup, board: Board | None = None) -> None:
        self.setup = setup
        self.board = board or board_for(setup)
        self.state = start_state(setup, self.board)
        self.events: list[Event] = []

    def apply(self, event: Event) -> None:
        """Apply one event, or raise RuleViolation and change nothing."""
        apply_event(self.state, event)
        self.events.append(event)

    def asked(self) -> Ask:
        return asked(self.state)

    @classmethod
    def replay(cls, setup: GameSetup, events: Iterable[Event], board: Board | None = None) -> Game:
        game = cls(setup, board)
        for event in events:
            game.apply(event)
        return game

    def undo(self) -> Event:
        """Take back the last event: replay all the others."""
        if not self.events:
            raise RuleViolation("phase-order", "there is nothing to undo")
        last = self.events[-1]
        rebuilt = Game.replay(self.setup, self.events[:-1], self.board)
        self.state, self.events = rebuilt.state, rebuilt.events
        return last

    # --- JSON lines: the setup first, then one event per line ---------------------
    def to_jsonl(self) -> str:
        lines = [json.dumps({"setup": self.setup.model_dump()})]
        lines += [e.model_dump_json() for e in self.events]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_jsonl(cls, text: str, board: Board | None = None) -> Game:
        rows = [line for line in text.splitlines() if line.strip()]
        if not rows:
            raise ValueError("empty game log: the first line must hold the setup")
        setup = GameSetup.from_saved(json.loads(rows[0])["setup"])
        return cls.replay(setup, (event_from_dict(json.loads(r)) for r in rows[1:]), board)
