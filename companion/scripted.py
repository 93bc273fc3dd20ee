"""A scripted game night for tests, crash drills and benchmarks: each next
input (a move, a tower drop, an answer to a doubtful drop, an undo) is chosen
from a seed and the number of records so far, so a restarted process that
resumed the log goes on exactly as the first one would have."""

from __future__ import annotations

import random

from companion.input_errors import InputError, NeedsConfirmation
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine.events import GameSetup
from engine.playout import random_event
from firmware_bridge.adapter import TowerDrop
from firmware_bridge.messages import COLOURS

SIM_TOWER, SIM_BOOT = "castillo-script", "00c0ffee"


def scripted_setup(mode: str = "tracking", variant: str = "short", players: int = 4) -> TableSetup:
    colours = ["red", "yellow", "green", "blue", "black"][:players]
    homes = ["galicia", "aragon", "sevilla", "valencia", "cataluna"][:players]
    game = GameSetup(
        players=colours,
        names={c: c.title() for c in colours},
        variant=variant,
        king="castilla_la_nueva",
        homes=dict(zip(colours, homes)),
        start_player=colours[0],
    )
    return TableSetup(game=game, mode=mode)


def step(table: Table, seed: int, drop_rate: float = 0.12, undo_rate: float = 0.02) -> bool:
    """Make one input; False once the game is over."""
    rng = random.Random(f"{seed}:{len(table.records)}")
    ask = table.asked()
    if ask.kind == "game_over":
        return False
    roll = rng.random()
    waiting = table.public().drops_waiting
    if roll < drop_rate:
        seen = [p for p in table.players if p in COLOURS] or ["red"]  # the colours a tower reports
        colour = rng.choice(seen + [None])
        seq = sum(1 for r in table.records if r["t"] == "drop") + 1
        table.tower_drop(
            TowerDrop(
                tower=SIM_TOWER,
                boot=SIM_BOOT,
                seq=seq,
                colour=colour,
                uncertain=colour is None,
                best=colour or rng.choice(seen),
            )
        )
        return True
    if waiting and roll < 0.5:
        drop = waiting[0]
        answer = rng.choice(list(table.players) + ["dismiss"] + (["keep"] if drop["status"] == "flagged" else []))
        {"dismiss": table.dismiss_drop, "keep": table.keep_drop}.get(answer, lambda d: table.assign_drop(d, answer))(
            drop["id"]
        )
        return True
    if roll > 1 - undo_rate and table.public().undo:
        table.undo(confirm=True)
        return True
    event = random_event(rng, ask) if table.mode == "tracking" else _free_event(rng, table, ask)
    try:
        table.submit(event)
    except NeedsConfirmation:
        raise
    except InputError as exc:  # a scripted input the rules refuse would be a bug in the script
        raise AssertionError(f"scripted input refused: {event!r}: {exc}") from None
    return True


def _free_event(rng: random.Random, table: Table, ask) -> dict:
    if ask.kind == "secret_disc":
        return {
            "type": "secret_disc_set",
            "player": rng.choice(ask.players),
            "region": rng.choice(list(table.board.region_ids)),
        }
    if ask.kind == "count_castillo":
        return {"type": "castillo_counted", "counts": table.hidden_tallies()}
    if ask.kind == "reveal_secret_discs":
        return {"type": "secret_discs_revealed"}
    roll = rng.random()
    if roll < 0.3:
        return _board_with_one_more(rng, table)
    if roll < 0.45:
        return {
            "type": "special_scored",
            "kind": rng.choice(
                ["4", "5", "6-7", "castillo", "most", "least", f"region:{rng.choice(table.board.region_ids)}"]
            ),
        }
    return {"type": "round_finished"}


def _board_with_one_more(rng: random.Random, table: Table) -> dict:
    """The board as it is, with one more Caballero placed from a court that has one."""
    game = table.public().game
    regions = {r: dict(row) for r, row in game["regions"].items()}
    court = {p["id"]: p["court"] for p in game["players"]}
    pid = rng.choice([p for p, c in court.items() if c] or list(court))
    region = rng.choice([r for r in table.board.region_ids if r != game["king"]])
    if court[pid]:
        court[pid] -= 1
        regions.setdefault(region, {})[pid] = regions.get(region, {}).get(pid, 0) + 1
    return {
        "type": "board_entered",
        "king": game["king"],
        "grandes": {p["id"]: p["grande"] for p in game["players"] if p["grande"]},  # the dummy has none
        "regions": regions,
        "court": court,
        "mobile_scoreboards": game["mobile_scoreboards"],
    }


def play(table: Table, seed: int, limit: int = 100_000) -> int:
    """Play to the end; returns the number of inputs made."""
    n = 0
    while n < limit and step(table, seed):
        n += 1
    return n


def fingerprint(table: Table) -> dict:
    """Everything a resumed table must reproduce: views, hidden tallies, undo."""
    public = table.public().model_dump(mode="json")
    if table.over:  # a finished game opened again is read-only: no undo offered, the reason said
        for key in ("read_only", "undo", "undo_reveals"):
            public.pop(key)
    return {
        "public": public,
        "tallies": table.hidden_tallies(),
        "private": {p: table.private(p) for p in table.players},
        "records": len(table.records),
        "effective": len(table.effective),
        "prefill": {p: table.castillo_prefill(p) for p in table.players},
    }
