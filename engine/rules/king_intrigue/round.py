"""King and Intrigue: the round where Power cards carry the special actions.

Rule text (king-and-intrigue-expansion.md):
  Setup: "After all players have determined their home region, each of them will place 1
  Caballero on the board. All players choose a region on their secret disc (not the King's
  region) and reveal their choice simultaneously. Each player places 1 Caballero from the
  Province in their chosen region." -- "Of these 18 cards, each player will secretly choose
  13 of them with which he will play the game ... without showing the other players."
  Round: "After all players have played a Power card, the player who played the highest
  numbered card takes the King's Card. Then the other players in descending Power card
  order each take the Action card offering the most Caballeros from those remaining. The
  player with the lowest numbered Power card takes the Intrigue card. Then each player
  takes their turn, starting with the player who has the King's Card, and proceeding in
  descending Power card order." -- "On his turn, a player first takes a number of
  Caballeros from the Province into his Court equal to the number of Caballeros depicted
  on his Power card (... may choose to take fewer). Then, in the order of his choice, the
  player executes his special action and places a number of Caballeros from his Court onto
  the board." -- "Exception: In a 4- or 5-player game, the players with the King's Card
  and Intrigue card will only perform the action specified on that Action card. ... In a
  2- or 3-player game, the King's Card and Intrigue card offer a choice between two
  actions." -- "each player discards their Power card to his facedown discard pile."

How the engine reads it where the text is terse:
- The 2-3 player "choice between two actions": the Action card's action or the Power
  card's own (the Player's Edition rules say so: "the player with the highest card has the
  choice between the King's action and the special action on his played card"). The
  Intrigue card's own action is itself one of two (move 1 own or 1 foreign Caballero, or
  all your Caballeros from one region), so its holder chooses among three.
- Setup order: the discs first (the text lists them first), then the 13 cards.
- The Veto (40) is held from the start of its holder's turn (taking it is holding it, as
  in the base game) until used or the end of the next round.
- Everything else is the base game's: the start player is the lowest card's, general
  scorings after rounds 3, 6 and 9, the classic board and scoreboards.

The stages (engine/stages/) play the turn itself; this part plugs into them through named
hooks (engine/hooks.py): its own setup stages, the power cards' values and the turn's card,
and the 2x markers at a general scoring. Its hooks `before_event`, `own_step` and
`after_event` order every event of a King and Intrigue game around the stages' steps
(engine.stages.play_event).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ... import events as ev
from ... import primitives as P
from ...board.model import ActionCard
from ...effects import alliance, bridge, espionage, joker, ki_tokens, relocate, revolt, table_for_six
from ...errors import N_, RuleViolation, joined, plural
from ...hooks import Part, Stage, register_part, register_round
from ...primitives import Ask
from ...scoring import regions_in_group
from ...secret_discs import disc_ask
from ...stages import HELD, play_event
from ...stages.end_of_round import OVER
from ...stages.power import POWER, open_power_phase
from ...stages.replenish import REPLENISH
from ...stages.scoring import SCORING
from ...stages.special import SPECIAL
from ...stages.turn import TURN, begin_special, maybe_end_turn, start_refusal, take_veto
from ...stages.veto_window import VETO_WINDOW
from ...state import GameState, Special, closed_regions
from . import cards as ki_cards
from .general_scoring import DOUBLE_MARKERS, general_scoring, limited_now, reverse_special

if TYPE_CHECKING:
    from ...events import Event

SETUP_DISCS = "ki_setup_discs"
CHOOSE_HAND = "ki_choose_hand"
CHOICE = "ki_choice"  # a turn card that offers the Action card's action or the Power card's


# --- setup -----------------------------------------------------------------------------------


def prepare(state: GameState) -> None:
    """The position after the base game's setup: refuse an incomplete card set, deal each
    player their whole set, and ask for the setup discs."""
    board = state.board
    missing = ki_cards.missing_for(board, state.n, state.rules.modules)
    if missing:
        raise RuleViolation(
            "card-set-incomplete",
            plural(
                "the King and Intrigue card set is not complete for this game ({n} fact missing): {facts}",
                "the King and Intrigue card set is not complete for this game ({n} facts missing): {facts}",
            ),
            n=len(missing),
            facts="; ".join(missing),
        )
    values = set(board.ki_cards.by_value(state.rules.modules))
    state.hands = [set(values) for _ in range(state.n)]
    state.markers = {
        m: None
        for m in DOUBLE_MARKERS
        + alliance.MARKERS
        + (relocate.MARKER,)
        + tuple(revolt.marker(sid) for sid in revolt.SCOREBOARDS)
    }
    state.scoring_needed = list(range(state.n))
    state.scoring_discs = {}
    state.stage = SETUP_DISCS


def hand_size(state: GameState) -> int:
    return min(state.board.ki_cards.hand_size, len(state.board.ki_cards.by_value(state.rules.modules)))


def _ask_setup_discs(state: GameState) -> Ask:
    board = state.board
    closed = closed_regions(state)
    regions = [board.region_ids[r] for r in board.regions if r not in closed]
    allowed = {state.players[p]: regions for p in state.scoring_needed}
    return disc_ask(state, state.scoring_needed, state.scoring_discs, allowed, "setup_caballero")


def _disc_set(state: GameState, e: ev.SecretDiscSet) -> None:
    p = P.player(state, e.player)
    r = P.region(state, e.region, P.N_("a secret disc"))
    P.not_taboo(state, r, P.N_("place the setup Caballero in"))
    state.scoring_discs[p] = r


def _discs_revealed(state: GameState, e: ev.SecretDiscsRevealed) -> None:
    missing = [q for q in state.scoring_needed if q not in state.scoring_discs]
    if missing:
        raise RuleViolation(
            "secret-disc",
            "all discs are revealed together; still to choose: {waiting}",
            waiting=[P.name(state, q) for q in missing],
        )
    moves = []
    for q, r in state.scoring_discs.items():
        state.provinces[q] -= 1
        state.counts[r][q] += 1
        moves.append(P.move_line(state, q, 1, "provinces", r))
    P.outcome(
        state,
        "Setup: each player places 1 Caballero from the province where their disc shows",
        moves,
        state.scoring_discs,
    )
    state.scoring_needed, state.scoring_discs = [], {}
    state.stage = CHOOSE_HAND if hand_size(state) < len(state.hands[0]) else "reveal"


def _chosen_players(state: GameState) -> list[int]:
    keep = hand_size(state)
    return [p for p in range(state.n) if len(state.hands[p]) == keep]


def _ask_choose_hand(state: GameState) -> Ask:
    done = set(_chosen_players(state))
    waiting = tuple(state.players[p] for p in range(state.n) if p not in done)
    values = sorted(state.board.ki_cards.by_value(state.rules.modules))
    return Ask(
        "choose_power_cards",
        waiting,
        {"cards": values, "keep": hand_size(state), "chosen": [state.players[p] for p in sorted(done)]},
    )


def _apply_hand_chosen(state: GameState, e: ev.PowerCardsChosen) -> None:
    P.expect_stage(state, (CHOOSE_HAND,), P.N_("choosing the Power cards for the game"))
    p = P.player(state, e.player)
    keep = hand_size(state)
    if len(state.hands[p]) == keep:
        raise RuleViolation(
            "power-cards-chosen", "{who} has already chosen their {keep} Power cards", who=P.name(state, p), keep=keep
        )
    cards = set(e.cards)
    if len(cards) != len(e.cards) or len(cards) != keep:
        raise RuleViolation(
            "power-cards-chosen",
            N_("choose {keep} different Power cards, not {got} (a value twice)")
            if len(cards) != len(e.cards)
            else N_("choose {keep} different Power cards, not {got}"),
            keep=keep,
            got=len(e.cards),
        )
    stray = sorted(cards - state.hands[p])
    if stray:
        raise RuleViolation(
            "power-cards-chosen",
            "{stray}: not a Power card of this game (values: {values})",
            stray=stray,
            values=sorted(state.hands[p]),
        )
    state.hands[p] = cards  # the rest leave the game unseen
    if len(_chosen_players(state)) == state.n:
        state.stage = "reveal"
    _settle(state)


# --- the round: who holds which Action card, and the turn's card ------------------------------


def action_cards_by_rank(state: GameState) -> dict[int, tuple[str, int]]:
    """Seat -> (Action card id, Caballeros it places) for this round's played Power cards:
    the highest the King's Card, then descending the remaining card showing the most
    Caballeros, the lowest the Intrigue card."""
    return _by_rank(tuple(state.played), state.board.ki_cards.placements[state.n])


@lru_cache(maxsize=256)
def _by_rank(played: tuple, row: tuple) -> dict[int, tuple[str, int]]:
    ranked = sorted(range(len(played)), key=lambda q: -played[q])
    out = {ranked[0]: ("kings_card", row[-1]), ranked[-1]: ("intrigue", row[0])}
    middle = sorted(row[1:-1], reverse=True)
    for q, placement in zip(ranked[1:-1], middle):
        out[q] = ("caballero", placement)
    return out


def _power_card(state: GameState, p: int) -> ActionCard:
    card = state.board.ki_cards.by_value(state.rules.modules)[state.played[p]]
    return state.board.cards[card.id]


def turn_sources(state: GameState, p: int) -> dict[str, tuple]:
    """The special actions p may carry out this turn: option -> (card, effect). One entry
    with option None when there is no choice; empty when there is nothing to do."""
    action_id, _ = action_cards_by_rank(state)[p]
    power = _power_card(state, p)
    own = {} if power.effect == ki_cards.NO_ACTION else {"power_card": (power, power.effect)}
    if action_id == "caballero":
        return {None: own["power_card"]} if own else {}
    action = state.board.cards[action_id]
    if action.effect == "choice":
        card_options = {f"{action_id}_{o}": (action, o) for o in action.params["options"]}
    else:
        card_options = {action_id: (action, action.effect)}
    if state.n >= 4 or not own:  # 4-5 players: only the Action card's action (the flow offers its options)
        return {None: (action, action.effect)}
    return {**card_options, **own}


def _deal_turn_card(state: GameState) -> None:
    """The turn's card: what it places (the Action card) and its special action (the Power
    card's, the Action card's, or a choice of them)."""
    turn = state.turn
    p = turn.player
    _, placement = action_cards_by_rank(state)[p]
    sources = turn_sources(state, p)
    power = _power_card(state, p)
    if not sources:
        turn.card = _placing(state, power, placement)
        turn.special_done = True  # no action of its own (the 10 and 180 hold an Action card's)
        return
    if None in sources:
        card, _ = sources[None]
        turn.card = _placing(state, card, placement)
        if card.effect in P.VETO_EFFECTS and state.veto_on_take:
            take_veto(state, p)
        return
    names = " or ".join(
        card.name if option == "power_card" else f"{card.name}: {effect.replace('_', ' ')}"
        for option, (card, effect) in sources.items()
    )
    turn.card = dataclasses.replace(
        power, effect=CHOICE, params={"options": list(sources)}, placement=placement, text=f"Choose one: {names}"
    )


def _placing(state: GameState, card: ActionCard, placement: int) -> ActionCard:
    """The card with the Action card's number to place (made once per card set: every turn asks)."""
    made = state.board.ki_cards.turn_cards
    key = (card.id, placement)
    found = made.get(key)
    if found is None:
        found = made[key] = dataclasses.replace(card, placement=placement)
    return found


def _start_chosen(state: GameState, e: ev.SpecialActionStarted) -> None:
    """2-3 players: the King's Card or Intrigue card holder chose between two actions."""
    turn = state.turn
    p = P.expect_player(state, e.player, turn.player, P.N_("start a special action"))
    if turn.special_done:
        raise RuleViolation("either-order", "{who} has already done the special action", who=P.name(state, p))
    sources = turn_sources(state, p)
    if e.option not in sources:
        raise RuleViolation(
            "special-action",
            "{who} chooses one of {sources}, got {option!r}",
            who=P.name(state, p),
            sources=list(sources),
            option=e.option,
        )
    card, effect = sources[e.option]
    refusal = start_refusal(state, card, effect, p)
    if refusal is not None:
        raise refusal
    if effect in P.VETO_EFFECTS:
        take_veto(state, p)
        maybe_end_turn(state)
        return
    sp = Special(card=card, effect=effect, player=p)
    sp.vetoes_pending = P.veto_holders(state, exclude=p)
    state.special = sp
    if sp.vetoes_pending:
        state.stage = "veto_window"
    else:
        begin_special(state)


def adjust_ask(state: GameState, ask: Ask) -> None:
    """The asks as this rule set has them: the Joker offered only when it may be played;
    the turn's asks say which Action card the player holds (public: it came by rank)."""
    if ask.kind == "play_power_card":
        jokers = state.board.ki_cards.joker_values(state.rules.modules)
        if jokers:
            p = state.power_order[state.power_pos]
            ask.options["cards"] = [
                c for c in ask.options["cards"] if c not in jokers or joker.joker_playable(state, p, c)
            ]
            if p in state.power_order[: state.power_pos]:  # the Joker laid down, face up: public
                ask.options["after_joker"] = True
    elif ask.kind in ("replenish", "turn_action") and state.turn is not None:
        ask.options["action_card"] = action_cards_by_rank(state)[state.turn.player][0]
        special = ask.options.get("special") if ask.kind == "turn_action" else None
        if special and state.turn.card.effect == CHOICE:
            _offer_startable(state, special)


def _offer_startable(state: GameState, special: dict) -> None:
    """2-3 players' choice: only the actions that may start now (e.g. the bridge needs a
    Caballero in the court); none: the refusals said, only skipping is possible."""
    p = state.turn.player
    sources = turn_sources(state, p)
    refusals = {o: start_refusal(state, card, effect, p) for o, (card, effect) in sources.items()}
    startable = [o for o in special["options"] if refusals.get(o) is None]
    if len(startable) < len(special["options"]):
        special["options"] = startable
        if not startable:
            special["refused"] = joined([r for r in refusals.values() if r is not None])


# --- the bridge: free moves directly before its owner's turn (Player's Edition) ----------------

BRIDGE = "ki_bridge"
SPY = "ki_spy"  # Espionage: the spies move, or stay, directly before a general scoring
SPY_SPECIAL = "ki_spy_special"  # ... or directly before a special scoring (its event held back)
_SPECIAL_STAGES = ("turn", "veto_window", "special")


def _scored_by(state: GameState, event: Event) -> list[str]:
    """The regions a special scoring started by `event` would score (tried on a clone), that a
    spy may join (not taboo); [] when the event scores nothing or is refused."""
    trial = state.clone()
    trial.aside = {}  # no window in the trial
    try:
        play_event(trial, event)
    except RuleViolation:
        return []
    board = state.board
    if len(trial.scoring_log) == len(state.scoring_log):
        return []
    scored = {
        board.area_index.get(ln.area) for record in trial.scoring_log[len(state.scoring_log) :] for ln in record.lines
    }
    scored |= _named_regions(state, event)  # a region scored with nobody in it has no line
    closed = closed_regions(state)
    return [board.region_ids[r] for r in board.regions if r in scored and r not in closed]


def _named_regions(state: GameState, event: Event) -> set[int]:
    """Regions a scoring names whatever stands there: the region chosen, a group's regions, all
    of them for "1st place only"."""
    board = state.board
    if type(event) is ev.RegionChosen:
        r = board.area_index.get(event.region)
        return {r} if r is not None and r < board.castillo else set()
    card, effect = None, None
    if type(event) is ev.SpecialActionStarted and state.turn is not None and state.turn.card is not None:
        card, effect = state.turn.card, state.turn.card.effect
        if effect == CHOICE:
            card, effect = turn_sources(state, state.turn.player).get(event.option, (None, None))
    elif state.special is not None:
        card, effect = state.special.card, state.special.effect
    if effect == "score_group":
        return set(regions_in_group(state, card.params["group"]))
    if effect == "score_first_only":
        return set(board.regions)
    return set()


def _spy_decided(state: GameState) -> None:
    """A spy's owner decided; the last one lets the held-back special scoring go on."""
    if state.stage == SPY_SPECIAL and not espionage.pending(state):
        stage, event, _ = state.deferred
        state.deferred, state.stage = None, stage
        play_event(state, event)
        state.event_count -= 1  # counted once, when it came
        state.markers["spies_decided"] = None


def _bridge_done(state: GameState, e: ev.SpecialActionFinished) -> None:
    P.expect_player(state, e.player, state.turn.player, P.N_("finish crossing the bridge"))
    state.stage = "replenish"


# --- its order around the stages' steps (before_event, own_step, after_event) --------------------

Step = Callable[[GameState, Any], None]  # one event's step: check, then apply

_STEPS: dict[tuple[str, type], Step] = {
    (SETUP_DISCS, ev.SecretDiscSet): _disc_set,
    (SETUP_DISCS, ev.SecretDiscsRevealed): _discs_revealed,
    ("scoring_discs", ev.SecretDiscsRevealed): general_scoring,
    (BRIDGE, ev.CaballerosMoved): lambda state, e: bridge.crossed(state, e),
    (BRIDGE, ev.SpecialActionFinished): _bridge_done,
    (SPY, ev.RegionChosen): lambda state, e: espionage.moved(state, e),
    (SPY, ev.SpecialActionSkipped): lambda state, e: espionage.kept(state, e),
    (SPY_SPECIAL, ev.RegionChosen): lambda state, e: _spy_decided_after(espionage.moved, state, e),
    (SPY_SPECIAL, ev.SpecialActionSkipped): lambda state, e: _spy_decided_after(espionage.kept, state, e),
}
_STEP_STAGES = frozenset(stage for stage, _ in _STEPS)


def _spy_decided_after(step: Step, state: GameState, e: Event) -> None:
    """A spy's move or stay before a special scoring, then the held-back event once every spy is decided."""
    step(state, e)
    _spy_decided(state)


def before_event(state: GameState, event: Event) -> object:
    """Before any step of a King and Intrigue game: no card set to complete; Espionage's spies
    before a special scoring (the event held back); what after_event needs."""
    if type(event) is ev.CardSetCompleted:
        raise RuleViolation(
            "card-set",
            "a King and Intrigue card set is complete before the game starts (every "
            "value is in the players' hands): to correct it, start the game again with your "
            "corrected card file",
        )
    stage = state.stage
    if state.aside and stage in _SPECIAL_STAGES and espionage.pending(state):
        regions = _scored_by(state, event)
        if regions:  # Espionage: "directly before a region is scored during a special ... scoring"
            state.deferred = (stage, event, tuple(regions))
            state.stage = SPY_SPECIAL
            state.event_count += 1
            return HELD
    markers = state.markers
    limited = (
        limited_now(state)
        if (
            markers.get("limit_1") is not None
            or markers.get("limit_2") is not None
            or markers.get("limit_3") is not None
        )
        else None
    )
    return limited, state.round_index, len(state.scoring_log)


def own_step(state: GameState, event: Event) -> Step | None:
    """This rule set's own step for the event now: its setup, the bridge, the spies, its
    general scoring, the Joker, a choice of actions; None: the stages' own."""
    stage, kind = state.stage, type(event)
    step = _STEPS.get((stage, kind)) if stage in _STEP_STAGES else None
    if isinstance(event, ev.PowerCardPlayed) and stage == "power" and joker.is_joker(state, event.card):
        step = joker.play_joker
    elif kind is ev.SpecialActionStarted and stage == "turn" and state.turn.card.effect == CHOICE:
        step = _start_chosen
    return step


def after_event(state: GameState, before: tuple[dict[int, list[int]] | None, int, int], dispatched: bool) -> None:
    """After the step: a special scoring on a reversed scoreboard (Revolt, the Mistress), the
    limit tables' excess (Table for Six), the tokens of a round gone, and the round's own
    order (no Action cards to turn up, the turn's card dealt by rank)."""
    limited, round_index, scorings = before
    if dispatched:
        for record in state.scoring_log[scorings:]:  # a special scoring: on a reversed scoreboard?
            reverse_special(state, record)
    if limited:
        table_for_six.excess_returned(state, limited)
    if state.round_index != round_index:
        ki_tokens.expire(state, "round")
    _settle(state)


def _settle(state: GameState) -> None:
    if state.stage == "reveal":  # a round begins: the Power cards straight away
        open_power_phase(state)
    turn = state.turn
    if turn is not None and turn.card is None:
        _deal_turn_card(state)
        if state.stage == "replenish" and bridge.crossing_open(state, turn.player):
            state.stage = BRIDGE  # "directly before your turn ... freely move your Caballeros"
    if state.stage == "choose_card":  # the Action card came by rank
        state.stage = "turn"
    if state.stage == SPY or (state.aside and state.stage == "scoring_discs"):  # Espionage's spies, first
        state.stage = SPY if espionage.pending(state) else "scoring_discs"


# --- random playouts -------------------------------------------------------------------------


def _choose_hand(rng, pid, o):
    return ev.PowerCardsChosen(player=pid, cards=sorted(rng.sample(o["cards"], o["keep"])))


CHOOSERS = {"choose_power_cards": _choose_hand}

SETUP = Stage(SETUP_DISCS, _ask_setup_discs)  # its events: _STEPS
HAND = Stage(CHOOSE_HAND, _ask_choose_hand, {ev.PowerCardsChosen: _apply_hand_chosen})
CROSSING = Stage(BRIDGE, bridge.crossing_ask)
SPIES = Stage(SPY, espionage.ask)
SPIES_BEFORE_SPECIAL = Stage(SPY_SPECIAL, espionage.ask)
PART = register_part(
    Part(
        "king-intrigue",
        (SETUP, HAND, CROSSING, SPIES, SPIES_BEFORE_SPECIAL),
        hooks={
            "adjust_ask": adjust_ask,
            "before_event": before_event,
            "own_step": own_step,
            "after_event": after_event,
        },
    )
)
# Setup: the discs, the hands; a round: the Power cards (no Action cards to turn up), the
# bridge before a turn, the turn (its card dealt by rank), the spies before a scoring.
ROUND = register_round(
    "king-intrigue",
    (SETUP, HAND, POWER, CROSSING, REPLENISH, TURN, VETO_WINDOW, SPECIAL, SPIES_BEFORE_SPECIAL, SPIES, SCORING, OVER),
)
