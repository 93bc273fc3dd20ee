"""Issue 13 item 9: the classic table's tap budgets hold for the 2023 edition, counted headless
through the tablet's prompts (tests/companion/tablet_driver.py counts taps the way the app's
screens take them; test_app_2023.py measures the same budgets on the real app in its whole
game): a 4-player Power Shift game tracked on the tablet alone, every private choice behind
the tablet's private screen, to the end of round 3's general scoring. The steps are grouped into
turns as the headless 2023 tests do (tests/companion/table/test_authority_2023.py).

The game is steered as the app scenario steered it (issue 23 moved it here from a real-app
launch): ordinary turns, a card whose special action is one pick or none, three Caballeros
placed in regions (the tower's throw is another test's), one turn after the special action,
the next before it."""

import random

import pytest

from engine.board.model import CASTILLO
from engine.playout import random_event, random_split
from tests.companion.table.test_authority_2023 import ONE_PICK, general_scorings, new_table
from tests.companion.tablet_driver import TabletDriver, _as_the_tablet_orders, _norm

PLAYERS = 4
SEED = 5
# Cards whose special action is one pick or none (an ordinary turn), those placing 3 or more first
ORDINARY_EFFECTS = (
    "score_chosen_region",
    "score_group",
    "grande",
    "move_king",
    "exile",
    "competition",
    "your_majesty",
    "chalet",
    "stand_in",
)


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))


def ordinary_turns(steps) -> list[dict]:
    """Each turn made of the card (with the full replenishment), a placement and a one-pick (or
    no-pick) special action: its taps, Caballeros placed, whether they were placed first, and
    whether a placement after the special filled what the prompt allowed (it then places itself)."""
    turns, current = [], None
    for s in steps:
        if s.kind == "replenish":
            current = {
                "taps": s.taps,
                "placed": 0,
                "first": None,
                "filled": None,
                "actor": s.actor,
                "plain": any(e["type"] == "action_card_chosen" for e in s.events),
            }
            turns.append(current)
        elif current is not None and s.actor == current["actor"] and s.kind in ("turn_action",) + ONE_PICK:
            current["taps"] += s.taps
            placed = next((e for e in s.events if e["type"] == "caballeros_placed"), None)
            if placed:
                current["placed"] += sum(placed["placements"].values())
                first = current["first"] is None
                current["first"] = first if current["first"] is None else current["first"]
                if not first or s.events[0]["type"] == "caballeros_placed" and len(s.events) == 1:
                    current["filled"] = sum(placed["placements"].values()) == getattr(s, "limit", None)
            elif current["first"] is None:
                current["first"] = False
            if any(e["type"] == "castillo_counted" for e in s.events):
                current["plain"] = False
        elif current is not None and s.actor == current["actor"] and s.kind != "play_power_card":
            current["plain"] = False
        else:
            current = None
    return [t for t in turns if t["plain"]]


class _AppStep:
    """A step the real app counted (bench/bench_taps.py's rows): a "Done" closing an outcome
    dialog is read, not entered."""

    def __init__(self, row: dict):
        self.__dict__.update(row)
        self.taps = row["taps"] - row["read_taps"]


def figures(steps) -> dict:
    """The issue's figures from the steps counted: the headless tablet's, or the rows the real
    app counted (bench/bench_taps.py prints them)."""
    steps = [_AppStep(s) if isinstance(s, dict) else s for s in steps]
    kinds: dict[str, list] = {}
    for s in steps:
        kinds.setdefault(s.kind, []).append(s)
    power = kinds.get("play_power_card", [])
    turns = [t for t in ordinary_turns(steps) if t["placed"] == 3]
    return {
        "power card": [s.taps for s in power if not any(e.get("modifier") for e in s.events)],
        "power card with a Modifier": [s.taps for s in power if any(e.get("modifier") for e in s.events)],
        "turn, 3 placed first": [t["taps"] for t in turns if t["first"]],
        "turn, 3 placed after the special (filling the card)": [
            t["taps"] for t in turns if not t["first"] and t["filled"]
        ],
        "turn, 3 placed after the special (fewer than the card allows)": [
            t["taps"] for t in turns if not t["first"] and not t["filled"]
        ],
        "general scoring, 4 discs on the tablet": general_scorings(steps, PLAYERS),
        "a disc picked on the tablet": [
            s.taps for s in kinds.get("secret_disc", []) if s.purpose == "castillo_destination"
        ],
        "opening the Castillo (Open, Counts match, Done)": [
            s.taps
            for s in kinds.get("reveal_secret_discs", [])
            if any(e["type"] == "castillo_counted" for e in s.events)
        ],
        "reveal the action cards": [s.taps for s in kinds.get("reveal_action_cards", [])],
        "Modifier cards dealt (private screen)": [s.taps for s in kinds.get("deal_modifiers", [])],
        "Modifier card passed (private screen)": [s.taps for s in kinds.get("pass_modifier", [])],
    }


BUDGETS = {
    "power card": 1,
    "power card with a Modifier": 2,
    "turn, 3 placed first": 6,
    "turn, 3 placed after the special (filling the card)": 6,
    "general scoring, 4 discs on the tablet": 4 + 2 * PLAYERS,
    "a disc picked on the tablet": 2,
    "opening the Castillo (Open, Counts match, Done)": 4,
    "reveal the action cards": 6,
}


class OrdinaryTurns:
    """What the table does (the app scenario's choices, tap_scenarios.BudgetTablet): the engine's
    random chooser, steered to cards whose special action is one pick, three placed in regions,
    one turn placing after the special action and the next before it."""

    def __init__(self, table, seed: int):
        self.table, self.rng, self.turns = table, random.Random(seed), 0

    def _preferred(self, cids) -> str:
        def rank(cid):
            card = self.table.board.cards[cid]
            n = card.placement or 0
            return (card.effect not in ORDINARY_EFFECTS, n != 3, n < 3, self.rng.random())

        return min(cids, key=rank)

    def choose(self, ask):
        o, rng, state = ask.options, self.rng, self.table.state
        pid = ask.players[0] if ask.players else None
        if ask.kind == "reveal_action_cards":
            return {
                "type": "action_cards_revealed",
                "cards": [self._preferred(sorted(o["stacks"][s])) for s in sorted(o["stacks"], key=int)],
            }
        if ask.kind in ("replenish", "choose_action_card") and o.get("stacks"):
            stacks = {int(s): cid for s, cid in o["stacks"].items()}
            cid = self._preferred(stacks.values())
            stack = next(s for s, c in stacks.items() if c == cid)
            chosen = {"type": "action_card_chosen", "player": pid, "stack": stack}
            if ask.kind == "choose_action_card":
                return chosen
            if rng.random() < 0.85 and state.provinces[state.players.index(pid)] >= o.get("max", 0):
                full = {
                    "type": "court_replenished",
                    "player": pid,
                    "from_provinces": o.get("max", 0),
                    "from_regions": {},
                }
                ability = any(
                    e.get("type") == "modifier_ability_used"
                    for c in self.table.prompt().choices
                    for e in (c.events or [])
                )
                skip = [{"type": "modifier_ability_skipped", "player": pid}] if ability else []
                return [full] + skip + [chosen]
        if ask.kind == "turn_action":
            return self._turn(ask)
        if ask.kind == "veto":
            return {"type": "veto_waived", "player": pid}
        if ask.kind == "modifier_ability" and not o.get("refused"):
            return {"type": "modifier_ability_used", "player": pid}
        return random_event(rng, _as_the_tablet_orders(ask)).model_dump(mode="json")

    def _turn(self, ask):
        o, pid, rng = ask.options, ask.players[0], self.rng
        place, special = o["place"], o["special"]
        do_it = None
        if special:
            do_it = (
                {"type": "special_action_skipped", "player": pid}
                if special.get("refused")
                else {
                    "type": "special_action_started",
                    "player": pid,
                    "option": rng.choice(special["options"]) if special.get("options") else None,
                }
            )
        placed = None
        if place and place["max"]:
            placed = {
                "type": "caballeros_placed",
                "player": pid,
                "placements": random_split(rng, min(3, place["max"]), [a for a in place["areas"] if a != CASTILLO]),
            }
            self.turns += bool(special)  # a turn's first question (placed first: the special comes next)
        if do_it is not None and (placed is None or self.turns % 2):
            return do_it  # the special action first, placed after it
        return placed if placed is not None else do_it


def _power_shift_game_to_round_3(seed: int = SEED):
    """A 4-player Power Shift game from the deal to the end of round 3's general scoring."""
    table = new_table(PLAYERS, ("power-shift",), variant="full")
    driver, steering = TabletDriver(table, seed=seed), OrdinaryTurns(table, seed)
    guard = 0
    while table.asked().round <= 3 and table.asked().kind != "game_over":
        guard += 1
        assert guard < 400, table.asked()
        ask = table.asked()
        wanted = steering.choose(ask)
        step = driver.step(_norm(wanted) if isinstance(wanted, dict) else [_norm(e) for e in wanted])
        if ask.kind == "turn_action" and ask.options.get("place"):
            step.limit = ask.options["place"]["max"]
    table.close()
    return driver.log


def test_a_four_player_power_shift_game_keeps_the_classic_tap_budgets():
    got = figures(_power_shift_game_to_round_3())
    print("2023 Power Shift taps:", got)
    assert len(got["power card"]) + len(got["power card with a Modifier"]) == 3 * PLAYERS
    for step, budget in BUDGETS.items():
        assert got[step], (step, got)  # each measured at least once
        assert max(got[step]) <= budget, (step, got[step], budget)
    assert set(got["power card"]) == {1} and set(got["power card with a Modifier"]) == {2}
    # Placing fewer than the card allows after the special action still ends with Confirm: it says
    # "that is all" (the one check a turn's last step keeps); one tap more than filling it.
    assert all(t <= 7 for t in got["turn, 3 placed after the special (fewer than the card allows)"]), got
