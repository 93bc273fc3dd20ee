"""Builders for 2023 games in tests: the classic board and cards played with the 2023 rules,
plus test stand-ins for the module cards (♠, ♣) whose printed texts the rule book does not
give. The stand-in cards are labelled so; they exercise the modules' rules, not the cards."""

from __future__ import annotations

import dataclasses

from engine import events as ev
from engine.board.build import classic_board
from engine.board.model import ActionCard
from engine.game import Game

TWO = ["red", "yellow"]
DUMMY = "black"
HOMES = {"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia", "black": "granada"}
KING = "castilla_la_nueva"
STAND_IN = "test stand-in: not a printed card"


def card(
    cid: str,
    stack: int,
    effect: str,
    params: dict,
    placement: int,
    module: str | None,
    copies: int = 1,
    name: str | None = None,
) -> ActionCard:
    return ActionCard(
        id=cid,
        stack=stack,
        copies=copies,
        name=name or cid.replace("_", " ").title(),
        text=f"{effect} ({STAND_IN})",
        effect=effect,
        params=params,
        placement=placement,
        source=STAND_IN,
        module=module,
    )


# Ten ♠ cards for New Regency: King moves (the module "offers you new possibilities for the
# tactical movement of the King"), each printing its own number of Caballeros.
REGENCY = [
    card("regency_advisor", 5, "move_king", {"adjacent_only": True}, 4, "new-regency", copies=4),
    card("regency_majesty", 5, "move_king", {"adjacent_only": False}, 3, "new-regency", copies=3),
    card("regency_court", 5, "court", {"count": 2}, 2, "new-regency", copies=3),
]
# Four ♣ cards for Old Hands: one for stack 1, two for stack 2, one for stack 4.
CLUBS = [
    card("club_intrigue", 1, "move", {"total": 3, "own": 3, "foreign": 3}, 1, "old-hands"),
    card("club_angry", 2, "king_is_angry", {"count": 2}, 2, "old-hands"),
    card("club_one_of_each", 2, "one_of_each_back", {}, 2, "old-hands"),
    card("club_grande", 4, "grande", {}, 4, "old-hands"),
]


def board(extra=()):
    base = classic_board()
    return dataclasses.replace(base, cards={**base.cards, **{c.id: c for c in extra}})


def setup(players=TWO, modules=(), variant="full", start=None, king=KING, **more) -> ev.GameSetup:
    players = list(players)
    return ev.GameSetup(
        players=players,
        homes={p: HOMES[p] for p in players},
        king=king,
        variant=variant,
        start_player=start or players[0],
        rules="2023",
        modules=list(modules),
        dummy=DUMMY if len(players) == 2 else None,
        **more,
    )


def game(players=TWO, modules=(), extra=(), **more) -> Game:
    return Game(setup(players, modules, **more), board(list(REGENCY) + list(CLUBS) + list(extra)))


def seat(g: Game, pid: str) -> int:
    return g.state.players.index(pid)


def area(g: Game, rid: str) -> int:
    return g.board.area_index[rid]


def refused(g: Game, event, rule: str, text: str = "") -> str:
    """The event is refused under `rule` (and its message holds `text`); nothing changed."""
    import pytest

    from engine.errors import RuleViolation

    before = g.state.clone()
    with pytest.raises(RuleViolation) as info:
        g.apply(event)
    assert info.value.rule == rule, info.value
    assert text in info.value.detail, info.value.detail
    from engine.views import public_view

    assert public_view(g.state) == public_view(before)
    return info.value.detail


def begin_round(g: Game, cards, dummy_card=None, power=None, regions=None) -> None:
    """The dummy's Region cards (the first two of the pile unless named), the reveal, the
    dummy's Power card, then every player's Power card (`power`: player -> card or
    (card, modifier); highest to the first player by default)."""
    s = g.state
    if s.stage == "dummy_regions":
        ask = g.asked()
        g.apply(ev.DummyRegionCardsDrawn(regions=regions or ask.options["pile"][: ask.options["draw"]]))
    g.apply(ev.ActionCardsRevealed(cards=list(cards)))
    if s.stage == "dummy_power":
        g.apply(ev.DummyPowerCardRevealed(card=dummy_card))
    power = power or {}
    free = iter(sorted(set(range(1, 14)) - {dummy_card}, reverse=True))
    while s.stage == "power":
        pid = g.asked().players[0]
        play = power.get(pid) or next(c for c in free if c in s.hands[seat(g, pid)])
        card, modifier = play if isinstance(play, tuple) else (play, None)
        g.apply(ev.PowerCardPlayed(player=pid, card=card, modifier=modifier))


def plain_turn(g: Game, stack: int | None = None) -> None:
    """The player asked takes nothing to the court, takes a card (the lowest stack left
    unless named), places nothing and skips its special action."""
    s = g.state
    pid = g.asked().players[0]
    g.apply(ev.CourtReplenished(player=pid, from_provinces=0))
    if s.stage == "modifier_ability":
        g.apply(ev.ModifierAbilitySkipped(player=pid))
    stack = stack or min(k for k, c in s.revealed.items() if c)
    g.apply(ev.ActionCardChosen(player=pid, stack=stack))
    if s.stage == "turn":
        g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    if s.stage == "turn":
        g.apply(ev.SpecialActionSkipped(player=pid))


def finish_round(g: Game, discs_to: str = "galicia") -> None:
    """Every remaining turn plainly; at a general scoring every disc on `discs_to`."""
    s = g.state
    start = s.round_index
    while s.round_index == start and s.stage in ("replenish", "choose_card", "modifier_ability", "turn"):
        plain_turn(g)
    if s.stage == "scoring_discs":
        for pid in g.asked().players:
            g.apply(ev.SecretDiscSet(player=pid, region=discs_to))
        g.apply(ev.SecretDiscsRevealed())


ROUND_CARDS = ["intrigue_any_3", "score_5_regions", "grande"]  # stacks 1, 2 (a printed 3), 4
