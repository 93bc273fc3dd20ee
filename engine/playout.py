"""Random full-game playouts through the engine (OpenSpiel's standing test).

`random_event` builds a legal event from what `asked()` offers, so every
playout also checks that the options the engine offers are ones it accepts.
`check_invariants` is what must hold after every event.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from . import events as ev
from .board.model import Board, CardSet
from .errors import EngineError
from .flow import apply_event, asked
from .game import board_for, start_state
from .primitives import Ask
from .state import GameState, closed_regions

if TYPE_CHECKING:
    from .events import Event

STANDINS_NOTE = (
    "the 2023 rules' unpublished facts (most cards' stacks and copies, some cards' numbers, the "
    "New Regency and Old Hands cards, France's and Portugal's neighbours, the Scoring tiles, the 2-3 "
    "player side's scoreboards) are stand-ins from engine/data/standins_2023.json, not the printed "
    "game: give --board and --cards files for your own box"
)


KI_STANDINS_NOTE = (
    "the King and Intrigue cards' unpublished facts (Caballeros to the court, the 30 card's action, "
    "which scoring each scoring card is, the 140 card's count, what each Action card places, most "
    "module cards' values, the module cards' unpublished parameters) are stand-ins from "
    "engine/data/standins_king_intrigue.json, not the printed cards: give --cards with your own "
    "box's numbers"
)
STANDIN_RULES = ("2023", "king-intrigue")
STANDIN_SOURCE = "stand-in for self-play: not the printed cards"


def standins_note(rules: str) -> str:
    return KI_STANDINS_NOTE if rules == "king-intrigue" else STANDINS_NOTE


def standin_files(rules: str, n_players: int) -> tuple[dict | None, dict | None]:
    """Self-play's stand-ins for the facts no rule book publishes (2023, King and Intrigue),
    as a table's board and card files. Never used for a game at a table."""
    if rules == "king-intrigue":
        from .rules.king_intrigue.cards import standin_cards_file

        return None, standin_cards_file()
    if rules != "2023":
        return None, None
    data = json.loads(resources.files("engine.data").joinpath("standins_2023.json").read_text("utf-8"))
    return data["board_files"]["2-3" if n_players <= 3 else "4-5"], data["cards_file"]


class StandInsShort(EngineError):
    """The table's own files and self-play's stand-ins together still leave facts unknown
    that a random game needs (e.g. a stack the files moved cards out of)."""


def _find_entry(entries: list, ident: str) -> dict:
    entry = next((e for e in entries if isinstance(e, dict) and e.get("id") == ident), None)
    if entry is None:
        entry = {"id": ident}
        entries.append(entry)
    return entry


def _fill_board_fact(table: dict, standin: dict, path: str) -> bool:
    """Copy the stand-in's value of one board fact ("spaces.france.neighbours",
    "scoring_tiles.tile_a", "castillo.scoreboard", ...) into the table's board file."""
    kind, *rest = path.split(".")
    if kind in ("regions", "spaces") and len(rest) == 2:
        given: dict = next((e for e in standin.get(kind, []) if e.get("id") == rest[0]), {})
        if rest[1] not in given:
            return False
        _find_entry(table.setdefault(kind, []), rest[0])[rest[1]] = given[rest[1]]
    elif kind in ("castillo", "scoring_tiles") and len(rest) == 1 and rest[0] in standin.get(kind, {}):
        table.setdefault(kind, {})[rest[0]] = standin[kind][rest[0]]
    else:
        return False
    note = standin.get("provenance", {}).get(path)
    if note:
        table.setdefault("provenance", {})[path] = note
    return True


def _fill_card_fact(table: dict, standin: dict, path: str, shipped_effect: bool) -> bool:
    """Copy the stand-in's value of one card fact ("cards.veto.stack", "cards.civil_war.params.outcome")
    into the table's card file; a parameter only while the card keeps its shipped effect."""
    _, ident, *field = path.split(".")
    given = next((c for c in standin.get("cards", []) if c.get("id") == ident), None)
    if given is None:
        return False
    entry = _find_entry(table.setdefault("cards", []), ident)
    if field[0] == "params":
        if not shipped_effect or field[1] not in given.get("params", {}):
            return False
        entry.setdefault("params", {})[field[1]] = given["params"][field[1]]
    elif field[0] in given:
        entry[field[0]] = given[field[0]]
    else:
        return False
    entry["source"] = f"{entry['source']}; {STANDIN_SOURCE}" if entry.get("source") else STANDIN_SOURCE
    if entry["source"].count(STANDIN_SOURCE) > 1:
        entry["source"] = entry["source"].replace(f"; {STANDIN_SOURCE}", "", 1)
    return True


def _stack_room(cards: CardSet, module: str | None, stack: int) -> int:
    size = (cards.module_stack_sizes[module] if module else cards.stack_sizes)[stack]
    return size - sum(c.copies or 0 for c in cards.cards.values() if c.module == module and c.stack == stack)


def _fill_stacks(table: dict, standin: dict, shipped_ids: set[str]) -> list[str]:
    """Add self-play's invented cards (ids not in the shipped set or the table's file) to the
    stacks still short, as many copies as there is room for; the last one added to a stack takes
    what room is left (the table's file may hold fewer copies than the stand-ins)."""
    from .board.load import load_cards

    added: list[dict] = []
    for card in standin.get("cards", []):
        if card["id"] in shipped_ids or any(c.get("id") == card["id"] for c in table.get("cards", [])):
            continue
        room = _stack_room(load_cards("2023", table), card.get("module"), card["stack"])
        if room > 0:
            added.append({**card, "copies": min(card["copies"], room)})
            table.setdefault("cards", []).append(added[-1])
    for card in reversed(added):
        card["copies"] += max(0, _stack_room(load_cards("2023", table), card.get("module"), card["stack"]))
    return [card["id"] for card in added]


def _complete_2023(
    n_players: int, board_file: dict | None, cards_file: dict | None
) -> tuple[dict, dict, tuple[str, ...]]:
    """The table's files with only what they leave unknown filled from self-play's stand-ins:
    (board file, card file, the facts filled). Raises StandInsShort naming what is still unknown."""
    import copy

    from .board.errors import DataFileError
    from .board.load import load_board, load_cards

    standin_board, standin_cards = standin_files("2023", n_players)
    assert standin_board is not None and standin_cards is not None  # 2023 has both
    board = copy.deepcopy(board_file) if board_file is not None else {"rules": "2023"}
    cards = copy.deepcopy(cards_file) if cards_file is not None else {"rules": "2023"}
    shipped = load_cards("2023")
    filled: list[str] = []
    for path in load_board("2023", n_players, board_file, None).missing:
        if not path.startswith(("cards.", "stacks.", "modules.")) and _fill_board_fact(board, standin_board, path):
            filled.append(path)
    table_cards = load_cards("2023", cards_file)
    for path in table_cards.missing:
        if path.startswith("cards."):
            ident = path.split(".")[1]
            same_effect = ident in shipped.cards and table_cards.cards[ident].effect == shipped.cards[ident].effect
            if _fill_card_fact(cards, standin_cards, path, same_effect):
                filled.append(path)
    try:
        filled += [f"cards.{c}" for c in _fill_stacks(cards, standin_cards, set(shipped.cards))]
        left = load_board("2023", n_players, board, cards).missing
    except DataFileError as exc:
        raise StandInsShort(
            f"self-play cannot complete your files with its stand-ins: together they break a "
            f"rule of the card set ({exc}); give the whole stack(s) in your card file"
        ) from None
    if left:
        raise StandInsShort(
            "self-play cannot complete your files with its stand-ins (they fill only what your "
            "files leave unknown); still unknown: " + "; ".join(f"{k}: {v}" for k, v in left.items())
        )
    return board, cards, tuple(filled)


def self_play_files(
    rules: str, n_players: int, board_file: dict | None, cards_file: dict | None, modules: tuple[str, ...] = ()
) -> tuple[dict | None, dict | None, tuple[str, ...]]:
    """The files a random game plays with: (board file, card file, stand-ins) where stand-ins is
    () for none, ("all",) for self-play's whole stand-in set, else the facts filled from it
    because the table's own files leave them unknown (2023; "modifiers": Power Shift's stand-in
    Modifier cards, which random_setup then chooses)."""
    if rules not in STANDIN_RULES:
        return board_file, cards_file, ()
    if board_file is None and cards_file is None:
        return (*standin_files(rules, n_players), ("all",))
    if rules != "2023":
        return board_file, cards_file, ()  # King and Intrigue: the table's card file, refused if incomplete
    board_file, cards_file, filled = _complete_2023(n_players, board_file, cards_file)
    if "power-shift" in modules and not cards_file.get("modifiers"):
        filled += ("modifiers",)
    return board_file, cards_file, filled


def standins_used_note(rules: str, filled: tuple[str, ...]) -> str:
    """One line for stderr saying which stand-ins a run used."""
    if filled == ("all",):
        return standins_note(rules)
    cards: dict[str, list[str]] = {}
    for path in filled:
        if path.startswith("cards."):
            _, ident, *field = path.split(".")
            cards.setdefault(ident, []).append(".".join(field))
    told = [
        p if p != "modifiers" else "Power Shift's 16 Modifier cards (engine/data/power_shift_stand_in.json)"
        for p in filled
        if not p.startswith("cards.")
    ] + [
        f"{ident} ({', '.join(fields)})" if fields[0] else f"{ident} (a stand-in card)"
        for ident, fields in cards.items()
    ]
    return (
        f"what your files leave unknown is filled from self-play's stand-ins (engine/data/standins_2023.json, "
        f"not the printed game): {'; '.join(told)}"
    )


def _seat_ids(board: Board, n: int) -> list[str]:
    """Colour ids for n seats; the 2023 book names only four colours, so a fifth is 'player5'."""
    named = list(board.colours)
    return named[:n] + [f"player{i}" for i in range(len(named) + 1, n + 1)]


def old_hands_removed(rng: random.Random, board: Board) -> list[str]:
    """Old Hands: for each ♣ card added, one random card of its stack back to the box."""
    removed: list[str] = []
    base: dict[int | None, list] = {}  # the base game's cards by stack, in the card set's order
    for c in board.cards.values():
        if c.module is None:
            base.setdefault(c.stack, []).append(c)
    for club in (c for c in board.cards.values() if c.module == "old-hands" and c.stack):
        pool = [c.id for c in base.get(club.stack, ()) for _ in range((c.copies or 0) - removed.count(c.id))]
        removed += rng.sample(pool, min(club.copies or 0, len(pool)))
    return removed


def random_setup(
    rng: random.Random,
    n_players: int,
    board: Board,
    variant: str = "full",
    rules: str = "classic",
    modules: tuple[str, ...] = (),
    board_file: dict | None = None,
    cards_file: dict | None = None,
    standins: bool = False,
) -> ev.GameSetup:
    """A random legal setup; `standins`: the files are self-play's stand-ins, and so may the
    Power Shift modifiers be."""
    seats = _seat_ids(board, n_players + 1)
    players = seats[:n_players]
    dummy = seats[n_players] if rules == "2023" and n_players == 2 else None
    regions = rng.sample(board.region_ids, n_players + 1)
    extra: dict[str, Any] = {}
    if rules != "classic" or modules or board_file or cards_file:
        extra = dict(
            rules=rules,
            modules=list(modules),
            dummy=dummy,
            board_file=board_file,
            cards_file=cards_file,
            removed_cards=old_hands_removed(rng, board) if "old-hands" in modules else [],
        )
        if standins and "power-shift" in modules and not (cards_file or {}).get("modifiers"):
            extra["stand_in_modifiers"] = True
    return ev.GameSetup(
        players=players,
        variant=variant,
        king=regions[0],
        homes=dict(zip(players, regions[1:])),
        start_player=rng.choice(players),
        **extra,
    )


def random_split(rng: random.Random, total: int, areas: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for _ in range(total):
        a = rng.choice(areas)
        out[a] = out.get(a, 0) + 1
    return out


def random_count(rng: random.Random, most: int) -> int:
    """Mostly the most allowed, as players usually take it; sometimes fewer."""
    return most if rng.random() < 0.75 else rng.randint(0, most)


def _copies(counts: dict[str, int]) -> list[str]:
    """Each key as many times as its count, in order (one list extension per key)."""
    out: list[str] = []
    for key, k in counts.items():
        out += [key] * k
    return out


def _take(rng: random.Random, k: int, court: int, regions: dict[str, int]) -> tuple[int, dict[str, int]]:
    """Pick k Caballeros from a court and regions at random."""
    pool = ["court"] * court + _copies(regions)
    picked = rng.sample(pool, k)
    taken: dict[str, int] = {}
    for r in picked:
        if r != "court":
            taken[r] = taken.get(r, 0) + 1
    return picked.count("court"), taken


def _replenish(rng: random.Random, pid: str, o: dict[str, Any]) -> ev.CourtReplenished:
    k = random_count(rng, o["max"])
    prov = min(k, o["provinces"])
    extra = min(k - prov, sum(o["regions"].values())) if prov == o["provinces"] else 0
    _, taken = _take(rng, extra, 0, o["regions"])
    return ev.CourtReplenished(player=pid, from_provinces=prov, from_regions=taken)


def _turn_action(rng, pid, o):
    place, special = o["place"], o["special"]
    if place and (not special or rng.random() < 0.5):
        return ev.CaballerosPlaced(
            player=pid, placements=random_split(rng, random_count(rng, place["max"]), place["areas"])
        )
    if rng.random() < 0.1:
        return ev.SpecialActionSkipped(player=pid)
    option = rng.choice(special["options"]) if special["options"] else None
    return ev.SpecialActionStarted(player=pid, option=option)


def _move(rng, pid, o):
    if o["can_finish"] and rng.random() < 0.1:
        return ev.SpecialActionFinished(player=pid)
    src = rng.choice(list(o["sources"]))
    owner = rng.choice(list(o["sources"][src]))
    most = o["sources"][src][owner]
    count = most if o["one_source"] and not o["can_finish"] else rng.randint(1, most)
    target = rng.choice([t for t in o["targets"] if t != src])
    return ev.CaballerosMoved(player=pid, owner=owner, source=src, target=target, count=count)


def _send_back(rng, pid, o):
    owner = rng.choice(list(o["owners"]))
    spec = o["owners"][owner]
    court, taken = _take(rng, spec["count"], spec["court"], spec["regions"])
    return ev.CaballerosSentBack(player=pid, owner=owner, from_court=court, from_regions=taken)


def _mobile(rng, pid, o):
    sid = rng.choice(list(o["moves"]))
    return ev.MobileScoreboardPlaced(player=pid, scoreboard=sid, area=rng.choice(o["moves"][sid]))


# What a random playout answers an ask with: (rng, the player asked, the ask's options) -> an event.
Chooser = Callable[[random.Random, str, dict[str, Any]], ev.Event]

_CHOOSERS: dict[str, Chooser] = {
    # A card for each stack offered (four stacks; New Regency's stack 5), in stack order.
    "reveal_action_cards": lambda rng, pid, o: ev.ActionCardsRevealed(
        cards=[rng.choice(_copies(o["stacks"][s])) for s in sorted(o["stacks"])]
    ),
    "play_power_card": lambda rng, pid, o: ev.PowerCardPlayed(player=pid, card=rng.choice(o["cards"])),
    "replenish": _replenish,
    "choose_action_card": lambda rng, pid, o: ev.ActionCardChosen(player=pid, stack=rng.choice(list(o["stacks"]))),
    "turn_action": _turn_action,
    "veto": lambda rng, pid, o: (ev.VetoUsed if rng.random() < 0.3 else ev.VetoWaived)(player=pid),
    "move_caballeros": _move,
    "place_extra": lambda rng, pid, o: ev.ExtraCaballerosPlaced(
        player=pid, placements=random_split(rng, random_count(rng, o["max"]), o["areas"])
    ),
    "send_back": _send_back,
    "secret_disc": lambda rng, pid, o: ev.SecretDiscSet(player=pid, region=rng.choice(o["regions"][pid])),
    "reveal_secret_discs": lambda rng, pid, o: ev.SecretDiscsRevealed(),
    # The Castillo scoring card's Castillo lifted: counted as the turns say (no draw from rng,
    # so a seeded playout goes on as it did before this step existed).
    "lift_castillo": lambda rng, pid, o: ev.CastilloCounted(counts={}),
    "choose_region": lambda rng, pid, o: ev.RegionChosen(player=pid, region=rng.choice(o["regions"])),
    "place_mobile_scoreboard": _mobile,
    "take_back_power_card": lambda rng, pid, o: ev.PowerCardTakenBack(player=pid, card=rng.choice(o["cards"])),
    "move_grande": lambda rng, pid, o: ev.GrandeMoved(player=pid, region=rng.choice(o["regions"])),
    "move_king": lambda rng, pid, o: ev.KingMoved(player=pid, region=rng.choice(o["regions"])),
}


def _module_choosers() -> dict:
    """Choosers for the asks that effects (engine/effects/) and rule modules (engine/rules/)
    add: each such module may define CHOOSERS = {ask kind: fn(rng, pid, options) -> event}."""
    import importlib
    import pkgutil

    from . import effects, rules

    found: dict[str, Chooser] = {}
    for package in (effects, rules):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(info.name)
            found.update(getattr(module, "CHOOSERS", {}))
    return found


_CHOOSERS.update(_module_choosers())

VETO_INTERJECTION_CHANCE = 0.05


def random_event(rng: random.Random, ask: Ask) -> Event:
    """A random legal event for what is asked (sometimes a Veto interjection)."""
    if ask.vetoes and rng.random() < VETO_INTERJECTION_CHANCE:
        return ev.VetoUsed(player=rng.choice(ask.vetoes))
    pid = ask.players[0] if ask.kind != "secret_disc" else rng.choice(ask.players)
    return _CHOOSERS[ask.kind](rng, pid, ask.options)


class InvariantBroken(EngineError):
    pass


# Effects allowed to change the King's region: "This card breaks the most important rule
# in the game" (Infiltration, 2023).
BREAKS_THE_TABOO = ("infiltration",)


def snapshot_for_checks(state: GameState) -> tuple:
    king = state.king
    counts = list(state.counts[king]) if king < len(state.counts) else []
    breaking = state.special is not None and state.special.effect in BREAKS_THE_TABOO
    # King and Intrigue: the regions under a taboo marker (Quarantine, King's Guard) as well.
    marked = {a: list(state.counts[a]) for a in closed_regions(state)[1:]} if state.markers else None
    return (
        king,
        counts,
        list(state.scores),
        [g == king for g in state.grandes],
        state.mobile_at(king),
        breaking,
        marked,
    )


def check_invariants(state: GameState, before: tuple, event: Event) -> None:
    """Each player's Caballeros all accounted for (King and Intrigue: one on the bridge
    counts), none negative; the King's region (and a region under a taboo marker) untouched
    but by the King's own moves; no score ever falls."""
    total = state.board.caballeros_per_player
    for p in range(state.n):
        if (
            state.total_accounted(p) != total
            or state.provinces[p] < 0
            or state.court[p] < 0
            or any(row[p] < 0 for row in state.counts)
        ):
            raise InvariantBroken(f"after {event!r}: {state.players[p]}'s Caballeros do not add up to {total}")
    king, king_counts, scores, grandes_at_king, mobile_at_king, breaking, marked = before
    if marked:
        still = closed_regions(state)
        for a, row in marked.items():
            if a in still and state.counts[a] != row:
                raise InvariantBroken(f"after {event!r}: {state.board.area_name(a)} changed under a taboo marker")
    if not isinstance(event, ev.KingMoved) and state.king == king and not breaking:
        if (
            (state.counts[king] if king < len(state.counts) else []) != king_counts
            or [g == king for g in state.grandes] != grandes_at_king
            or state.mobile_at(king) != mobile_at_king
        ):
            raise InvariantBroken(f"after {event!r}: the King's region changed")
    if any(a < b for a, b in zip(state.scores, scores)):
        raise InvariantBroken(f"after {event!r}: a score fell")


@dataclass
class PlayoutStats:
    games: int = 0
    events: int = 0
    cards_used: dict[str, int] = field(default_factory=dict)
    vetoes_used: int = 0
    scorings: int = 0
    shared_wins: int = 0
    win_scores: list[int] = field(default_factory=list)
    standins: bool = False  # played with STANDINS_NOTE's stand-ins (some or all)
    standins_filled: tuple[str, ...] = ()  # which: ("all",) or the facts filled (self_play_files)


def play_random_game(
    rng: random.Random,
    n_players: int,
    check: bool = True,
    board: Board | None = None,
    variant: str = "full",
    stats: PlayoutStats | None = None,
    rules: str = "classic",
    modules: tuple[str, ...] = (),
    board_file: dict | None = None,
    cards_file: dict | None = None,
    standins: bool = False,
) -> tuple[ev.GameSetup, list[Event], GameState]:
    """Play one game to its end with random legal choices; returns (setup, events, state).
    A 2023 game plays with the labelled stand-ins (STANDINS_NOTE) where the table's files leave
    facts unknown (all of them without files). A `board` given was built from files already
    completed (selfplay), so they are taken as they are."""
    if board is None and not standins:
        board_file, cards_file, filled = self_play_files(rules, n_players, board_file, cards_file, tuple(modules))
        standins = bool(filled)
    if board is None:
        probe = ev.GameSetup(
            players=["a", "b"] + ["c", "d", "e"][: n_players - 2],
            king="x",
            homes={},
            start_player="a",
            rules=rules,
            board_file=board_file,
            cards_file=cards_file,
        )
        board = board_for(probe)
    setup = random_setup(rng, n_players, board, variant, rules, tuple(modules), board_file, cards_file, standins)
    state = start_state(setup, board)
    log = []
    while state.stage != "over":
        event = random_event(rng, asked(state))
        before = snapshot_for_checks(state) if check else None
        apply_event(state, event)
        log.append(event)
        if before is not None:  # checked
            check_invariants(state, before, event)
        if stats is not None:
            if isinstance(event, ev.ActionCardChosen):
                cid = state.turn.card.id if state.turn and state.turn.card else None
                if cid:
                    stats.cards_used[cid] = stats.cards_used.get(cid, 0) + 1
            elif isinstance(event, ev.PowerCardPlayed) and state.rules.id == "king-intrigue":
                # King and Intrigue: the Power card carries the special action
                stats.cards_used[f"power {event.card}"] = stats.cards_used.get(f"power {event.card}", 0) + 1
            elif isinstance(event, ev.VetoUsed):
                stats.vetoes_used += 1
    if stats is not None:
        stats.games += 1
        stats.events += len(log)
        stats.scorings += len(state.scoring_log)
        stats.shared_wins += len(state.winners) > 1
        stats.win_scores.append(max(state.scores))
    return setup, log, state


def selfplay(
    games: int,
    n_players: int,
    seed: int,
    check: bool = True,
    variant: str = "full",
    rules: str = "classic",
    modules: tuple[str, ...] = (),
    board_file: dict | None = None,
    cards_file: dict | None = None,
) -> PlayoutStats:
    stats = PlayoutStats()
    board_file, cards_file, stats.standins_filled = self_play_files(
        rules, n_players, board_file, cards_file, tuple(modules)
    )
    stats.standins = bool(stats.standins_filled)
    board = board_for(
        ev.GameSetup(
            players=[f"p{i}" for i in range(n_players)],
            king="x",
            homes={},
            start_player="p0",
            rules=rules,
            board_file=board_file,
            cards_file=cards_file,
        )
    )
    for i in range(games):
        play_random_game(
            random.Random(f"{seed}:{i}"),
            n_players,
            check,
            board=board,
            variant=variant,
            stats=stats,
            rules=rules,
            modules=tuple(modules),
            board_file=board_file,
            cards_file=cards_file,
            standins=stats.standins,
        )
    return stats
