"""The verbs and checks the stages (engine/stages/) and the effects (engine/effects/) are
written with: lookups that refuse clearly, stage and turn checks, moving Caballeros, and
recording a scoring or an outcome for the table. Every check raises RuleViolation before
anything changes; nothing here moves the game to another stage (engine/stages/turn.py does)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import events as ev
from .ask_words import asked_words
from .board.model import CASTILLO, ActionCard
from .errors import N_ as N_
from .errors import Card as Card
from .errors import CardText as CardText
from .errors import Place as Place
from .errors import RuleViolation
from .errors import Said as Said
from .errors import fact_refusal as fact_refusal
from .errors import plural as plural

# what may not be changed, and where nothing more may go (the King's region, King and Intrigue's markers)
from .queries import enterable, entry_refusal, is_taboo, kings_neighbours, taboo_reason, tokens_out
from .scoring import ScoreLine, apply_lines
from .state import GameState, Outcome, ScoringRecord, Special, Turn, closed_regions

if TYPE_CHECKING:
    from .board.model import ActionCard
    from .state import GameState, Special

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
        return {
            "kind": self.kind,
            "players": list(self.players),
            "options": self.options,
            "vetoes": list(self.vetoes),
            "card": self.card,
            "round": self.round,
            "stage": self.stage,
        }


def player(state: GameState, pid: str) -> int:
    p = state.player_index(pid)
    if p is None:
        raise RuleViolation(
            "unknown-id",
            "{player!r} is not a player in this game (players: {players})",
            player=pid,
            players=state.players,
        )
    return p


def area(state: GameState, aid: str) -> int:
    a = state.board.area_index.get(aid)
    if a is None:
        raise RuleViolation(
            "unknown-id",
            "{area!r} is not a region or the Castillo (regions: {regions})",
            area=aid,
            regions=state.board.region_ids,
        )
    if a > state.board.castillo:
        # 2023: "France and Portugal do not count as regions, so you may never place
        # Caballeros there (nor your Grande or the King)"; only Exile sends the King there.
        raise RuleViolation(
            "not-a-region",
            "{area} is not a region: no Caballero, Grande or Scoring tile ever goes there (only the King, with Exile)",
            area=state.board.area_name(a),
        )
    return a


def region(state: GameState, rid: str, what: str) -> int:
    a = area(state, rid)
    if a == state.board.castillo:
        raise RuleViolation("unknown-id", "{what} must be a region; the Castillo is not a region", what=Said(what))
    return a


def name(state: GameState, p: int) -> str:
    return state.names[state.players[p]]


def area_name(state: GameState, a: int) -> str:
    return state.board.area_name(a)


def expect_stage(state: GameState, stages: tuple[str, ...], what: str) -> None:
    if state.stage == "over" and "over" not in stages:
        raise RuleViolation("game-over", "{what} is not possible: the game is over", what=Said(what))
    if state.stage not in stages:
        now = _asked(state)
        raise RuleViolation(
            "phase-order",
            N_("{what} is not possible now: the game waits for {asked} from {players}")
            if now.players
            else N_("{what} is not possible now: the game waits for {asked}"),
            what=Said(what),
            asked=asked_words(now.kind),
            players=list(now.players),
        )


def expect_player(state: GameState, pid: str, expected: int, what: str) -> int:
    p = player(state, pid)
    if p != expected:
        raise RuleViolation(
            "turn-order",
            "{who} cannot {what} now: it is {whose_turn}'s turn",
            who=name(state, p),
            what=Said(what),
            whose_turn=name(state, expected),
        )
    return p


def current_turn(state: GameState) -> Turn:
    """The turn under way: every stage of a turn, and its special action, has one."""
    turn = state.turn
    assert turn is not None
    return turn


def turn_card(state: GameState) -> ActionCard:
    """The Action card of the turn under way: chosen before its placement and special action."""
    card = current_turn(state).card
    assert card is not None
    return card


def expect_special(state: GameState, effects: tuple[str, ...], what: str) -> Special:
    expect_stage(state, ("special",), what)
    sp = state.special
    assert sp is not None  # the "special" stage has its special action
    if sp.effect not in effects:
        raise RuleViolation(
            "special-action",
            "{what} is not part of {card}: {text}",
            what=Said(what),
            card=Card(sp.card.name),
            text=CardText(sp.card.text),
        )
    return sp


def not_taboo(state: GameState, a: int, doing: str) -> None:
    """The King's region (and, King and Intrigue, a region under a taboo marker) may not be
    changed in any way (engine/queries.py)."""
    if a == state.king or (state.markers and tokens_out(state)):
        why = taboo_reason(state, a)
        if why is not None:
            raise RuleViolation(
                "kings-region-taboo",
                "cannot {doing} {area}: {why}",
                doing=Said(doing),
                area=area_name(state, a),
                why=why,
            )


def can_enter(state: GameState, a: int, count: int, doing: str) -> None:
    """`count` Caballeros may go into area `a`: not taboo, nor (King and Intrigue) a collapsed
    Castillo or a full limit table (engine/queries.py)."""
    if a == state.king or (state.markers and tokens_out(state)):
        why = entry_refusal(state, a, count)
        if why is not None:
            raise RuleViolation(
                "kings-region-taboo" if is_taboo(state, a) else "castillo-collapse",
                "cannot {doing} {area}: {why}",
                doing=Said(doing),
                area=area_name(state, a),
                why=why,
            )


def clockwise_from(state: GameState, first: int) -> list[int]:
    return [(first + i) % state.n for i in range(state.n)]


def opponents(state: GameState, p: int) -> list[int]:
    """Other players, clockwise starting at p's left."""
    return clockwise_from(state, p)[1:]


def choosers(state: GameState, seats: list[int]) -> list[int]:
    """The seats an effect asks a choice of: never the 2-player game's dummy ("if an Action
    card would require the dummy's action (e.g. choose a region), skip the dummy")."""
    return [q for q in seats if q != state.dummy]


def undrawn(state: GameState, stack: int) -> dict[str, int]:
    undrawn = state.stacks_undrawn[stack - 1]
    if not any(undrawn.values()):
        # Every card has been seen: the stack's bottom comes round again.
        undrawn = {}
        for cid in state.stacks_bottom[stack - 1]:
            undrawn[cid] = undrawn.get(cid, 0) + 1
    return undrawn


def played_values(state: GameState) -> set[int]:
    """Values played this round: the Power cards', or as a part counts them (Power Shift's totals)."""
    values = state.rules.hooks.played_values
    return {c for c in state.played if c is not None} if values is None else values(state)


def power_totals(state: GameState) -> list[int | None]:
    """Every seat's value played this round (with Power Shift: its total), by seat."""
    totals = state.rules.hooks.power_totals
    return state.played if totals is None else totals(state)


def known_unavailable(state: GameState, p: int, played: set[int] | None = None) -> list[int]:
    """Values everyone knows p cannot play now: played this round, or laid down by p in an
    earlier round (unless p once took a card back: which one stays secret)."""
    gone = set(played_values(state) if played is None else played)
    if not state.took_back_any[p]:
        gone |= state.power_spent[p]
    return sorted(gone)


def placement_areas(state: GameState) -> list[str]:
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


def placement_unknown(state: GameState, card: ActionCard) -> RuleViolation:
    return fact_refusal(
        "card-fact-missing",
        state.board.missing.get(f"cards.{card.id}.placement"),
        "how many Caballeros {card} places is not known: enter it from your card (card file: cards[{id}].placement)",
        card=Card(card.name),
        id=card.id,
    )


def placement_limit(state: GameState, card: ActionCard, placements: dict[str, int]) -> int:
    """The Caballeros a card lets you place; refuses (naming the fact) to place any while the
    card set does not know the number."""
    if card.placement is None:
        if any(placements.values()):
            raise placement_unknown(state, card)
        return 0
    return card.placement


def check_placements(
    state: GameState, p: int, placements: dict[str, int], limit: int, allowed: Callable[[int], None]
) -> dict[int, int]:
    out: dict[int, int] = {}
    for aid, c in placements.items():
        if not c:
            continue
        a = area(state, aid)
        allowed(a)
        out[a] = out.get(a, 0) + c
    if state.markers and tokens_out(state):  # King and Intrigue: a collapsed Castillo
        for a, c in out.items():
            can_enter(state, a, c, N_("place Caballeros in"))
    total = sum(out.values())
    if total > state.court[p]:
        raise RuleViolation(
            "placement-limit",
            "{who} has only {court} Caballeros in the court, not {total}",
            who=name(state, p),
            court=state.court[p],
            total=total,
        )
    if total > limit:
        raise RuleViolation(
            "placement-limit", "this card places at most {limit} Caballeros, not {total}", limit=limit, total=total
        )
    return out


def do_place(state: GameState, p: int, placed: dict[int, int]) -> None:
    for a, c in placed.items():
        state.counts[a][p] += c
        state.court[p] -= c


def movable_targets(state: GameState) -> list[str]:
    """Regions but the King's, and the Castillo unless the King stands there (Rebellion)."""
    board = state.board
    if not (state.markers and tokens_out(state)):
        castillo = [] if state.king == board.castillo else [CASTILLO]
        return [board.region_ids[r] for r in board.regions if r != state.king] + castillo
    closed = closed_regions(state)  # King and Intrigue's markers
    return enterable(state, [board.region_ids[r] for r in board.regions if r not in closed] + [CASTILLO])


def power_cards_to_take_back(state: GameState, p: int) -> list[int]:
    cards = set(state.discards[p])
    played = state.played[p]
    if played is not None and not state.take_back_played[p]:
        cards.add(played)
    return sorted(cards)


def take_back_list(state: GameState, p: int) -> list[int]:
    """The cards p may take back, for a refusal read by the whole table, while the discard pile
    is public (every card laid down and none taken back: after a take-back, which one is secret:
    then none are listed)."""
    return [] if state.took_back_any[p] else power_cards_to_take_back(state, p)


def hand_secret(state: GameState, p: int) -> bool:
    """Whether p's hand is more than everyone knows: King and Intrigue's 13 kept of the cards
    dealt, or a card taken back (which one is secret). Else it is every card less those laid down."""
    return state.rules.king_intrigue or state.took_back_any[p]


def not_in_hand(state: GameState, p: int, card: int) -> RuleViolation:
    """A Power card p does not hold, refused in words the whole table may read. A hand everyone
    knows: a card laid down in an earlier round is named so. A secret hand: the same words for
    every card not held (left out, never dealt, laid down, not the one taken back), nor the hand
    listed; why goes to p alone (`private`: on their phone or behind the private screen)."""
    who = name(state, p)
    if not hand_secret(state, p):
        return RuleViolation(
            "power-card-in-hand",
            N_("{who} has no Power card {card} in hand: it was played in an earlier round")
            if card in state.power_spent[p]
            else N_("{who} has no Power card {card} in hand: not a card of this game"),
            who=who,
            card=card,
        )
    return RuleViolation(
        "power-card-in-hand",
        "{who} cannot play Power card {card} now: what a hand holds is secret, so {who} sees why on their phone "
        "or behind the private screen",
        private=(state.players[p], _not_held_why(state, p, card)),
        who=who,
        card=card,
    )


def _not_held_why(state: GameState, p: int, card: int) -> Said:
    """Why p does not hold `card`, in words for p alone."""
    if card in state.power_spent[p]:
        if state.took_back_any[p]:
            return Said(
                N_(
                    "You laid Power card {card} down in an earlier round and did not take it back: it is not "
                    "in your hand."
                ),
                card=card,
            )
        return Said(N_("You laid Power card {card} down in an earlier round: it is not in your hand."), card=card)
    ki_cards = state.board.ki_cards
    if ki_cards is not None and card in ki_cards.by_value(state.rules.modules):
        return Said(
            N_("You left Power card {card} out of your hand at the start of the game: it is not in your hand."),
            card=card,
        )
    return Said(N_("Power card {card} is not one of your cards in this game."), card=card)


def record_scoring(state: GameState, title: str, lines: list[ScoreLine], transfers: list | None = None) -> None:
    apply_lines(state, lines)
    state.scoring_log.append(ScoringRecord(state.round, title, lines, transfers or []))


def move_line(state: GameState, q: int, count: int, source: int | str, target: int | str) -> dict:
    """One instruction for the table; source and target are area indexes or "court"/"provinces"."""

    def where(a: int | str) -> str:
        return a if isinstance(a, str) else state.board.area_id(a)

    return {"player": state.players[q], "count": count, "source": where(source), "target": where(target)}


def outcome(state: GameState, title: str, moves: list[dict], discs: dict[int, int] | None = None) -> None:
    state.outcomes.append(
        Outcome(
            state.round,
            title,
            {state.players[q]: state.board.region_ids[r] for q, r in (discs or {}).items()},
            [m for m in moves if m["count"]],
        )
    )


def special_outcome(state: GameState, sp: Special, discs: dict[int, int] | None = None) -> None:
    outcome(state, f"{sp.card.name}, played by {name(state, sp.player)}", sp.moves, discs)


def special_title(state: GameState, sp: Special, what: str) -> str:
    return f"{sp.card.name} ({what}), played by {name(state, sp.player)}"


def veto_holders(state: GameState, exclude: int) -> list[int]:
    if not state.vetoes:
        return []
    holders = {q for q, _ in state.vetoes if q != exclude}
    return [q for q in clockwise_from(state, exclude) if q in holders]


def veto_stops_whole_only(state: GameState) -> bool:
    """2023 Veto: "You must immediately decide whether you want to prevent this Special
    action. You cannot cancel a Special action if it has already begun." (The classic Veto
    may also stop the rest of one under way.)"""
    cid = next((c.id for c in state.board.cards.values() if c.effect in VETO_EFFECTS), None)
    return cid is not None and state.board.cards[cid].effect == "veto_2023"


def veto_card(state: GameState) -> str:
    return next(c.id for c in state.board.cards.values() if c.effect in VETO_EFFECTS)


def put_away_used(state: GameState, stack: int | None, cid: str) -> None:
    """An Action card used or left over. Classic: under its stack, to come round again.
    2023: face up on the discard pile; the King's card is never discarded (it is turned
    face down as stack 5 once used), but a New Regency card is."""
    if stack == KINGS_CARD_STACK and state.rules.hooks.stack5_check is None:
        return
    if state.rules.discard_pile:
        state.discard_pile.append(cid)
    elif stack in (1, 2, 3, 4):
        state.stacks_bottom[stack - 1].append(cid)


def lifting_castillo(state: GameState) -> bool:
    """The Castillo scoring card's special action has begun and waits for the table's count."""
    sp = state.special
    return (
        state.stage == "special"
        and sp is not None
        and sp.effect in CASTILLO_SCORING_EFFECTS
        and state.castillo_after_veto
    )


def count_castillo(state: GameState, e: ev.CastilloCounted) -> None:
    castillo = state.board.castillo
    counts = {player(state, pid): c for pid, c in e.counts.items()}
    for p, c in counts.items():
        spare = state.provinces[p] + state.counts[castillo][p]
        if c > spare:
            raise RuleViolation(
                "castillo-count",
                "{who} cannot have {count} in the Castillo: only {spare} of their Caballeros are not elsewhere "
                "on the table",
                who=name(state, p),
                count=c,
                spare=spare,
            )
    for p, c in counts.items():
        state.provinces[p] += state.counts[castillo][p] - c
        state.counts[castillo][p] = c


def ask_lift_castillo(state: GameState, sp: Special) -> Ask:
    """The Castillo scoring card, let pass by every Veto holder: the table lifts the Castillo
    and counts it (CastilloCounted), then it is scored."""
    return Ask("lift_castillo", (state.players[sp.player],), {})


# What the game waits for now, named in a refusal of something out of turn: engine/flow.py's
# `asked`, set when the flow is imported (the flow builds on these verbs, not they on it).
_asked: Callable[[GameState], Ask]


def waits_for(asked: Callable[[GameState], Ask]) -> None:
    global _asked
    _asked = asked


def players_only(state: GameState, seats: Iterable[int]) -> list[int]:
    """The seats that are players: a seat the table plays by rule (the 2-player game's dummy)
    is never asked, and never first player."""
    dummy = state.dummy
    return list(seats) if dummy is None else [q for q in seats if q != dummy]


def need_params(state: GameState, card: ActionCard, *names: str) -> None:
    """Refuse (before anything changes) a card whose parameter the rule book does not give
    and the table has not entered, naming the fact and where to enter it."""
    for pname in names:
        if card.params.get(pname) is None:
            path = f"cards.{card.id}.params.{pname}"
            raise fact_refusal(
                "card-fact-missing",
                state.board.missing.get(path),
                "what {card} does is not known without its {param}: enter it from your card "
                "(card file: cards[{id}].params.{param})",
                card=Card(card.name),
                param=pname,
                id=card.id,
            )


def space(state: GameState, sid: str) -> int:
    """The area index of a space that is not a region (France, Portugal), or refuse."""
    board = state.board
    a = board.area_index.get(sid)
    if a is None or a <= board.castillo:
        spaces = list(getattr(board, "space_ids", ()))
        raise RuleViolation(
            "unknown-id",
            N_("{space!r} is not a space beside the board (spaces: {spaces})")
            if spaces
            else N_("{space!r} is not a space beside the board (spaces: none on this board)"),
            space=sid,
            spaces=spaces,
        )
    return a


def where_id(state: GameState, a: int) -> str:
    """The id of where a piece stands: a region, the Castillo or a space."""
    return state.board.area_id(a)


def leave_by_outcome(state: GameState, sp: Special, q: int, r: int, k: int) -> None:
    """`k` of seat `q`'s Caballeros leave region `r` by the card's `outcome` ("to_court": into
    their court; "send_back": to the provinces), said in the special action's moves."""
    if not k:
        return
    to_court = sp.card.params["outcome"] == "to_court"
    state.counts[r][q] -= k
    if to_court:
        state.court[q] += k
    else:
        state.provinces[q] += k
    sp.moves.append(move_line(state, q, k, r, "court" if to_court else "provinces"))
