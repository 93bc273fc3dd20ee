"""The verbs and checks an effect in engine/effects/ is written with.

They live in engine/flow.py (the classic effects use them too); this module gives them
public names so an effect file reads as a short composition of them. Every check raises
RuleViolation before anything changes."""
from __future__ import annotations

from . import flow as _f
from .errors import RuleViolation  # noqa: F401  (effects refuse with it)
from .flow import Ask  # noqa: F401  (effects build Asks)
from .queries import king_in_castillo, king_in_space, kings_neighbours  # noqa: F401
# what may not be changed, and where nothing more may go (the King's region, King and Intrigue's markers)
from .queries import closed_regions, enterable, entry_refusal, is_taboo, room, taboo_reason  # noqa: F401

# lookups that raise a clear RuleViolation
player = _f._player                  # (state, pid) -> seat
area = _f._area                      # (state, area id) -> area index (regions, Castillo)
region = _f._region                  # (state, region id, what) -> region index
name = _f._name                      # (state, seat) -> player's name
area_name = _f._rname                # (state, area index) -> its name
expect_player = _f._expect_player    # (state, pid, seat expected, what) -> seat
expect_special = _f._expect_special  # (state, effects, what) -> Special
not_taboo = _f._not_taboo            # (state, area, doing): the King's region is taboo
can_enter = _f._can_enter            # (state, area, count, doing): taboo, collapsed Castillo, limit table
clockwise_from = _f._clockwise_from  # (state, seat) -> seats clockwise from it
opponents = _f._opponents            # (state, seat) -> the others, from its left

# verbs
finish_special = _f._finish_special  # (state): the special action is over
check_placements = _f._check_placements
do_place = _f._do_place
taken_from_regions = _f._taken_from_regions
check_send_back = _f._check_send_back
do_send_back = _f._do_send_back
send_back_options = _f._send_back_options
move_line = _f._move                 # (state, seat, count, source, target) -> an Outcome move
special_outcome = _f._special_outcome
special_title = _f._special_title
record_scoring = _f._record          # (state, title, lines)
count_castillo = _f._count_castillo  # (state, CastilloCounted): the table's count of the lifted Castillo
ask_lift_castillo = _f._ask_lift_castillo  # (state, special): lift and count it (after the veto window)
disc_ask = _f._disc_ask
movable_targets = _f._move_targets   # areas Caballeros may be moved or thrown to
outcome = _f._outcome                # (state, title, moves, discs): what the table moves by hand
choosers = _f._choosers              # (state, seats) -> those asked a choice: never the dummy
power_cards_to_take_back = _f._power_cards_to_take_back  # (state, seat) -> values
take_back_list = _f.take_back_list     # (state, seat) -> ": 3, 7" while the discard pile is public
placement_areas = _f._placement_areas  # (state) -> area ids a card's placement may go to
placement_limit = _f._placement_limit  # (state, card, placements) -> the card's number, or refuse
maybe_end_turn = _f._maybe_end_turn


def need_params(state, card, *names: str) -> None:
    """Refuse (before anything changes) a card whose parameter the rule book does not give
    and the table has not entered, naming the fact and where to enter it."""
    for pname in names:
        if card.params.get(pname) is None:
            path = f"cards.{card.id}.params.{pname}"
            raise RuleViolation("card-fact-missing", state.board.missing.get(path) or (
                f"what {card.name} does is not known without its {pname}: enter it from your card "
                f"(card file: cards[{card.id}].params.{pname})"))


def space(state, sid: str) -> int:
    """The area index of a space that is not a region (France, Portugal), or refuse."""
    board = state.board
    a = board.area_index.get(sid)
    if a is None or a <= board.castillo:
        spaces = ", ".join(getattr(board, "space_ids", ())) or "none on this board"
        raise RuleViolation("unknown-id", f"{sid!r} is not a space beside the board (spaces: {spaces})")
    return a


def where_id(state, a: int) -> str:
    """The id of where a piece stands: a region, the Castillo or a space."""
    return state.board.area_id(a)


CASTILLO = _f.CASTILLO               # the Castillo's id


def leave_by_outcome(state, sp, q: int, r: int, k: int) -> None:
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


def each_disc_ask(state, sp, regions_of, purpose: str):
    """Every seat in sp.queue sets a secret disc at once, each among regions_of(state, seat)."""
    ids = state.board.region_ids
    allowed = {state.players[q]: [ids[r] for r in regions_of(state, q)] for q in sp.queue}
    return disc_ask(state, sp.queue, sp.discs, allowed, purpose)


def each_disc_set(state, sp, e, regions_of, refusal) -> None:
    """One of them sets their disc: a seat asked now, on a region regions_of allows (else
    refusal(state, seat, region) says which rule it breaks)."""
    p = player(state, e.player)
    r = region(state, e.region, "a secret disc")
    if p not in sp.queue:
        raise RuleViolation("secret-disc", f"{name(state, p)} is not asked for a secret disc now")
    if r not in regions_of(state, p):
        raise RuleViolation("secret-disc", refusal(state, p, r))
    sp.discs[p] = r
