"""A 2023 table for the effect tests: the shipped 2023 board and cards, completed by the
table's own files where the rule book publishes nothing (these values are the tests' own,
entered as a table would from its box, never the engine's guess)."""

from __future__ import annotations

import copy

from engine import events as ev
from engine.errors import RuleViolation
from engine.game import Game
from tests.engine.helpers import finish_turn

PLAYERS = ["purple", "blue", "green", "orange"]  # clockwise: orange is purple's right, blue its left
HOMES = {"purple": "galicia", "blue": "aragon", "green": "sevilla", "orange": "cataluna"}
KING = "castilla"

# The table's board file: what its own board and tiles show (test values).
BOARD_FILE = {
    "spaces": [
        {"id": "france", "neighbours": ["navarra", "aragon", "cataluna"]},
        {"id": "portugal", "neighbours": ["galicia", "castilla", "toledo", "sevilla"]},
    ],
    "scoring_tiles": {"tile_a": [4, 0, 0], "tile_b": [8, 4, 0]},
}

# The table's card file: the stack and copies of each card it plays with, and what the rule
# book leaves to the card.
_CARDS = {
    1: ["intrigue", "militia", "infiltration", "stand_in"],
    2: ["veto", "withdrawal", "civil_war", "empowerment"],
    3: ["fiesta", "outposts", "revelation", "competition"],
    4: ["coup", "enactment", "adopted_home"],
}
PARAMS = {
    "civil_war": {"outcome": "send_back"},
    "stand_in": {"swap": "king_and_any_grande"},
    "entourage": {"king_to": "any_region", "whose": "any"},
}
REGENCY = ["exile", "entourage", "chalet", "rebellion"]
REGENCY_PLACEMENT = {"exile": 3, "entourage": 2, "chalet": 4, "rebellion": 3}


# Turned up beside the card a test wants: harmless when left over or taken by finish_round.
FILLERS = {1: "intrigue", 2: "empowerment", 3: "fiesta", 4: "adopted_home", 5: "chalet"}


def cards_file(params: dict | None = None, stacks: dict | None = None, extra: tuple = ()) -> dict:
    """`stacks`: card id -> the stack this table's copy lies in (its placement goes with it);
    `extra`: cards the table adds from the effect vocabulary."""
    cards = []
    for stack, ids in _CARDS.items():
        cards += [
            {"id": cid, "stack": (stacks or {}).get(cid, stack), "copies": 3 if cid in FILLERS.values() else 1}
            for cid in ids
        ]
    cards += [{"id": cid, "copies": 2, "placement": REGENCY_PLACEMENT[cid]} for cid in REGENCY]
    for c in cards:
        given = {**PARAMS, **(params or {})}.get(c["id"])
        if given:
            c["params"] = dict(given)
    return {"cards": cards + list(extra)}


def new_game(
    players=PLAYERS,
    king=KING,
    homes=HOMES,
    modules=(),
    board_file=BOARD_FILE,
    params=None,
    start=None,
    files=True,
    dummy=None,
    round=None,
    stacks=None,
    extra_cards=(),
    **setup,
) -> Game:
    """A 2023 game; `round`: tracking starts in that round (TableCorrected), e.g. 3 to reach
    the first general scoring at the end of the first round played."""
    game = Game(
        ev.GameSetup(
            players=list(players),
            rules="2023",
            modules=list(modules),
            king=king,
            dummy=dummy,
            homes={p: homes[p] for p in players},
            start_player=start or players[0],
            board_file=copy.deepcopy(board_file) if files and board_file is not None else None,
            cards_file=cards_file(params, stacks, extra_cards) if files else None,
            **setup,
        )
    )
    if round is not None:
        game.apply(ev.TableCorrected(round=round))
    return game


def reveal_for(game: Game, card_id: str) -> list[str]:
    """One face-up card per stack, `card_id` among them."""
    state = game.state
    stacks = list(state.rules.stacks) + ([5] if state.rules.new_regency else [])
    chosen = []
    for s in stacks:
        if s == 5:
            options = [c for c, k in state.regency_undrawn.items() if k]
        else:
            options = [c for c, k in state.stacks_undrawn[s - 1].items() if k]
        filler = FILLERS.get(s) if FILLERS.get(s) in options else sorted(options)[0]
        chosen.append(card_id if card_id in options else filler)
    assert card_id in chosen or card_id == "your_majesty", f"{card_id} is not face down in any stack"
    return chosen


def start_round(game: Game, card_id: str, order=None) -> None:
    """Reveal a round with `card_id` up; Power cards so that players act in `order` (the
    2-player dummy, if any, last: its Region cards are the first two of the pile)."""
    if game.state.stage == "dummy_regions":
        o = game.asked().options
        pile = [r for r in o["pile"] if r != o["kings_region"]]
        game.apply(ev.DummyRegionCardsDrawn(regions=pile[: o["draw"]]))
    game.apply(ev.ActionCardsRevealed(cards=reveal_for(game, card_id)))
    if game.state.stage == "dummy_power":
        game.apply(ev.DummyPowerCardRevealed(card=1))
    order = list(order or [p for q, p in enumerate(game.state.players) if q != game.state.dummy])
    values, below = {}, 99
    for pid in order:  # each the highest card left in hand below the one before
        below = values[pid] = max(c for c in game.state.hands[seat(game, pid)] if c < below)
    while game.state.stage == "power":
        pid = game.asked().players[0]
        game.apply(ev.PowerCardPlayed(player=pid, card=values[pid]))


def take(game: Game, card_id: str, replenish: int = 0) -> str:
    pid = game.asked().players[0]
    game.apply(ev.CourtReplenished(player=pid, from_provinces=replenish))
    stack = next(s for s, c in game.state.revealed.items() if c == card_id)
    game.apply(ev.ActionCardChosen(player=pid, stack=stack))
    return pid


def turn_with(game: Game, card_id: str, place: bool = True, order=None) -> str:
    """The first player of a new round takes `card_id`; placed nothing (place=True) so that
    only the special action remains."""
    start_round(game, card_id, order)
    pid = take(game, card_id)
    if place:
        game.apply(ev.CaballerosPlaced(player=pid, placements={}))
    return pid


def start_special(game: Game, pid: str) -> None:
    game.apply(ev.SpecialActionStarted(player=pid))


def lift_castillo(game: Game, counts=None) -> None:
    """Revelation let pass by every Veto holder: the table lifts the Castillo and counts it ({}:
    as the turns say), which scores it."""
    game.apply(ev.CastilloCounted(counts=counts or {}))


def idx(game: Game, area: str) -> int:
    return game.board.area_index[area]


def seat(game: Game, pid: str) -> int:
    return game.state.players.index(pid)


def put(game: Game, pid: str, area: str, n: int) -> None:
    """Arrange the board: n Caballeros from the provinces to an area (negative: back)."""
    s, p = game.state, seat(game, pid)
    s.counts[idx(game, area)][p] += n
    s.provinces[p] -= n
    assert s.provinces[p] >= 0 and s.counts[idx(game, area)][p] >= 0


def clear(game: Game) -> None:
    """Every Caballero off the board and out of the courts, back to the provinces."""
    s = game.state
    for p in range(s.n):
        for row in s.counts:
            s.provinces[p] += row[p]
            row[p] = 0
        s.provinces[p] += s.court[p]
        s.court[p] = 0


def set_court(game: Game, pid: str, n: int) -> None:
    s, p = game.state, seat(game, pid)
    s.provinces[p] += s.court[p] - n
    s.court[p] = n
    assert s.provinces[p] >= 0


def count(game: Game, pid: str, area: str) -> int:
    return game.state.counts[idx(game, area)][seat(game, pid)]


def court(game: Game, pid: str) -> int:
    return game.state.court[seat(game, pid)]


def provinces(game: Game, pid: str) -> int:
    return game.state.provinces[seat(game, pid)]


def score(game: Game, pid: str) -> int:
    return game.state.scores[seat(game, pid)]


def king(game: Game) -> str:
    return game.board.area_id(game.state.king)


def grande(game: Game, pid: str) -> str:
    return game.board.area_id(game.state.grandes[seat(game, pid)])


def refused(game: Game, event, rule: str | None = None) -> str:
    """The event is refused (with `rule`), and the state is exactly as before."""
    before = game.state.clone()
    try:
        game.apply(event)
    except RuleViolation as e:
        if rule is not None:
            assert e.rule == rule, (e.rule, str(e))
        assert _same(before, game.state), "a refused event changed the state"
        return str(e)
    raise AssertionError(f"{event!r} was accepted")


def _same(a, b) -> bool:
    fields = (
        "counts",
        "court",
        "provinces",
        "king",
        "grandes",
        "mobile",
        "scores",
        "stage",
        "vetoes",
        "hands",
        "discards",
        "discard_pile",
    )
    return all(getattr(a, f) == getattr(b, f) for f in fields) and (a.special is None) == (b.special is None)


def finish_round(game: Game) -> None:
    """Every remaining turn of the round: take a card, do nothing."""
    round_index = game.state.round_index
    while game.state.round_index == round_index and game.state.stage in ("replenish", "choose_card", "turn"):
        if game.state.stage == "replenish":
            take(game, next(c for s, c in sorted(game.state.revealed.items()) if c))
        finish_turn(game)


def general_scoring(game: Game, discs: dict[str, str] | None = None) -> None:
    """Finish the round; every player asked sets a disc (`discs`, else the first region
    they may), then the table reveals them."""
    finish_round(game)
    assert game.state.stage == "scoring_discs", game.state.stage
    ask = game.asked()
    if ask.kind == "secret_disc":
        for pid in ask.players:
            region = (discs or {}).get(pid) or ask.options["regions"][pid][0]
            game.apply(ev.SecretDiscSet(player=pid, region=region))
    game.apply(ev.SecretDiscsRevealed())


TWO = dict(players=["purple", "blue"], dummy="green", board_file=None)


def _dummy(g) -> str:
    return g.state.players[g.state.dummy]
