"""Issue 13 item 9: the classic table's tap budgets hold for the 2023 edition, counted on the real
app under Xvfb the same way (tap_scenarios.py: a 4-player Power Shift game tracked on the tablet
alone, every private choice behind the tablet's private screen, to the end of round 3's general
scoring). The steps are grouped into turns as the headless 2023 tests do
(tests/companion/test_table_2023.py)."""
from tests.companion.test_table_2023 import ONE_PICK, general_scorings

from .test_app import _drive

PLAYERS = 4


class _Step:
    def __init__(self, row: dict):
        self.__dict__.update(row)
        self.taps = row["taps"] - row["read_taps"]   # a "Done" closing an outcome dialog is read, not entered


def ordinary_turns(steps) -> list[dict]:
    """Each turn made of the card (with the full replenishment), a placement and a one-pick (or
    no-pick) special action: its taps, Caballeros placed, whether they were placed first, and
    whether a placement after the special filled what the prompt allowed (it then places itself)."""
    turns, current = [], None
    for s in steps:
        if s.kind == "replenish":
            current = {"taps": s.taps, "placed": 0, "first": None, "filled": None, "actor": s.actor,
                       "plain": any(e["type"] == "action_card_chosen" for e in s.events)}
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


def figures(rows: list[dict]) -> dict:
    """The issue's figures from the steps the app counted (also printed by bench/bench_taps.py)."""
    steps = [_Step(row) for row in rows]
    kinds: dict[str, list] = {}
    for s in steps:
        kinds.setdefault(s.kind, []).append(s)
    power = kinds.get("play_power_card", [])
    turns = [t for t in ordinary_turns(steps) if t["placed"] == 3]
    return {
        "power card": [s.taps for s in power if not any(e.get("modifier") for e in s.events)],
        "power card with a Modifier": [s.taps for s in power if any(e.get("modifier") for e in s.events)],
        "turn, 3 placed first": [t["taps"] for t in turns if t["first"]],
        "turn, 3 placed after the special (filling the card)": [t["taps"] for t in turns
                                                               if not t["first"] and t["filled"]],
        "turn, 3 placed after the special (fewer than the card allows)": [
            t["taps"] for t in turns if not t["first"] and not t["filled"]],
        "general scoring, 4 discs on the tablet": general_scorings(steps, PLAYERS),
        "a disc picked on the tablet": [s.taps for s in kinds.get("secret_disc", [])
                                        if s.purpose == "castillo_destination"],
        "opening the Castillo (Open, Counts match, Done)": [
            s.taps for s in kinds.get("reveal_secret_discs", [])
            if any(e["type"] == "castillo_counted" for e in s.events)],
        "reveal the action cards": [s.taps for s in kinds.get("reveal_action_cards", [])],
        "Modifier cards dealt (private screen)": [s.taps for s in kinds.get("deal_modifiers", [])],
        "Modifier card passed (private screen)": [s.taps for s in kinds.get("pass_modifier", [])],
    }


BUDGETS = {"power card": 1, "power card with a Modifier": 2, "turn, 3 placed first": 6,
           "turn, 3 placed after the special (filling the card)": 6,
           "general scoring, 4 discs on the tablet": 4 + 2 * PLAYERS, "a disc picked on the tablet": 2,
           "opening the Castillo (Open, Counts match, Done)": 4, "reveal the action cards": 6}


def test_a_four_player_power_shift_game_keeps_the_classic_tap_budgets(tmp_path):
    outcome, _ = _drive("tap_scenarios:tap_budget_power_shift_2023", tmp_path)
    got = figures(outcome["steps"])
    assert len(got["power card"]) + len(got["power card with a Modifier"]) == 3 * PLAYERS
    for step, budget in BUDGETS.items():
        assert got[step], (step, got)           # each measured at least once
        assert max(got[step]) <= budget, (step, got[step], budget)
    assert set(got["power card"]) == {1} and set(got["power card with a Modifier"]) == {2}
    # Placing fewer than the card allows after the special action still ends with Confirm: it says
    # "that is all" (the one check a turn's last step keeps); one tap more than filling it.
    assert all(t <= 7 for t in got["turn, 3 placed after the special (fewer than the card allows)"]), got
