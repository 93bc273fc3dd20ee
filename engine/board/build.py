"""From validated file models to the frozen Board and CardSet (engine/board/model.py); the classic
board, built once."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .checks import cards_missing, check_board, check_cards
from .errors import BoardDataError, DataFileError
from .files import BoardFile, CardsFile, read_json
from .model import CASTILLO, ActionCard, Board, CardSet


def card_set_from(cards: CardsFile) -> CardSet:
    sizes = cards.stack_sizes
    if sizes is None:
        sizes = {}
        for c in cards.cards:
            sizes[c.stack] = sizes.get(c.stack, 0) + (c.copies or 0)
    built = {}
    for c in cards.cards:
        placement = c.placement if "placement" in c.model_fields_set else cards.placements.get(c.stack)
        built[c.id] = ActionCard(
            c.id, c.stack, c.copies, c.name, c.text, c.effect, dict(c.params), placement, c.source, c.module
        )
    provenance = dict(cards.provenance)
    provenance.update({f"cards.{c.id}": c.source for c in cards.cards if c.source})
    return CardSet(
        rules=cards.rules,
        name=cards.name,
        cards=built,
        placements=dict(cards.placements),
        stack_sizes=dict(sorted(sizes.items())),
        module_stack_sizes={m: dict(f.stack_sizes) for m, f in cards.modules.items()},
        provenance=provenance,
        missing=cards_missing(cards),
    )


def board_from(data: BoardFile, card_set: CardSet) -> Board:
    ids = tuple(r.id for r in data.regions)
    index = {rid: i for i, rid in enumerate(ids)}
    index[CASTILLO] = len(ids)
    index.update({s.id: len(ids) + 1 + i for i, s in enumerate(data.spaces)})
    return Board(
        name=data.name,
        region_ids=ids,
        region_names=tuple(r.name for r in data.regions),
        neighbours=tuple(frozenset(index[n] for n in r.neighbours) for r in data.regions),
        scoreboards=tuple(r.scoreboard for r in data.regions) + (data.castillo.scoreboard,),
        scoring_groups={k: frozenset(v) for k, v in data.scoring_groups.items()},
        replenish=dict(data.power_cards),
        mobile_scoreboards=dict(data.mobile_scoreboards),
        caballeros_per_player=data.caballeros_per_player,
        home_caballeros=data.setup["home_region_caballeros"],
        court_caballeros=data.setup["court_caballeros"],
        round_schedules={k: tuple(v) for k, v in data.rounds.items() if k != "general_scoring_after"},
        general_scoring_after=frozenset(data.rounds["general_scoring_after"]),
        min_players=data.players.min,
        max_players=data.players.max,
        colours=tuple(data.players.colours),
        cards=card_set.cards,
        area_index=index,
        rules=data.rules,
        side=data.side,
        space_ids=tuple(s.id for s in data.spaces),
        space_names=tuple(s.name for s in data.spaces),
        space_neighbours=tuple(
            None if s.neighbours is None else frozenset(index[n] for n in s.neighbours) for s in data.spaces
        ),
        scoring_places=data.scoring_places,
        scoring_tiles=dict(data.scoring_tiles),
        stack_sizes=card_set.stack_sizes,
        module_stack_sizes=card_set.module_stack_sizes,
        provenance={**data.provenance, **card_set.provenance},
        missing={**data.missing, **card_set.missing},
    )


def build_board(board_json: Any, cards_json: Any) -> Board:
    """A Board from a board file and a card file (the packaged data: a schema error is pydantic's)."""
    data = BoardFile.model_validate(board_json)
    cards = CardsFile.model_validate(cards_json)
    check_board(data)
    check_cards(cards)
    _check_same_rules(data.rules, cards.rules, BoardDataError)
    return board_from(data, card_set_from(cards))


def _check_same_rules(board_rules: str, card_rules: str, err: type[DataFileError]) -> None:
    if board_rules != card_rules:
        raise err(f"rules: a {board_rules} board cannot take a {card_rules} card set")


@lru_cache(maxsize=1)
def classic_board() -> Board:
    """The classic 1995 board and its 45 action cards."""
    return build_board(read_json("board_classic.json"), read_json("action_cards_classic.json"))
