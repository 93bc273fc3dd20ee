"""A headless tablet: plays a Table through its prompts only, counting taps.

Each step, the engine's random chooser (engine.playout.random_event) decides WHAT the
table does (a legal input, as a scripted player would choose); the driver then finds
HOW the tablet enters it: which button, map taps, sub-prompt or private screen of the
prompt the table shows now (companion.prompts.builder) produces exactly that input. An input the
prompts cannot produce is an error: every legal choice must be reachable by taps.

Taps are counted the way the app's screens take them (tests/companion/ui measure the real
app; this is the same model without Kivy):
  a button                     1
  a map tap (pick)             1; a region tapped in count mode: 1 per Caballero,
                               then Confirm (1) unless the prompt confirms itself, or the
                               special action's Do/Skip (the next tap) places them first
  a stepper                    1 per step away from its prefill
  a move                       2 per Caballero (source, target), +1 to choose whose
  "sub:<key>"                  1, then the sub-prompt's taps
  "private:<pid>"              1 to open (0 when the sheet opens by itself), 1 per option
                               picked, +1 to confirm several
  "secret:<pid>"               2 (open, region)
  "reveal_cards"               1 per stack, then Reveal (the sheet opens by itself)
  "open_castillo"              3 (Open the Castillo, Counts match, Done); for the Castillo
                               scoring card, once the veto window let it pass
  "count_castillo"             3 more (Open the Castillo, Counts match, Done): games saved
                               before rules revision 3 counted before the action was announced
A private choice made on a phone costs the tablet no tap (`phones=True`).

With a `box` (a 2023 table learning its cards as they turn up, companion.table_rules.card_learning), the
driver turns up the box's cards itself and enters what the tablet does not know, counting
those taps apart (`Step.entry`):
  a listed card, stack not known   2 at that stack (Name the card, its name) instead of 1
  a card not in the list           1 (Name the card) + 1 (A card not in the list) + 1 (its effect)
                                   + 1 (its name, typed) + 1 per number differing from the offered
                                   one (four stacks: + 1 for a printed 3 turned up on stack 2)
                                   + 1 (Add), then 1 to pick it in its column
  a card's numbers, when played    1 (Read them off the card) + 1 per number + 1 (Enter)
  a board fact, when needed        1 (Enter ...) + per page: 3 numbers or 1 per region, + 1 (Next)
  the cards left, game over        1 (Name the cards left) + per card left that the set cannot
                                   place: 1 (a card of the set placed there), 2 (Name the card,
                                   its name) or a card not in the list as above; 1 per number
                                   nobody read off a card nobody played (tapped off it); + 1 (Keep)
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import uuid
from dataclasses import dataclass, field

from companion.prompts import modules_2023
from companion.prompts.prompt import MODIFIER_PREFIX, Choice, Prompt
from engine.board.model import CASTILLO
from engine.playout import random_event
from firmware_bridge.adapter import TowerDrop

# Each driver's tower drops carry their own boot id: the table ignores a (tower, boot, seq) it has
# seen, so a second driver on the same table must not count its seq from 1 under the same boot. The
# counter tells drivers apart within a process; the uuid fragment across processes (a saved table
# reopened by another run, or xdist workers), where the counter starts from 1 again.
_BOOTS = itertools.count(1)

OPEN_CASTILLO_TAPS = 3
KINGS_STACK_OF_BOX = 5  # New Regency's ♠ stack: a base card found there is a ♠ card (card_learning)


class Unreachable(AssertionError):
    """The engine offered an input no route through the prompts produces."""


@dataclass
class Route:
    taps: int
    events: list[dict]
    private: tuple[str, list[str]] | None = None  # made on a phone: (player, values picked)


@dataclass
class Step:
    kind: str
    actor: str | None
    taps: int
    events: list[dict]
    purpose: str | None = None  # a secret disc's
    entry: int = 0  # of `taps`, those that entered cards or board facts (box mode)
    learned: list = field(default_factory=list)  # box mode: ("named" | "new", taps at its stack, id) per card


@dataclass
class TabletDriver:
    table: object
    seed: int = 0
    phones: bool = False
    box: Box | None = None  # 2023: the physical box the table learns its cards from
    log: list[Step] = field(default_factory=list)

    def __post_init__(self):
        self.rng = random.Random(self.seed)
        self.builder = self.table.prompt_builder()
        self.drops = 0
        self.boot = f"driver-{next(_BOOTS)}-{uuid.uuid4().hex[:8]}"

    # ---- one step ---------------------------------------------------------------------------

    def step(self, wanted=None) -> Step | None:
        """One input: `wanted` (an event as a dict, or the events one tap stands for), or the
        random chooser's."""
        ask = self.table.asked()
        if ask.kind == "game_over":
            named = self.box.name_cards_left(self) if self.box is not None else None
            if named is not None:
                self.log.append(named)
            return named
        if self.box is not None and wanted is None:
            learned = self.box.step(self, ask)
            if learned is not None:
                self.log.append(learned)
                return learned
        if wanted is None:
            wanted = random_event(self.rng, _as_the_tablet_orders(ask)).model_dump(mode="json")
        after: list[dict] = []
        if isinstance(wanted, list):
            wanted, after = wanted[0], [_norm(e) for e in wanted[1:]]
        wanted = _norm(wanted)
        if wanted["type"] == "power_card_played" and wanted.get("modifier"):
            wanted["modifier"] = self._twin_button(wanted["modifier"])
        if wanted["type"] == "caballeros_moved" and wanted["count"] > 1:
            wanted["count"] = 1  # the tablet moves one Caballero per tap pair; the rest come next step
        prompt = self.table.prompt()
        self._says_why(prompt)
        thrown = (wanted.get("placements") or {}).get(CASTILLO, 0)
        if thrown and prompt.map_mode == "count" and CASTILLO not in prompt.areas:
            self._throw(wanted["player"], thrown - prompt.prefill.get(CASTILLO, 0))  # the tower counts them
            prompt = self.table.prompt()
        routes = [r for r in self._routes(ask, prompt, wanted, 0) if r is not None and _then(r.events, after)]
        if not routes:
            raise Unreachable(
                f"{ask.kind}: no tap route gives {wanted}; prompt {prompt.title!r} offers "
                f"{[c.label for c in prompt.choices]}, map {prompt.map_mode} {prompt.areas}"
            )
        least = min(r.taps for r in routes)
        route = self.rng.choice([r for r in routes if r.taps == least])
        events = [self._filled(e) for e in route.events]
        if route.private is not None:
            self.table.submit_private(*route.private)  # as the phone sends it
        elif len(events) == 1:
            self.table.submit(events[0])
        else:
            self.table.submit_many(events)
        step = Step(
            ask.kind, ask.players[0] if ask.players else None, route.taps, route.events, ask.options.get("purpose")
        )
        self.log.append(step)
        return step

    def _says_why(self, prompt: Prompt) -> None:
        """A tap on what cannot be chosen says why in one line: every greyed choice, and an area
        of the map the prompt does not offer (one a step, drawn by its own generator so the
        game's choices stay the same)."""
        for choice in prompt.choices:
            assert choice.enabled or (choice.why_not and "\n" not in choice.why_not), (
                f"{prompt.title}: {choice.label!r} is greyed out and says nothing"
            )
        closed = [a for a in (*self.table.board.region_ids, CASTILLO) if a not in prompt.areas]
        if not closed:
            return
        area = random.Random(f"{self.seed}:{len(self.log)}").choice(closed)
        why = self.builder.why_not_area(prompt, area, self.table.refusal)
        assert why and "\n" not in why, (prompt.title, area, why)

    def _twin_button(self, mid: str) -> str:
        """Twin Modifier cards are one button on the tablet (the table takes it for the copy the
        player holds): the copy that button names."""
        played = modules_2023.modifiers_played(self.builder)
        for twins in modules_2023.modifier_twins(self.builder):
            if mid in twins:
                return ([m for m in twins if m not in played] or twins)[0]
        return mid

    def _throw(self, colour: str, k: int) -> None:
        for _ in range(k):
            self.drops += 1
            self.table.tower_drop(
                TowerDrop(tower="driver", boot=self.boot, seq=self.drops, colour=colour, uncertain=False, best=colour)
            )

    def _filled(self, event: dict) -> dict:
        if event["type"] == "castillo_counted":
            return {**event, "counts": self.table.open_castillo()}  # the tower's count, matched
        return event

    def play(self, limit: int = 20000) -> list[Step]:
        n = 0
        while n < limit and self.step() is not None:
            n += 1
        return self.log

    # ---- routes through a prompt ----------------------------------------------------------------

    def _routes(self, ask, prompt: Prompt, wanted: dict, depth: int) -> list[Route | None]:
        routes: list[Route | None] = []
        for choice in prompt.choices:
            if choice.enabled:
                routes += self._choice_routes(ask, choice, wanted, depth)
        routes.append(self._map_route(prompt, wanted))
        return routes

    def _choice_routes(self, ask, choice: Choice, wanted: dict, depth: int) -> list[Route | None]:
        if choice.events or choice.event is not None:
            events = [_norm(e) for e in (choice.events or [choice.event])]
            return [Route(1, events) if _matches(events, wanted) else None]
        action, _, arg = (choice.action or "").partition(":")
        b = self.builder
        inner: list[Route | None] = []
        if action == "sub" and depth < 2:
            inner = self._routes(ask, b.sub_prompt(ask, arg), wanted, depth + 1)
        elif action == "mobile":
            inner = [self._map_route(b.mobile_prompt(ask, arg), wanted)]
        elif action == "replenish_custom":
            inner = [self._map_route(b.replenish_custom(ask), wanted)]
        else:
            return [self._action_route(ask, action, arg, wanted)]
        return [Route(1 + r.taps, r.events) if r else None for r in inner]

    def _action_route(self, ask, action: str, arg: str, wanted: dict) -> Route | None:
        b = self.builder
        if action == "secret":
            offered = {r for r, _ in b.secret_options(ask, arg)}
            ok = (
                wanted == {"type": "secret_disc_set", "player": arg, "region": wanted.get("region")}
                and wanted["region"] in offered
            )
            if not ok:
                return None
            return Route(0, [wanted], private=(arg, [wanted["region"]])) if self.phones else Route(2, [wanted])
        if action == "private":
            pick = b.private_pick(ask, arg)
            values = _values(wanted, pick)
            if pick is None or values is None:
                return None
            try:
                event = _norm(pick.event(values))
            except ValueError:
                return None
            if event != wanted:
                return None
            if self.phones and pick.kind != "take_back_power_card":
                return Route(0, [event], private=(arg, values))
            # a sheet that opens by itself (the first still to choose: K&I's 13 kept) costs no tap to open
            opened = self.table.prompt().opens_private and ask.players and ask.players[0] == arg
            return Route((not opened) + pick.count + (pick.count > 1), [event])
        if action == "powerback":
            events = [_norm(c.event) for c in b.power_back_choices(ask)]
            return Route(2, [wanted]) if wanted in events else None
        if action == "reveal_cards":
            choices = b.reveal_choices(ask)
            cards = wanted.get("cards") if wanted["type"] == "action_cards_revealed" else None
            if not cards or len(cards) != len(choices):
                return None
            ok = all(cid in {c for c, _ in choices[s]} for s, cid in zip(sorted(choices), cards))
            return Route(len(cards) + 1, [wanted]) if ok else None
        if action == "open_castillo" and ask.kind == "lift_castillo":  # the Castillo card, let pass
            lifted = {"type": "castillo_counted", "counts": None}
            return Route(OPEN_CASTILLO_TAPS, [lifted]) if wanted["type"] == "castillo_counted" else None
        if action == "open_castillo":
            tail = [] if ask.kind == "count_castillo" else [{"type": "secret_discs_revealed"}]
            events = [{"type": "castillo_counted", "counts": None}] + tail
            return Route(OPEN_CASTILLO_TAPS, events) if _matches(events, wanted) else None
        if action == "count_castillo":
            events = [
                {"type": "castillo_counted", "counts": None},
                {"type": "special_action_started", "player": ask.players[0], "option": None},
            ]
            return Route(1 + OPEN_CASTILLO_TAPS, events) if _matches(events, wanted) else None
        return None

    def _map_route(self, prompt: Prompt, wanted: dict) -> Route | None:
        mode = prompt.map_mode
        if mode == "pick":
            hits = [a for a in prompt.areas if _norm(prompt.on_area(a)) == wanted]
            return Route(1, [wanted]) if hits else None
        if mode == "move":
            if wanted["type"] != "caballeros_moved":
                return None
            owners = prompt.sources.get(wanted["source"], {})
            if wanted["owner"] not in owners or wanted["target"] not in prompt.areas:
                return None
            event = _norm(prompt.on_move(wanted["source"], wanted["target"], wanted["owner"]))
            return Route(2 + (len(owners) > 1), [event]) if event == wanted else None
        if mode == "count":
            return _count_route(prompt, wanted)
        return None


def _as_the_tablet_orders(ask):
    """The ask as the tablet takes it: One of each's owners one after another, in seat order
    (the engine takes them in any order); King and Intrigue's 13 kept seat by seat, as the
    private sheets open by themselves."""
    if ask.kind == "send_back" and len(ask.options["owners"]) > 1:
        first = next(iter(ask.options["owners"].items()))
        return dataclasses.replace(ask, options={**ask.options, "owners": dict([first])})
    if ask.kind == "choose_power_cards" and len(ask.players) > 1:
        return dataclasses.replace(ask, players=ask.players[:1])
    return ask


def _count_route(prompt: Prompt, wanted: dict) -> Route | None:
    """A count-mode entry that gives `wanted`: a tap per Caballero beyond the prefill, the
    stepper steps, and Confirm (unless the prompt confirms itself once full)."""
    counts = _counts_for(wanted)
    if counts is None or prompt.on_counts is None:
        return None
    areas = {a: c for a, c in counts.items() if not a.startswith("__")}
    fixed = {a: c for a, c in prompt.prefill.items() if not a.startswith("__") and a not in prompt.areas}
    if any(a not in prompt.areas and c != fixed.get(a) for a, c in areas.items()) or sum(areas.values()) > prompt.limit:
        return None  # an area not tappable: only what the tower counted there
    if prompt.per_area and any(c > prompt.per_area for c in areas.values()):
        return None
    if any(k.startswith("__") and k not in prompt.steppers for k in counts):
        return None
    if _norm(prompt.on_counts(dict(counts))) != wanted:
        return None
    steps = sum(abs(c - prompt.prefill.get(k, 0)) for k, c in counts.items() if k.startswith("__"))
    placed = sum(abs(c - prompt.prefill.get(a, 0)) for a, c in areas.items())
    # No Confirm: full, a prompt that confirms itself; or a turn whose special action is still to
    # come, where "Do" or "Skip the special action" places what was tapped first (the next step).
    done = (prompt.auto_confirm and sum(areas.values()) == prompt.limit) or any(c.places_first for c in prompt.choices)
    return Route(placed + steps + (0 if done else 1), [wanted])


def _counts_for(wanted: dict) -> dict | None:
    kind = wanted["type"]
    if kind in ("caballeros_placed", "extra_caballeros_placed"):
        return dict(wanted["placements"])
    if kind == "court_replenished":
        return {"__provinces__": wanted["from_provinces"], **wanted["from_regions"]}
    if kind == "caballeros_sent_back":
        court = {"__court__": wanted["from_court"]} if wanted["from_court"] else {}
        return {**court, **wanted["from_regions"]}
    if kind == "dummy_region_cards_drawn":
        out: dict[str, int] = {}
        for r in wanted["regions"]:
            out[r] = out.get(r, 0) + 1
        return out
    return None


def _values(wanted: dict, pick=None) -> list[str] | None:
    """The private pick's values that stand for `wanted`."""
    kind = wanted["type"]
    if kind == "power_cards_chosen" and pick is not None:  # King and Intrigue: the kept or the left out tapped
        return [v for v, _ in pick.options if (int(v) in wanted["cards"]) == getattr(pick, "keeps", False)]
    if kind == "secret_disc_set":
        return [wanted["region"]]
    if kind == "modifiers_dealt":
        return list(wanted["modifiers"])
    if kind == "modifier_passed":
        return [wanted["modifier"]]
    if kind == "power_card_taken_back":
        return [str(wanted["card"])]
    if kind == "modifier_taken_back":
        return [MODIFIER_PREFIX + wanted["modifier"]]
    return None


def _matches(events: list[dict], wanted: dict) -> bool:
    """The route's inputs begin with `wanted` (a count of the lifted Castillo may come first:
    the table's count of what the tower holds)."""
    rest = [e for e in events if e["type"] != "castillo_counted"]
    return bool(rest) and rest[0] == wanted


def _then(events: list[dict], after: list[dict]) -> bool:
    """The route's inputs go on with `after` (the rest of what one tap was wanted for)."""
    rest = [e for e in events if e["type"] != "castillo_counted"][1:]
    return rest[: len(after)] == after


def _norm(event: dict) -> dict:
    """An input as compared: defaults filled, lists of cards sorted, empty entries dropped."""
    e = dict(event)
    kind = e.get("type")
    if kind in ("caballeros_placed", "extra_caballeros_placed"):
        e["placements"] = {a: c for a, c in e.get("placements", {}).items() if c}
    if kind in ("court_replenished", "caballeros_sent_back"):
        e["from_regions"] = {a: c for a, c in e.get("from_regions", {}).items() if c}
    if kind == "caballeros_sent_back":
        e.setdefault("from_court", 0)
    if kind == "special_action_started":
        e.setdefault("option", None)
    if kind == "power_card_played":
        e.setdefault("modifier", None)
    if kind == "caballeros_moved":
        e.setdefault("count", 1)
    if kind == "modifiers_dealt":
        e["modifiers"] = sorted(e["modifiers"])
    if kind == "power_cards_chosen":
        e["cards"] = sorted(e["cards"])
    if kind in ("entourage_moved",):
        e["caballeros"] = {p: c for p, c in e.get("caballeros", {}).items() if c}
    if kind == "pieces_swapped":
        e.setdefault("king", False)
    return e


# ---- King and Intrigue: the box table (Your cards) -------------------------------------------------


def box_table_taps(box: dict, players=(2, 3, 4, 5), modules=()) -> tuple[int, object]:
    """Taps that enter `box` (a King and Intrigue card file: the numbers printed on the table's
    cards) into a fresh "Your cards", cell by cell in the screen's order, as the screen takes
    them (companion.table_rules.ki_box_table.taps_to: a chip 1, a value its digits and Set, a stepper its
    steps). Only the cells a game of `players` with `modules` needs. Returns (taps, the draft)."""
    from companion.table_rules.ki_box_table import taps_to
    from companion.table_rules.ki_cards import KICardsDraft

    wanted = {(c.card, c.field): c.now for c in KICardsDraft(box).cells()}
    draft = KICardsDraft()
    modules_of = {r.id: r.module for r in draft.rows()}
    needed = lambda c: (
        int(c.field.split(":")[1]) in players
        if not c.card
        else modules_of[c.card] is None or modules_of[c.card] in modules
    )
    taps, done = 0, set()
    while True:
        todo = [c for c in draft.cells() if (c.card, c.field) not in done and needed(c)]
        if not todo:
            return taps, draft
        cell = todo[0]
        done.add((cell.card, cell.field))
        goal = wanted.get((cell.card, cell.field))
        if goal is None or cell.now == goal:
            continue
        taps += taps_to(cell, goal)
        draft.enter(cell, goal)


# ---- a 2023 box, learned as it turns up ------------------------------------------------------------


@dataclass
class Box:
    """The cards and board of a table's own box (`cards`: full card entries, `board`: a board file;
    the self-play stand-ins stand in for a real box). It turns up the top card of each stack
    itself and gives the tablet only what a person reads off the cards and the board."""

    cards: dict
    board: dict
    stacks: dict = field(default_factory=dict)  # table stack -> face-down box card ids, top last

    @classmethod
    def of(cls, table, cards_file: dict, board_file: dict, seed: int) -> Box:
        from engine.board.load import load_cards

        card_set = load_cards("2023", cards_file)
        rules = table.state.rules
        cards = {c.id: c for c in card_set.cards.values()}
        box = cls(cards, board_file)
        for c in cards.values():
            if c.module not in (None, *(["new-regency"] if rules.new_regency else [])) or not c.copies:
                continue
            if c.stack == 5 and (c.module is None):
                continue  # the King's card: turned up by itself (or back in the box with New Regency)
            stack = 5 if c.stack == 5 else rules.table_stack(c.stack)
            box.stacks.setdefault(stack, []).extend([c.id] * c.copies)
        rng = random.Random(seed)
        for pile in box.stacks.values():
            rng.shuffle(pile)
        return box

    def table_id(self, table, cid: str) -> str | None:
        """The tablet's id for a box card: the same id, or the card the table added by its name."""
        if cid in table.board.cards:
            return cid
        name = self.cards[cid].name
        return next((c.id for c in table.board.cards.values() if c.name == name), None)

    def printed(self, stack: int, cid: str) -> int:
        """The stack number printed on a box card (four stacks: a 3 turns up on table stack 2)."""
        return KINGS_STACK_OF_BOX if stack == KINGS_STACK_OF_BOX else self.cards[cid].stack

    def step(self, driver: TabletDriver, ask) -> Step | None:
        """The box's part of this step, if it has one: the cards turned up, or a card's or the
        board's facts the prompt asks for."""
        if ask.kind == "reveal_action_cards":
            return self._reveal(driver, ask)
        for choice in driver.table.prompt().choices:
            if (choice.action or "").startswith("card_facts:"):
                return self._card_facts(driver, ask, choice.action.partition(":")[2])
            if choice.action == "board_facts":
                return self._board_facts(driver, ask)
        return None

    def _reveal(self, driver, ask) -> Step:
        from companion.table_rules.card_learning import new_card_entry

        table = driver.table
        top = {s: self.stacks[s].pop() for s in sorted(self.stacks) if self.stacks[s]}
        taps, entry, learned, picked, costs = 1, 0, [], [], []
        for stack, cid in top.items():
            known = self.table_id(table, cid)
            card = table.board.cards.get(known) if known else None
            if card is not None and card.stack is not None:
                taps += 1
                picked.append(known)
                continue
            if card is not None:  # listed, its stack not known: offered by name on this stack
                offered = [
                    c
                    for c in table.reveal_candidates().get(stack, [])
                    if c.card == known and c.stack == self.printed(stack, cid)
                ]
                if not offered:
                    raise Unreachable(f"{card.name} is not offered on stack {stack}")
                from companion.table_rules.card_learning import learn_entry

                learned.append(learn_entry(table.state, offered[0]))
                picked.append(known)
                taps, entry = taps + 2, entry + 1
                costs.append(("named", 2, known))
                continue
            box_card = self._enterable(self.cards[cid])
            new, numbers = new_card_entry(
                table.board,
                box_card.name,
                box_card.effect,
                self.printed(stack, cid),
                dict(box_card.params),
                box_card.placement if stack == 5 else None,
            )
            numbers += self.printed(stack, cid) != stack  # four stacks: a printed 3 tapped on stack 2
            table.complete_card_set([new])
            from companion.table_rules.card_file import remember_card_entries

            remember_card_entries([new])
            cost = 5 + numbers  # then picked in its column by itself
            taps, entry = taps + cost, entry + cost - 1
            costs.append(("new", cost, new["id"]))
            picked.append(new["id"])
        events = [{"type": "card_set_completed", "cards": learned}] if learned else []
        events.append({"type": "action_cards_revealed", "cards": picked})
        table.reveal_learning(picked, learned)
        return Step(ask.kind, None, taps, events, entry=entry, learned=costs)

    @staticmethod
    def _enterable(box_card):
        """A card not in the list, as its compact entry can take it: every number printed on it
        (Decay's "2 each" too) on the entry's rows (companion.table_rules.card_learning.printed_numbers)."""
        from companion.table_rules.card_learning import unenterable

        off = unenterable(box_card.effect, dict(box_card.params))
        if off:
            raise Unreachable(f"{box_card.name}: the card entry cannot take {', '.join(off)}")
        return box_card

    def name_cards_left(self, driver: TabletDriver) -> Step | None:
        """The game is over: the box's cards left face down, turned over and named where the set
        cannot place them (companion.table_rules.card_learning.stacks_left), kept in Your cards."""
        from companion.table_rules.card_learning import Candidate, new_card_entry

        table = driver.table
        offered = {s.stack: s for s in table.stacks_left()}
        if not offered:
            return None
        taps, named, costs = 2, {}, []
        for stack, left in offered.items():
            face_down = [
                cid
                for cid in self.stacks.get(stack, [])
                if (known := self.table_id(table, cid)) is None or table.board.cards[known].copies is None
            ]
            for cid in face_down[: left.to_name]:
                known = self.table_id(table, cid)
                card = table.board.cards.get(known) if known else None
                if card is not None and card.stack is not None:
                    pick, cost, kind = known, 1, "known"
                elif card is not None:
                    pick = next(
                        (c for c in left.candidates if c.card == known and c.stack == self.printed(stack, cid)), None
                    )
                    if pick is None:
                        raise Unreachable(f"{card.name} is not offered for the cards left on stack {stack}")
                    cost, kind = 2, "named"
                else:
                    box_card = self._enterable(self.cards[cid])
                    pick, numbers = new_card_entry(
                        table.board,
                        box_card.name,
                        box_card.effect,
                        self.printed(stack, cid),
                        dict(box_card.params),
                        box_card.placement if stack == 5 else None,
                    )
                    cost, kind = 5 + numbers + (self.printed(stack, cid) != stack), "new"
                named.setdefault(stack, []).append(pick)
                taps += cost
                costs.append((kind, cost, known or pick["id"]))
        also = [
            p.card if isinstance(p, Candidate) else p
            for picks in named.values()
            for p in picks
            if not isinstance(p, dict)
        ]
        facts = {}
        for cid, wanted in table.facts_left(also).items():
            truth = self.cards[next(b for b in self.cards if self.table_id(table, b) == cid)]
            facts[cid] = {
                f.key: truth.placement if f.key == "placement" else truth.params.get(f.key[7:]) for f in wanted
            }
            taps += len(wanted)
            costs.append(("facts", len(wanted), cid))
        why = table.name_cards_left(named, facts)
        if why:
            raise Unreachable(why)
        return Step("name_cards_left", None, taps, [], entry=taps, learned=costs)

    def _card_facts(self, driver, ask, cid: str) -> Step:
        from companion.table_rules.card_learning import card_facts

        table = driver.table
        box_id = next(b for b, c in self.cards.items() if self.table_id(table, b) == cid)
        truth = self.cards[box_id]
        values = {}
        for fact in card_facts(table.board, cid):
            value = truth.placement if fact.key == "placement" else truth.params.get(fact.key[7:])
            if value not in fact.options:
                raise Unreachable(f"{fact.words}: {value!r} is not offered ({fact.options})")
            values[fact.key] = value
        table.enter_card_facts(cid, values)
        taps = 2 + len(values)
        return Step(
            "card_facts",
            ask.players[0] if ask.players else None,
            taps,
            [{"type": "card_set_completed", "cards": [cid]}],
            entry=taps,
        )

    def _board_facts(self, driver, ask) -> Step:
        from companion.entry.facts import FactsEntry

        entry = FactsEntry.for_table(driver.table)
        taps = 1
        tiles = self.board.get("scoring_tiles", {})
        spaces = {sp["id"]: sp["neighbours"] for sp in self.board.get("spaces", [])}
        regions = {r["id"]: r for r in self.board.get("regions", [])}
        for fact in entry.facts:
            if fact.kind == "neighbours":
                for region in spaces[fact.area]:
                    entry.toggle(region)
                    taps += 1
            else:
                values = (
                    tiles[fact.area]
                    if fact.kind == "tile"
                    else self.board["castillo"]["scoreboard"]
                    if fact.area == "castillo"
                    else regions[fact.area]["scoreboard"]
                )
                for place, value in enumerate(values):
                    entry.pick(place, value)
                    taps += 1
            if not entry.next():
                raise Unreachable(f"{fact.label}: {entry.message}")
            taps += 1
        if not entry.send(driver.table):
            raise Unreachable(entry.message)
        return Step("board_facts", None, taps, [{"type": "board_facts_entered"}], entry=taps)
