"""What a game reads: the board side a player count uses, the shipped files completed or corrected
by the table's own, validated like the shipped ones (RuleSetError, BoardFileError, CardFileError)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .build import board_from, card_set_from, classic_board
from .checks import check_board, check_cards
from .errors import BoardDataError, BoardFileError, CardFileError, DataFileError, RuleSetError, parse_file
from .files import FILES, PLAYERS, RULE_SETS, BoardFile, CardsFile, read_json
from .merge import merge_board_file, merge_card_file
from .model import Board, CardSet


def side_for(rules: str, players: int) -> str:
    """The side of the board a game of `players` uses under `rules`."""
    if rules not in RULE_SETS:
        raise RuleSetError(f"rules: unknown rule set {rules!r} (rule sets: {', '.join(RULE_SETS)})")
    low, high = PLAYERS[rules]
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise RuleSetError(f"players: {players!r} given; the {rules} rules take {low} to {high} players")
    if rules == "classic":
        return "classic"
    return "2-3" if players <= 3 else "4-5"


@lru_cache(maxsize=8)
def player_range(rules: str) -> tuple[int, int]:
    """The fewest and most players `rules` takes, on any side of its board (its board file's
    `players`, and each other side's): the seats a new game may fill."""
    own = BOARD_LOADERS.get(rules)
    if own is not None:  # King and Intrigue: its own board (the classic one)
        board = own(4, None, None)
        return board.min_players, board.max_players
    side_for(rules, 4)  # names an unknown rule set
    raw = read_json(FILES[rules][0])
    ranges = [raw["players"]] + [s["players"] for s in raw.get("other_sides", {}).values() if "players" in s]
    return min(r["min"] for r in ranges), max(r["max"] for r in ranges)


def _side_json(rules: str, side: str) -> dict[str, Any]:
    """The shipped board file of a side. The 2023 2-3 player side is not published: it is the
    4-5 side's map with every scoreboard unknown (named in `missing`)."""
    raw = copy.deepcopy(read_json(FILES[rules][0]))
    if side == raw.get("side", "classic"):
        return raw
    other = raw["other_sides"].pop(side)
    shown = raw["side"]
    raw.update(
        side=side,
        scoring_places=other["scoring_places"],
        name=raw["name"].replace(shown, side),
        players={**raw["players"], **other["players"]},
    )
    raw["provenance"].update(scoring_places=other["source"], players=other["source"])
    areas = [(f"regions.{r['id']}", f"regions[{r['id']}]", r["name"], r) for r in raw["regions"]]
    areas.append(("castillo", "castillo", "the Castillo", raw["castillo"]))
    for path, file_path, name, area in areas:
        area["scoreboard"] = None
        raw["provenance"].pop(f"{path}.scoreboard")
        raw["missing"][f"{path}.scoreboard"] = (
            f"{name}'s Scoring board on the {side} player side is not known (the rule book does not print it): "
            f"enter its numbers for 1st, 2nd and 3rd place from your board (board file: {file_path}.scoreboard)"
        )
    for r in raw["regions"]:
        key = f"regions.{r['id']}.neighbours"
        raw["provenance"][key] = (
            f"inferred: the {side} side taken to show the same map as the {shown} side "
            f"(the rule book shows one map); {shown} side: {raw['provenance'][key]}"
        )
    return raw


def _load_card_json(rules: str, cards_file: Any, spade_printed: bool = True) -> tuple[CardsFile, type[DataFileError]]:
    raw = copy.deepcopy(read_json(FILES[rules][1]))
    err: type[DataFileError] = BoardDataError
    if cards_file is not None:
        if raw.get("stack_sizes") is None:  # classic: the shipped cards fill their stacks
            raw["stack_sizes"] = {}
            for c in raw["cards"]:
                raw["stack_sizes"][str(c["stack"])] = raw["stack_sizes"].get(str(c["stack"]), 0) + c["copies"]
        raw, err = merge_card_file(raw, cards_file, spade_printed), CardFileError
    cards = parse_file(CardsFile, raw, err, "card file" if cards_file is not None else FILES[rules][1])
    try:
        check_cards(cards, err)
    except DataFileError as exc:
        raise err(f"card file: {exc}" if cards_file is not None else str(exc)) from None
    return cards, err


def load_cards(rules: str, cards_file: Any = None, spade_printed: bool = True) -> CardSet:
    """The action cards of `rules`, completed or corrected by a table's card file (a dict).
    `spade_printed`: see engine/board/merge.py's _placement_printed (False for games saved before rules revision 3)."""
    side_for(rules, 4)  # names an unknown rule set
    if cards_file is None:
        return _shipped_cards(rules)
    return card_set_from(_load_card_json(rules, cards_file, spade_printed)[0])


@lru_cache(maxsize=4)
def _shipped_cards(rules: str) -> CardSet:
    return card_set_from(_load_card_json(rules, None)[0])


# Registered by the rule systems whose card sets this module does not read itself (engine/__init__.py
# imports them all): rules -> fn(players, board_file, cards_file) -> Board.
BOARD_LOADERS: dict[str, Callable[[int, Any, Any], Board]] = {}


def load_board(
    rules: str, players: int, board_file: Any = None, cards_file: Any = None, spade_printed: bool = True
) -> Board:
    """The board a game of `players` uses under `rules`, with its card set.

    `board_file` and `cards_file` are the table's own files (parsed JSON): they
    complete or correct the shipped data and are validated like it. Raises
    RuleSetError (unknown rules, player count), BoardFileError or CardFileError.
    """
    own = BOARD_LOADERS.get(rules)
    if own is not None:  # King and Intrigue: the classic board with its own kind of cards
        return own(players, board_file, cards_file)
    side = side_for(rules, players)
    if board_file is None and cards_file is None:
        board = classic_board() if rules == "classic" else _shipped_board(rules, side)
    else:
        raw = _side_json(rules, side)
        err: type[DataFileError] = BoardDataError
        if board_file is not None:
            raw, err = merge_board_file(raw, board_file), BoardFileError
        data = parse_file(BoardFile, raw, err, "board file" if board_file is not None else FILES[rules][0])
        try:
            check_board(data, err)
        except DataFileError as exc:
            raise err(f"board file: {exc}" if board_file is not None else str(exc)) from None
        card_set = load_cards(rules, cards_file, spade_printed)
        board = board_from(data, card_set)
    if not board.min_players <= players <= board.max_players:
        raise RuleSetError(
            f"players: {players} given; the {rules} rules take {board.min_players} "
            f"to {board.max_players} on the {side} side"
        )
    return board


@lru_cache(maxsize=4)
def _shipped_board(rules: str, side: str) -> Board:
    data = parse_file(BoardFile, _side_json(rules, side), BoardDataError, FILES[rules][0])
    check_board(data)
    return board_from(data, _shipped_cards(rules))
