"""The phase flow: what is asked next, and how each event changes the state.

`asked(state)` answers "what is asked now, of whom, with which legal options".
`apply_event(state, event)` checks an event against the rules and applies it;
every check runs before the first change, so a refused event (RuleViolation)
leaves the state exactly as it was.

Stages, in order within a round:
  reveal -> power -> [replenish -> choose_card -> turn (placement and the
  special action, either order; special may open a veto window)] per player
  -> end of round -> scoring_discs (after rounds 3, 6, 9) -> next round / over
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import card_entry, correction, events as ev
from .board import CASTILLO
from .effect_registry import EFFECTS
from .queries import (
    closed_regions, enterable, entry_refusal, is_taboo, king_in_castillo, kings_neighbours, taboo_reason,
    tokens_out,
)
from .errors import RuleViolation
from .scoring import (
    ScoreLine, apply_lines, regions_by_total, regions_in_group, require_scoreboards, score_area,
    score_regions,
)
from .state import Outcome, TABLE, GameState, ScoringRecord, Special, Turn

KINGS_CARD_STACK = 5
VETO_STACK = 2
VETO_EFFECTS = ("veto", "veto_2023")  # taking the card is holding the Veto, in both editions
CASTILLO_SCORING_EFFECTS = ("score_castillo", "revelation")  # the table counts the Castillo it scores


@dataclass(slots=True)
class Ask:
    """What the game waits for. `players` are player ids, or "table" for what
    the physical table reveals. `vetoes` lists who may object with a Veto now."""

    kind: str
    players: tuple[str, ...]
    options: dict[str, Any]
    vetoes: tuple[str, ...] = ()
    card: str | None = None
    round: int = 0
    stage: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "players": list(self.players), "options": self.options,
                "vetoes": list(self.vetoes), "card": self.card, "round": self.round,
                "stage": self.stage}


# --------------------------------------------------------------------------
# lookups that raise a clear RuleViolation
# --------------------------------------------------------------------------

def _player(state: GameState, pid: str) -> int:
    p = state.player_index(pid)
    if p is None:
        raise RuleViolation("unknown-id", f"{pid!r} is not a player in this game "
                            f"(players: {', '.join(state.players)})")
    return p


def _area(state: GameState, aid: str) -> int:
    a = state.board.area_index.get(aid)
    if a is None:
        raise RuleViolation("unknown-id", f"{aid!r} is not a region or the Castillo "
                            f"(regions: {', '.join(state.board.region_ids)})")
    if a > state.board.castillo:
        # 2023: "France and Portugal do not count as regions, so you may never place
        # Caballeros there (nor your Grande or the King)"; only Exile sends the King there.
        raise RuleViolation("not-a-region", f"{state.board.area_name(a)} is not a region: no Caballero, "
                            "Grande or Scoring tile ever goes there (only the King, with Exile)")
    return a


def _region(state: GameState, rid: str, what: str) -> int:
    a = _area(state, rid)
    if a == state.board.castillo:
        raise RuleViolation("unknown-id", f"{what} must be a region; the Castillo is not a region")
    return a


def _name(state: GameState, p: int) -> str:
    return state.names[state.players[p]]


def _rname(state: GameState, a: int) -> str:
    return state.board.area_name(a)


def _expect_stage(state: GameState, stages: tuple[str, ...], what: str) -> None:
    if state.stage == "over" and "over" not in stages:
        raise RuleViolation("game-over", f"{what} is not possible: the game is over")
    if state.stage not in stages:
        now = asked(state)
        raise RuleViolation(
            "phase-order", f"{what} is not possible now: the game waits for {now.kind.replace('_', ' ')}"
            + (f" from {', '.join(now.players)}" if now.players else ""))


def _expect_player(state: GameState, pid: str, expected: int, what: str) -> int:
    p = _player(state, pid)
    if p != expected:
        raise RuleViolation("turn-order", f"{_name(state, p)} cannot {what} now: it is "
                            f"{_name(state, expected)}'s turn")
    return p


def _not_taboo(state: GameState, a: int, doing: str) -> None:
    """The King's region (and, King and Intrigue, a region under a taboo marker) may not be
    changed in any way (engine/queries.py)."""
    if a == state.king or (state.markers and tokens_out(state)):
        why = taboo_reason(state, a)
        if why is not None:
            raise RuleViolation("kings-region-taboo", f"cannot {doing} {_rname(state, a)}: {why}")


def _can_enter(state: GameState, a: int, count: int, doing: str) -> None:
    """`count` Caballeros may go into area `a`: not taboo, nor (King and Intrigue) a collapsed
    Castillo or a full limit table (engine/queries.py)."""
    if a == state.king or (state.markers and tokens_out(state)):
        why = entry_refusal(state, a, count)
        if why is not None:
            raise RuleViolation("kings-region-taboo" if is_taboo(state, a) else "castillo-collapse",
                                f"cannot {doing} {_rname(state, a)}: {why}")


def _clockwise_from(state: GameState, first: int) -> list[int]:
    return [(first + i) % state.n for i in range(state.n)]


def _opponents(state: GameState, p: int) -> list[int]:
    """Other players, clockwise starting at p's left."""
    return _clockwise_from(state, p)[1:]


def _total(counts: dict[str, int]) -> int:
    return sum(counts.values())


# --------------------------------------------------------------------------
# asked
# --------------------------------------------------------------------------

def asked(state: GameState) -> Ask:
    handler = _ASK_BY_STAGE[state.stage]
    ask = handler(state)
    if state.rules.king_intrigue:
        _king_intrigue.adjust_ask(state, ask)  # its Joker, and who holds which Action card
    ask.round = state.round
    ask.stage = state.stage
    return ask


def _ask_reveal(state: GameState) -> Ask:
    """The table turns up the top card of each stack: the options are the cards each
    stack may still show (with four stacks, stack 2 holds the printed 2s and 3s; with New
    Regency, stack 5 is the ♠ stack)."""
    stacks = {}
    for s in state.rules.stacks:
        undrawn = _undrawn(state, s)
        stacks[s] = {cid: k for cid, k in undrawn.items() if k}
    if state.rules.new_regency:
        stacks[KINGS_CARD_STACK] = {cid: k for cid, k in state.regency_undrawn.items() if k}
    if state.board.missing:  # cards whose copies nobody entered (engine/card_entry.py)
        for s in stacks:
            stacks[s].update(card_entry.unknown_copies_offered(state, s))
    return Ask("reveal_action_cards", (TABLE,), {"stacks": stacks})


def _ask_power(state: GameState) -> Ask:
    p = state.power_order[state.power_pos]
    played = _played_values(state)
    hand = sorted(state.hands[p])
    options = {"cards": [c for c in hand if c not in played],
               "unavailable": _known_unavailable(state, p, played),
               "stacks": {s: cid for s, cid in state.revealed.items() if cid is not None}}
    if state.rules.power_shift:
        options["modifiers"] = _power_shift.play_options(state, p, played, hand)  # private, as the hand is
    return Ask("play_power_card", (state.players[p],), options)


def _known_unavailable(state: GameState, p: int, played: set[int] | None = None) -> list[int]:
    """Values everyone knows p cannot play now: played this round, or laid down by p in an
    earlier round (unless p once took a card back: which one stays secret)."""
    gone = set(_played_values(state) if played is None else played)
    if not state.took_back_any[p]:
        gone |= state.power_spent[p]
    return sorted(gone)


def _playable_power_cards(state: GameState, p: int, played: set[int] | None = None) -> list[int]:
    used = _played_values(state) if played is None else played
    return sorted(c for c in state.hands[p] if c not in used)


def _replenish_options(state: GameState, p: int, cap: int) -> dict[str, Any]:
    board = state.board
    return {"max": cap, "provinces": state.provinces[p],
            "regions": {board.region_ids[r]: c for r, c in state.removable_regions(p).items()}}


def _ask_replenish(state: GameState) -> Ask:
    p = state.turn.player
    cap = state.board.replenish[state.played[p]]
    options = _replenish_options(state, p, cap)
    # The face-up cards the player will choose from next: the tablet offers "replenish
    # fully and take this card" as one step.
    options["stacks"] = {s: cid for s, cid in state.revealed.items() if cid is not None}
    return Ask("replenish", (state.players[p],), options)


def _ask_choose_card(state: GameState) -> Ask:
    stacks = {s: cid for s, cid in state.revealed.items() if cid is not None}
    return Ask("choose_action_card", (state.players[state.turn.player],), {"stacks": stacks})


def _placement_areas(state: GameState) -> list[str]:
    """Regions next to the King's region, and the Castillo unless the King is there."""
    board = state.board
    if state.king < board.castillo:  # the King in a region: the usual case
        areas = _region_ids_in_order(board.neighbours[state.king], board.region_ids) + [CASTILLO]
    else:
        castillo = [] if state.king == board.castillo else [CASTILLO]  # Rebellion: the King stands by it
        areas = _region_ids_in_order(kings_neighbours(state), board.region_ids) + castillo
    return enterable(state, areas) if state.markers and tokens_out(state) else areas  # King and Intrigue's


_IDS_IN_ORDER: dict[tuple[frozenset[int], tuple[str, ...]], list[str]] = {}


def _region_ids_in_order(regions: frozenset[int], region_ids: tuple[str, ...]) -> list[str]:
    """The ids of a set of regions in board order, worked out once per set. Shared: read it
    or add to it into a new list (`+`), never change it."""
    key = (regions, region_ids)
    ids = _IDS_IN_ORDER.get(key)
    if ids is None:
        ids = _IDS_IN_ORDER[key] = [region_ids[r] for r in sorted(regions)]
    return ids


def _ask_turn(state: GameState) -> Ask:
    turn = state.turn
    p = turn.player
    options: dict[str, Any] = {"place": None, "special": None}
    first = None if turn.placed else _special_first(turn)
    if first:
        options["special_first"] = first   # the rule that puts the placement after the special action
    if not turn.placed and not first:
        if turn.card.placement is None:
            # A ♠ card's number is printed on it; the table has not entered it: nothing can be
            # placed until it does (placing none stays possible, so the game goes on).
            options["place"] = {"max": 0, "card_allows": None, "areas": [],
                                "refused": str(_placement_unknown(state, turn.card))}
        else:
            options["place"] = {"max": min(turn.card.placement, state.court[p]),
                                "card_allows": turn.card.placement, "areas": _placement_areas(state)}
    if not turn.special_done:
        options["special"] = {"card": turn.card.id, "text": turn.card.text,
                              "options": turn.card.params.get("options")}
        refusal = _start_refusal(state, turn.card, turn.card.effect, p)
        if refusal is not None:
            options["special"]["refused"] = str(refusal)  # only skipping it is possible
        if turn.card.effect in CASTILLO_SCORING_EFFECTS and not state.castillo_after_veto:
            options["special"]["count_first"] = True  # rules revision 2 and before: counted, then announced
    return Ask("turn_action", (state.players[p],), options, card=turn.card.id)


def _special_first(turn) -> str | None:
    """The rule that makes this turn's special action come before its placement (King and
    Intrigue's Hurricane: "You reveal your secret disc at the beginning of your turn")."""
    if turn.special_done:
        return None
    fx = EFFECTS.get(turn.card.effect)
    return fx.first_in_turn if fx is not None else None


def _placement_unknown(state: GameState, card) -> RuleViolation:
    return RuleViolation("card-fact-missing", state.board.missing.get(f"cards.{card.id}.placement") or (
        f"how many Caballeros {card.name} places is not known: enter it from your card "
        f"(card file: cards[{card.id}].placement)"))


def _placement_limit(state: GameState, card, placements: dict[str, int]) -> int:
    """The Caballeros a card lets you place; refuses (naming the fact) to place any while the
    card set does not know the number."""
    if card.placement is None:
        if any(placements.values()):
            raise _placement_unknown(state, card)
        return 0
    return card.placement


def _start_refusal(state: GameState, card, effect: str, p: int) -> RuleViolation | None:
    """Why a special action of an effect in engine/effects/ cannot start at all (a fact
    the table has not entered yet, e.g. a card parameter the rule book does not give)."""
    # Only a board with unknown facts can lack a scoreboard (never the classic one).
    needs = _SCOREBOARDS_NEEDED.get(effect) if state.board.missing else None
    fx = EFFECTS.get(effect) if effect not in _BEGIN else None
    if needs is None and (fx is None or fx.check_start is None):
        return None
    try:
        if needs is not None:
            require_scoreboards(state, needs(state))  # a 2023 board the table has not completed
        else:
            fx.check_start(state, card, p)
    except RuleViolation as refusal:
        return refusal
    return None


_ALL_REGIONS = lambda state: state.board.regions  # noqa: E731
_SCOREBOARDS_NEEDED: dict[str, Callable[[GameState], Any]] = {
    "score_group": _ALL_REGIONS, "score_first_only": _ALL_REGIONS, "disc_scoring": _ALL_REGIONS,
    "score_chosen_region": _ALL_REGIONS,  # any region may be chosen: refused at the start, not mid-action
    "score_castillo": lambda state: (state.board.castillo,),
    "score_most": lambda state: regions_by_total(state, True),
    "score_least": lambda state: regions_by_total(state, False),
}


def _ask_veto_window(state: GameState) -> Ask:
    sp = state.special
    pending = tuple(state.players[q] for q in sp.vetoes_pending)
    return Ask("veto", pending, {"against": state.players[sp.player], "card": sp.card.id},
               card=sp.card.id)


def _ask_special(state: GameState) -> Ask:
    sp = state.special
    ask = (_SPECIAL_ASK.get(sp.effect) or EFFECTS[sp.effect].ask)(state, sp)
    ask.card = sp.card.id
    holders = _veto_holders(state, exclude=sp.player)
    if holders and not _veto_stops_whole_only(state) and state.turn.card is not None \
            and not _lifting_castillo(state):
        ask.vetoes = tuple(state.players[q] for q in holders)
    return ask


def _ask_lift_castillo(state: GameState, sp: Special) -> Ask:
    """The Castillo scoring card, let pass by every Veto holder: the table lifts the Castillo
    and counts it (CastilloCounted), then it is scored."""
    return Ask("lift_castillo", (state.players[sp.player],), {})


def _ask_scoring_discs(state: GameState) -> Ask:
    allowed = {state.players[p]: _castillo_destinations(state, p) for p in state.scoring_needed}
    ask = _disc_ask(state, state.scoring_needed, state.scoring_discs, allowed, "castillo_destination")
    if king_in_castillo(state):
        ask.options["castillo_stays"] = True  # Rebellion: nothing leaves the Castillo; no disc
    return ask


def _castillo_destinations(state: GameState, p: int) -> list[str]:
    """Regions p's disc may show at a general scoring. A Grande thrown into the Castillo
    (Competition: "Then move your Grande using the Secret disc") cannot go to the King's
    region ("No Caballeros, Grandes, or Scoring tiles may be placed in ... the King's
    region"), nor back to the court as Caballeros do; so that disc may not show it."""
    ids = state.board.region_ids
    if state.grandes[p] == state.board.castillo:
        closed = closed_regions(state)
        return [ids[r] for r in state.board.regions if r not in closed]
    return list(ids)


def _disc_ask(state: GameState, needed: list[int], chosen: dict[int, int],
              allowed: dict[str, list[str]], purpose: str) -> Ask:
    waiting = tuple(state.players[p] for p in needed if p not in chosen)
    if waiting:
        return Ask("secret_disc", waiting, {"purpose": purpose, "regions": allowed,
                                            "chosen": [state.players[p] for p in needed if p in chosen]})
    return Ask("reveal_secret_discs", (TABLE,), {"purpose": purpose,
                                                 "chosen": [state.players[p] for p in needed]})


def _ask_over(state: GameState) -> Ask:
    return Ask("game_over", (), {"winners": [state.players[p] for p in state.winners],
                                 "scores": dict(zip(state.players, state.scores))})


_ASK_BY_STAGE: dict[str, Callable[[GameState], Ask]] = {
    "reveal": _ask_reveal, "power": _ask_power, "replenish": _ask_replenish,
    "choose_card": _ask_choose_card, "turn": _ask_turn, "veto_window": _ask_veto_window,
    "special": _ask_special, "scoring_discs": _ask_scoring_discs, "over": _ask_over,
}


# --------------------------------------------------------------------------
# special actions: what each asks
# --------------------------------------------------------------------------

def _movable_sources(state: GameState, sp: Special) -> dict[str, dict[str, int]]:
    """Region -> owner -> Caballeros the current move special may still take."""
    out: dict[str, dict[str, int]] = {}
    regions = [sp.source] if sp.source is not None else state.board.regions
    closed = closed_regions(state)
    for r in regions:
        if r in closed:
            continue
        row = state.counts[r]
        owners = {}
        for q, c in enumerate(row):
            if not c:
                continue
            if sp.effect == "move_all_own":
                if q == sp.player:
                    owners[state.players[q]] = c
                continue
            limit = min(sp.left, sp.own_left if q == sp.player else sp.foreign_left)
            if limit:
                owners[state.players[q]] = min(c, limit)
        if owners:
            out[state.board.region_ids[r]] = owners
    return out


def _move_targets(state: GameState) -> list[str]:
    """Regions but the King's, and the Castillo unless the King stands there (Rebellion)."""
    board = state.board
    if not (state.markers and tokens_out(state)):
        castillo = [] if state.king == board.castillo else [CASTILLO]
        return [board.region_ids[r] for r in board.regions if r != state.king] + castillo
    closed = closed_regions(state)  # King and Intrigue's markers
    return enterable(state, [board.region_ids[r] for r in board.regions if r not in closed] + [CASTILLO])


def _move_targets_now(state: GameState, sp: Special) -> list[str]:
    """Where this move may go: never back into its one source; only to its one target once
    a card that moves to one region (`one_target`) has chosen it."""
    board = state.board
    if sp.target is not None:
        return [board.area_id(sp.target)]
    targets = _move_targets(state)
    return targets if sp.source is None else [t for t in targets if t != board.area_id(sp.source)]


def _ask_move(state: GameState, sp: Special) -> Ask:
    options = {"left": sp.left, "own_left": sp.own_left, "foreign_left": sp.foreign_left,
               "sources": _movable_sources(state, sp), "targets": _move_targets_now(state, sp),
               "can_finish": sp.effect == "move",
               "one_source": bool(sp.card.params.get("one_source")) or sp.effect == "move_all_own"}
    return Ask("move_caballeros", (state.players[sp.player],), options)


def _ask_place_extra(state: GameState, sp: Special) -> Ask:
    return Ask("place_extra", (state.players[sp.player],),
               {"max": min(sp.left, state.court[sp.player]), "areas": _move_targets(state)})


def _send_back_options(state: GameState, owner: int, count: int, court: bool) -> dict[str, Any]:
    board = state.board
    return {"count": count, "court": state.court[owner] if court else 0,
            "regions": {board.region_ids[r]: c for r, c in state.removable_regions(owner).items()}}


def _ask_one_of_each(state: GameState, sp: Special) -> Ask:
    owners = {state.players[q]: _send_back_options(state, q, 1, court=False) for q in sp.queue}
    return Ask("send_back", (state.players[sp.player],), {"owners": owners})


def _king_angry_count(state: GameState, sp: Special, q: int) -> int:
    available = state.court[q] + sum(state.removable_regions(q).values())
    return min(sp.card.params["count"], available)


def _ask_king_angry(state: GameState, sp: Special) -> Ask:
    q = sp.queue[0]
    owners = {state.players[q]: _send_back_options(state, q, _king_angry_count(state, sp, q), court=True)}
    return Ask("send_back", (state.players[q],), {"owners": owners})


def _disc_send_back_regions(state: GameState, sp: Special, q: int) -> list[int]:
    own = state.removable_regions(q)
    need = sp.card.params.get("count")
    if need:
        enough = [r for r, c in own.items() if c >= need]
        if enough:
            return enough
    return list(own)


def _ask_discs(state: GameState, sp: Special) -> Ask:
    board = state.board
    if sp.effect == "eviction" and sp.source is None:
        closed = closed_regions(state)
        regions = [board.region_ids[r] for r in board.regions if r not in closed]
        return Ask("choose_region", (state.players[sp.player],), {"purpose": "eviction", "regions": regions})
    if sp.effect == "disc_send_back":
        allowed = {state.players[q]: [board.region_ids[r] for r in _disc_send_back_regions(state, sp, q)]
                   for q in sp.queue}
        purpose = "send_back"
    else:
        allowed = {state.players[q]: list(board.region_ids) for q in sp.queue}
        purpose = "eviction_destination" if sp.effect == "eviction" else "special_scoring"
    return _disc_ask(state, sp.queue, sp.discs, allowed, purpose)


def _ask_score_chosen(state: GameState, sp: Special) -> Ask:
    return Ask("choose_region", (state.players[sp.player],),
               {"purpose": "special_scoring", "regions": list(state.board.region_ids)})


def _mobile_moves(state: GameState) -> dict[str, list[str]]:
    board = state.board
    moves = {}
    closed = closed_regions(state)
    for sid, where in state.mobile.items():
        if where in closed:
            continue  # taboo: it may not leave the King's region
        occupied = {w for w in state.mobile.values() if w is not None}
        targets = [board.area_id(a) for a in range(board.castillo + 1)
                   if a not in closed and a not in occupied]
        if targets:
            moves[sid] = targets
    return moves


def _ask_mobile(state: GameState, sp: Special) -> Ask:
    return Ask("place_mobile_scoreboard", (state.players[sp.player],), {"moves": _mobile_moves(state)})


def _power_cards_to_take_back(state: GameState, p: int) -> list[int]:
    cards = set(state.discards[p])
    if state.played[p] is not None and not state.take_back_played[p]:
        cards.add(state.played[p])
    return sorted(cards)


def take_back_list(state: GameState, p: int) -> str:
    """": 3, 7" for a refusal read by the whole table, while the discard pile is public (every
    card laid down and none taken back: after a take-back, which one is secret)."""
    return "" if state.took_back_any[p] else f": {', '.join(map(str, _power_cards_to_take_back(state, p)))}"


def _ask_power_back(state: GameState, sp: Special) -> Ask:
    return Ask("take_back_power_card", (state.players[sp.player],),
               {"cards": _power_cards_to_take_back(state, sp.player)})


def _ask_court(state: GameState, sp: Special) -> Ask:
    return Ask("replenish", (state.players[sp.player],),
               _replenish_options(state, sp.player, sp.card.params["count"]))


def _grande_targets(state: GameState, p: int) -> list[str]:
    closed = closed_regions(state)
    if state.grandes[p] in closed:
        return []
    return [state.board.region_ids[r] for r in state.board.regions
            if r not in closed and r != state.grandes[p]]


def _ask_grande(state: GameState, sp: Special) -> Ask:
    return Ask("move_grande", (state.players[sp.player],), {"regions": _grande_targets(state, sp.player)})


def _king_targets(state: GameState, sp: Special) -> list[str]:
    board = state.board
    if sp.card.params["adjacent_only"]:
        regions = sorted(kings_neighbours(state))
    else:
        regions = [r for r in board.regions if r != state.king]
    return [board.region_ids[r] for r in regions]


def _ask_king(state: GameState, sp: Special) -> Ask:
    return Ask("move_king", (state.players[sp.player],), {"regions": _king_targets(state, sp)})


_SPECIAL_ASK: dict[str, Callable[[GameState, Special], Ask]] = {
    "move": _ask_move, "move_all_own": _ask_move, "place_extra": _ask_place_extra,
    "one_of_each_back": _ask_one_of_each, "king_is_angry": _ask_king_angry,
    "disc_send_back": _ask_discs, "disc_scoring": _ask_discs, "eviction": _ask_discs,
    "score_chosen_region": _ask_score_chosen, "mobile_scoreboard": _ask_mobile,
    "power_card_back": _ask_power_back, "court": _ask_court, "grande": _ask_grande,
    "move_king": _ask_king, "score_castillo": _ask_lift_castillo,
}


# --------------------------------------------------------------------------
# apply
# --------------------------------------------------------------------------

def apply_event(state: GameState, event: Any) -> None:
    if state.rules.king_intrigue:
        _king_intrigue.apply(state, event)  # its own round around this flow (rules/king_intrigue.py)
        return
    dispatch(state, event)


def dispatch(state: GameState, event: Any) -> None:
    """Apply one event by the flow's own tables (a rule set's round may wrap this)."""
    if state.stage == "special" and state.special.effect in EFFECTS:
        step = EFFECTS[state.special.effect].steps.get(type(event))
        if step is not None:  # a step of an effect in engine/effects/
            step(state, state.special, event)
            state.event_count += 1
            return
    handler = _APPLY.get(type(event))
    if handler is None:
        raise RuleViolation("phase-order", f"{type(event).__name__} is not a game event")
    handler(state, event)
    state.event_count += 1


# --- reveal -----------------------------------------------------------------

def _undrawn(state: GameState, stack: int) -> dict[str, int]:
    undrawn = state.stacks_undrawn[stack - 1]
    if not any(undrawn.values()):
        # Every card has been seen: the stack's bottom comes round again.
        undrawn = {}
        for cid in state.stacks_bottom[stack - 1]:
            undrawn[cid] = undrawn.get(cid, 0) + 1
    return undrawn


def _stacks_named(state: GameState) -> str:
    stacks = [str(s) for s in state.rules.stacks] + (["5"] if state.rules.new_regency else [])
    return "stacks " + ", ".join(stacks[:-1]) + " and " + stacks[-1]


def _check_revealed(state: GameState, s: int, cid: str) -> None:
    card = state.board.cards.get(cid)
    if s == KINGS_CARD_STACK:
        _new_regency.check_revealed(state, cid)
        return
    if card is None or card.stack is None or state.rules.table_stack(card.stack) != s:
        known = "" if card is None or card.stack is not None else " (the card set does not know its stack)"
        raise RuleViolation("reveal", f"{cid!r} is not a card of stack {s}{known}: if the table turned it up, "
                            "complete the card set with it first")
    if card.copies is None:  # nobody entered its copies: it turns up while its stack has room
        card_entry.check_turn_up(state, card, s)
        return
    if not _undrawn(state, s).get(cid):
        raise RuleViolation("reveal", f"no {cid} card is left face down in stack {s}: if the box holds more "
                            "copies than the card set says, complete the card set first")


def _kings_card(state: GameState) -> str:
    return next(c.id for c in state.board.cards.values() if c.stack == KINGS_CARD_STACK
                and getattr(c, "module", None) is None)


def _apply_reveal(state: GameState, e: ev.ActionCardsRevealed) -> None:
    # The dummy's draw is skipped when nothing is left to draw (a correction may take its last
    # Caballeros out after the round began): the reveal comes at once.
    nothing_to_draw = state.stage == "dummy_regions" and not _dummy.cards_to_draw(state)
    _expect_stage(state, ("reveal", "dummy_regions") if nothing_to_draw else ("reveal",), "revealing action cards")
    stacks = state.rules.stacks + ((KINGS_CARD_STACK,) if state.rules.new_regency else ())
    if len(e.cards) != len(stacks):
        raise RuleViolation("reveal", f"enter one card for each of {_stacks_named(state)}, got {len(e.cards)}")
    for s, cid in zip(stacks, e.cards):
        _check_revealed(state, s, cid)
    for s, cid in zip(stacks, e.cards):
        if state.board.cards[cid].copies is None:
            card_entry.turned_up(state, state.board.cards[cid])
            continue
        if s == KINGS_CARD_STACK:
            _new_regency.reveal(state, cid)
            continue
        if not any(state.stacks_undrawn[s - 1].values()):
            state.stacks_undrawn[s - 1] = _undrawn(state, s)
            state.stacks_bottom[s - 1] = []
        state.stacks_undrawn[s - 1][cid] -= 1
    state.revealed = dict(zip(stacks, e.cards))
    if not state.rules.new_regency:
        # The King's card is turned up again every round ("Your Majesty" in 2023).
        state.revealed[KINGS_CARD_STACK] = _kings_card(state)
    state.played = [None] * state.n
    if state.dummy is not None:
        state.stage = "dummy_power"  # its card is turned up before the players play (rules/dummy.py)
    else:
        _open_power_phase(state)


def _open_power_phase(state: GameState) -> None:
    """The first player begins, then clockwise; the 2-player dummy never plays in turn."""
    state.power_order = _dummy.players_only(state, _clockwise_from(state, state.start_player))
    state.power_pos = 0
    state.stage = "power"


def _begin_round(state: GameState) -> None:
    """A round begins: the dummy's Region cards first when it plays, then the reveal."""
    state.stage = _dummy.round_stage(state) if state.dummy is not None else "reveal"


# --- power cards --------------------------------------------------------------

def _apply_power(state: GameState, e: ev.PowerCardPlayed) -> None:
    _expect_stage(state, ("power",), "playing a Power card")
    p = _expect_player(state, e.player, state.power_order[state.power_pos], "play a Power card")
    # The public rule first, the hidden hand last: which check refused must not tell the table
    # what a hand holds (the Power cards, then Power Shift's Modifier cards).
    if e.modifier is not None:
        _power_shift.check_total(state, p, e.card, e.modifier)  # Power Shift: the total is distinct
    elif e.card in _played_values(state):
        raise RuleViolation("power-card-distinct", f"{_name(state, p)} cannot play {e.card}: "
                            "a Power card of that value was already played this round")
    if e.card not in state.hands[p]:
        raise not_in_hand(state, p, e.card)
    if e.modifier is not None:
        _power_shift.check_held(state, p, e.modifier)
    state.hands[p].remove(e.card)
    state.played[p] = e.card
    if e.modifier is not None:
        _power_shift.play(state, p, e.modifier)
    state.power_pos += 1
    if state.power_pos == len(state.power_order):
        totals = _power_totals(state)
        state.turn_order = sorted(range(state.n), key=lambda q: -totals[q])
        state.turn_pos = 0
        _start_turn(state)


def not_in_hand(state: GameState, p: int, card: int) -> RuleViolation:
    """A Power card p does not hold, refused in words the whole table may read: a card p laid
    down in an earlier round is public; why any other is missing is not (left out of a King and
    Intrigue hand, taken back or not), so the words never say, nor list the hand."""
    why = ("it was played in an earlier round" if card in state.power_spent[p] else
           "what a hand holds is secret: check it on your phone or behind the private screen")
    return RuleViolation("power-card-in-hand", f"{_name(state, p)} has no Power card {card} in hand: {why}")


def _played_values(state: GameState) -> set[int]:
    """Values played this round: Power cards, or with Power Shift their totals."""
    if state.rules.power_shift and any(state.modifier_played):  # else the totals are the cards
        return _power_shift.totals_played(state)
    return {c for c in state.played if c is not None}


def _power_total(state: GameState, q: int) -> int:
    return _power_shift.total(state, q) if state.rules.power_shift else state.played[q]


def _power_totals(state: GameState) -> list[int | None]:
    """Every seat's value played this round (with Power Shift: its total), by seat."""
    return _power_shift.totals(state) if state.rules.power_shift else state.played


def _start_turn(state: GameState) -> None:
    state.turn = Turn(player=state.turn_order[state.turn_pos])
    if state.turn.player == state.dummy:
        _dummy.take_turn(state)  # takes the card with the most Caballeros, unused
        return
    state.stage = "replenish"


# --- replenishment (and The Court card) ---------------------------------------

def _taken_from_regions(state: GameState, owner: int, from_regions: dict[str, int], rule: str) -> dict[int, int]:
    """Check Caballeros of `owner` to be taken off the board: never from the
    Castillo or the King's region, never more than lie there."""
    taken = {}
    for rid, c in from_regions.items():
        if not c:
            continue
        a = _area(state, rid)
        if a == state.board.castillo:
            raise RuleViolation("castillo-no-removal", "Caballeros cannot be taken from the Castillo")
        _not_taboo(state, a, "take Caballeros from")
        if state.counts[a][owner] < c:
            raise RuleViolation(rule, f"{_name(state, owner)} has only "
                                f"{state.counts[a][owner]} Caballeros in {_rname(state, a)}, not {c}")
        taken[a] = c
    return taken


def _check_replenish(state: GameState, p: int, e: ev.CourtReplenished, cap: int) -> dict[int, int]:
    taken = _taken_from_regions(state, p, e.from_regions, "replenish-from-board")
    total = e.from_provinces + sum(taken.values())
    # Public limits first, the hidden provinces last: the tablet is public, and neither a
    # province count nor which check refused may tell it (30 minus the provinces, court and
    # board is the player's hidden Castillo tally).
    if total > cap:
        raise RuleViolation("replenish-limit", f"{_name(state, p)} may move at most {cap} "
                            f"Caballeros to the court now, not {total}")
    if e.from_provinces > state.provinces[p]:
        raise RuleViolation("replenish-limit", f"{_name(state, p)} does not have {e.from_provinces} "
                            "Caballeros left in the provinces: enter what they actually moved")
    if taken and e.from_provinces < state.provinces[p]:
        raise RuleViolation("replenish-from-board", f"{_name(state, p)} still has Caballeros in the "
                            "provinces: take those first, then from the board")
    return taken


def _do_replenish(state: GameState, p: int, from_provinces: int, taken: dict[int, int]) -> None:
    state.provinces[p] -= from_provinces
    for a, c in taken.items():
        state.counts[a][p] -= c
    state.court[p] += from_provinces + sum(taken.values())


def _apply_court_replenished(state: GameState, e: ev.CourtReplenished) -> None:
    if state.stage == "special" and state.special.effect == "court":
        sp = state.special
        p = _expect_player(state, e.player, sp.player, "use The Court")
        taken = _check_replenish(state, p, e, sp.card.params["count"])
        _do_replenish(state, p, e.from_provinces, taken)
        _finish_special(state)
        return
    _expect_stage(state, ("replenish",), "moving Caballeros to the court")
    p = _expect_player(state, e.player, state.turn.player, "replenish")
    taken = _check_replenish(state, p, e, state.board.replenish[state.played[p]])
    _do_replenish(state, p, e.from_provinces, taken)
    state.turn.replenished = True
    state.stage = _power_shift.ability_stage(state, p) if state.rules.power_shift else "choose_card"


# --- choosing an action card ----------------------------------------------------

def _apply_choose(state: GameState, e: ev.ActionCardChosen) -> None:
    _expect_stage(state, ("choose_card",), "choosing an Action card")
    _expect_player(state, e.player, state.turn.player, "choose an Action card")
    cid = state.revealed.get(e.stack)
    if cid is None:
        taken = "was already taken" if e.stack in state.revealed else "is not a stack"
        raise RuleViolation("action-card-available", f"stack {e.stack} {taken} this round")
    state.turn.card = state.board.cards[cid]
    state.turn.stack = e.stack
    state.revealed[e.stack] = None
    state.stage = "turn"
    if state.turn.card.effect in VETO_EFFECTS and state.veto_on_take:
        _take_veto(state, state.turn.player)


def _take_veto(state: GameState, p: int) -> None:
    """"When you select the Veto card, place it on the table in front of you": taking the
    card is holding the Veto (until used, or the end of the next round). Its special
    action is thereby done; there is nothing left to start or skip. (Games saved at rules
    revision 1 held it only once that special action was started: see GameSetup.revision.)"""
    state.vetoes.append((p, state.round_index + 1))
    state.turn.special_done = True


# --- placement ------------------------------------------------------------------

def _check_placements(state: GameState, p: int, placements: dict[str, int], limit: int,
                      allowed: Callable[[int], None]) -> dict[int, int]:
    out: dict[int, int] = {}
    for aid, c in placements.items():
        if not c:
            continue
        a = _area(state, aid)
        allowed(a)
        out[a] = out.get(a, 0) + c
    if state.markers and tokens_out(state):  # King and Intrigue: a collapsed Castillo
        for a, c in out.items():
            _can_enter(state, a, c, "place Caballeros in")
    total = sum(out.values())
    if total > state.court[p]:
        raise RuleViolation("placement-limit", f"{_name(state, p)} has only {state.court[p]} "
                            f"Caballeros in the court, not {total}")
    if total > limit:
        raise RuleViolation("placement-limit", f"this card places at most {limit} Caballeros, not {total}")
    return out


def _do_place(state: GameState, p: int, placed: dict[int, int]) -> None:
    for a, c in placed.items():
        state.counts[a][p] += c
        state.court[p] -= c


def _apply_place(state: GameState, e: ev.CaballerosPlaced) -> None:
    _expect_stage(state, ("turn",), "placing Caballeros")
    turn = state.turn
    p = _expect_player(state, e.player, turn.player, "place Caballeros")
    if turn.placed:
        raise RuleViolation("either-order", f"{_name(state, p)} has already placed Caballeros this turn")
    first = _special_first(turn)
    if first:
        raise RuleViolation("either-order", f"{turn.card.name}: {first}: its special action comes before "
                            "placing Caballeros")

    def adjacent_or_castillo(a: int) -> None:
        _not_taboo(state, a, "place Caballeros in")
        if a == state.board.castillo:
            return
        if a not in kings_neighbours(state):
            raise RuleViolation("placement-area", f"{_rname(state, a)} is not adjacent to the King's "
                                f"region ({_rname(state, state.king)})")

    limit = _placement_limit(state, turn.card, e.placements)
    placed = _check_placements(state, p, e.placements, limit, adjacent_or_castillo)
    _do_place(state, p, placed)
    turn.placed = True
    _maybe_end_turn(state)


# --- special action: start / skip / finish ---------------------------------------------

def _veto_holders(state: GameState, exclude: int) -> list[int]:
    if not state.vetoes:
        return []
    holders = {q for q, _ in state.vetoes if q != exclude}
    return [q for q in _clockwise_from(state, exclude) if q in holders]


def _apply_special_started(state: GameState, e: ev.SpecialActionStarted) -> None:
    _expect_stage(state, ("turn",), "starting a special action")
    turn = state.turn
    p = _expect_player(state, e.player, turn.player, "start a special action")
    if turn.special_done:
        raise RuleViolation("either-order", f"{_name(state, p)} has already done the special action")
    card = turn.card
    effect = card.effect
    choices = card.params.get("options")
    if choices:
        if e.option not in choices:
            raise RuleViolation("special-action", f"{card.name} asks for one of {', '.join(choices)}, "
                                f"got {e.option!r}")
        effect = e.option
    elif e.option is not None:
        raise RuleViolation("special-action", f"{card.name} offers no choice of option")
    refusal = _start_refusal(state, card, effect, p)
    if refusal is not None:
        raise refusal
    sp = Special(card=card, effect=effect, player=p)
    sp.vetoes_pending = _veto_holders(state, exclude=p)
    state.special = sp
    if sp.vetoes_pending:
        state.stage = "veto_window"
    else:
        _begin_special(state)


def _apply_special_skipped(state: GameState, e: ev.SpecialActionSkipped) -> None:
    _expect_stage(state, ("turn",), "skipping the special action")
    p = _expect_player(state, e.player, state.turn.player, "skip the special action")
    if state.turn.special_done:
        raise RuleViolation("either-order", f"{_name(state, p)} has already done the special action")
    state.turn.special_done = True
    _maybe_end_turn(state)


def _apply_special_finished(state: GameState, e: ev.SpecialActionFinished) -> None:
    _expect_stage(state, ("special",), "finishing a special action")
    sp = state.special
    p = _expect_player(state, e.player, sp.player, "finish the special action")
    if sp.effect != "move":
        raise RuleViolation("special-action", f"{sp.card.name} must be carried out fully; "
                            f"{_name(state, p)} cannot stop it here")
    _finish_special(state)


def _begin_special(state: GameState) -> None:
    sp = state.special
    sp.started = True
    state.stage = "special"
    (_BEGIN.get(sp.effect) or EFFECTS[sp.effect].begin)(state, sp)


def _finish_special(state: GameState) -> None:
    state.special = None
    if state.turn.card is None:
        # A Power Shift Modifier card's ability, used before the Action card is chosen.
        state.stage = "choose_card"
        return
    state.turn.special_done = True
    state.stage = "turn"
    _maybe_end_turn(state)


def _maybe_end_turn(state: GameState) -> None:
    turn = state.turn
    if not (turn.placed and turn.special_done):
        return
    if not _holds_this_veto(state, turn):
        _put_away_used(state, turn.stack, turn.card.id)
    state.turn = None
    state.turn_pos += 1
    if state.turn_pos < state.n:
        _start_turn(state)
    else:
        _end_round(state)


def _holds_this_veto(state: GameState, turn: Turn) -> bool:
    return turn.card.effect in VETO_EFFECTS and (turn.player, state.round_index + 1) in state.vetoes


def _put_away_used(state: GameState, stack: int, cid: str) -> None:
    """An Action card used or left over. Classic: under its stack, to come round again.
    2023: face up on the discard pile; the King's card is never discarded (it is turned
    face down as stack 5 once used), but a New Regency card is."""
    if stack == KINGS_CARD_STACK and not state.rules.new_regency:
        return
    if state.rules.discard_pile:
        state.discard_pile.append(cid)
    elif stack in (1, 2, 3, 4):
        state.stacks_bottom[stack - 1].append(cid)


def _veto_card(state: GameState) -> str:
    return next(c.id for c in state.board.cards.values() if c.effect in VETO_EFFECTS)


# --- veto ------------------------------------------------------------------------------

def _veto_stops_whole_only(state: GameState) -> bool:
    """2023 Veto: "You must immediately decide whether you want to prevent this Special
    action. You cannot cancel a Special action if it has already begun." (The classic Veto
    may also stop the rest of one under way.)"""
    cid = next((c.id for c in state.board.cards.values() if c.effect in VETO_EFFECTS), None)
    return cid is not None and state.board.cards[cid].effect == "veto_2023"


def _apply_veto_used(state: GameState, e: ev.VetoUsed) -> None:
    if state.stage == "special" and state.turn is not None and state.turn.card is None:
        raise RuleViolation("veto", "a Veto prevents an Action card's Special action, not a Power Shift "
                            "Modifier card's ability")
    if state.stage == "special" and _veto_stops_whole_only(state):
        raise RuleViolation("veto", "a Veto prevents a whole special action when it is announced; "
                            "it cannot cancel one that has already begun")
    if _lifting_castillo(state):
        raise RuleViolation("veto", "every Veto holder let the Castillo scoring pass: the Castillo is being "
                            "lifted, and a Veto can no longer stop it")
    _expect_stage(state, ("veto_window", "special"), "using a Veto")
    sp = state.special
    p = _player(state, e.player)
    if p == sp.player:
        raise RuleViolation("veto", "a Veto stops another player's special action, not your own")
    held = sorted((last, i) for i, (q, last) in enumerate(state.vetoes) if q == p)
    if not held:
        raise RuleViolation("veto", f"{_name(state, p)} holds no Veto card that may be used now")
    del state.vetoes[held[0][1]]
    _put_away_used(state, VETO_STACK, _veto_card(state))
    _finish_special(state)


def _apply_veto_waived(state: GameState, e: ev.VetoWaived) -> None:
    _expect_stage(state, ("veto_window",), "letting a special action pass")
    sp = state.special
    p = _player(state, e.player)
    if p not in sp.vetoes_pending:
        raise RuleViolation("veto", f"{_name(state, p)} is not asked about a Veto now")
    sp.vetoes_pending.remove(p)
    if not sp.vetoes_pending:
        _begin_special(state)


# --- special action effects: beginning -------------------------------------------------

def _begin_move(state: GameState, sp: Special) -> None:
    params = sp.card.params
    sp.left, sp.own_left, sp.foreign_left = params["total"], params["own"], params["foreign"]
    if not _movable_sources(state, sp):
        _finish_special(state)


def _begin_move_all_own(state: GameState, sp: Special) -> None:
    sp.effect = "move_all_own"
    if not state.removable_regions(sp.player):
        _finish_special(state)


def _begin_veto(state: GameState, sp: Special) -> None:
    # Rules revision 1 only: the Veto was held once its special action was started.
    state.vetoes.append((sp.player, state.round_index + 1))
    _finish_special(state)


def _begin_place_extra(state: GameState, sp: Special) -> None:
    sp.effect = "place_extra"
    sp.left = sp.card.params["count"]
    if not state.court[sp.player]:
        _finish_special(state)




def _begin_decay(state: GameState, sp: Special) -> None:
    limit = sp.card.params.get("count")
    for q in _opponents(state, sp.player):
        k = state.court[q] if limit is None else min(limit, state.court[q])
        state.court[q] -= k
        state.provinces[q] += k
        sp.moves.append(_move(state, q, k, "court", "provinces"))
    _special_outcome(state, sp)
    _finish_special(state)


def _begin_one_of_each(state: GameState, sp: Special) -> None:
    sp.queue = [q for q in _opponents(state, sp.player) if state.removable_regions(q)]
    if not sp.queue:
        _finish_special(state)


def _choosers(state: GameState, seats: list[int]) -> list[int]:
    """The seats an effect asks a choice of: never the 2-player game's dummy ("if an Action
    card would require the dummy's action (e.g. choose a region), skip the dummy")."""
    return [q for q in seats if q != state.dummy]


def _begin_king_angry(state: GameState, sp: Special) -> None:
    sp.queue = [q for q in _choosers(state, _opponents(state, sp.player)) if _king_angry_count(state, sp, q)]
    if not sp.queue:
        _finish_special(state)


def _begin_disc_send_back(state: GameState, sp: Special) -> None:
    sp.queue = [q for q in _choosers(state, _opponents(state, sp.player)) if _disc_send_back_regions(state, sp, q)]
    if not sp.queue:
        _finish_special(state)


def _begin_disc_scoring(state: GameState, sp: Special) -> None:
    sp.queue = _choosers(state, _clockwise_from(state, sp.player))


def _begin_waiting(state: GameState, sp: Special) -> None:
    """Effects that wait for the active player's one choice."""


def _begin_mobile(state: GameState, sp: Special) -> None:
    if not _mobile_moves(state):
        _finish_special(state)


def _begin_grande(state: GameState, sp: Special) -> None:
    if not _grande_targets(state, sp.player):
        _finish_special(state)


def _record(state: GameState, title: str, lines: list[ScoreLine], transfers: list | None = None) -> None:
    apply_lines(state, lines)
    state.scoring_log.append(ScoringRecord(state.round, title, lines, transfers or []))


def _move(state: GameState, q: int, count: int, source, target) -> dict:
    """One instruction for the table; source and target are area indexes or "court"/"provinces"."""
    def where(a):
        return a if isinstance(a, str) else state.board.area_id(a)
    return {"player": state.players[q], "count": count, "source": where(source), "target": where(target)}


def _outcome(state: GameState, title: str, moves: list[dict], discs: dict[int, int] | None = None) -> None:
    state.outcomes.append(Outcome(
        state.round, title, {state.players[q]: state.board.region_ids[r] for q, r in (discs or {}).items()},
        [m for m in moves if m["count"]]))


def _special_outcome(state: GameState, sp: Special, discs: dict[int, int] | None = None) -> None:
    _outcome(state, f"{sp.card.name}, played by {_name(state, sp.player)}", sp.moves, discs)


def _special_title(state: GameState, sp: Special, what: str) -> str:
    return f"{sp.card.name} ({what}), played by {_name(state, sp.player)}"


def _begin_score_group(state: GameState, sp: Special) -> None:
    group = sp.card.params["group"]
    lines = score_regions(state, regions_in_group(state, group))
    _record(state, _special_title(state, sp, f'all "{group}" regions'), lines)
    _finish_special(state)


def _begin_score_castillo(state: GameState, sp: Special) -> None:
    # Rules revision 3: the Castillo stays closed until now (no one vetoed); the table lifts
    # and counts it, and the count it says is what is scored (_apply_castillo_counted).
    # Before, it may have been counted just before the special action was announced.
    if not state.castillo_after_veto:
        _score_castillo(state, sp)


def _score_castillo(state: GameState, sp: Special) -> None:
    lines = score_area(state, state.board.castillo)
    _record(state, _special_title(state, sp, "the Castillo"), lines)
    _finish_special(state)


def _begin_score_first_only(state: GameState, sp: Special) -> None:
    lines = score_regions(state, list(state.board.regions), first_only=True)
    _record(state, _special_title(state, sp, "1st place only, all regions"), lines)
    _finish_special(state)


def _begin_score_by_total(state: GameState, sp: Special) -> None:
    most = sp.effect == "score_most"
    lines = score_regions(state, regions_by_total(state, most))
    _record(state, _special_title(state, sp, "region(s) with the " + ("most" if most else "fewest")
                                  + " Caballeros"), lines)
    _finish_special(state)


_BEGIN: dict[str, Callable[[GameState, Special], None]] = {
    "move": _begin_move, "move_all_own": _begin_move_all_own, "place_extra": _begin_place_extra,
    "veto": _begin_veto, "decay": _begin_decay, "one_of_each_back": _begin_one_of_each,
    "king_is_angry": _begin_king_angry, "disc_send_back": _begin_disc_send_back,
    "score_chosen_region": _begin_waiting, "score_group": _begin_score_group,
    "score_castillo": _begin_score_castillo, "score_first_only": _begin_score_first_only,
    "score_most": _begin_score_by_total, "score_least": _begin_score_by_total,
    "mobile_scoreboard": _begin_mobile, "power_card_back": _begin_waiting, "court": _begin_waiting,
    "grande": _begin_grande, "disc_scoring": _begin_disc_scoring, "eviction": _begin_waiting,
    "move_king": _begin_waiting,
}


# --- special action effects: steps -------------------------------------------------------

def _expect_special(state: GameState, effects: tuple[str, ...], what: str) -> Special:
    _expect_stage(state, ("special",), what)
    sp = state.special
    if sp.effect not in effects:
        raise RuleViolation("special-action", f"{what} is not part of {sp.card.name}: "
                            f"{sp.card.text}")
    return sp


def _apply_moved(state: GameState, e: ev.CaballerosMoved) -> None:
    sp = _expect_special(state, ("move", "move_all_own"), "moving Caballeros")
    p = _expect_player(state, e.player, sp.player, "move Caballeros")
    owner = _player(state, e.owner)
    src = _area(state, e.source)
    dst = _area(state, e.target)
    if src == state.board.castillo:
        raise RuleViolation("castillo-no-removal", "Caballeros cannot be moved out of the Castillo")
    _not_taboo(state, src, "move Caballeros out of")
    _not_taboo(state, dst, "move Caballeros into")
    if state.markers and tokens_out(state):
        _can_enter(state, dst, e.count, "move Caballeros into")
    if src == dst:
        raise RuleViolation("special-action", "a move needs a different source and target")
    if state.counts[src][owner] < e.count:
        raise RuleViolation("special-action", f"{_name(state, owner)} has only "
                            f"{state.counts[src][owner]} Caballeros in {_rname(state, src)}")
    if sp.source is not None and src != sp.source:
        raise RuleViolation("special-action", f"{sp.card.name} moves Caballeros from one region only: "
                            f"{_rname(state, sp.source)}")
    if sp.target is not None and dst != sp.target:
        raise RuleViolation("special-action", f"{sp.card.name} moves them all to one region: "
                            f"{_rname(state, sp.target)}")
    if sp.effect == "move_all_own":
        if owner != p:
            raise RuleViolation("special-action", "this card moves only your own Caballeros")
    else:
        own = owner == p
        limit = sp.own_left if own else sp.foreign_left
        if e.count > min(limit, sp.left):
            kind = "own" if own else "foreign"
            raise RuleViolation("special-action", f"{sp.card.name} allows {min(limit, sp.left)} more "
                                f"{kind} Caballeros to move, not {e.count}")
    state.counts[src][owner] -= e.count
    state.counts[dst][owner] += e.count
    if sp.effect == "move_all_own" or sp.card.params.get("one_source"):
        sp.source = src
    if sp.card.params.get("one_target"):
        sp.target = dst
    if sp.effect == "move_all_own":
        if not state.counts[src][p]:
            _finish_special(state)
        return
    sp.left -= e.count
    if owner == p:
        sp.own_left -= e.count
    else:
        sp.foreign_left -= e.count
    if not sp.left or not _movable_sources(state, sp):
        _finish_special(state)


def _apply_extra_placed(state: GameState, e: ev.ExtraCaballerosPlaced) -> None:
    sp = _expect_special(state, ("place_extra",), "placing additional Caballeros")
    p = _expect_player(state, e.player, sp.player, "place additional Caballeros")
    placed = _check_placements(state, p, e.placements, sp.left,
                               lambda a: _not_taboo(state, a, "place Caballeros in"))
    _do_place(state, p, placed)
    _finish_special(state)


def _check_send_back(state: GameState, owner: int, e: ev.CaballerosSentBack, count: int,
                     court_ok: bool) -> dict[int, int]:
    taken = _taken_from_regions(state, owner, e.from_regions, "special-action")
    if e.from_court and not court_ok:
        raise RuleViolation("special-action", "this card takes Caballeros from the regions, not the court")
    if e.from_court > state.court[owner]:
        raise RuleViolation("special-action", f"{_name(state, owner)} has only {state.court[owner]} "
                            "Caballeros in the court")
    total = e.from_court + sum(taken.values())
    if total != count:
        raise RuleViolation("special-action", f"{_name(state, owner)} must send back exactly "
                            f"{count} Caballero{'s' if count != 1 else ''}, not {total}")
    return taken


def _do_send_back(state: GameState, owner: int, from_court: int, taken: dict[int, int]) -> None:
    for a, c in taken.items():
        state.counts[a][owner] -= c
    state.court[owner] -= from_court
    state.provinces[owner] += from_court + sum(taken.values())


def _apply_sent_back(state: GameState, e: ev.CaballerosSentBack) -> None:
    sp = _expect_special(state, ("one_of_each_back", "king_is_angry"), "sending Caballeros back")
    owner = _player(state, e.owner)
    if sp.effect == "one_of_each_back":
        _expect_player(state, e.player, sp.player, "choose whose Caballeros go back")
        if owner not in sp.queue:
            raise RuleViolation("special-action", f"no Caballero of {_name(state, owner)} is to be "
                                "sent back now")
        taken = _check_send_back(state, owner, e, 1, court_ok=False)
    else:
        _expect_player(state, e.player, sp.queue[0], "send Caballeros back")
        if owner != sp.queue[0]:
            raise RuleViolation("special-action", "each player sends back their own Caballeros")
        taken = _check_send_back(state, owner, e, _king_angry_count(state, sp, owner), court_ok=True)
    _do_send_back(state, owner, e.from_court, taken)
    sp.moves += [_move(state, owner, e.from_court, "court", "provinces")]
    sp.moves += [_move(state, owner, c, a, "provinces") for a, c in taken.items()]
    sp.queue.remove(owner)
    if not sp.queue:
        _special_outcome(state, sp)
        _finish_special(state)


def _apply_disc_set(state: GameState, e: ev.SecretDiscSet) -> None:
    _expect_stage(state, ("scoring_discs", "special"), "setting a secret disc")
    p = _player(state, e.player)
    r = _region(state, e.region, "a secret disc")
    if state.stage == "scoring_discs":
        if p not in state.scoring_needed:
            why = ("the King stands by the Castillo: nothing leaves it" if king_in_castillo(state)
                   else "the dummy sets no disc")
            raise RuleViolation("secret-disc", f"{_name(state, p)} sets no disc at this scoring: {why}")
        if state.board.region_ids[r] not in _castillo_destinations(state, p):
            raise RuleViolation("secret-disc", f"{_name(state, p)}'s Grande leaves the Castillo with the disc "
                                f"and cannot go to {_rname(state, r)}: it is the King's region")
        state.scoring_discs[p] = r
        return
    sp = _expect_special(state, ("disc_send_back", "disc_scoring", "eviction"), "setting a secret disc")
    if sp.effect == "eviction" and sp.source is None:
        raise RuleViolation("phase-order", "the Eviction region must be named first")
    if p not in sp.queue:
        raise RuleViolation("secret-disc", f"{_name(state, p)} is not asked for a secret disc now")
    if sp.effect == "disc_send_back" and r not in _disc_send_back_regions(state, sp, p):
        raise RuleViolation("secret-disc", f"{_name(state, p)} cannot pick {_rname(state, r)}: "
                            "the region must hold enough of their Caballeros and not be the King's")
    sp.discs[p] = r


def _apply_castillo_counted(state: GameState, e: ev.CastilloCounted) -> None:
    """What the table counted in the lifted Castillo (the count wins over the turns): at a
    general scoring, or as the Castillo scoring card's special action once no one vetoed it
    (which it then scores). Games of rules revision 2 or before counted it in that card's turn
    before its special action was announced."""
    lifting = _lifting_castillo(state)
    turn = state.turn
    castillo_card_turn = state.stage == "turn" and turn.card is not None \
        and turn.card.effect in CASTILLO_SCORING_EFFECTS and not turn.special_done
    if castillo_card_turn and state.castillo_after_veto:
        raise RuleViolation("veto", "the Castillo stays closed until no one vetoes its scoring: announce the "
                            "special action first, then lift and count the Castillo")
    if not (castillo_card_turn or lifting):
        _expect_stage(state, ("scoring_discs",), "counting the Castillo")
    _count_castillo(state, e)
    if lifting:  # the classic card (a registered effect, Revelation, counts in its own step)
        _score_castillo(state, state.special)


def _lifting_castillo(state: GameState) -> bool:
    """The Castillo scoring card's special action has begun and waits for the table's count."""
    sp = state.special
    return state.stage == "special" and sp is not None and sp.effect in CASTILLO_SCORING_EFFECTS \
        and state.castillo_after_veto


def _count_castillo(state: GameState, e: ev.CastilloCounted) -> None:
    castillo = state.board.castillo
    counts = {_player(state, pid): c for pid, c in e.counts.items()}
    for p, c in counts.items():
        spare = state.provinces[p] + state.counts[castillo][p]
        if c > spare:
            raise RuleViolation("castillo-count", f"{_name(state, p)} cannot have {c} in the Castillo: "
                                f"only {spare} of their Caballeros are not elsewhere on the table")
    for p, c in counts.items():
        state.provinces[p] += state.counts[castillo][p] - c
        state.counts[castillo][p] = c


def _apply_discs_revealed(state: GameState, e: ev.SecretDiscsRevealed) -> None:
    _expect_stage(state, ("scoring_discs", "special"), "revealing the secret discs")
    if state.stage == "scoring_discs":
        missing = [q for q in state.scoring_needed if q not in state.scoring_discs]
    else:
        sp = _expect_special(state, ("disc_send_back", "disc_scoring", "eviction")
                             + tuple(n for n, fx in EFFECTS.items() if fx.reveal), "revealing discs")
        if sp.effect == "eviction" and sp.source is None:
            raise RuleViolation("phase-order", "the Eviction region must be named first")
        missing = [q for q in sp.queue if q not in sp.discs]
    if missing:
        raise RuleViolation("secret-disc", "all discs are revealed together; still to choose: "
                            + ", ".join(_name(state, q) for q in missing))
    if state.stage == "scoring_discs":
        _run_general_scoring(state)
    else:
        sp = state.special
        (_REVEAL.get(sp.effect) or EFFECTS[sp.effect].reveal)(state, sp)


def _reveal_send_back(state: GameState, sp: Special) -> None:
    limit = sp.card.params.get("count")
    for q in sp.queue:
        r = sp.discs[q]
        k = state.counts[r][q] if limit is None else min(limit, state.counts[r][q])
        state.counts[r][q] -= k
        state.provinces[q] += k
        sp.moves.append(_move(state, q, k, r, "provinces"))
    _special_outcome(state, sp, sp.discs)
    _finish_special(state)


def _reveal_disc_scoring(state: GameState, sp: Special) -> None:
    picks = list(sp.discs.values())
    once = [r for r in state.board.regions if picks.count(r) == 1]
    lines = score_regions(state, once)
    names = ", ".join(_rname(state, r) for r in once) or "none"
    _record(state, _special_title(state, sp, f"regions chosen exactly once: {names}"), lines)
    _special_outcome(state, sp, sp.discs)
    _finish_special(state)


def _reveal_eviction(state: GameState, sp: Special) -> None:
    src = sp.source
    for q in sp.queue:
        dst = sp.discs[q]
        k = state.counts[src][q]
        state.counts[src][q] = 0
        if dst == src or is_taboo(state, dst):
            state.court[q] += k
            sp.moves.append(_move(state, q, k, src, "court"))
        else:
            state.counts[dst][q] += k
            sp.moves.append(_move(state, q, k, src, dst))
    _special_outcome(state, sp, sp.discs)
    _finish_special(state)


_REVEAL = {"disc_send_back": _reveal_send_back, "disc_scoring": _reveal_disc_scoring,
           "eviction": _reveal_eviction}


def _apply_region_chosen(state: GameState, e: ev.RegionChosen) -> None:
    sp = _expect_special(state, ("score_chosen_region", "eviction"), "choosing a region")
    _expect_player(state, e.player, sp.player, "choose the region")
    r = _region(state, e.region, "the chosen region")
    if sp.effect == "score_chosen_region":
        _record(state, _special_title(state, sp, _rname(state, r)), score_area(state, r))
        _finish_special(state)
        return
    if sp.source is not None:
        raise RuleViolation("special-action", "the Eviction region has already been named")
    _not_taboo(state, r, "evict Caballeros from")
    sp.source = r
    sp.queue = [q for q in _choosers(state, _opponents(state, sp.player)) if state.counts[r][q]]
    if not sp.queue:
        _finish_special(state)


def _apply_mobile(state: GameState, e: ev.MobileScoreboardPlaced) -> None:
    sp = _expect_special(state, ("mobile_scoreboard",), "placing a mobile scoreboard")
    _expect_player(state, e.player, sp.player, "place a mobile scoreboard")
    a = _area(state, e.area)
    where = state.mobile[e.scoreboard]
    if where is not None and is_taboo(state, where):
        raise RuleViolation("mobile-scoreboard", f"the {e.scoreboard} scoreboard lies in the King's "
                            "region and may not leave it" if where == state.king else
                            f"the {e.scoreboard} scoreboard may not leave {_rname(state, where)}: "
                            f"{taboo_reason(state, where)}")
    _not_taboo(state, a, "place a mobile scoreboard in")
    other = state.mobile_at(a)
    if other is not None:
        what = "already lies there" if other == e.scoreboard else f"({other}) lies there"
        raise RuleViolation("mobile-scoreboard", f"{_rname(state, a)} cannot take the {e.scoreboard} "
                            f"scoreboard: a mobile scoreboard {what}")
    state.mobile[e.scoreboard] = a
    _finish_special(state)


def _apply_power_back(state: GameState, e: ev.PowerCardTakenBack) -> None:
    sp = _expect_special(state, ("power_card_back",), "taking back a Power card")
    p = _expect_player(state, e.player, sp.player, "take back a Power card")
    if e.card not in _power_cards_to_take_back(state, p):
        raise RuleViolation("special-action", f"{_name(state, p)} can take back only a discarded "
                            f"Power card or this round's{take_back_list(state, p)}")
    state.took_back_any[p] = True
    if e.card in state.discards[p]:
        state.discards[p].remove(e.card)
        state.hands[p].add(e.card)
    else:
        state.take_back_played[p] = True
    _finish_special(state)


def _apply_grande(state: GameState, e: ev.GrandeMoved) -> None:
    sp = _expect_special(state, ("grande",), "moving a Grande")
    p = _expect_player(state, e.player, sp.player, "move the Grande")
    r = _region(state, e.region, "the Grande's new home")
    _not_taboo(state, state.grandes[p], "move a Grande out of")
    _not_taboo(state, r, "move a Grande into")
    if r == state.grandes[p]:
        raise RuleViolation("grande", f"the Grande already stands in {_rname(state, r)}")
    state.grandes[p] = r
    _finish_special(state)


def _apply_king(state: GameState, e: ev.KingMoved) -> None:
    sp = _expect_special(state, ("move_king",), "moving the King")
    _expect_player(state, e.player, sp.player, "move the King")
    r = _region(state, e.region, "the King's new region")
    if e.region not in _king_targets(state, sp):
        where = "an adjacent region" if sp.card.params["adjacent_only"] else "another region"
        raise RuleViolation("king-move", f"{sp.card.name} moves the King to {where}, "
                            f"not {_rname(state, r)}")
    state.king = r
    _finish_special(state)


# --- end of round, general scoring, game end ----------------------------------------

def _end_round(state: GameState) -> None:
    for s in sorted(state.revealed):
        cid = state.revealed[s]
        if cid is not None:
            _put_away_used(state, s, cid)
    state.revealed = {}
    # The lowest Power card (Power Shift: total) takes the First Player marker; "the dummy
    # never gets the First Player marker".
    totals = _power_totals(state)
    state.start_player = min(_dummy.players_only(state, range(state.n)), key=totals.__getitem__)
    for q in range(state.n):
        (state.hands if state.take_back_played[q] else state.discards)[q].add(state.played[q])
        state.power_spent[q].add(state.played[q])
    state.take_back_played = [False] * state.n
    if state.rules.power_shift:
        _power_shift.end_round(state)
    expired = [v for v in state.vetoes if v[1] == state.round_index]
    for v in expired:
        state.vetoes.remove(v)
        _put_away_used(state, VETO_STACK, _veto_card(state))
    if state.round in state.board.general_scoring_after:
        # Every player sets a disc, Caballeros in the Castillo or not: asking only
        # some would tell the table who has none there (rules, general scoring step 3).
        # Rebellion: with the King by the Castillo nothing leaves it, so no disc is set.
        # The 2-player dummy sets no disc: it is never asked (rules/dummy.py).
        state.scoring_needed = [] if king_in_castillo(state) else _dummy.players_only(state, range(state.n))
        state.scoring_discs = {}
        state.stage = "scoring_discs"

    else:
        _next_round(state)


def _run_general_scoring(state: GameState) -> None:
    board = state.board
    castillo = board.castillo
    require_scoreboards(state, range(castillo + 1))  # before anything moves
    lines = score_area(state, castillo)
    transfers, moves, grandes = [], [], []
    for q in state.scoring_needed:  # none while the King stands by the Castillo (Rebellion)
        r = state.scoring_discs[q]
        if state.grandes[q] == castillo:
            # Competition: "Then move your Grande using the Secret disc (along with your Caballeros)".
            state.grandes[q] = r
            grandes.append(f"{_name(state, q)}'s Grande goes to {_rname(state, r)}")
        k = state.counts[castillo][q]
        to_court = r == state.king  # the King's region (or a region under a taboo marker): to the court
        if state.markers and not to_court:
            to_court = is_taboo(state, r)
        moves.append(_move(state, q, k, castillo, "court" if to_court else r))
        if not k:
            continue
        state.counts[castillo][q] = 0
        if to_court:
            state.court[q] += k
        else:
            state.counts[r][q] += k
        transfers.append({"player": state.players[q], "count": k, "region": board.region_ids[r],
                          "to_court": to_court})
    dummys = _dummy.leave_castillo(state)  # it sets no disc: back to its supply (rules/dummy.py)
    if dummys:
        moves.append(dummys)
    lines += score_regions(state, list(board.regions))
    _record(state, f"General scoring after round {state.round}", lines, transfers)
    if king_in_castillo(state):
        # Rebellion: "the Caballeros are not moved to regions, throw them back in".
        emptied = "the King stands by the Castillo: everything in it is thrown back in"
    else:
        emptied = "; ".join(["the Castillo is emptied"] + grandes)
    _outcome(state, f"General scoring after round {state.round}: {emptied}", moves, state.scoring_discs)
    state.scoring_needed = []
    state.scoring_discs = {}
    if state.dummy is not None:
        _dummy.reshuffle(state)  # "After each general scoring, shuffle all Region cards"
    _next_round(state)


def _next_round(state: GameState) -> None:
    state.round_index += 1
    state.played = [None] * state.n
    if state.round_index >= len(state.schedule):
        players = _dummy.players_only(state, range(state.n))  # the dummy scores nothing, wins nothing
        best = max(state.scores[q] for q in players)
        state.winners = [q for q in players if state.scores[q] == best]
        state.stage = "over"
    else:
        _begin_round(state)


_APPLY: dict[type, Callable[[GameState, Any], None]] = {
    ev.ActionCardsRevealed: _apply_reveal,
    ev.PowerCardPlayed: _apply_power,
    ev.CourtReplenished: _apply_court_replenished,
    ev.ActionCardChosen: _apply_choose,
    ev.CaballerosPlaced: _apply_place,
    ev.SpecialActionStarted: _apply_special_started,
    ev.SpecialActionSkipped: _apply_special_skipped,
    ev.SpecialActionFinished: _apply_special_finished,
    ev.CaballerosMoved: _apply_moved,
    ev.ExtraCaballerosPlaced: _apply_extra_placed,
    ev.CaballerosSentBack: _apply_sent_back,
    ev.SecretDiscSet: _apply_disc_set,
    ev.CastilloCounted: _apply_castillo_counted,
    ev.SecretDiscsRevealed: _apply_discs_revealed,
    ev.RegionChosen: _apply_region_chosen,
    ev.MobileScoreboardPlaced: _apply_mobile,
    ev.PowerCardTakenBack: _apply_power_back,
    ev.GrandeMoved: _apply_grande,
    ev.KingMoved: _apply_king,
    ev.VetoUsed: _apply_veto_used,
    ev.VetoWaived: _apply_veto_waived,
    ev.TableCorrected: correction.check_and_apply,
    ev.CardSetCompleted: card_entry.apply_completion,
    ev.BoardFactsEntered: card_entry.apply_board_facts,
}


from . import effects as _effects  # noqa: E402,F401  (registers the effects in engine/effects/)
from .rules import dummy as _dummy, new_regency as _new_regency, power_shift as _power_shift  # noqa: E402,I001  (register their stages)
from .rules import king_intrigue as _king_intrigue  # noqa: E402,I001
