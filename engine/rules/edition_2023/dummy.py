"""The 2023 edition's 2-player game: the dummy, a third colour played by the rules.

The rule book (2-player game, "Gameplay changes"), sentence by sentence, and where the
engine does it:

- "At the beginning of each round, draw 2 Region cards. Place 2 Caballeros of the dummy in
  each of the drawn regions. If all 30 are on the game board, do not draw any more Region
  cards. If a card shows the King's region, do not place any Caballeros there. Then place
  the cards on a discard pile. After each general scoring, shuffle all Region cards."
  -> stage "dummy_regions" (ask "dummy_region_cards", event DummyRegionCardsDrawn): the
  table draws, the engine knows which cards are still in the draw pile and refuses the
  others; `reshuffle` after each general scoring.
- "Before you play a Power card, turn over the top Power card from the dummy's stack. Then,
  the player with the First Player marker begins (the dummy never gets the First Player
  marker). As usual, the value of the revealed Power card defines when the dummy makes its
  move. As with other players, you can not play a card with the same value."
  -> stage "dummy_power" (ask "dummy_power_card", event DummyPowerCardRevealed); the stages leave
  the dummy out of the power order and of the first player marker (`players_only`).
- "The dummy always takes the remaining Action card with the most Caballeros shown on the
  bottom. Immediately put this card on the discard pile (or flip it over if it is the
  King's card). The dummy does not use the card. At the end of the round, discard the
  dummy's Power card, too."
  -> `take_turn`, automatic. The book does not say what happens when two remaining cards
  show the same number (possible only with New Regency: a ♠ card's number is its own) or
  when the card set does not know a card's number: then the table says which card the
  dummy took (stage "dummy_card", ask "dummy_action_card", event DummyActionCardTaken).
- "You may move the dummy's Caballeros or send them back from the regions according to the
  normal rules. But if an Action card would require the dummy's action (e.g. choose a
  region), skip the dummy."
  -> engine.primitives' `choosers` and `players_only`: the dummy is never asked anything.
- General scoring: the dummy sets no disc (it is never asked). Its Caballeros reach the
  Castillo only when a player moves them there. The book is silent on them; the nearest
  sentence is "If you choose the King's region with the disc or your disc is not set
  clearly, your Caballeros will return to your Court instead of moving to a region": the
  dummy's disc is never set, so they go back to the dummy's supply beside the board (its
  only "court"), from which its Region cards place Caballeros again (`leave_castillo`).
  With the King by the Castillo (Rebellion) nothing leaves it, the dummy's included.

The dummy's supply is `state.provinces[dummy]` (its court stays 0).
"""

from __future__ import annotations

from ... import events as ev
from ... import primitives as P
from ...errors import RuleViolation
from ...hooks import Part, Stage, register_part
from ...primitives import Ask
from ...queries import king_in_castillo
from ...stages.power import open_power_phase
from ...stages.reveal import ask_reveal
from ...stages.turn import maybe_end_turn
from ...state import TABLE, GameState

PER_CARD = 2  # "Place 2 Caballeros of the dummy in each of the drawn regions"
DRAWN_PER_ROUND = 2


def supply(state: GameState) -> int:
    return state.provinces[state.dummy] + state.court[state.dummy]


# --- Region cards at the beginning of a round ---------------------------------------------


def region_pile(state: GameState) -> list[int]:
    """The Region cards still face down: all nine after a shuffle, less those drawn since."""
    drawn = set(state.region_cards_drawn)
    return [r for r in state.board.regions if r not in drawn]


def cards_to_draw(state: GameState) -> int:
    """Cards the table draws this round: none once all 30 are on the board."""
    if state.dummy is None or not supply(state):
        return 0
    return min(DRAWN_PER_ROUND, len(region_pile(state)))


def round_stage(state: GameState) -> str:
    """The first stage of a round: the dummy's Region cards, unless none are to be drawn."""
    return "dummy_regions" if cards_to_draw(state) else "reveal"


def _ask_regions(state: GameState) -> Ask:
    if not cards_to_draw(state):
        # "If all 30 are on the game board, do not draw any more Region cards" (a correction
        # took the last out after the round began): the Action cards are turned up instead.
        return ask_reveal(state)
    board = state.board
    king = board.region_ids[state.king] if state.king in board.regions else None
    return Ask(
        "dummy_region_cards",
        (TABLE,),
        {
            "draw": cards_to_draw(state),
            "pile": [board.region_ids[r] for r in region_pile(state)],
            "kings_region": king,
            "dummy": state.players[state.dummy],
            # a card outside the King's region then takes the last of them: no second card
            "last_caballeros": supply(state) <= PER_CARD,
        },
    )


def _placements(state: GameState, regions: list[int]) -> list[tuple[int, int]]:
    """(region, Caballeros) for the cards drawn in order; refuses a card drawn too many."""
    left = supply(state)
    out = []
    for r in regions:
        if not left:
            raise RuleViolation(
                "dummy-region-cards",
                "all 30 of the dummy's Caballeros are on the board: "
                "no more Region cards are drawn ('If all 30 are on the game board, do not "
                "draw any more Region cards')",
            )
        k = 0 if r == state.king else min(PER_CARD, left)
        left -= k
        out.append((r, k))
    if len(regions) < cards_to_draw(state) and left:
        raise RuleViolation(
            "dummy-region-cards",
            "draw {count} Region cards for the dummy ('At the beginning of each round, draw 2 Region cards')",
            count=cards_to_draw(state),
        )
    return out


def _apply_regions(state: GameState, e: ev.DummyRegionCardsDrawn) -> None:
    P.expect_stage(state, ("dummy_regions",), P.N_("drawing the dummy's Region cards"))
    regions = [P.region(state, rid, P.N_("a Region card")) for rid in e.regions]
    if len(set(regions)) != len(regions):
        raise RuleViolation("dummy-region-cards", "each Region card is drawn once: the same region is named twice")
    pile = region_pile(state)
    for r in regions:
        if r not in pile:
            raise RuleViolation(
                "dummy-region-cards",
                "the {region} Region card was already drawn since the last shuffle; the draw pile holds {pile}",
                region=P.area_name(state, r),
                pile=[P.area_name(state, q) for q in pile],
            )
    placed = _placements(state, regions)
    d = state.dummy
    moves = []
    for r, k in placed:
        from_provinces = min(k, state.provinces[d])  # its court is its supply too, if ever used
        state.provinces[d] -= from_provinces
        state.court[d] -= k - from_provinces
        state.counts[r][d] += k
        moves.append(P.move_line(state, d, k, "provinces", r))
    state.region_cards_drawn += regions
    names = ", ".join(
        P.area_name(state, r) + (" (the King's region: none placed)" if r == state.king else "") for r in regions
    )
    P.outcome(state, f"Round {state.round}: the dummy's Region cards: {names}", moves)
    state.stage = "reveal"


def reshuffle(state: GameState) -> None:
    """ "After each general scoring, shuffle all Region cards"."""
    state.region_cards_drawn = []


# --- its Power card --------------------------------------------------------------------------


def _ask_power(state: GameState) -> Ask:
    return Ask(
        "dummy_power_card", (TABLE,), {"cards": sorted(state.hands[state.dummy]), "dummy": state.players[state.dummy]}
    )


def _apply_power(state: GameState, e: ev.DummyPowerCardRevealed) -> None:
    P.expect_stage(state, ("dummy_power",), P.N_("turning up the dummy's Power card"))
    d = state.dummy
    if e.card not in state.hands[d]:
        left = sorted(state.hands[d])
        raise RuleViolation(
            "dummy-power-card",
            "the dummy's {card} was turned up in an earlier round; its face-down Power cards are {left}",
            card=e.card,
            left=left,
        )
    state.hands[d].remove(e.card)
    state.played[d] = e.card
    open_power_phase(state)


# --- its turn: the remaining Action card with the most Caballeros -------------------------------


def stacks_to_take(state: GameState) -> tuple[list[int], str]:
    """The stacks whose card the dummy takes: one, or the candidates the table must choose
    from (with why the rule cannot decide)."""
    remaining = {s: state.board.cards[cid] for s, cid in state.revealed.items() if cid is not None}
    unknown = [c.name for c in remaining.values() if c.placement is None]
    if unknown:
        return sorted(remaining), (
            f"the number of Caballeros on {', '.join(unknown)} is not known: which card shows the most?"
        )
    if not remaining:
        return [], ""
    most = max(c.placement for c in remaining.values())
    tied = sorted(s for s, c in remaining.items() if c.placement == most)
    why = (
        ""
        if len(tied) == 1
        else (
            f"{' and '.join(remaining[s].name for s in tied)} show {most} "
            "Caballeros each; the rule book does not say which the dummy takes"
        )
    )
    return tied, why


def take_turn(state: GameState) -> None:
    """The dummy's turn, called when it comes: nothing is asked unless the rule cannot decide."""
    stacks, _ = stacks_to_take(state)
    if len(stacks) == 1:
        _take(state, stacks[0])
    elif not stacks:
        state.turn.placed = state.turn.special_done = True
        maybe_end_turn(state)
    else:
        state.stage = "dummy_card"


def _take(state: GameState, stack: int) -> None:
    turn = state.turn
    cid = state.revealed[stack]
    turn.card, turn.stack = state.board.cards[cid], stack
    state.revealed[stack] = None
    turn.placed = turn.special_done = True  # "The dummy does not use the card"
    kings = stack == P.KINGS_CARD_STACK and not state.rules.new_regency
    fate = "turns it face down" if kings else "discards it unused"
    P.outcome(state, f"{P.name(state, state.dummy)} takes {turn.card.name} (stack {stack}) and {fate}", [])
    maybe_end_turn(state)  # puts the card away: the discard pile, or the King's card face down


def _ask_card(state: GameState) -> Ask:
    stacks, why = stacks_to_take(state)
    return Ask(
        "dummy_action_card",
        (TABLE,),
        {"stacks": {s: state.revealed[s] for s in stacks}, "why": why, "dummy": state.players[state.dummy]},
    )


def _apply_card(state: GameState, e: ev.DummyActionCardTaken) -> None:
    P.expect_stage(state, ("dummy_card",), P.N_("saying which Action card the dummy took"))
    stacks, _ = stacks_to_take(state)
    if e.stack not in stacks:
        raise RuleViolation(
            "dummy-action-card",
            P.N_("the dummy takes the remaining card with the most Caballeros: stack {stacks}, not stack {stack}")
            if len(stacks) == 1
            else P.N_(
                "the dummy takes the remaining card with the most Caballeros: stack {stacks} or {last}, not "
                "stack {stack}"
            ),
            stacks=list(stacks)[:-1] if len(stacks) > 1 else list(stacks),
            last=list(stacks)[-1],
            stack=e.stack,
        )
    _take(state, e.stack)


# --- the general scoring ---------------------------------------------------------------------------


def leave_castillo(state: GameState) -> dict | None:
    """The dummy's Caballeros in the Castillo at a general scoring go back to its supply
    (it sets no disc: see the module's docstring). Returns the table's move, or None."""
    if state.dummy is None or king_in_castillo(state):
        return None
    castillo, d = state.board.castillo, state.dummy
    k = state.counts[castillo][d]
    if not k:
        return None
    state.counts[castillo][d] = 0
    state.provinces[d] += k
    return P.move_line(state, d, k, castillo, "provinces")


# --- playouts -----------------------------------------------------------------------------------


def _choose_regions(rng, pid, o):
    drawn = rng.sample(o["pile"], o["draw"])
    if o["last_caballeros"] and drawn[0] != o["kings_region"]:
        drawn = drawn[:1]
    return ev.DummyRegionCardsDrawn(regions=drawn)


CHOOSERS = {
    "dummy_region_cards": _choose_regions,
    "dummy_power_card": lambda rng, pid, o: ev.DummyPowerCardRevealed(card=rng.choice(o["cards"])),
    "dummy_action_card": lambda rng, pid, o: ev.DummyActionCardTaken(stack=rng.choice(list(o["stacks"]))),
}


def _nothing_to_draw_stages(state: GameState) -> tuple[str, ...]:
    """The dummy's draw is skipped when nothing is left to draw (a correction may take its last
    Caballeros out after the round began): the reveal comes at once."""
    return ("reveal", "dummy_regions") if state.stage == "dummy_regions" and not cards_to_draw(state) else ("reveal",)


def _after_reveal(state: GameState) -> None:
    state.stage = "dummy_power"  # its card is turned up before the players play


def _after_general_scoring(state: GameState) -> None:
    if state.dummy is not None:
        reshuffle(state)  # "After each general scoring, shuffle all Region cards"


REGIONS = Stage("dummy_regions", _ask_regions, {ev.DummyRegionCardsDrawn: _apply_regions})
POWER = Stage("dummy_power", _ask_power, {ev.DummyPowerCardRevealed: _apply_power})
CARD = Stage("dummy_card", _ask_card, {ev.DummyActionCardTaken: _apply_card})
PART = register_part(
    Part(
        "dummy",
        (REGIONS, POWER, CARD),
        hooks={
            "round_stage": lambda state: round_stage(state) if state.dummy is not None else "reveal",
            "reveal_stages": _nothing_to_draw_stages,
            "after_reveal": lambda state: _after_reveal(state) if state.dummy is not None else open_power_phase(state),
            "take_turn": take_turn,
            "leave_castillo": leave_castillo,
            "after_general_scoring": _after_general_scoring,
        },
    )
)
