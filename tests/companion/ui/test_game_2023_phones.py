"""Issue 13: a whole 5-player 2023 game with New Regency, Old Hands and Power Shift, every secret
made on the players' phones, the tablet's taps per step held to the issue's budgets with phones.

Issue 23 moved it from the real app with five Chromium phones (the suite keeps one whole game in
Chromium: King and Intrigue's, test_app_king_intrigue.py) to the headless tablet
(tests/companion/tablet_driver.py, `phones=True`: a private choice is sent as the phone sends
it, and costs the tablet nothing), steered as the app scenario steered it towards the 2023
cards with a secret. What the phones show and that no frame carries another seat's secret are
checked at the websocket level (tests/companion/phones/: test_phones_2023.py, test_leaks_2023.py,
test_browser_2023.py); the new-game screen's 2023 choices for this game in test_app_2023.py.

`_views` and `_leaks` (a seat's frames against what it held and chose) serve the Chromium game."""

import json
import random
from collections import Counter

import pytest

from companion.scripted import fingerprint
from companion.table.authority import Table
from engine.playout import random_event
from tests.companion.table.test_authority_2023 import general_scorings, new_table
from tests.companion.tablet_driver import TabletDriver, _as_the_tablet_orders, _norm
from tests.companion.ui.test_app_2023 import _budgets

PLAYERS = 5
MODULES = ("new-regency", "old-hands", "power-shift")
PHONE_KINDS = ("deal_modifiers", "pass_modifier", "take_back_power_card", "secret_disc", "veto")
# The 2023 cards whose secrets (or prompts) the game steers towards, in this order
WANTED = (
    "competition",
    "civil_war",
    "eviction",
    "veto_2023",
    "empowerment",
    "exile",
    "militia",
    "enactment",
    "entourage",
    "rebellion",
    "stand_in",
    "chalet",
    "adopted_home",
    "your_majesty",
)


def _views(frames: list[str]) -> list[dict]:
    return [m for m in map(json.loads, frames) if m.get("type") == "view"]


def _leaks(pid: str, views: list[dict], own: dict) -> list[str]:
    """Anything in a frame `pid`'s phone received that is not `pid`'s own: every field that can
    carry a secret (Modifier cards, Power cards, the disc, a card chosen) is checked against what
    that seat itself held or chose during the game."""
    hands = {json.dumps(json.loads(h)) for h in own["hands"]}
    found = []
    for v in views:
        if v["seat"]["id"] != pid:
            found.append(f"a view of seat {v['seat']['id']}")
        mods = v["facts"].get("modifiers")
        if mods is not None and json.dumps([[m["id"], m["label"]] for m in mods]) not in hands:
            found.append(f"Modifier cards {[m['label'] for m in mods]} never held")
        power = v["facts"].get("power_cards")
        if power is not None and json.dumps(sorted(power)) not in own["power"]:
            found.append(f"Power cards {power} never held")
        q = v["question"]
        if q.get("pick") and q["pick"]["id"] not in own["discs"]:
            found.append(f"a disc on {q['pick']['id']} never set by {pid}")
        held = {m[0] for h in hands for m in json.loads(h)}
        for c in q.get("chosen", []):
            if c["id"] not in held:
                found.append(f"a chosen card {c['label']} never held")
    return found


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))


class SecretCards:
    """What the table does: the engine's random chooser, steered (as phones_2023_scenarios'
    PhoneTablet was) to the 2023 cards with a secret first, each played once; the first Veto of
    the game used, every later one let pass."""

    def __init__(self, table, seed: int):
        self.table, self.rng = table, random.Random(seed)
        self.played: Counter = Counter()
        self.vetoes = 0

    def _preferred(self, cids) -> str:
        def rank(cid):
            card = self.table.board.cards[cid]
            wanted = WANTED.index(card.effect) if card.effect in WANTED else len(WANTED)
            return (card.effect == "rebellion", self.played[card.effect] > 0, wanted, self.rng.random())

        return min(cids, key=rank)

    def choose(self, ask):
        o, pid = ask.options, (ask.players[0] if ask.players else None)
        if ask.kind == "reveal_action_cards":
            return {
                "type": "action_cards_revealed",
                "cards": [self._preferred(sorted(o["stacks"][s])) for s in sorted(o["stacks"], key=int)],
            }
        if ask.kind in ("replenish", "choose_action_card") and o.get("stacks") and self.rng.random() < 0.85:
            stacks = {int(s): cid for s, cid in o["stacks"].items()}
            cid = self._preferred(stacks.values())
            self.played[self.table.board.cards[cid].effect] += 1
            chosen = {
                "type": "action_card_chosen",
                "player": pid,
                "stack": next(s for s, c in stacks.items() if c == cid),
            }
            state = self.table.state
            if ask.kind == "choose_action_card":
                return chosen
            if state.provinces[state.players.index(pid)] >= o.get("max", 0):
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
                return [full] + ([{"type": "modifier_ability_skipped", "player": pid}] if ability else []) + [chosen]
        if ask.kind == "veto":
            self.vetoes += 1
            return {"type": "veto_used" if self.vetoes == 1 else "veto_waived", "player": pid}
        return random_event(self.rng, _as_the_tablet_orders(ask)).model_dump(mode="json")


def test_a_whole_five_player_2023_game_with_phones_for_every_secret():
    table = new_table(PLAYERS, MODULES, variant="full")
    setup = table.setup.game
    assert setup.rules == "2023" and sorted(setup.modules) == sorted(MODULES) and setup.stand_in_modifiers
    driver, steering = TabletDriver(table, seed=11, phones=True), SecretCards(table, 11)
    rounds, effects, guard = set(), Counter(), 0
    while table.asked().kind != "game_over":
        guard += 1
        assert guard < 3000, "the game did not end"
        ask = table.asked()
        rounds.add(ask.round)
        wanted = steering.choose(ask)
        step = driver.step(_norm(wanted) if isinstance(wanted, dict) else [_norm(e) for e in wanted])
        for e in step.events:
            if e["type"] == "action_card_chosen" and table.state.turn and table.state.turn.card:
                effects[table.state.turn.card.effect] += 1
    log = driver.log
    # The whole game, to its end, replayed the same from the saved log
    assert rounds == set(range(1, 10)) and table.over and table.public().game["winners"]
    assert fingerprint(Table.resume(table.path)) == fingerprint(table)
    # Every secret on the phones, none on the tablet: the deal, the pass, the discs (the general
    # scorings' and the cards'), the Veto
    answered = Counter((s.kind, s.purpose) for s in log if s.kind in PHONE_KINDS)
    print("answered on the phones:", dict(answered), "played:", dict(effects))
    assert answered[("deal_modifiers", None)] == PLAYERS and answered[("pass_modifier", None)] >= PLAYERS
    assert answered[("secret_disc", "castillo_destination")] >= 10, answered
    assert steering.vetoes and answered[("veto", None)] >= 1, answered
    for effect, purpose in (("civil_war", "civil_war"), ("eviction", "eviction_destination")):
        assert effects.get(effect) and answered.get(("secret_disc", purpose)), (effect, effects, answered)
    # (the headless tablet enters a card taken back and a Veto on the tablet; on the phone:
    # test_phones_2023.py's test_a_card_taken_back_on_the_phone and the Veto's tests)
    on_phones = [s for s in log if s.kind in PHONE_KINDS and s.kind not in ("take_back_power_card", "veto")]
    assert on_phones and all(s.taps == 0 for s in on_phones), [s for s in on_phones if s.taps]
    # The tablet's taps per step, with phones: the budgets
    figures = _budgets([_Headless(s) for s in log])
    print("2023 taps with phones:", figures)
    assert figures["power plain"] and set(figures["power plain"]) == {1}, figures["power plain"]
    assert figures["power with a Modifier"] and set(figures["power with a Modifier"]) == {2}
    assert len(figures["general scorings"]) == 3 and max(figures["general scorings"]) <= 4, figures
    assert figures["disc on the tablet"] == [0] * len(figures["disc on the tablet"]), figures["disc on the tablet"]
    turns = figures["ordinary turns"]
    assert turns and all(taps <= 3 + placed + (not first) for taps, placed, first in turns), turns
    assert general_scorings(log, PLAYERS) == figures["general scorings"]
    table.close()


class _Headless:
    """A headless step as test_app_2023's figures read an app step (no dialog's Done to subtract)."""

    def __init__(self, step):
        self.__dict__.update(step.__dict__)
