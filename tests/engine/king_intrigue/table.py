"""A King and Intrigue table for the tests: the shipped card set completed by the table's own
card file (these numbers are the tests' own, entered as a table would from its box; never the
engine's guess), and builders that bring a real game, through real events, to a moment."""

from __future__ import annotations

from engine import events as ev
from engine.game import Game
from engine.snapshot import load_snapshot, score_snapshot

COLOURS = ["red", "blue", "green", "yellow", "black"]
HOMES = {"red": "galicia", "blue": "sevilla", "green": "granada", "yellow": "valencia", "black": "cataluna"}
KING = "castilla_la_nueva"  # neighbours: castilla_la_vieja, aragon, valencia, granada, sevilla

COURT = {
    10: 6,
    20: 6,
    30: 5,
    40: 4,
    50: 5,
    60: 4,
    70: 4,
    80: 4,
    90: 3,
    100: 3,
    110: 3,
    120: 2,
    130: 2,
    140: 2,
    150: 1,
    160: 1,
    170: 0,
    180: 0,
}
EFFECTS = {
    30: {"effect": "decay", "params": {"count": 3}},
    60: {"effect": "score_group", "params": {"group": "4"}},
    100: {"effect": "score_group", "params": {"group": "5"}},
    110: {"effect": "score_group", "params": {"group": "6-7"}},
    120: {"effect": "score_castillo"},
    140: {"params": {"foreign": 2}},
    150: {"effect": "score_chosen_region"},
    170: {"effect": "score_first_only"},
}
PLACEMENTS = {"2": [2, 5], "3": [2, 3, 5], "4": [1, 2, 3, 4], "5": [1, 2, 3, 4, 5]}
CARDS_FILE = {
    "rules": "king-intrigue",
    "name": "our box (test numbers)",
    "power_cards": [{"id": f"ki_{v}", "court": c, **EFFECTS.get(v, {})} for v, c in COURT.items()],
    "placements": PLACEMENTS,
}
ALL = sorted(COURT)
# The modules' cards this engine plays, with our numbers; the others left in the box.
MODULE_CARDS = [
    {"id": "pe_joker", "value": 5, "court": 0},
    {"id": "pe_field_day", "court": 5},
    {"id": "pe_alliance", "value": 45, "court": 3},
    {"id": "sc_fiesta", "value": 65},
    {"id": "sc_coup", "value": 85, "court": 3},
    {"id": "pe_relocate", "court": 4},
    {"id": "sc_scoring_own", "value": 95, "court": 3},
    {"id": "sc_scoring_any", "value": 105, "court": 2},
    {"id": "sc_scoring_offered", "value": 115, "court": 2},
    {"id": "sc_revolt", "value": 125, "court": 2},
]
MODULE_CARDS += [
    {"id": "pe_civil_war", "value": 33, "court": 3, "params": {"outcome": "to_court", "place": 2}},
    {"id": "pe_bridge", "value": 55, "court": 3},
    {"id": "pe_quarantine", "value": 135, "court": 2, "params": {"until": "round"}},
    {"id": "pe_risk_of_collapse", "value": 145, "court": 2, "params": {"until": "general_scoring"}},
    {"id": "sc_table_for_six", "value": 155, "court": 1},
    {"id": "sc_kings_guard", "value": 165, "court": 1},
    {"id": "sc_hurricane", "value": 175, "court": 1, "params": {"outcome": "send_back"}},
    {"id": "sc_mistress", "value": 75, "court": 3},
    {"id": "sc_cancel", "value": 15, "court": 4, "params": {"tokens": 1}},
    {"id": "sc_espionage", "value": 25, "court": 3},
]
# Which module each card the text leaves open belongs to: the symbol on our cards.
OUR_MODULES = {
    cid: "special-cards"
    for cid in (
        "sc_fiesta",
        "sc_coup",
        "sc_scoring_own",
        "sc_scoring_any",
        "sc_scoring_offered",
        "sc_revolt",
        "sc_hurricane",
        "sc_mistress",
        "sc_cancel",
        "sc_espionage",
    )
}
MODULE_CARDS = [{**c, "module": OUR_MODULES[c["id"]]} if c["id"] in OUR_MODULES else c for c in MODULE_CARDS]
LEFT_OUT: list[str] = []
WITH_MODULES = {**CARDS_FILE, "power_cards": CARDS_FILE["power_cards"] + MODULE_CARDS, "leave_out": LEFT_OUT}


def setup(n: int = 4, start: str = "red", cards_file=CARDS_FILE, modules=(), king=KING) -> ev.GameSetup:
    players = COLOURS[:n]
    return ev.GameSetup(
        players=players,
        homes={p: HOMES[p] for p in players},
        king=king,
        start_player=start,
        rules="king-intrigue",
        modules=list(modules),
        cards_file=cards_file,
    )


def new_game(n: int = 4, **kw) -> Game:
    return Game(setup(n, **kw))


def through_setup(game: Game, discs: dict | None = None, hands: dict | None = None) -> None:
    """Setup discs (default: each player's first allowed region) and the 13 cards each keeps
    (default: all but 20, 50, 110, 130, 160 ... the lowest 13)."""
    ask = game.asked()
    for pid in ask.players:
        region = (discs or {}).get(pid) or ask.options["regions"][pid][0]
        game.apply(ev.SecretDiscSet(player=pid, region=region))
    game.apply(ev.SecretDiscsRevealed())
    for pid in game.state.players:
        game.apply(ev.PowerCardsChosen(player=pid, cards=(hands or {}).get(pid) or ALL[:13]))


def idx(game: Game, area: str) -> int:
    return game.board.area_index[area]


def seat(game: Game, pid: str) -> int:
    return game.state.players.index(pid)


def play_powers(game: Game, values: dict[str, int]) -> None:
    while game.state.stage == "power":
        pid = game.asked().players[0]
        game.apply(ev.PowerCardPlayed(player=pid, card=values[pid]))


def put(game: Game, player: str, area: str, n: int) -> None:
    """Arrange the board for a test: n Caballeros from the provinces to an area (keeps 30)."""
    s = game.state
    p = seat(game, player)
    s.counts[idx(game, area)][p] += n
    s.provinces[p] -= n
    assert s.provinces[p] >= 0 and s.counts[idx(game, area)][p] >= 0


def finish_turn(game: Game) -> None:
    """The player asked now replenishes fully, places nothing and skips what is left."""
    ask = game.asked()
    pid = ask.players[0]
    if ask.kind == "replenish":
        game.apply(ev.CourtReplenished(player=pid, from_provinces=min(ask.options["max"], ask.options["provinces"])))
        ask = game.asked()
    if ask.options["place"] is not None:
        game.apply(ev.CaballerosPlaced(player=pid, placements={}))
    if game.state.turn is not None and game.state.turn.player == seat(game, pid) and not game.state.turn.special_done:
        game.apply(ev.SpecialActionSkipped(player=pid))


def red_turn(game: Game, value: int, discs: dict | None = None) -> None:
    """4 players: red plays `value` and holds a Caballero card (blue 170 the King's Card, green
    90 or 80, yellow 10 the Intrigue card); the turns before red's pass; red has replenished."""
    hands = {
        "red": [value] + [x for x in ALL if x != value][:12],
        "blue": ALL[5:],
        "green": ALL[:13],
        "yellow": ALL[:13],
    }
    through_setup(game, discs=discs, hands=hands)
    play_powers(game, {"red": value, "blue": 170, "green": 90 if value != 90 else 80, "yellow": 10})
    while game.asked().players[0] != "red":
        finish_turn(game)
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="red", from_provinces=min(ask.options["max"], ask.options["provinces"])))


BOTH = ["players-edition", "special-cards"]


FOUR = ("red", "blue", "green", "yellow")


def _hand(value: int) -> list[int]:
    return [value] + [v for v in ALL if v != value][:12]


def _module_turn(value: int, *, others=None, discs=None, king=KING, hands=None, round_index=0):
    """4 players with both modules: red plays `value` and holds a Caballero card (blue 180 the
    King's Card, green 40, yellow 10 the Intrigue card; in a later round `round_index`: blue its
    highest card, green and yellow their lowest); the turns before red's pass; red has
    replenished fully."""
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES, king=king)
    through_setup(
        game, discs=discs, hands=hands or {"red": _hand(value), "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]}
    )
    if round_index:
        _pass_until_round(game, round_index)
        _play_round(game, value)
    else:
        play_powers(game, others or {"red": value, "blue": 180, "green": 40, "yellow": 10})
    while game.asked().players[0] != "red":
        finish_turn(game)
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="red", from_provinces=min(ask.options["max"], ask.options["provinces"])))
    return game


def _start(game, player="red", option=None):
    """Start the special action; every Veto holder lets it pass."""
    game.apply(ev.SpecialActionStarted(player=player, option=option))
    while game.state.stage == "veto_window":
        game.apply(ev.VetoWaived(player=game.asked().players[0]))
    return game.asked()


def _pass_until_round(game, round_index):
    """Every turn passes (each plays their lowest card left) until round `round_index` (0-based)."""
    s = game.state
    while s.round_index < round_index:
        if s.stage == "power":
            ask = game.asked()
            game.apply(ev.PowerCardPlayed(player=ask.players[0], card=ask.options["cards"][0]))
        else:
            finish_turn(game)


def _play_round(game, red_value):
    """The Power cards of a round: red `red_value`, blue its highest, green and yellow their lowest."""
    s = game.state
    while s.stage == "power":
        ask = game.asked()
        pid, cards = ask.players[0], ask.options["cards"]
        game.apply(
            ev.PowerCardPlayed(player=pid, card=red_value if pid == "red" else cards[-1] if pid == "blue" else cards[0])
        )


def _to_general_scoring(game):
    """Every later turn passes (the lowest card left played) until the general scoring's discs
    (or Espionage's question just before them)."""
    s = game.state
    while s.stage not in ("scoring_discs", "ki_spy"):
        if s.stage == "power":
            ask = game.asked()
            game.apply(ev.PowerCardPlayed(player=ask.players[0], card=ask.options["cards"][0]))
        else:
            finish_turn(game)


def _reveal_discs(game, region="cataluna", **own):
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region=own.get(pid, region)))
    game.apply(ev.SecretDiscsRevealed())
    return game.state.scoring_log[-1]


def _points(lines, area, kind=None):
    got: dict[str, int] = {}
    for ln in lines:
        if ln.area == area and (kind is None or ln.kind == kind):
            got[ln.player] = got.get(ln.player, 0) + ln.points
    return got


def _turn(game, value):
    through_setup(game, hands={"red": [value] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": value, "blue": 170, "green": 40, "yellow": 10})  # red: the 3-Caballero card


BASE = {
    "rules": "king-intrigue",
    "players": ["red", "blue", "green"],
    "king": "cataluna",
    "grandes": {"red": "granada", "blue": "galicia", "green": "valencia"},
    "regions": {"aragon": {"red": 3, "blue": 1}, "cataluna": {"green": 2}},
}


def _score(**tokens):
    snap = load_snapshot({**BASE, **tokens})
    gained, lines, after = score_snapshot(snap)
    return gained, lines, after
