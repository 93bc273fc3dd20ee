"""A 2023 game by taps in the real app (run by app_driver.py under Xvfb, test_app_2023.py).

A 2-player game with the dummy, New Regency and Power Shift, tracked on the tablet alone:
every input is a synthetic touch on what the table screen shows (buttons of the side panel,
regions of the map, the private screens, the action-cards sheet, the card-set dialog, the
scoring pages), the simulated tower's drops aside. WHAT the table does is decided by the
engine's random chooser (engine.playout.random_event), steered towards the 2023 cards not
played yet so that every new prompt comes up; HOW it is entered is found on the prompt the
screen shows, as a person would (tests/companion/tablet_driver.py finds the same routes
without Kivy). Taps are counted by the driver, step by step, and held to the classic
table's budgets with the same definitions as the headless 2023 tests.

The game's files are the self-play stand-ins, less one card (the table adds it from its box
when it turns up) and less Civil War's outcome (so that card is refused, and skipped).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass

from layout_checks import check_screen
from scenarios import _wait_for
from words_match import is_, said, says

from companion.prompts import modules_2023
from companion.prompts.prompt import Prompt
from companion.words import ngettext
from engine.board.model import CASTILLO
from engine.playout import random_count, random_event, random_split
from tests.companion.tablet_driver import _as_the_tablet_orders, _counts_for, _matches, _norm, _then, _values

PATIENCE = 45.0  # seconds a wait may last on a loaded machine (2 cores, other tests beside it)
SEED = int(__import__("os").environ.get("ELGRANDE_2023_SEED", "4"))  # one that meets every new prompt
MISSING_CARD = "standin_score_chosen"  # in the box, not in the game's card file: added at the table
# The 2023 cards whose prompts the game steers towards, in this order of preference
WANTED_EFFECTS = (
    "competition",
    "revelation",
    "civil_war",
    "entourage",
    "militia",
    "enactment",
    "stand_in",
    "exile",
    "rebellion",
    "veto_2023",
    "empowerment",
    "your_majesty",
    "chalet",
    "adopted_home",
    "infiltration",
    "eviction",
    "score_chosen_region",
)


MOVES_THE_KING = ("move_king", "exile", "entourage", "your_majesty", "rebellion", "stand_in", "chalet")


@dataclass
class Step:
    """One input as the headless tests count it (tests/companion/table/test_authority_2023.py reads these)."""

    kind: str
    actor: str | None
    taps: int
    events: list
    purpose: str | None = None
    read_taps: int = 0  # of `taps`: "Done" on a "Now move these Caballeros" dialog (read, then closed)


def _files(players: int = 2) -> tuple[dict, dict]:
    from engine.playout import standin_files

    board_file, cards_file = standin_files("2023", players)
    cards = copy.deepcopy(cards_file)
    cards["cards"] = [c for c in cards["cards"] if c["id"] != MISSING_CARD]
    for card in cards["cards"]:
        if card["id"] == "civil_war":
            card["params"] = {"count": 2}  # its outcome not entered: the card is refused, skipped
    return board_file, cards


def start_2023_game(d, modules=("new-regency", "power-shift"), variant="short", players=("purple", "blue")):
    """A new 2023 game through the model (the new-game screen's rule choice is another screen's
    test): the dummy white, the King in Castilla, the simulated tower (it knows blue, not purple
    nor white)."""
    from companion.table.setup import TableSetup
    from engine.events import GameSetup

    board_file, cards_file = _files(len(players))
    game = GameSetup(
        players=list(players),
        names={"purple": "Ana", "blue": "Ben"},
        king="castilla",
        homes=dict(zip(players, ("galicia", "aragon"))),
        start_player=players[0],
        rules="2023",
        modules=list(modules),
        dummy="white",
        variant=variant,
        board_file=board_file,
        cards_file=cards_file,
        stand_in_modifiers="power-shift" in modules,
    )
    yield 0.3
    d.model.new_game(TableSetup(game=game, mode="tracking", tower={"kind": "simulated"}))
    d.app.root.current = "table"
    yield from _wait_for(d, lambda: d.current == "table")
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected", PATIENCE)
    yield 0.2


CASTILLO_BUTTONS = (
    "Use these counts: score the Castillo",
    "Use these counts: reveal the discs",
    "Counts match: score the Castillo",
    "Counts match: reveal the discs",
)


class Tablet:
    """Plays the open game by taps on the real app, step by step."""

    def __init__(self, d, seed: int = SEED, shots: bool = True):
        self.d, self.rng, self.take_shots = d, random.Random(seed), shots
        self.steps: list[Step] = []
        self.reached: Counter = Counter()  # prompts and routes met (the coverage)
        self.problems: dict[str, list[str]] = {}  # per screenshot: what a person would see wrong
        self.played_effects: Counter = Counter()
        self.notices: list[str] = []
        self.revealed: Counter = Counter()  # effects turned up so far
        self.read_taps = 0

    # ---- looking ----------------------------------------------------------------------

    @property
    def table(self):
        return self.d.model.table

    @property
    def screen(self):
        return self.d.screen("table")

    @property
    def builder(self):
        return self.d.model.builder

    def shot(self, name: str):
        """A picture and the layout checks, the first time only."""
        if not self.take_shots or name in self.problems:
            return
        yield 0.15
        self.problems[name] = check_screen()
        self.d.shot(name)

    def _dialog(self):
        return self.d.dialog()

    def _events(self) -> int:
        return sum(1 for r in self.table.effective if r["t"] == "event")

    def _new_events(self, mark: int) -> list[dict]:
        return [r["e"] for r in self.table.effective if r["t"] == "event"][mark:]

    # ---- one step ---------------------------------------------------------------------

    def step(self):
        ask = self.table.asked()
        wanted, after = self.choose(ask)
        prompt = self.screen.prompt
        plan = self.plan(ask, prompt, wanted, after)
        if plan is None:
            raise AssertionError(
                f"{ask.kind}: no taps on {prompt.title!r} give {wanted} then {after}; "
                f"choices {[c.label for c in prompt.choices]}, map {prompt.map_mode} {prompt.areas}"
            )
        taps, events, self.read_taps = len(self.d.taps), self._events(), 0
        self.reached[f"prompt:{ask.kind}"] += 1
        if ask.kind == "turn_action" and (ask.options.get("special") or {}).get("refused"):
            yield from self.shot("prompt_refused_special")  # a card whose facts nobody entered
        yield from self.run(plan, ask)
        yield from self.settle(ask)
        new = self._new_events(events)
        assert new, (ask.kind, wanted, plan, self.d.model.message)
        self.steps.append(
            Step(
                ask.kind,
                ask.players[0] if ask.players else None,
                len(self.d.taps) - taps,
                new,
                ask.options.get("purpose"),
                self.read_taps,
            )
        )
        for e in new:
            if e["type"] == "action_card_chosen":
                card = self.table.state.turn.card if self.table.state.turn else None
                if card is not None:
                    self.played_effects[card.effect] += 1

    def settle(self, ask):
        """After an input: the outcome dialog closed, the scoring pages walked, the new prompt up."""
        d = self.d
        for _ in range(3):
            yield 0.08
            dialog = self._dialog()
            if dialog is not None and dialog.__class__.__name__ == "OutcomeShown":
                self.reached["outcome dialog"] += 1
                yield from self.shot(f"outcome_{ask.kind}")
                self.read_taps += 1
                yield from self._tap_in(dialog, "Done")
            if d.current == "scoring" and d.screen("scoring").record is not None:
                self.reached["scoring page"] += 1
                yield from self.shot(
                    "scoring_" + ("general" if "General" in d.screen("scoring").record.title else "special")
                )
                d.tap("Done: back to the table")
                yield 0.15
        notice = self.screen.notice
        if notice and notice not in self.notices[-1:]:
            self.reached["notice"] += 1  # said without a dialog (the dummy takes a card)
            self.notices.append(notice)
            yield from self.shot("notice")
        if d.current == "end":
            return
        yield from _wait_for(
            d, lambda: d.model._ask_key is not None and d.model._ask_key[0] == repr(self.table.asked()), PATIENCE
        )

    # ---- what the table does ------------------------------------------------------------

    def choose(self, ask) -> tuple[dict, list]:
        """(the input, inputs the same tap goes on with): the engine's random choice, steered."""
        o, rng = ask.options, self.rng
        pid = ask.players[0] if ask.players else None
        if ask.kind == "reveal_action_cards":
            cards = [
                self._preferred([(cid, self.table.board.cards[cid]) for cid in sorted(o["stacks"][s])], self.revealed)
                for s in sorted(o["stacks"], key=int)
            ]
            self.revealed.update(self.table.board.cards[c].effect for c in cards)
            return {"type": "action_cards_revealed", "cards": cards}, []
        state = self.table.state
        if (
            ask.kind == "replenish"
            and o.get("stacks")
            and rng.random() < 0.85
            and state.provinces[state.players.index(pid)] >= o.get("max", 0)
        ):
            stacks = {int(s): cid for s, cid in o["stacks"].items()}
            cid = self._preferred([(c, self.table.board.cards[c]) for c in stacks.values()])
            stack = next(s for s, c in stacks.items() if c == cid)
            full = {"type": "court_replenished", "player": pid, "from_provinces": o.get("max", 0), "from_regions": {}}
            ability = any(
                e.get("type") == "modifier_ability_used" for c in self.screen.prompt.choices for e in (c.events or [])
            )
            first_time = not self.reached["modifier ability with the replenishment"]
            if ability and (first_time or rng.random() < 0.5):  # the played Modifier card's ability first
                return full, [{"type": "modifier_ability_used", "player": pid}]
            skip = [{"type": "modifier_ability_skipped", "player": pid}] if ability else []
            return full, skip + [{"type": "action_card_chosen", "player": pid, "stack": stack}]
        if ask.kind == "choose_action_card":
            stacks = {int(s): cid for s, cid in o["stacks"].items()}
            cid = self._preferred([(c, self.table.board.cards[c]) for c in stacks.values()])
            return {
                "type": "action_card_chosen",
                "player": pid,
                "stack": next(s for s, c in stacks.items() if c == cid),
            }, []
        if ask.kind == "turn_action":
            return self._turn(ask)
        if ask.kind == "veto":  # the 2023 Veto used once (it stops the whole special action), then waived
            used = self.reached["veto used"] > 0
            self.reached["veto used" if not used else "veto waived"] += 1
            return {"type": "veto_waived" if used else "veto_used", "player": pid}, []
        if ask.kind == "modifier_ability" and not o.get("refused"):
            return {"type": "modifier_ability_used", "player": pid}, []
        wanted = _norm(random_event(rng, _as_the_tablet_orders(ask)).model_dump(mode="json"))
        if wanted["type"] == "caballeros_moved":
            wanted["count"] = 1  # one Caballero per pair of taps; the rest come next step
        return wanted, []

    def _king_by_the_castillo(self) -> bool:
        return self.table.state.king == self.table.board.castillo

    def _preferred(self, cards: list, shown: Counter = Counter()) -> str:  # noqa: B006 (kept across calls on purpose)
        """The card whose 2023 effect has not been played (nor turned up as often), those wanted
        first, else any; while the King stands by the Castillo, none that moves him (so that a
        general scoring finds him there)."""
        kept = self._king_by_the_castillo()

        def rank(item):
            cid, card = item
            wanted = WANTED_EFFECTS.index(card.effect) if card.effect in WANTED_EFFECTS else len(WANTED_EFFECTS)
            return (
                kept and card.effect in MOVES_THE_KING,
                self.played_effects[card.effect] > 0,
                shown[card.effect],
                wanted,
                self.rng.random(),
            )

        return min(cards, key=rank)[0]

    def _turn(self, ask) -> tuple[dict, list]:
        """Place first (the special's Do or Skip places them, no Confirm), then the special, done
        when it can be (skipped when the card's facts are not entered)."""
        o, pid, rng = ask.options, ask.players[0], self.rng
        place, special = o["place"], o["special"]
        do_it = None
        card = self.table.board.cards.get(ask.card)
        if special and special.get("refused"):
            self.reached["refused special skipped"] += 1  # a fact of the card nobody entered
        kept = card is not None and card.effect in MOVES_THE_KING and self._king_by_the_castillo()
        if special:
            do_it = (
                {"type": "special_action_skipped", "player": pid}
                if special.get("refused") or kept
                else {
                    "type": "special_action_started",
                    "player": pid,
                    "option": rng.choice(special["options"]) if special.get("options") else None,
                }
            )
        if place and place["max"]:
            placed = {
                "type": "caballeros_placed",
                "player": pid,
                "placements": random_split(rng, random_count(rng, place["max"]), place["areas"]),
            }
            placed = _norm(placed)
            if do_it is not None and placed["placements"]:
                return placed, [do_it]
            if placed["placements"] or do_it is None:
                return placed, []
        return do_it, []

    # ---- how it is entered: a route through what the screen shows -------------------------

    def plan(self, ask, prompt: Prompt, wanted: dict, after: list, depth: int = 0) -> list | None:
        if depth == 0 and wanted.get("type") == "power_card_played" and wanted.get("modifier"):
            wanted = {**wanted, "modifier": self.twin_button(wanted["modifier"])}
        routes = []
        for choice in prompt.choices:
            if choice.enabled:
                routes += [r for r in self._choice_routes(ask, prompt, choice, wanted, after, depth) if r]
        mapped = self._map_route(ask, prompt, wanted, after)
        if mapped:
            routes.append(mapped)
        if not routes:
            return None
        return min(routes, key=lambda r: (_taps(r), r[0][0] != "area"))

    def twin_button(self, mid: str) -> str:
        """Twin Modifier cards are one button (the table takes it for the copy the player
        holds): the copy that button names."""
        played = modules_2023.modifiers_played(self.builder)
        for twins in modules_2023.modifier_twins(self.builder):
            if mid in twins:
                return ([m for m in twins if m not in played] or twins)[0]
        return mid

    def _choice_routes(self, ask, prompt, choice, wanted, after, depth) -> list:
        b = self.builder
        if choice.events or choice.event is not None:
            events = [_norm(e) for e in (choice.events or [choice.event])]
            return [[("choice", choice.label)]] if _matches(events, wanted) and _then(events, after) else []
        action, _, arg = (choice.action or "").partition(":")
        head = [("choice", choice.label)]
        if action == "sub" and arg and depth < 2:
            inner = self.plan(ask, b.sub_prompt(ask, arg), wanted, after, depth + 1)
            return [head + [("reached", f"sub:{arg.split(':')[0]}")] + inner] if inner else []
        if action == "mobile":
            inner = self._map_route(ask, b.mobile_prompt(ask, arg), wanted, after)
            return [head + [("reached", "mobile")] + inner] if inner else []
        if action == "replenish_custom" and not after:
            inner = self._map_route(ask, b.replenish_custom(ask), wanted, after)
            return [head + inner] if inner else []
        if after:
            return []
        if action == "secret":
            ok = (
                wanted.get("type") == "secret_disc_set"
                and wanted.get("player") == arg
                and wanted["region"] in {r for r, _ in b.secret_options(ask, arg)}
            )
            return [head + [("dialog", b.area(wanted["region"]))]] if ok else []
        if action == "private":
            pick, values = b.private_pick(ask, arg), _values(wanted)
            if pick is None or values is None:
                return []
            try:
                ok = _norm(pick.event(values)) == wanted
            except ValueError:
                return []
            return [head + [("private", pick, values)]] if ok else []
        if action == "powerback" and wanted.get("type") == "power_card_taken_back" and wanted.get("player") == arg:
            return [head + [("dialog", "show my choices"), ("dialog", str(wanted["card"]))]]
        if action == "open_castillo" and ask.kind == "lift_castillo":  # Revelation, let pass by any Veto
            return [head + [("castillo",)]] if wanted.get("type") == "castillo_counted" else []
        if action == "open_castillo":
            tail = [] if ask.kind == "count_castillo" else [{"type": "secret_discs_revealed"}]
            events = [{"type": "castillo_counted", "counts": None}] + tail
            return [head + [("castillo",)]] if _matches(events, wanted) else []
        if action == "count_castillo" and wanted.get("type") == "special_action_started":
            return [head + [("choice", "Open the Castillo"), ("castillo",)]]
        return []

    def _map_route(self, ask, prompt, wanted, after) -> list | None:
        mode = prompt.map_mode
        if mode == "pick" and not after:
            hits = [a for a in prompt.areas if _norm(prompt.on_area(a)) == wanted]
            return [("area", hits[0])] if hits else None
        if mode == "move" and not after and wanted.get("type") == "caballeros_moved":
            owners = prompt.sources.get(wanted["source"], {})
            if wanted["owner"] not in owners or wanted["target"] not in prompt.areas:
                return None
            if _norm(prompt.on_move(wanted["source"], wanted["target"], wanted["owner"])) != wanted:
                return None
            route = [("area", wanted["source"])]
            if len(owners) > 1:
                n = owners[wanted["owner"]]
                movable = ngettext("{who} ({n} movable)", "{who} ({n} movable)", n)
                route.append(("choice", movable.format(who=self.d.model.name(wanted["owner"]), n=n)))
            if wanted["target"] == CASTILLO and self._tower_knows(wanted["owner"]):
                route.append(("throw", wanted["owner"], 1, "move"))
            return route + [("area", wanted["target"])]
        if mode == "count":
            return self._count_route(ask, prompt, wanted, after)
        return None

    def _tower_knows(self, pid: str) -> bool:
        return pid not in self.table.setup.by_hand()

    def _count_route(self, ask, prompt, wanted, after) -> list | None:
        counts = _counts_for(wanted)
        if counts is None or prompt.on_counts is None:
            return None
        pid = wanted.get("player")
        areas = {a: c for a, c in counts.items() if not a.startswith("__")}
        route: list = []
        thrown = areas.get(CASTILLO, 0)
        if thrown and CASTILLO not in prompt.areas:
            if not self._tower_knows(pid):
                return None
            extra = thrown - prompt.prefill.get(CASTILLO, 0)
            if extra < 0:
                return None
            route.append(("throw", pid, extra, "place"))
            areas = {a: c for a, c in areas.items() if a != CASTILLO}
        if (
            any(a not in prompt.areas for a in areas)
            or sum(counts.get(a, 0) for a in counts if not a.startswith("__")) > prompt.limit
        ):
            return None
        if prompt.per_area and any(c > prompt.per_area for c in areas.values()):
            return None
        if any(k.startswith("__") and k not in prompt.steppers for k in counts):
            return None
        if _norm(prompt.on_counts(dict(counts))) != wanted:
            return None
        for key, (label, _, _) in prompt.steppers.items():
            delta = counts.get(key, 0) - prompt.prefill.get(key, 0)
            route += [("step", label, 1 if delta > 0 else -1)] * abs(delta)
        order = (
            wanted["regions"]
            if wanted["type"] == "dummy_region_cards_drawn"
            else [a for a, c in areas.items() for _ in range(c - prompt.prefill.get(a, 0))]
        )
        route += [("area", a) for a in order]
        if after:  # the next choice places them first (Do or Skip the special action)
            firsts = [c for c in prompt.choices if c.places_first and c.enabled]
            for choice in firsts:
                inner = self._choice_routes(ask, prompt, choice, after[0], after[1:], 1)
                if inner and inner[0]:
                    return route + inner[0]
            return None
        full = sum(c for a, c in counts.items() if not a.startswith("__")) == prompt.limit  # the tower's share too
        if prompt.auto_confirm and full:
            return route
        route.append(("choice", "Confirm"))
        if prompt.confirm_empty and not any(v for v in counts.values()):
            route.append(("dialog", "Yes"))
        return route

    # ---- taps -------------------------------------------------------------------------------

    def run(self, plan: list, ask):
        d = self.d
        for op in plan:
            kind = op[0]
            if kind == "reached":
                self.reached[op[1]] += 1
                yield from self.shot(op[1].replace(":", "_"))  # the step within the prompt
            elif kind == "choice":
                if says(op[1], "First use {card}: {text}"):
                    self.reached["modifier ability with the replenishment"] += 1
                yield from self._tap_choice(op[1])
            elif kind == "area":
                self.reached[f"map:{op[1]}" if op[1] in (CASTILLO, "france", "portugal") else "map"] += 1
                d.tap_area(op[1])
                yield 0.06
            elif kind == "throw":
                _, colour, k, why = op
                before = self.table.drops_total
                for _ in range(k):
                    d.tower_drop(colour)
                yield from _wait_for(d, lambda n=before + k: self.table.drops_total >= n, PATIENCE)
                if why == "place":
                    yield from _wait_for(d, lambda k=k: self.screen.entry.get(CASTILLO, 0) >= k, PATIENCE)
                yield 0.05
            elif kind == "step":
                _, label, delta = op
                suffix = "(+1)" if delta > 0 else "-1"
                button = next(
                    w
                    for w in self.screen.ids.actions.children
                    if w.text.startswith(f"{label}: ") and w.text.endswith(suffix)
                )
                d.tap_widget(button)
                yield 0.05
            elif kind == "dialog":
                yield from _wait_for(d, lambda: self._dialog() is not None, PATIENCE)
                yield 0.1
                dialog = self._dialog()
                if op[1] == "Yes":
                    yield from self._tap_in(dialog, "Yes")
                else:
                    yield from self._tap_in(dialog, op[1], exact=op[1] != "show my choices")
            elif kind == "private":
                yield from self._private(op[1], op[2])
            elif kind == "castillo":
                yield from self._castillo()
            else:
                raise AssertionError(f"unknown op {op}")

    def _tap_choice(self, label: str):
        d = self.d
        panel = self.screen.ids.actions
        found = [  # a label of the prompt's, or an English one ("Clear") in the language in use
            w
            for w in panel.walk()
            if hasattr(w, "tap_action") and (getattr(w, "text", None) == label or is_(w.text, label))
        ]
        if not found:
            shown = [w.text for w in panel.walk() if hasattr(w, "tap_action")]
            raise AssertionError(f"no choice {label!r} on the side panel; shown: {shown}")
        button = found[0]
        yield from self._into_view(button)
        d.tap_widget(button)
        yield 0.08

    def _tap_in(self, root, text: str, exact: bool = True):
        from kivy.uix.button import Button

        found = [
            w
            for w in root.walk()
            if isinstance(w, Button)
            and not w.disabled
            and ((w.text == text or is_(w.text, text)) if exact else (text in w.text or says(w.text, text)))
        ]
        if not found:
            shown = [w.text for w in root.walk() if isinstance(w, Button)]
            raise AssertionError(f"no button {text!r} in {root.__class__.__name__}; buttons: {shown}")
        yield from self._into_view(found[0])
        self.d.tap_widget(found[0])
        yield 0.1

    def _into_view(self, w):
        """Scrolled until it is on screen, as a person would (the layout settled first)."""
        p = w.parent
        while p is not None and p.__class__.__name__ != "ScrollView":
            p = p.parent if p.parent is not p else None
        if p is None:
            return
        for _ in range(5):
            x0, y0 = p.to_window(*p.pos)
            cx, cy = w.to_window(*w.center)
            if x0 <= cx <= x0 + p.width and y0 + 4 <= cy <= y0 + p.height - 4:
                return
            yield 0.05
            p.scroll_to(w, padding=10, animate=False)
            yield 0.1
        raise AssertionError(f"{w.text!r} could not be scrolled into view")

    def _private(self, pick, values):
        from companion.ui.dialogs.private_question import PrivateQuestion

        d = self.d
        yield from _wait_for(d, lambda: isinstance(self._dialog(), PrivateQuestion), PATIENCE)
        yield 0.1
        dialog = self._dialog()
        self.reached[f"private:{pick.kind}"] += 1
        labels = dict(pick.options)
        if pick.count == 1:
            yield from self.shot(f"private_{pick.kind}")
        for value in values:
            yield from self._into_view(dialog.buttons[value])
            d.tap_widget(dialog.buttons[value])
            yield 0.08
        if pick.count > 1:
            yield from self.shot(f"private_{pick.kind}")
            assert says(dialog.confirm.text, "Confirm these"), (dialog.confirm.text, labels)
            yield from self._tap_in(dialog, dialog.confirm.text)

        try:
            yield from _wait_for(d, lambda: self._dialog() is not dialog, PATIENCE)
        except AssertionError:
            raise AssertionError(
                f"the private question {pick.kind} stayed open after {values}; it says {dialog.message.text!r}"
            ) from None

    def _castillo(self):
        d = self.d
        scoring = d.screen("scoring")
        yield from _wait_for(d, lambda: d.current == "scoring", PATIENCE)
        yield 0.2
        yield from self.shot("castillo_lifted")
        button, said = next(  # its English message names what was reached, in any language
            (w, m) for w in scoring.ids.buttons.children for m in CASTILLO_BUTTONS if is_(w.text, m)
        )
        self.reached[f"castillo:{said}"] += 1
        if self.table.asked().options.get("castillo_stays"):
            self.reached["castillo stays (Rebellion)"] += 1
            yield from self.shot("castillo_stays_lifted")
        d.tap_widget(button)
        yield from _wait_for(d, lambda: d.current != "scoring" or scoring.record is not None, PATIENCE)
        yield 0.15

    # ---- the action-cards sheet -------------------------------------------------------------

    def reveal_step(self):
        """The reveal, by the sheet that opens by itself: one tap per stack (a stack's only card
        is picked already), then Reveal."""
        from companion.ui.dialogs.reveal_cards import RevealCards

        d = self.d
        ask = self.table.asked()
        wanted, _ = self.choose(ask)
        taps, events, self.read_taps = len(d.taps), self._events(), 0
        self.reached["prompt:reveal_action_cards"] += 1
        yield from _wait_for(d, lambda: isinstance(self._dialog(), RevealCards), PATIENCE)
        yield 0.15
        sheet = self._dialog()
        for stack, cid in zip(sheet.stacks, wanted["cards"]):
            if sheet.chosen.get(stack) != cid:
                button = sheet.buttons[stack][cid]
                yield from self._into_view(button)
                d.tap_widget(button)
                yield 0.05
        yield from self.shot("reveal_sheet")
        d.tap_widget(sheet.reveal_button)
        yield 0.1
        yield from self.settle(ask)
        self.steps.append(Step(ask.kind, None, len(d.taps) - taps, self._new_events(events), None, self.read_taps))

    def add_missing_card(self):
        """The card the set does not list turns up: "A card is not listed: add it" on the sheet,
        its effect from the list (its rule text beside it), its name, stack and copies, Add; the
        sheet opens again with it. A wrong entry first: refused with its message."""
        from companion.ui.dialogs.add_card import AddCard
        from companion.ui.dialogs.reveal_cards import RevealCards

        d = self.d
        yield from _wait_for(d, lambda: isinstance(self._dialog(), RevealCards), PATIENCE)
        yield 0.15
        assert not self._added()
        d.tap("Add or complete a card")
        yield from _wait_for(d, lambda: isinstance(self._dialog(), AddCard), PATIENCE)
        yield 0.15
        dialog = self._dialog()
        yield from self._tap_in(dialog, "Add the card")  # nothing chosen: said, nothing sent
        refused_first = dialog.message.text
        yield from self._tap_in(dialog, dialog.effect_buttons["score_chosen_region"].text)
        field = next(w for w in dialog.form.walk() if w.__class__.__name__ == "TextInput")
        field.text = "Chosen Region"  # typed on the tablet's keyboard
        yield 0.1
        for _ in range(3):  # stack 1 -> 4
            yield from self._stepper(dialog, "stack", +1)
        for _ in range(2):  # 3 copies: more than stack 4 has room for
            yield from self._stepper(dialog, "copies", +1)
        yield from self.shot("add_card")
        yield from self._tap_in(dialog, "Add the card")
        refused = dialog.message.text  # the card file's rule, in its words; nothing added
        assert not self._added() and self._dialog() is dialog, refused
        yield from self._stepper(dialog, "copies", -1)
        yield from self._tap_in(dialog, "Add the card")
        yield from _wait_for(d, lambda: self._dialog() is not dialog, PATIENCE)
        added = self._added()
        self.reached["add_card"] += 1
        card = added[0] if added else None
        d.facts["card_added"] = {
            "refused_first": refused_first,
            "refused": refused,
            "said": d.model.message,
            "stack": card and card.stack,
            "copies": card and card.copies,
            "id": card and card.id,
        }
        yield from _wait_for(d, lambda: isinstance(self._dialog(), RevealCards), PATIENCE)

    def complete_civil_war(self):
        """Civil War was refused (its outcome not entered): completed from the card at the next
        reveal ("Add or complete a card", the listed card, its outcome, Save); the sheet opens again."""
        from companion.ui.dialogs.add_card import AddCard
        from companion.ui.dialogs.reveal_cards import RevealCards

        d = self.d
        yield from _wait_for(d, lambda: isinstance(self._dialog(), RevealCards), PATIENCE)
        yield 0.15
        d.tap("Add or complete a card")
        yield from _wait_for(d, lambda: isinstance(self._dialog(), AddCard), PATIENCE)
        yield 0.15
        dialog = self._dialog()
        listed = sorted(dialog.card_buttons)
        yield from self._tap_in(dialog, dialog.card_buttons["civil_war"].text)
        yield from self._tap_in(dialog, "to their court")  # what the card says happens to them
        yield from self.shot("complete_card")
        yield from self._tap_in(dialog, "Save the card")
        yield from _wait_for(d, lambda: self._dialog() is not dialog, PATIENCE)
        card = self.table.board.cards["civil_war"]
        self.reached["card completed"] += 1
        d.facts["card_completed"] = {
            "listed": listed,
            "params": dict(card.params),
            "said": d.model.message,
            "missing": [k for k in self.table.board.missing if "civil_war" in k],
        }
        yield from _wait_for(d, lambda: isinstance(self._dialog(), RevealCards), PATIENCE)

    def _added(self) -> list:
        return [c for c in self.table.board.cards.values() if c.source.endswith("added at the table")]

    def _stepper(self, dialog, key: str, delta: int):
        button = dialog.steppers[key][delta > 0]  # the form is drawn anew after each tap
        yield from self._into_view(button)
        self.d.tap_widget(button)
        yield 0.1


def per_area_check(d, tablet, ask):
    """The dummy's Region cards: one card per region, so a region tapped twice is refused in
    words (and the entry kept); Clear empties it."""
    area = next(a for a in ask.options["pile"] if a != ask.options.get("kings_region"))
    for _ in range(2):
        d.tap_area(area)
        yield 0.08
    screen = d.screen("table")
    d.facts["per_area"] = {
        "message": screen.message,
        "entry": dict(screen.entry),
        "still_asked": d.model.table.asked().kind,
    }
    yield from tablet._tap_choice("Clear")


def correction_visit(d, tablet):
    """ "Correct the board" in a 2023 game: the 2023 map, the Scoring tiles as tools, the King
    tapped into Portugal; then dropped (Cancel, and yes)."""

    def keyed(key):
        return next(w for w in d.screen("position").walk() if getattr(w, "key", None) == key)

    d.tap("Correct the board")
    yield from _wait_for(d, lambda: d.current == "position", PATIENCE)
    yield 0.2
    screen = d.screen("position")
    tools = sorted(w.key for w in screen.walk() if str(getattr(w, "key", "")).startswith("tool:"))
    d.tap_widget(keyed("tool:king"))
    yield 0.15
    m = screen.ids.map
    tappable = sorted(m.tappable)
    d.tap_xy(*m.to_window(*m.area_centre("portugal")))
    yield 0.15
    king_there = screen.entry.king == "portugal"
    yield from tablet.shot("correction_king_in_portugal")
    d.tap("Cancel", exact=True)
    yield 0.2
    d.tap("Yes, drop what I entered", exact=True)
    yield from _wait_for(d, lambda: d.current == "table", PATIENCE)
    yield 0.2
    d.facts["correction"] = {
        "board": m.game_board().rules,
        "tools": tools,
        "king_tappable": tappable,
        "king_in_portugal": king_there,
        "king_after": d.model.public["game"]["king"],
    }


def _taps(route: list) -> int:
    taps = 0
    for op in route:
        if op[0] in ("choice", "area", "step", "dialog"):
            taps += 1
        elif op[0] == "private":
            taps += len(op[2]) + (op[1].count > 1)
        elif op[0] == "castillo":
            taps += 1
    return taps


# ---- the scenario -----------------------------------------------------------------------------


def calibrate_the_tower(d):
    """What the start notice asks of a table whose tower does not know purple: the tower panel's
    Calibrate the colours: the teaching screen asks for 5 cubes of each colour it does not know,
    thrown into the simulated tower. Until then a blue throw may be a purple cube the tower calls
    blue, and goes to a person."""
    from tower_colour_scenarios import teach_from_the_tower_panel

    yield from teach_from_the_tower_panel(d)
    yield from _wait_for(d, lambda: not d.model.table.setup.by_hand(), PATIENCE)
    yield from _wait_for(d, lambda: "purple" in ((d.model.tower or {}).get("calibrated") or []), PATIENCE)
    d.facts["calibrated_for"] = list(d.model.tower.get("calibrated") or [])
    screen = d.screen("table")
    d.facts["notice_after_calibration"] = screen.notice
    d.facts["sim_drop_colours"] = [getattr(w, "sim_colour", None) for w in screen.ids.bar.ids.sim_drops.children]


def two_player_game(d, variant="full", rounds=None):
    """A whole 2023 game, 2 players and the dummy, New Regency and Power Shift, by taps (up to
    round `rounds` only, when given)."""
    d.facts = {}
    yield from start_2023_game(d, variant=variant)
    tablet = Tablet(d)
    yield from tablet.shot("start_colour_notes")
    d.facts["start_notice"] = d.screen("table").notice
    yield from calibrate_the_tower(d)
    rounds_seen = set()
    guard = 0
    while d.current != "end":
        guard += 1
        assert guard < 600, "the game did not end"
        ask = tablet.table.asked()
        if ask.kind == "game_over" or (rounds and ask.round > rounds):
            break
        yield from tablet.shot(f"prompt_{ask.kind}")
        if ask.kind == "dummy_region_cards" and "per_area" not in d.facts:
            yield from per_area_check(d, tablet, ask)
        if ask.kind == "play_power_card" and ask.round == 2 and "correction" not in d.facts:
            yield from correction_visit(d, tablet)
        if ask.kind == "reveal_action_cards":
            if not rounds_seen:
                yield from tablet.add_missing_card()
            elif tablet.reached["refused special skipped"] and "card_completed" not in d.facts:
                yield from tablet.complete_civil_war()
            rounds_seen.add(ask.round)
            yield from tablet.reveal_step()
        else:
            yield from tablet.step()
    if not rounds:
        yield from _wait_for(d, lambda: d.current == "end" or tablet.table.asked().kind == "game_over", PATIENCE)
        if d.current != "end":
            d.tap("Final standings")
            yield from _wait_for(d, lambda: d.current == "end", PATIENCE)
        yield 0.3
        d.shot("end_2023")
        yield from _the_end_replayed(d)
    game = d.model.public["game"]
    d.facts.update(
        {
            "rounds": sorted(rounds_seen),
            "winners": game["winners"],
            "scores": {p["id"]: p["score"] for p in game["players"]},
            "reached": dict(tablet.reached),
            "played_effects": dict(tablet.played_effects),
            "steps": [s.__dict__ for s in tablet.steps],
            "problems": tablet.problems,
            "notices": tablet.notices,
            "taps_total": len(d.taps),
        }
    )
    yield from learn_the_box(d, tablet)  # a first game from the shipped data, in the same launch


def _the_end_replayed(d):
    """The end screen's heading and scores, and the engine's replaying the saved log."""
    from whole_game_scenarios import _end_screen, _replay_the_log

    heading, shown = _end_screen(d)
    replayed, _, _ = _replay_the_log(d.model.table.path)
    state = replayed.state
    d.facts.update(
        {
            "end_heading": heading,
            "end_scores": shown,
            "replayed_over": state.stage == "over",
            "replayed": {state.names[p]: s for p, s in zip(state.players, state.scores)},
            "replayed_winners": [state.names[state.players[q]] for q in state.winners],
        }
    )
    yield 0.05


def learn_the_box(d, tablet):
    """A first 2023 game from the shipped data only (no card file: the rule book's cards, their
    stacks unknown), in the same launch: the sheet's empty stacks say so and offer the cards by
    name. Stack 1: "Name the card", a few letters typed, Intrigue; stack 2: Veto; stack 3:
    Outposts; stack 4: a card not in the list (its effect, name and numbers); then Reveal, and the
    stacks are kept in Your cards."""
    from companion.table.setup import TableSetup
    from companion.table_rules.card_file import CardSetDraft
    from companion.ui.dialogs.add_card import AddCard
    from companion.ui.dialogs.name_card import NameCard
    from companion.ui.dialogs.reveal_cards import RevealCards
    from engine.events import GameSetup
    from engine.playout import standin_files

    players = ["purple", "blue", "green", "orange"]
    board_file, _ = standin_files("2023", 4)
    game = GameSetup(
        players=players,
        names=dict(zip(players, ("Ana", "Ben", "Cy", "Dee"))),
        king="castilla",
        homes=dict(zip(players, ("galicia", "aragon", "sevilla", "valencia"))),
        start_player="purple",
        rules="2023",
        modules=["new-regency"],
        variant="full",
        board_file=board_file,
        cards_file=None,
    )
    d.model.new_game(TableSetup(game=game, mode="tracking", tower={"kind": "simulated"}))
    d.app.root.current = "table"
    yield from _wait_for(d, lambda: isinstance(d.dialog(), RevealCards), PATIENCE)
    yield 0.3
    sheet = d.dialog()
    facts = d.facts["learning"] = {
        "empty_stacks": [s for s in sheet.stacks if not [b for cid, b in sheet.buttons[s].items()]],
        "said": [w.text for w in sheet.walk() if says(getattr(w, "text", ""), "is known yet")],
    }
    yield from tablet.shot("reveal_sheet_empty_stacks")
    taps = len(d.taps)
    for stack, typed, cid in ((1, "intr", "intrigue"), (2, "", "veto"), (3, "", "outposts")):
        button = sheet._learn_buttons[stack]
        yield from tablet._into_view(button)
        d.tap_widget(button)
        yield from _wait_for(d, lambda: isinstance(d.dialog(), NameCard), PATIENCE)
        yield 0.15
        picker = d.dialog()
        if typed:
            facts["offered_stack_1"] = sorted(picker.name_buttons)
            yield from tablet.shot("name_card")
            picker.filter.text = typed  # typed on the tablet's keyboard
            yield 0.1
            facts["after_typing"] = sorted(picker.name_buttons)
        d.tap_widget(picker.name_buttons[f"{cid}@{stack}"])
        yield from _wait_for(d, lambda: d.dialog() is sheet, PATIENCE)
        yield 0.1
    facts["named_taps"] = len(d.taps) - taps
    taps = len(d.taps)
    d.tap_widget(sheet._learn_buttons[4])
    yield from _wait_for(d, lambda: isinstance(d.dialog(), NameCard), PATIENCE)
    yield 0.15
    yield from tablet._tap_in(d.dialog(), "A card not in the list")
    yield from _wait_for(d, lambda: isinstance(d.dialog(), AddCard), PATIENCE)
    yield 0.15
    entry = d.dialog()
    yield from tablet._tap_in(entry, entry.effect_buttons["court"].text)
    field = next(w for w in entry.form.walk() if w.__class__.__name__ == "TextInput")
    field.text = "Three to the court"  # typed
    yield 0.1
    yield from tablet._tap_in(entry, "3")
    yield from tablet.shot("add_card_compact")
    yield from tablet._tap_in(entry, "Add the card")
    yield from _wait_for(d, lambda: d.dialog() is sheet, PATIENCE)
    yield 0.15
    facts["new_card_taps"] = len(d.taps) - taps
    spade = sheet.buttons[5]["exile"]  # the ♠ stack's cards are listed (their copies unknown)
    yield from tablet._into_view(spade)
    d.tap_widget(spade)
    yield 0.1
    facts["chosen"] = dict(sheet.chosen)
    yield from tablet.shot("reveal_sheet_learned")
    d.tap_widget(sheet.reveal_button)
    yield from _wait_for(d, lambda: d.model.table.asked().kind != "reveal_action_cards", PATIENCE)
    yield 0.2
    said_after = d.model.message
    # A card's number nobody entered, read off it (as its turn offers: Read Civil War's outcome off the card)
    from companion.ui.dialogs.card_facts import CardFacts

    d.screen("table").act("card_facts", "civil_war")
    yield from _wait_for(d, lambda: isinstance(d.dialog(), CardFacts), PATIENCE)
    yield 0.15
    reading = d.dialog()
    yield from tablet._tap_in(reading, "Enter and go on")  # nothing tapped yet: said, nothing sent
    facts["card_facts_refused"] = reading.message.text
    yield from tablet._tap_in(reading, "to their court")
    yield from tablet.shot("card_facts")
    yield from tablet._tap_in(reading, "Enter and go on")
    yield from _wait_for(d, lambda: d.dialog() is not reading, PATIENCE)
    facts["civil_war"] = dict(d.model.board.cards["civil_war"].params)
    kept = {c["id"]: c for c in CardSetDraft.load().file["cards"]}
    facts.update(
        {
            "asked_now": d.model.table.asked().kind,
            "said_after": said_after,
            "kept": {
                cid: (kept.get(cid) or {}).get("stack")
                for cid in ("intrigue", "veto", "outposts", "three_to_the_court")
            },
            "court_params": (kept.get("three_to_the_court") or {}).get("params"),
            "copies_kept": [c.get("copies") for c in kept.values() if c["id"] in ("intrigue", "veto")],
        }
    )


def first_rounds(d):
    """The same game's first two rounds (the new prompts, for the other tablet shapes)."""
    yield from two_player_game(d, rounds=2)


def scoring_only_2023(d):
    """A short 2023 game in scoring-only mode, 2 players and the dummy: the board entered by taps
    (the dummy's Caballeros, the King in France, a Scoring tile), rounds finished, each general
    scoring's discs on the tablet (none for the dummy), the Castillo lifted, to the end screen."""
    from companion.table.setup import TableSetup
    from engine.events import GameSetup

    d.facts = {}
    board_file, cards_file = _files()
    game = GameSetup(
        players=["purple", "blue"],
        names={"purple": "Ana", "blue": "Ben"},
        king="castilla",
        homes={"purple": "galicia", "blue": "aragon"},
        start_player="purple",
        rules="2023",
        dummy="white",
        variant="short",
        board_file=board_file,
        cards_file=cards_file,
    )
    yield 0.3
    d.model.new_game(TableSetup(game=game, mode="scoring", tower={"kind": "simulated"}))
    d.app.root.current = "table"
    yield from _wait_for(d, lambda: d.current == "table")
    yield 0.3
    shots = Tablet(d)
    tap = shots._tap_choice  # a side-panel button, scrolled into view first
    yield from tap("Enter the board")
    for pid, area, times in (("purple", "navarra", 2), ("white", "navarra", 1), ("blue", "toledo", 1)):
        yield from tap(said("{who}: add", who=d.model.name(pid)))
        for _ in range(times):
            d.tap_area(area)
            yield 0.05
    yield from tap("Move the King")
    d.tap_area("france")
    yield 0.1
    yield from tap(said("Place {piece}", piece=said("Scoring tile {letter} ({values})", letter="A", values="8·4·0")))
    d.tap_area("toledo")
    yield 0.15
    yield from shots.shot("scoring_only_board_entry")
    yield from tap("Save the board")
    game_now = d.model.public["game"]
    d.facts["entered"] = {
        "king": game_now["king"],
        "tiles": game_now["mobile_scoreboards"],
        "navarra": game_now["regions"].get("navarra"),
        "message": d.model.message,
    }
    scorings = 0
    guard = 0
    disc_button_end = said("{who}: secret disc", who="")  # ": secret disc" in the language in use
    while d.model.table.asked().kind != "game_over":
        guard += 1
        assert guard < 40, d.model.table.asked()
        ask = d.model.table.asked()
        if ask.kind == "play_round":
            yield from tap("Round finished")
            continue
        assert ask.kind == "secret_disc", ask
        d.facts.setdefault(
            "disc_buttons",
            sorted(w.text for w in d.screen("table").ids.actions.children if w.text.endswith(disc_button_end)),
        )
        for pid, region in (("purple", "navarra"), ("blue", "toledo")):
            yield from tap(said("{who}: secret disc", who=d.model.name(pid)))
            d.tap(d.model.area_name(region), exact=True)
            yield 0.1
        yield from tap("Open the Castillo")
        yield from _wait_for(d, lambda: d.current == "scoring", PATIENCE)
        yield 0.2
        d.tap("Counts match")
        yield from _wait_for(d, lambda: d.screen("scoring").record is not None, PATIENCE)
        yield 0.2
        scorings += 1
        if scorings == 1:
            yield from shots.shot("scoring_only_general")
        d.tap("Done: back to the table")
        yield 0.2
    yield from _wait_for(d, lambda: d.current == "end", PATIENCE)
    yield 0.3
    d.shot("scoring_only_end")
    public = d.model.public["game"]
    lines = [ln for s in public["scorings"] for ln in s["lines"]]
    d.facts.update(
        {
            "scorings": scorings,
            "winners": public["winners"],
            "scores": {p["id"]: p["score"] for p in public["players"]},
            "dummy_points": sum(ln["points"] for ln in lines if ln["player"] == "white"),
            "toledo_lines": [ln for ln in lines if ln["area"] == "toledo"][:4],
            "problems": shots.problems,
        }
    )


def launch_2023(d):
    """test_app_2023.py's one launch at 1280x800: the whole 2-player game by taps (and learning the
    box), a short scoring-only game, the 5-player game's new-game screen, the 2023 map."""
    from catalogue_2023_ki import several
    from map_2023_scenarios import map_2023
    from phones_2023_scenarios import five_players_new_game

    yield from several(
        d,
        (
            ("two_player_game", two_player_game),
            ("scoring_only_2023", scoring_only_2023),
            ("five_players_new_game", five_players_new_game),
            ("map_2023", map_2023),
        ),
    )
