"""Builders that bring a real game, through real events, to the moment a test needs."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.game import Game

PLAYERS = ["red", "blue", "green"]
HOMES = {"red": "galicia", "blue": "aragon", "green": "sevilla"}
KING = "castilla_la_nueva"
DEFAULT_CARDS = ["intrigue_any_3", "veto", "score_castillo", "grande"]


def new_game(players=PLAYERS, homes=HOMES, king=KING, variant="full", start="red", revision=ev.RULES_REVISION) -> Game:
    return Game(
        ev.GameSetup(
            players=list(players),
            homes={p: homes[p] for p in players},
            king=king,
            variant=variant,
            start_player=start,
            revision=revision,
        )
    )


def idx(game: Game, area: str) -> int:
    return game.board.area_index[area]


def put(game: Game, player: str, area: str, n: int) -> None:
    """Arrange the board for a test: n Caballeros from the provinces to an area
    (negative n sends them back). Keeps each player's 30 accounted for."""
    s = game.state
    p = s.players.index(player)
    s.counts[idx(game, area)][p] += n
    s.provinces[p] -= n
    assert s.provinces[p] >= 0 and s.counts[idx(game, area)][p] >= 0


def start_round(game: Game, cards=DEFAULT_CARDS, power=None) -> None:
    """Reveal cards and play power cards (highest first by default: seat order)."""
    game.apply(ev.ActionCardsRevealed(cards=list(cards)))
    power = power or {p: 13 - i for i, p in enumerate(game.state.players)}
    while game.state.stage == "power":
        pid = game.asked().players[0]
        game.apply(ev.PowerCardPlayed(player=pid, card=power[pid]))


def take_card(game: Game, card_id: str, player: str | None = None, replenish: int = 0) -> str:
    """The player now asked replenishes and takes the face-up card `card_id`."""
    pid = game.asked().players[0]
    assert player in (None, pid), f"{pid} is asked, not {player}"
    game.apply(ev.CourtReplenished(player=pid, from_provinces=replenish))
    stack = next(s for s, c in game.state.revealed.items() if c == card_id)
    game.apply(ev.ActionCardChosen(player=pid, stack=stack))
    return pid


def turn_with(game: Game, card_id: str, cards=None, place: bool = True) -> str:
    """Start round 1 with `card_id` face up and give it to the first player, who
    has already placed nothing (place=True) so that only the special remains."""
    cards = list(cards or DEFAULT_CARDS)
    stack = game.board.cards[card_id].stack
    if stack <= 4:
        cards[stack - 1] = card_id
    start_round(game, cards)
    pid = take_card(game, card_id)
    if place:
        game.apply(ev.CaballerosPlaced(player=pid, placements={}))
    return pid


def count(game: Game, player: str, area: str) -> int:
    return game.state.counts[idx(game, area)][game.state.players.index(player)]


def court(game: Game, player: str) -> int:
    return game.state.court[game.state.players.index(player)]


def provinces(game: Game, player: str) -> int:
    return game.state.provinces[game.state.players.index(player)]


def score(game: Game, player: str) -> int:
    return game.state.scores[game.state.players.index(player)]


def finish_turn(game: Game) -> None:
    """Let the active player end the turn doing nothing more."""
    ask = game.asked()
    pid = ask.players[0]
    if ask.kind == "turn_action":
        if ask.options["place"]:
            game.apply(ev.CaballerosPlaced(player=pid, placements={}))
        if game.asked().kind == "turn_action" and game.asked().options["special"]:
            game.apply(ev.SpecialActionSkipped(player=pid))


def finish_round(game: Game) -> None:
    """Every remaining turn of the round: replenish nothing, take a card, do nothing."""
    round_index = game.state.round_index
    while game.state.round_index == round_index and game.state.stage in ("replenish", "choose_card", "turn"):
        if game.state.stage == "replenish":
            take_card(game, next(c for s, c in sorted(game.state.revealed.items()) if c))
        finish_turn(game)
    state = game.state
    if state.stage == "scoring_discs" and not any(state.counts[state.board.castillo]):
        # Discs change nothing when the Castillo is empty; everyone still sets one.
        for pid in state.players:
            game.apply(ev.SecretDiscSet(player=pid, region=state.board.region_ids[0]))
        game.apply(ev.SecretDiscsRevealed())


ROUND_2 = ["intrigue_any_4", "decay_3", "score_5_regions", "the_court"]


def refused(game, event, rule):
    before = game.to_jsonl(), repr(game.state)
    with pytest.raises(RuleViolation) as info:
        game.apply(event)
    assert info.value.rule == rule, str(info.value)
    assert (game.to_jsonl(), repr(game.state)) == before  # nothing half-applied
    return str(info.value)
