"""A whole game by taps (issue 11, item 11), run by app_driver.py under Xvfb.

`whole_game_by_taps`: a full 9-round, 4-player tracked game through the real app,
every input a synthetic touch on the tablet (tower drops simulated, secret discs
picked on the tablet). The cards turned up each round and the card each player takes
are fixed (PLAN) so that every classic card kind is played; one undo in each phase and
a table correction are made on the way. It ends on the end screen, whose winners and
scores are checked against the engine replaying the game's log.

`last_round_from_the_board`: a table opens the app in round 9 ("Start from the board
in front of you"), plays the round and its general scoring to the end screen.

Taps are counted per reveal, power card, turn and general scoring (a ledger over the
driver's `taps`); taps spent on a deliberate detour (an undo and what is entered again
after it, a correction) are counted apart, so the figures are those of the fast path.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from scenarios import _wait_for
from words_match import said

from companion.history.people_words import who_won

PATIENCE = 45.0  # seconds any one step may take on a loaded machine before the scenario fails

# ---- the game, decided in advance -------------------------------------------------------

PLAYERS = {
    "red": ("Ana", "galicia"),
    "yellow": ("Ben", "aragon"),
    "green": ("Carla", "sevilla"),
    "blue": ("Dev", "valencia"),
}  # seat order, names, home regions; the King in Castilla la Nueva
CV, CN, AR, GR, SE, VA, GA, PV, CA, CS = (
    "castilla_la_vieja",
    "castilla_la_nueva",
    "aragon",
    "granada",
    "sevilla",
    "valencia",
    "galicia",
    "pais_vasco",
    "cataluna",
    "castillo",
)


@dataclass(frozen=True)
class Turn:
    player: str
    card: str  # the card taken (stack 5: "kings_card")
    place: tuple = ()  # areas tapped in order; CS: a Caballero thrown into the tower
    special: tuple = ("skip",)  # the special action, step by step (see SPECIAL_STEPS)
    replenish: int | None = None  # None: the full replenishment, in the card's one tap
    detour: str = ""  # an undo made in this turn: "place", "replenish", "step", "disc"


@dataclass(frozen=True)
class Round:
    cards: tuple  # turned up on stacks 1 to 4
    power: dict  # the Power card each player lays down
    turns: tuple  # in turn order (highest Power card first)
    discs: dict | None = None  # a general scoring follows: each player's Castillo destination
    detours: tuple = ()  # "reveal", "power", "scoring": an undo in that phase
    correction: tuple = ()  # (before turn i, area, player, change): Correct the board


PLAN = (
    Round(
        ("intrigue_any_3", "veto", "score_4_regions", "grande"),
        {"red": 13, "yellow": 12, "green": 11, "blue": 10},
        (
            Turn("red", "veto", (CV, CS), ("none",), detour="place"),
            Turn("yellow", "kings_card", (AR, AR, VA, CS), ("vetoed_by", "red")),
            Turn("green", "score_4_regions", (GR, SE, SE), ("score",)),
            Turn("blue", "grande", (VA, VA, CS), ("grande", GR)),
        ),
        detours=("reveal", "power"),
    ),
    Round(
        ("intrigue_2_own_2_foreign", "decay_3", "score_5_regions", "royal_advisor"),
        {"blue": 1, "red": 5, "yellow": 3, "green": 8},
        (
            Turn("green", "decay_3", (GR, VA), ("decay",)),
            Turn("red", "royal_advisor", (CV, CV, AR), ("king", CV), replenish=3, detour="replenish"),
            Turn("yellow", "score_5_regions", (AR, CN, CS), ("score",)),
            Turn(
                "blue",
                "intrigue_2_own_2_foreign",
                (CN,),
                ("move", ((VA, "blue", CN), (VA, "blue", CA), (AR, "yellow", CA), (GA, "red", PV)), False),
                detour="step",
            ),
        ),
    ),
    Round(
        ("intrigue_2_extra_from_court", "one_of_each_back", "score_castillo", "mobile_scoreboard"),
        {"blue": 13, "red": 2, "yellow": 7, "green": 6},
        (
            Turn("blue", "mobile_scoreboard", (CS, CS, CN), ("mobile", "8-4-0", CS)),
            Turn("yellow", "score_castillo", (CN, CS), ("castillo",)),
            Turn("green", "one_of_each_back", (CN, CN), ("one_of_each", {"blue": CA, "red": PV, "yellow": CA})),
            Turn("red", "intrigue_2_extra_from_court", (GA,), ("extra", (PV, CA))),
        ),
        discs={"red": GA, "yellow": AR, "green": SE, "blue": CN},
        detours=("scoring",),
    ),
    Round(
        ("intrigue_own_4", "king_is_angry", "score_first_place_only", "power_card_back"),
        {"red": 12, "yellow": 4, "green": 9, "blue": 11},
        (
            Turn("red", "power_card_back", (AR, AR, CN), ("power_back", 13)),
            Turn("blue", "score_first_place_only", (CN, PV, PV), ("score",)),
            Turn(
                "green",
                "king_is_angry",
                (GA, CS),
                ("king_angry", {"blue": {"court": 2, CN: 1}, "red": {"court": 1, AR: 2}, "yellow": {"court": 3}}),
            ),
            Turn(
                "yellow",
                "intrigue_own_4",
                (PV,),
                ("move", ((AR, "yellow", VA), (AR, "yellow", VA), (CN, "yellow", GR)), True),
            ),
        ),
    ),
    Round(
        ("intrigue_5_from_one_region", "disc_all_from_region", "score_most_caballeros", "eviction"),
        {"yellow": 9, "green": 10, "blue": 2, "red": 3},
        (
            Turn("green", "eviction", (CN, CN, CS), ("eviction", CN, {"blue": VA, "red": GA, "yellow": CV})),
            Turn(
                "yellow",
                "disc_all_from_region",
                (AR, PV),
                ("disc_back", {"green": GR, "blue": PV, "red": CA}),
                detour="disc",
            ),
            Turn("red", "score_most_caballeros", (GA, GA, PV), ("score",)),
            Turn(
                "blue",
                "intrigue_5_from_one_region",
                (AR,),
                ("move", ((VA, "blue", GR), (VA, "yellow", GR), (VA, "blue", CA)), True),
            ),
        ),
    ),
    Round(
        ("intrigue_all_own_from_region", "disc_2_from_region", "score_least_caballeros", "disc_scoring"),
        {"blue": 12, "red": 13, "yellow": 8, "green": 7},
        (
            Turn("red", "disc_scoring", (AR, CS), ("disc_scoring", {"red": GR, "yellow": VA, "green": SE, "blue": AR})),
            Turn("blue", "score_least_caballeros", (CN, PV, CS), ("score",)),
            Turn("yellow", "disc_2_from_region", (AR, CN), ("disc_back", {"green": SE, "blue": VA, "red": GA})),
            Turn(
                "green", "intrigue_all_own_from_region", (GA,), ("move", ((GA, "green", PV), (GA, "green", PV)), False)
            ),
        ),
        discs={"red": AR, "yellow": VA, "green": GR, "blue": CN},
    ),
    Round(
        ("intrigue_foreign_3", "decay_all", "score_6_7_regions", "the_court"),
        {"green": 13, "blue": 3, "red": 6, "yellow": 5},
        (
            Turn("green", "decay_all", (AR, CS), ("decay",)),
            Turn("red", "the_court", (GA, PV, CN), ("court",)),
            Turn("yellow", "score_6_7_regions", (AR, CN, CS), ("score",)),
            Turn(
                "blue",
                "intrigue_foreign_3",
                (PV,),
                ("move", ((AR, "yellow", CA), (AR, "red", CA), (CN, "green", SE)), False),
            ),
        ),
        correction=(3, GA, "red", -1),
    ),
    Round(
        ("intrigue_any_4", "score_chosen_region_2", "score_5_regions", "grande"),
        {"blue": 9, "red": 11, "yellow": 10, "green": 12},
        (
            Turn("green", "kings_card", (AR, PV, CS), ("king", CN)),
            Turn("red", "score_chosen_region_2", (AR, VA), ("chosen", GA)),
            Turn("yellow", "score_5_regions", (VA, GR), ("score",)),
            Turn("blue", "grande", (SE, GR, CS), ("grande", CA)),
        ),
    ),
    Round(
        ("intrigue_2_own_2_foreign", "veto", "score_chosen_region_3", "mobile_scoreboard"),
        {"blue": 8, "red": 10, "yellow": 6, "green": 5},
        (
            Turn("red", "score_chosen_region_3", (AR, CS), ("chosen", CV)),
            Turn("blue", "kings_card", (VA, GR), ("king", GR)),
            Turn("yellow", "mobile_scoreboard", (CN, VA), ("mobile", "4-0-0", CA)),
            Turn("green", "intrigue_2_own_2_foreign", (SE,), ("skip",)),
        ),
        discs={"red": GR, "yellow": AR, "green": SE, "blue": VA},
    ),
)

# Specials done in one step (a tap or an area, and a scoring page's Done): with a full
# replenishment and up to 3 placed, such a turn is the "ordinary turn".
SIMPLE_SPECIALS = ("skip", "none", "grande", "king", "score", "court")

# What the game must have played by the end (checked on the log, not on the plan)
CLASSIC_KINDS = {
    "veto",
    "decay_all",
    "decay_3",
    "one_of_each_back",
    "king_is_angry",
    "disc_all_from_region",
    "disc_2_from_region",
    "score_chosen_region_2",
    "score_4_regions",
    "score_5_regions",
    "score_6_7_regions",
    "score_castillo",
    "score_first_place_only",
    "score_most_caballeros",
    "score_least_caballeros",
    "score_chosen_region_3",
    "mobile_scoreboard",
    "power_card_back",
    "the_court",
    "grande",
    "disc_scoring",
    "eviction",
    "royal_advisor",
    "kings_card",
}


# ---- counting taps ------------------------------------------------------------------------


class Ledger:
    """Taps per reveal, power card, turn and general scoring, from the driver's tap log;
    a detour's taps (an undo and what is entered again) are kept apart."""

    def __init__(self, d):
        self.d, self.rows, self.undos, self.mismatches, self.faults = d, [], [], [], []
        self._open, self._detour = None, 0

    def begin(self, kind: str, label: str, **info) -> None:
        self._open, self._detour = (kind, label, len(self.d.taps), info), 0

    def end(self) -> None:
        kind, label, start, info = self._open
        total = len(self.d.taps) - start
        self.rows.append({"kind": kind, "label": label, "taps": total - self._detour, "detour": self._detour, **info})
        self._open = None

    def detour_from(self, mark: int) -> None:
        self._detour += len(self.d.taps) - mark

    def figures(self) -> dict:
        """Per kind of step: how many, and the max and median taps of each."""
        out = {}
        for kind in sorted({r["kind"] for r in self.rows}):
            out[kind] = _spread([r["taps"] for r in self.rows if r["kind"] == kind])
        by_round = {}
        for r in self.rows:
            if r["kind"] == "power":
                by_round[r["round"]] = by_round.get(r["round"], 0) + r["taps"]
        if by_round:
            out["power phase (all players)"] = _spread(list(by_round.values()))
        return out


def _spread(taps: list) -> dict:
    return {"count": len(taps), "max": max(taps), "median": statistics.median(taps), "taps": taps}


# ---- tapping ----------------------------------------------------------------------------


def _scroll_into_view(w) -> bool:
    """A button below the fold of a scrolled list: scroll to it, as a person would."""
    from kivy.uix.scrollview import ScrollView

    parent = w.parent
    while parent is not None and not isinstance(parent, ScrollView):
        parent = parent.parent if parent.parent is not parent else None
    if parent is None:
        return False
    x, y = w.to_window(*w.center)
    left, bottom = parent.to_window(parent.x, parent.y)
    if left <= x <= left + parent.width and bottom <= y <= bottom + parent.height:
        return False
    parent.scroll_to(w, padding=10, animate=False)
    return True


def _until(d, what, seconds: float = PATIENCE):
    """Poll until what() is true (a frame at a time)."""
    yield from _wait_for(d, what, seconds, step=0.03)


def _tap_found(d, find, seconds: float = PATIENCE):
    """Tap the widget find() returns once it is on screen and laid out (in the same place
    two frames running): polls, never a fixed sleep. find() raises AssertionError, saying
    what is on screen, while the widget is not there."""
    import time

    last, deadline = None, time.monotonic() + seconds
    while True:
        try:
            w = find()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            w = None
        where = None
        laid_out = w is not None and not (tuple(w.pos) == (0, 0) and tuple(w.size) == (100, 100))  # Kivy's defaults
        if laid_out and not _scroll_into_view(w):
            where = (*w.to_window(*w.center), *w.size)
            if where == last:
                d.tap_xy(where[0], where[1])
                return
        if time.monotonic() > deadline:
            raise AssertionError(f"{getattr(w, 'text', w)!r} never settled on screen within {seconds:.0f} s")
        last = where
        yield 0.03


def _tap(d, text: str, exact: bool = False, seconds: float = PATIENCE):
    """Tap the button whose text holds these words (is exactly them, when exact)."""
    yield from _tap_found(d, lambda: d.button(text, exact), seconds)


def _keys(d, *keys: str):
    """Position-screen buttons by what they do ("power:red:13"), each once laid out."""
    from correction_scenarios import _key

    for key in keys:
        yield from _tap_found(d, lambda k=key: _key(d, k))


def _tap_area(d, area: str):
    """Tap an area of the table's map once the prompt offers it (no dialog over the map)."""
    yield from _until(d, lambda: area in d.screen("table").ids.map.tappable and not _modal(d))
    d.tap_area(area)
    yield 0.03


def _shot(d, name: str):
    """A picture once the last change is drawn (Window.screenshot reads the last frame)."""
    yield 0.1
    d.shot(name)


def _modal(d):
    return d.dialog()


def _asked(d, kind: str, player: str | None = None, seconds: float = PATIENCE):
    def now():
        ask = d.ask()
        return ask.kind == kind and (player is None or ask.players == (player,))

    now.__doc__ = f"the game to ask {kind}" + (f" of {player}" if player else "")
    yield from _until(d, now, seconds)


def _name(d, pid: str) -> str:
    return d.model.name(pid)


def _undo(d, ledger: Ledger, confirm: bool = False):
    """Undo, answering its question when it asks; what was undone is noted."""
    words = d.model.public.get("undo")
    asked_at = d.ask().kind
    undos = sum(r["t"] == "undo" for r in d.model.table.records)
    yield from _tap(d, "Undo", exact=True)
    if confirm:
        yield from _tap(d, "Yes, undo", exact=True)
    yield from _until(d, lambda: sum(r["t"] == "undo" for r in d.model.table.records) == undos + 1)
    ledger.undos.append({"undone": words, "asked_then": asked_at, "confirmed": confirm})


# ---- a round -------------------------------------------------------------------------------


def _reveal(d, ledger: Ledger, rnd: Round, r: int):
    from companion.ui.dialogs.reveal_cards import RevealCards

    def sheet():
        return next((w for w in d.widgets() if isinstance(w, RevealCards)), None)

    def card(stack, cid):
        shown = sheet()
        assert shown is not None, "the sheet of turned-up cards is not open"
        return shown.buttons[stack][cid]

    ledger.begin("reveal", f"round {r}")
    for stack, cid in enumerate(rnd.cards, start=1):
        yield from _tap_found(d, lambda s=stack, c=cid: card(s, c))
    if r == 1:
        yield from _shot(d, "reveal_sheet")
    yield from _tap(d, "Reveal", exact=True)
    yield from _asked(d, "play_power_card")
    if "reveal" in rnd.detours:  # turned up wrongly: undone (everyone saw them, so it asks) and entered again
        mark = len(d.taps)
        yield from _undo(d, ledger, confirm=True)
        for stack, cid in enumerate(rnd.cards, start=1):
            yield from _tap_found(d, lambda s=stack, c=cid: card(s, c))
        yield from _tap(d, "Reveal", exact=True)
        yield from _asked(d, "play_power_card")
        ledger.detour_from(mark)
    ledger.end()


def _power(d, ledger: Ledger, rnd: Round, r: int):
    table = d.screen("table")
    for i in range(len(PLAYERS)):
        yield from _asked(d, "play_power_card")
        pid = d.ask().players[0]
        value = str(rnd.power[pid])
        greyed = {b.text for b in table.ids.actions.walk() if getattr(b, "disabled", False) and b.text.isdigit()}
        assert value not in greyed, f"round {r}: {pid}'s {value} shown as unavailable ({sorted(greyed)})"
        ledger.begin("power", f"round {r} {pid}", round=r)
        yield from _tap(d, value, exact=True)
        yield from _until(d, lambda p=pid: d.model.public["game"]["players"][_seat(p)].get("power_card_played"))
        if i == 0 and "power" in rnd.detours:
            mark = len(d.taps)
            yield from _undo(d, ledger)
            yield from _tap(d, value, exact=True)
            ledger.detour_from(mark)
        ledger.end()
        if r == 2 and i == 3:
            yield from _shot(d, "power_cards_played")


def _seat(pid: str) -> int:
    return list(PLAYERS).index(pid)


def _turn(d, ledger: Ledger, t: Turn, r: int):
    pid = t.player
    yield from _asked(d, "replenish", pid)
    ordinary = t.replenish is None and len(t.place) <= 3 and t.special[0] in SIMPLE_SPECIALS
    ledger.begin("ordinary turn" if ordinary else "other turn", f"round {r} {pid} {t.card} {t.special[0]}")
    label = d.model.builder.card_label(t.card)
    if t.replenish is None:
        yield from _tap(d, label, exact=True)  # the full replenishment and the card: one tap
    else:
        if t.detour == "replenish":  # the card tapped, the full replenishment with it: both undone
            mark = len(d.taps)
            yield from _tap(d, label, exact=True)
            yield from _asked(d, "turn_action", pid)
            yield from _undo(d, ledger)
            yield from _undo(d, ledger)
            yield from _asked(d, "replenish", pid)
            ledger.detour_from(mark)
        most = d.ask().options["max"]
        yield from _tap(d, "Other replenishment")
        for _ in range(most - t.replenish):
            yield from _tap(d, said("from the provinces") + ": -1")
        yield from _tap(d, "Confirm", exact=True)
        yield from _asked(d, "choose_action_card", pid)
        yield from _tap(d, label, exact=True)
    yield from _asked(d, "turn_action", pid)
    yield from _place(d, pid, t.place, last=t.special[0] == "none")
    if r == 1 and pid == "yellow":
        yield from _shot(d, "placement_entered")
    yield from _special(d, ledger, t, r)
    if t.detour == "place":  # placed, then taken back and placed again
        mark = len(d.taps)
        yield from _undo(d, ledger)
        yield from _asked(d, "turn_action", pid)
        yield from _place(d, pid, t.place, throw=False, last=True)
        ledger.detour_from(mark)
    yield from _until(d, lambda: d.ask().players != (pid,))
    ledger.end()


def _place(d, pid: str, areas: tuple, throw: bool = True, last: bool = False):
    """Regions tapped; a Castillo Caballero is thrown into the tower, whose count fills it in
    (entered again after an undo, the cube is in the tower already). `last`: the placement is
    all that is left of the turn, so the tap that fills it places them; fewer take Confirm."""
    table = d.screen("table")
    if last:
        if throw:
            for _ in range(areas.count(CS)):
                d.tower_drop(pid)
        yield from _until(d, lambda: table.entry.get(CS, 0) == areas.count(CS))
        for area in areas:
            if area != CS:
                yield from _tap_area(d, area)
        if d.ask().kind == "turn_action" and d.ask().players == (pid,):
            yield from _tap(d, "Confirm", exact=True)
        return
    thrown = 0
    for area in areas:
        if area == CS:
            thrown += 1
            if throw:
                d.tower_drop(pid)
            yield from _until(d, lambda n=thrown: table.entry.get(CS, 0) == n)
        else:
            yield from _tap_area(d, area)
    wanted = {a: areas.count(a) for a in areas}
    assert {a: c for a, c in table.entry.items() if c} == wanted, (table.entry, wanted)


def _special(d, ledger: Ledger, t: Turn, r: int):
    """The turn's special action, as the plan says, step by step (see SPECIAL_STEPS)."""
    kind, *args = t.special
    if kind == "none":  # the Veto card: taking it is holding the Veto; only the placement is left (placed)
        pass
    elif kind == "skip":
        yield from _tap(d, "Skip the special action")  # places the Caballeros entered first
    else:
        yield from _tap(d, "Do the special action")  # places the Caballeros entered first
        yield from SPECIAL_STEPS[kind](d, ledger, t, r, *args)


def _vetoed(d, ledger, t, r, holder):
    yield from _asked(d, "veto", holder)
    yield from _shot(d, "veto_asked")
    yield from _tap(d, said("{who}: Veto!", who=_name(d, holder)), exact=True)


def _to_area(d, ledger, t, r, area):
    """The Grande's or the King's new region."""
    yield from _tap_area(d, area)


def _scored(d, ledger, t, r):
    yield from _scoring_page(d)


def _chosen_region_scored(d, ledger, t, r, region):
    yield from _asked(d, "choose_region", t.player)
    yield from _tap_area(d, region)
    yield from _scoring_page(d)


def _castillo_scored(d, ledger, t, r):
    yield from _tap(d, "Open the Castillo")
    yield from _count_the_castillo(d, ledger, f"castillo_special_count_round_{r}")
    yield from _scoring_page(d)


def _mobile(d, ledger, t, r, sid, area):
    yield from _tap(d, said("Scoreboard {values}", values=sid), exact=True)
    yield from _tap_area(d, area)
    if area == CS:
        yield from _shot(d, "mobile_scoreboard_on_the_castillo")


def _power_back(d, ledger, t, r, card):
    """Secret: behind the pass-the-tablet screen."""
    name = _name(d, t.player)
    yield from _tap(d, said("{who} picks here", who=name))
    yield from _tap(d, said("I am {name}: show my choices", name=name))
    yield from _tap(d, str(card), exact=True)


def _court(d, ledger, t, r):
    yield from _asked(d, "replenish", t.player)
    most = d.ask().options["max"]
    yield from _tap(d, "Confirm", exact=True)  # the stepper shows the full number already
    yield from _court_prefill_lost(d, ledger, t.player, most)


def _decay(d, ledger, t, r):
    yield from _outcome(d, "decay")


def _one_of_each(d, ledger, t, r, regions):
    """The player taps one Caballero of each other player, one player at a time."""
    while d.ask().kind == "send_back":
        owner = next(iter(d.ask().options["owners"]))
        yield from _tap_area(d, regions[owner])
        yield from _tap(d, "Confirm", exact=True)
        yield from _until(d, lambda o=owner: next(iter(d.ask().options.get("owners", {None: 0}))) != o)
    yield from _outcome(d, "one_of_each")


def _king_angry(d, ledger, t, r, sent):
    """Each other player sends back their own, from the court (+1) or the regions."""
    while d.ask().kind == "send_back":
        owner = d.ask().players[0]
        for where, n in sent[owner].items():
            for _ in range(n):
                yield from (_tap(d, "(+1)") if where == "court" else _tap_area(d, where))
        yield from _tap(d, "Confirm", exact=True)
        yield from _until(d, lambda o=owner: d.ask().kind != "send_back" or d.ask().players != (o,))
    yield from _outcome(d, "king_is_angry")


def _disc_send_back(d, ledger, t, r, discs):
    yield from _discs_then_reveal(d, ledger, t, discs)
    yield from _outcome(d, "disc_send_back")


def _eviction(d, ledger, t, r, region, discs):
    yield from _asked(d, "choose_region", t.player)
    yield from _tap_area(d, region)
    yield from _discs_then_reveal(d, ledger, t, discs)
    yield from _outcome(d, "eviction")


def _disc_scoring(d, ledger, t, r, discs):
    """Its scoring page says what the discs scored (nothing to move: no outcome dialog over it)."""
    yield from _discs_then_reveal(d, ledger, t, discs)
    yield from _shot(d, "disc_scoring_page")
    yield from _scoring_page(d)


def _discs_then_reveal(d, ledger, t, discs):
    yield from _asked(d, "secret_disc")
    for i, (owner, region) in enumerate(discs.items()):
        yield from _secret_disc(d, owner, region)
        if i == 0 and t.detour == "disc":  # a disc undone before the reveal: it asks first, picked again
            mark = len(d.taps)
            yield from _undo(d, ledger, confirm=True)
            yield from _secret_disc(d, owner, region)
            ledger.detour_from(mark)
    yield from _tap(d, "Reveal the discs")


def _moves(d, ledger, t, r, moves, finish):
    for i, (source, owner, target) in enumerate(moves):
        yield from _move(d, source, owner, target)
        if i == 0 and t.detour == "step":  # one move of the special action undone, then made again
            mark = len(d.taps)
            yield from _undo(d, ledger)
            yield from _move(d, source, owner, target)
            ledger.detour_from(mark)
    if finish:
        yield from _tap(d, "Finished moving")


def _extra(d, ledger, t, r, areas):
    yield from _asked(d, "place_extra", t.player)
    for area in areas:
        yield from _tap_area(d, area)
    yield from _tap(d, "Confirm", exact=True)


SPECIAL_STEPS = {
    "vetoed_by": _vetoed,
    "grande": _to_area,
    "king": _to_area,
    "score": _scored,
    "chosen": _chosen_region_scored,
    "castillo": _castillo_scored,
    "mobile": _mobile,
    "power_back": _power_back,
    "court": _court,
    "decay": _decay,
    "one_of_each": _one_of_each,
    "king_angry": _king_angry,
    "disc_back": _disc_send_back,
    "eviction": _eviction,
    "disc_scoring": _disc_scoring,
    "move": _moves,
    "extra": _extra,
}


def _court_prefill_lost(d, ledger: Ledger, pid: str, most: int):
    """Known app fault (TableScreen.choose): after "Do the special action" placed the Caballeros
    first, the entry the next prompt had just prefilled (The Court's "from the provinces: 2") is
    wiped while the screen still shows it, so Confirm asks "Move no Caballeros to ...'s court?".
    Noted and worked round as a person would (No, then +1 up to the number); the taps are a
    detour. Once the fault is fixed, nothing is asked and this does nothing."""
    from companion.ui.dialogs.are_you_sure import AreYouSure

    if not isinstance(_modal(d), AreYouSure):  # the question, when asked, opens with the tap
        return
    ledger.faults.append(f"The Court: Confirm with 'from the provinces: {most}' shown asked to move none")
    mark = len(d.taps)
    yield from _tap(d, "No, go back", exact=True)
    for _ in range(most):
        yield from _tap(d, "(+1)")
    yield from _tap(d, "Confirm", exact=True)
    yield from _until(d, lambda: d.ask().kind != "replenish" or d.ask().players != (pid,))
    ledger.detour_from(mark)


def _move(d, source: str, owner: str, target: str):
    table = d.screen("table")
    before = d.model.public["game"]["regions"][target].get(owner, 0) if target != CS else None
    yield from _asked(d, "move_caballeros")
    yield from _tap_area(d, source)
    yield from _until(d, lambda: table.move_source == source)
    if table.move_owner != owner:  # several owners there: whose Caballero
        yield from _tap(d, f"{_name(d, owner)} (")
    yield from _until(d, lambda: table.move_owner == owner and target in table.ids.map.tappable)
    yield from _tap_area(d, target)
    if before is not None:
        yield from _until(d, lambda: d.model.public["game"]["regions"][target].get(owner, 0) == before + 1)


def _secret_disc(d, pid: str, region: str):
    """Two taps on the tablet: the player's name, then the region (nothing of it stays on screen)."""
    yield from _tap(d, said("{who}: secret disc", who=_name(d, pid)), exact=True)
    yield from _tap(d, d.model.area_name(region), exact=True)
    yield from _until(d, lambda: _modal(d) is None)


def _outcome(d, name: str):
    """After an effect on everyone: who moves what from where to where, then Done."""
    from companion.ui.dialogs.outcome_shown import OutcomeShown

    yield from _until(d, lambda: isinstance(_modal(d), OutcomeShown))
    if name in ("king_is_angry", "eviction"):
        yield from _shot(d, f"outcome_{name}")
    yield from _tap(d, "Done", exact=True)
    yield from _until(d, lambda: _modal(d) is None)


def _count_the_castillo(d, ledger: Ledger, shot: str = ""):
    """The Castillo lifted: the tower's counts are shown; the table counts by hand and, where a
    colour differs, sets it to what lies there (the entered turns, here) before going on."""
    scoring = d.screen("scoring")
    yield from _until(d, lambda: d.current == "scoring" and scoring.record is None and bool(scoring.counts))
    if shot:
        yield from _shot(d, shot)
    lying = d.model.table.recorded_castillo()
    shown = {pid: scoring.counts.get(pid, 0) for pid in lying}
    if shown == lying:
        yield from _tap(d, "Counts match")
        return
    ledger.mismatches.append({"tower": shown, "table": lying})
    mark = len(d.taps)  # setting the counts by hand is not the fast path: a detour
    from kivy.uix.label import Label

    texts = [w.text for w in d.widgets() if isinstance(w, Label) and d.visible(w)]
    for pid, n in lying.items():
        if n != shown[pid]:  # said plainly on the row, not in small grey text
            check = said("[b]check:[/b] tower {tower}, turns entered {entered}", tower=shown[pid], entered="\0")
            assert any(check.split("\0")[0] in t for t in texts), texts  # the tower's count, said plainly
        for _ in range(abs(n - shown[pid])):
            yield from _tap_found(d, lambda p=pid, k="+" if n > shown[pid] else "-": _castillo_step(d, p, k))
    yield from _until(d, lambda: scoring.counts == lying)
    ledger.detour_from(mark)
    if shot:
        yield from _shot(d, f"{shot}_corrected")
    yield from _tap(d, "Use these counts")


def _castillo_step(d, pid: str, sign: str):
    """The +/- button on a player's row of the Castillo count."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    name = _name(d, pid)
    for row in d.screen("scoring").ids.body.children:
        if any(isinstance(w, Label) and not isinstance(w, Button) and w.text == name for w in row.children):
            return next(w for w in row.children if isinstance(w, Button) and w.text == sign)
    raise AssertionError(f"no Castillo row for {name}")


def _scoring_page(d):
    """A scoring's page opens by itself; its fast path is one tap back to the table."""
    scoring = d.screen("scoring")
    yield from _until(d, lambda: d.current == "scoring" and scoring.record is not None and _modal(d) is None)
    yield from _tap(d, "Done: back to the table")
    yield from _until(d, lambda: d.current in ("table", "end"))


def _general_scoring(d, ledger: Ledger, rnd: Round, r: int):
    yield from _asked(d, "secret_disc")
    ledger.begin("general scoring", f"after round {r}", tablet_pickers=len(rnd.discs))
    for pid, region in rnd.discs.items():
        yield from _secret_disc(d, pid, region)
    yield from _tap(d, "Open the Castillo")
    yield from _until(d, lambda: d.current == "scoring" and d.screen("scoring").record is None)
    if "scoring" in rnd.detours:
        # Back to the table after the counts were seen: undoing a disc now asks first, saying so
        mark = len(d.taps)
        yield from _tap(d, "Back to the table")
        last = list(rnd.discs)[-1]
        yield from _undo(d, ledger, confirm=True)
        yield from _secret_disc(d, last, rnd.discs[last])
        yield from _tap(d, "Open the Castillo")
        yield from _until(d, lambda: d.current == "scoring" and d.screen("scoring").record is None)
        ledger.detour_from(mark)
    yield from _count_the_castillo(d, ledger, f"general_scoring_castillo_round_{r}")
    scoring = d.screen("scoring")
    yield from _until(d, lambda: scoring.record is not None and scoring.record.title.startswith("General"))
    if r == 3:
        yield from _shot(d, "general_scoring_summary")
    yield from _tap(d, "Done: back to the table")
    yield from _until(d, lambda: d.current in ("table", "end"))
    ledger.end()


def _correct_the_board(d, ledger: Ledger, area: str, pid: str, change: int):
    """Correct the board: one Caballero knocked off, confirmed in words, kept in the history."""
    from correction_scenarios import _tap_area as _tap_position

    mark = len(d.taps)
    before = d.model.public["game"]["regions"][area].get(pid, 0)
    yield from _tap(d, "Correct the board")
    yield from _until(d, lambda: d.current == "position")
    yield from _keys(d, f"colour:{pid}", "tool:add" if change > 0 else "tool:remove")
    yield from _tap_position(d, area, abs(change))
    yield from _tap(d, "Confirm the correction")
    yield from _tap(d, "Yes, change the board")
    yield from _until(d, lambda: d.current == "table")
    after = d.model.public["game"]["regions"][area].get(pid, 0)
    assert after == before + change, (area, pid, before, after)
    ledger.rows.append(
        {"kind": "correction", "label": f"{area} {pid} {change:+d}", "taps": len(d.taps) - mark, "detour": 0}
    )
    yield from _tap(d, "History", exact=True)
    yield from _shot(d, "history_with_the_correction")
    yield from _tap(d, "Close", exact=True)


# ---- the log, replayed by the engine alone ----------------------------------------------------


def _replay_the_log(path):
    """The game's log replayed by the engine alone: undo markers resolved as the table does,
    then every event applied to a new engine.game.Game. Returns the game, the card taken at
    each turn and the records in force."""
    from companion.storage.game_log import read_log
    from companion.table.log import UNDOABLE
    from companion.table.setup import TableSetup
    from engine.events import event_from_dict
    from engine.game import Game

    loaded = read_log(path)
    setup = TableSetup.model_validate(loaded.header["setup"])
    effective = []
    for record in loaded.records:
        if record["t"] == "undo":
            i = max(i for i, rec in enumerate(effective) if rec["t"] in UNDOABLE)
            del effective[i]
        else:
            effective.append(record)
    game, taken = Game(setup.game), []
    for record in effective:
        if record["t"] == "event":
            game.apply(event_from_dict(record["e"]))
            if record["e"]["type"] == "action_card_chosen":
                taken.append(game.state.turn.card.id)
    return game, taken, effective


def _end_screen(d):
    """Winners and scores as the end screen shows them."""
    from kivy.uix.label import Label

    end = d.screen("end")
    cells = [w.text for w in reversed(end.ids.standings.children) if isinstance(w, Label)]
    shown = {cells[i + 1]: int(cells[i + 2]) for i in range(0, len(cells), 3)}
    return end.heading, shown


def _check_the_end(d, game_name: str):
    yield from _until(d, lambda: d.current == "end")
    yield from _shot(d, f"{game_name}_end")
    heading, shown = _end_screen(d)
    game, taken, effective = _replay_the_log(d.model.table.path)
    state = game.state
    names = {pid: state.names[pid] for pid in state.players}
    assert state.stage == "over", state.stage
    replayed = {names[pid]: score for pid, score in zip(state.players, state.scores)}
    assert shown == replayed, f"end screen {shown}, the engine replaying the log {replayed}"
    winners = [names[state.players[q]] for q in state.winners]
    assert heading == who_won(winners), (heading, winners)
    from engine.views import public_view

    assert public_view(state).model_dump(mode="json") == d.model.public["game"], "the app and the replay differ"
    return game, taken, effective, winners, replayed


def _assert_label(d, test) -> None:
    from kivy.uix.label import Label

    texts = [w.text for w in d.widgets() if isinstance(w, Label) and d.visible(w) and w.text]
    assert any(test(text) for text in texts), texts


# ---- the scenarios --------------------------------------------------------------------------


def _new_game(d, from_position: bool = False):
    yield 0.3
    yield from _tap(d, "New game")
    yield from _until(d, lambda: d.current == "setup")
    setup = d.screen("setup")
    setup.mode, setup.variant = "Full tracking", "Full game (9 rounds)"
    setup.king, setup.start = "Castilla la Nueva", "Red"
    for colour, (name, home) in PLAYERS.items():
        setup.rows[colour].plays = True
        setup.rows[colour].name = name
        setup.rows[colour].home = d.model.area_name(home)
    yield 0.1
    if from_position:
        yield from _tap(d, "Start from the board in front of you")
        assert setup.from_position
    yield from _tap(d, "Start the game")
    yield from _until(d, lambda: d.current in ("table", "position"))
    yield from _until(d, lambda: (d.model.tower or {}).get("state") == "connected")


def whole_game_by_taps(d):
    """Nine rounds, four players, every classic card kind, every input a tap."""
    yield from _new_game(d)
    ledger = Ledger(d)
    for r, rnd in enumerate(PLAN, start=1):
        assert d.model.public["game"]["round"] == r, (d.model.public["game"]["round"], r)
        yield from _reveal(d, ledger, rnd, r)
        yield from _power(d, ledger, rnd, r)
        for i, t in enumerate(rnd.turns):
            if rnd.correction and rnd.correction[0] == i:
                yield from _correct_the_board(d, ledger, *rnd.correction[1:])
            yield from _turn(d, ledger, t, r)
            if t.card == "veto":  # taking the card is holding the Veto, shown by the holder's name
                holder = _name(d, t.player)
                _assert_label(d, lambda text, n=holder: text.startswith(n) and said("VETO") in text)
        if rnd.discs:
            yield from _general_scoring(d, ledger, rnd, r)
    game, taken, effective, winners, scores = yield from _check_the_end(d, "whole_game")
    events = [rec["e"] for rec in effective if rec["t"] == "event"]
    kinds = {e["type"] for e in events}
    state = game.state
    d.facts = {
        "rounds": state.round_index,
        "winners": winners,
        "scores": scores,
        "taken": taken,
        "missing_kinds": sorted(CLASSIC_KINDS - set(taken)),
        "vetoes_used": sum(e["type"] == "veto_used" for e in events),
        "mobile_on_castillo": any(e["type"] == "mobile_scoreboard_placed" and e["area"] == CS for e in events),
        "power_cards_taken_back": [e["card"] for e in events if e["type"] == "power_card_taken_back"],
        "power_cards_played_twice": sorted(
            {
                f"{e['player']} {e['card']}"
                for e in events
                if e["type"] == "power_card_played"
                and sum(
                    f["type"] == "power_card_played" and f["player"] == e["player"] and f["card"] == e["card"]
                    for f in events
                )
                == 2
            }
        ),
        "castillo_counted": sum(e["type"] == "castillo_counted" for e in events),
        "event_kinds": sorted(kinds),
        "scorings": [rec.title for rec in state.scoring_log],
        "corrections": sum(e["type"] == "table_corrected" for e in events),
        "undos": ledger.undos,
        "castillo_mismatches": ledger.mismatches,
        "turns": ledger.rows,
        "app_faults_worked_round": ledger.faults,
        "figures": ledger.figures(),
        "taps_total": len(d.taps),
        "taps_by_phase": _by_phase(d.taps),
    }


def last_round_from_the_board(d):
    """A table opens the app before round 9: the board, courts, scores, the Castillo counted,
    the round, the start player and eight Power cards each, all entered by taps; then the
    round and its general scoring are played to the end screen."""
    from correction_scenarios import _tap_area as _tap_position

    yield from _new_game(d, from_position=True)
    yield from _until(d, lambda: d.current == "position")
    screen = d.screen("position")
    assert screen.starting and d.model.table.state.event_count == 0
    mark = len(d.taps)
    board = {
        "red": {GA: 2, CV: 3, AR: 1},
        "yellow": {AR: 4, VA: 2},
        "green": {SE: 4, GR: 2},
        "blue": {VA: 3, CA: 2},
    }  # the two home Caballeros of the setup count in
    start = d.model.public["game"]["regions"]
    for pid, areas in board.items():
        yield from _keys(d, f"colour:{pid}")
        for area, n in areas.items():
            yield from _tap_position(d, area, n - start[area].get(pid, 0))
    yield from _keys(d, "tool:mobile:8-4-0")
    yield from _tap_position(d, CS)
    yield from _keys(
        d,
        "section:court",
        "court:green:-1",
        "score:red",
        "pad:8",
        "pad:2",
        "pad:OK",
        "score:blue",
        "pad:7",
        "pad:9",
        "pad:OK",
    )
    yield from _keys(
        d, "section:castillo", "castillo:counted", "castillo:yellow:+1", "castillo:blue:+1", "castillo:blue:+1"
    )
    yield from _keys(d, "section:start", "round:9", "start:green")
    spent = {
        "red": (13, 12, 11, 10, 9, 8, 7, 6),
        "yellow": (1, 2, 3, 4, 5, 6, 7, 8),
        "green": (13, 1, 2, 3, 11, 12, 4, 5),
        "blue": (9, 10, 11, 12, 13, 1, 2, 3),
    }
    for pid, values in spent.items():
        yield from _keys(d, *(f"power:{pid}:{v}" for v in values))
    yield from _shot(d, "position_round_9")
    entry_taps = len(d.taps) - mark
    yield from _tap(d, "Start from this board")
    yield from _until(d, lambda: d.current == "table")
    game = d.model.public["game"]
    players = {p["id"]: p for p in game["players"]}
    assert game["round"] == 9 and game["start_player"] == "green", (game["round"], game["start_player"])
    assert players["red"]["score"] == 82 and players["blue"]["score"] == 79 and players["green"]["court"] == 6
    assert d.model.table.recorded_castillo() == {"red": 0, "yellow": 1, "green": 0, "blue": 2}
    assert game["mobile_scoreboards"]["8-4-0"] == CS
    ledger = Ledger(d)
    rnd = Round(
        ("intrigue_any_3", "king_is_angry", "score_castillo", "grande"),
        {"green": 6, "blue": 5, "red": 4, "yellow": 9},
        (
            Turn("yellow", "score_castillo", (AR, CS), ("castillo",)),
            Turn("green", "grande", (GR, SE, CS), ("grande", VA)),
            Turn("blue", "intrigue_any_3", (VA,), ("skip",)),
            Turn("red", "kings_card", (CV, AR, AR), ("king", SE)),
        ),
        discs={"red": CV, "yellow": AR, "green": SE, "blue": CA},
    )
    yield from _reveal(d, ledger, rnd, 9)
    yield from _power(d, ledger, rnd, 9)
    for t in rnd.turns:
        yield from _turn(d, ledger, t, 9)
    yield from _general_scoring(d, ledger, rnd, 9)
    game, taken, effective, winners, scores = yield from _check_the_end(d, "from_the_board")
    corrected = [rec["e"] for rec in effective if rec["t"] == "event" and rec["e"]["type"] == "table_corrected"]
    d.facts = {
        "entry_taps": entry_taps,
        "winners": winners,
        "scores": scores,
        "taken": taken,
        "started_in_round": corrected[0]["round"] if corrected else None,
        "first_event": next(rec["e"]["type"] for rec in effective if rec["t"] == "event"),
        "figures": ledger.figures(),
        "castillo_mismatches": ledger.mismatches,
        # the end screen's plot ends at these (Table.score_history), beside the scores above
        "score_plot_ends": {d.model.name(pid): points[-1][1] for pid, points in d.model.table.score_history().items()},
        "turns": ledger.rows,
        "taps_by_phase": _by_phase(d.taps),
    }


def _by_phase(taps) -> dict:
    counts = {}
    for phase in taps:
        counts[phase] = counts.get(phase, 0) + 1
    return counts
