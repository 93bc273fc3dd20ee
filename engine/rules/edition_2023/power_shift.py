"""Power Shift (2023 mini expansion): Modifier cards change the value of a played Power card.

The rule book, sentence by sentence, and where the engine does it:

- "Shuffle the 16 Power Modifier cards with gray backs. Then deal 3 Modifier cards to each
  player. Return the remaining cards to the box." -> stage "modifiers_deal" (ask
  "deal_modifiers", event ModifiersDealt): each player enters their own three in private.
- "Everyone looks at their 3 Modifier cards and passes 1 of them face down to the player to
  their left. Once everyone has passed a card, add all 3 Modifier cards to your hand of
  Power cards." -> stage "modifiers_pass" (ask "pass_modifier", event ModifierPassed): the
  cards change hands only once every player has chosen. The 2-player dummy is not a player:
  it is dealt none and the two players pass to each other.
- "When playing a Power card, you may also play one of your Modifier cards. Add or subtract
  the number from the value of your Power card. Important: the total value must be
  different from the values that have already been played." -> PowerCardPlayed.modifier;
  `total` is what turn order and the first player marker read. The Caballeros taken to the
  court are the Power card's own (the number printed on it): a total such as 14 has none.
- "If you play a Modifier card, you may use the special ability at the beginning of your
  turn: after taking Caballeros to your Court, but before choosing an Action card."
  -> stage "modifier_ability" (ask "modifier_ability", events ModifierAbilityUsed /
  ModifierAbilitySkipped); a used ability runs as a special action of its effect, then the
  player chooses an Action card. It is not a "Special action" of an Action card, so a Veto
  does not reach it.
- "After your turn, discard your played Modifier card with your Power card." -> `end_round`.
- "At the end of the round, the person who played the lowest total value gets the First
  Player marker." -> engine/stages/end_of_round.py by `total` (the `power_totals` hook).
- Empowerment: "You may also return one of your played Modifier cards to your hand
  instead." -> `returnable_modifiers` and `return_modifier`, for the Empowerment effect.

The printed cards' values and abilities are not published: they are data, a `modifiers`
list in the table's card-set file (id, value, name, ability {effect, params, text} or
null, source). Without it a Power Shift game is refused, naming the missing fact. A
stand-in set for self-play (engine/data/power_shift_stand_in.json, every card's source
"stand-in for self-play: not the printed cards") is used only when the setup says the
table chose it (GameSetup.stand_in_modifiers).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from itertools import repeat
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from ... import events as ev
from ... import primitives as P
from ...board.effect_specs import EFFECT_PARAMS, EFFECT_SPECS
from ...board.merge import CARD_FILE_SECTIONS
from ...effect_registry import EFFECTS
from ...errors import N_, RuleViolation
from ...hooks import Part, Stage, register_part
from ...primitives import Ask
from ...stages.end_of_round import begin_round
from ...stages.turn import begin_special, finish_special, start_refusal
from ...state import GameState, Special

SET_SIZE = 16  # "Shuffle the 16 Power Modifier cards"
DEALT = 3  # "deal 3 Modifier cards to each player"
STAND_IN_SOURCE = "stand-in for self-play: not the printed cards"
STAND_IN_FILE = "power_shift_stand_in.json"
MISSING = N_(
    "Power Shift needs its 16 Modifier cards' values and abilities, which the rule book does not "
    "publish: enter them from your cards (card file: modifiers[], each with id, value, name, "
    "ability and source), or choose the stand-in set for self-play (setup: stand_in_modifiers)"
)
# Effects an ability cannot have: they belong to taking an Action card (a Veto is held by
# taking its card; a choice is made when the card's special action is announced).
# Infiltration is the Action card's own placement, which comes after the ability.
NOT_AN_ABILITY = ("veto", "veto_2023", "choice", "infiltration")


@dataclass(frozen=True, slots=True)
class Modifier:
    """One Modifier card. Its ability, when used, runs as a special action with the card
    in the place of an Action card (hence id, name, text, effect, params, placement)."""

    id: str
    value: int
    name: str
    source: str
    effect: str | None = None  # the ability's effect; None: no ability
    params: dict = field(default_factory=dict)
    text: str = ""
    placement: int = 0
    stack: None = None
    copies: int = 1
    module: str = "power-shift"


class ModifierDataError(ValueError):
    """The Modifier cards' data breaks a rule; the message names the card and field."""


class _AbilityFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    effect: str
    params: dict[str, Any] = {}
    text: str = ""


class _ModifierFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9_]+$", max_length=40)
    value: StrictInt = Field(ge=-13, le=13)
    name: str = ""
    ability: _AbilityFile | None
    source: str = Field(min_length=1)


def _known_effect(name: str) -> bool:
    return name in EFFECTS


def _check_ability(m: _ModifierFile) -> None:
    ab = m.ability
    where = f"modifiers[{m.id}].ability"
    if ab.effect in NOT_AN_ABILITY or not _known_effect(ab.effect):
        raise ModifierDataError(
            f"{where}.effect: {ab.effect!r} is not an effect a Modifier card's ability "
            "can have (see engine/data/effects.json)"
        )
    spec = EFFECT_SPECS.get(ab.effect)
    if spec is not None and "2023" not in spec.rules:
        raise ModifierDataError(
            f"{where}.effect: {ab.effect} is not an effect of the 2023 rules (it belongs to: {', '.join(spec.rules)})"
        )
    needed = EFFECT_PARAMS.get(ab.effect, set()) - set(ab.params)
    if needed:
        raise ModifierDataError(f"{where}.params: effect {ab.effect} needs {', '.join(sorted(needed))}")


def parse_modifiers(raw: Any, allow_stand_in: bool) -> dict[str, Modifier]:
    """The Modifier cards from a card-set file's `modifiers` list, checked."""
    if not isinstance(raw, list):
        raise ModifierDataError("modifiers: must be a list of the 16 Modifier cards")
    parsed = []
    for i, item in enumerate(raw):
        ident = item.get("id") if isinstance(item, dict) else None
        try:
            parsed.append(_ModifierFile.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise ModifierDataError(f"modifiers[{ident or i}].{where}: {err['msg']}") from None
    if len(parsed) != SET_SIZE:
        raise ModifierDataError(f"modifiers: Power Shift has {SET_SIZE} Modifier cards, the file lists {len(parsed)}")
    ids = [m.id for m in parsed]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ModifierDataError(f"modifiers: card id {twice[0]!r} is listed twice")
    for m in parsed:
        if m.value == 0:
            raise ModifierDataError(f"modifiers[{m.id}].value: a Modifier card adds or subtracts a number, not 0")
        if m.ability is not None:
            _check_ability(m)
        if m.source == STAND_IN_SOURCE and not allow_stand_in:
            raise ModifierDataError(
                f"modifiers[{m.id}]: the stand-in set for self-play, not the printed cards; "
                "a game uses it only when the table chooses it (setup: stand_in_modifiers)"
            )
    return {
        m.id: Modifier(
            m.id,
            m.value,
            m.name or m.id,
            m.source,
            m.ability.effect if m.ability else None,
            dict(m.ability.params) if m.ability else {},
            m.ability.text if m.ability else "",
        )
        for m in parsed
    }


def stand_in_modifiers() -> list[dict]:
    """The stand-in set for self-play (not the printed cards)."""
    return json.loads(_stand_in_text())["modifiers"]


@lru_cache(maxsize=1)
def _stand_in_text() -> str:
    return resources.files("engine.data").joinpath(STAND_IN_FILE).read_text("utf-8")


@lru_cache(maxsize=1)
def _stand_in_parsed() -> dict[str, Modifier]:
    """The stand-in set, checked once: self-play starts thousands of games with it. The
    Modifier cards are frozen, so games may share them."""
    return parse_modifiers(stand_in_modifiers(), allow_stand_in=True)


def modifiers_for(setup: ev.GameSetup) -> dict[str, Modifier]:
    """The Modifier cards a setup plays with, or RuleViolation naming what is missing."""
    if "power-shift" not in setup.modules:
        if setup.stand_in_modifiers:
            raise RuleViolation("setup", "stand_in_modifiers is for the power-shift module, which is not chosen")
        return {}
    raw = (setup.cards_file or {}).get("modifiers")
    if raw is None:
        if not setup.stand_in_modifiers:
            raise RuleViolation("setup", MISSING)
        return dict(_stand_in_parsed())
    try:
        return parse_modifiers(raw, allow_stand_in=setup.stand_in_modifiers)
    except ModifierDataError as e:
        raise RuleViolation("setup", "card file: {problem}", problem=str(e)) from None


# --- values -----------------------------------------------------------------------------------


def total(state: GameState, q: int) -> int:
    """The value q played this round: the Power card, plus or minus its Modifier."""
    m = state.modifier_played[q] if state.modifier_played else None
    return state.played[q] if m is None else state.played[q] + state.modifiers[m].value


def totals(state: GameState) -> list[int | None]:
    """Every seat's total this round, by seat (None: nothing played yet)."""
    mods = state.modifiers
    return [
        card if m is None else card + mods[m].value
        for card, m in zip(state.played, state.modifier_played or repeat(None))
    ]


def totals_played(state: GameState) -> set[int]:
    if not any(state.modifier_played):  # no Modifier played yet this round: the cards' values
        return {card for card in state.played if card is not None}
    mods = state.modifiers
    totals = set()
    for card, m in zip(state.played, state.modifier_played or repeat(None)):
        if card is not None:
            totals.add(card if m is None else card + mods[m].value)
    return totals


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}"


def play_options(
    state: GameState, p: int, taken: set[int] | None = None, hand: list[int] | None = None
) -> dict[str, dict]:
    """Modifier id -> its value and the Power cards p may play it with now (`taken`: the
    totals already played, `hand`: p's Power cards in order, when the caller has them)."""
    mine = state.modifier_hands[p]
    if not mine:
        return {}
    taken = totals_played(state) if taken is None else taken
    held = state.hands[p]
    hand = sorted(held) if hand is None else hand
    mods = state.modifiers
    out = {}
    for mid in sorted(mine):
        v = mods[mid].value
        cards = hand[:]
        for t in taken:  # the few cards whose total is taken (cheaper than testing every card)
            if t - v in held:
                cards.remove(t - v)
        out[mid] = {"value": v, "cards": cards}
    return out


def check_play(state: GameState, p: int, card: int, mid: str) -> int:
    """The total of `card` played with Modifier `mid`; refuses a Modifier p cannot play."""
    total = check_total(state, p, card, mid)
    check_held(state, p, mid)
    return total


def check_total(state: GameState, p: int, card: int, mid: str) -> int:
    """The public part of `check_play`: a Modifier card of this game, and a total not played."""
    if not state.rules.power_shift:
        raise RuleViolation("power-shift", "Modifier cards belong to the power-shift module, not chosen here")
    if mid not in state.modifiers:
        raise RuleViolation("unknown-id", "{modifier!r} is not a Modifier card of this game", modifier=mid)
    # The public rule first, the hidden hand last: which check refused must not tell the
    # table whether a player holds a Modifier card (as the province checks do).
    value = state.modifiers[mid].value
    if card + value in totals_played(state):
        raise RuleViolation(
            "power-card-distinct",
            "{who} cannot play {card} {modifier} (= {total}): 'the total value must be different from the values "
            "that have already been played'",
            who=P.name(state, p),
            card=card,
            modifier=_signed(value),
            total=card + value,
        )
    return card + value


def check_held(state: GameState, p: int, mid: str) -> None:
    """The hidden part of `check_play`, checked last (after the Power card's own hand)."""
    if mid not in state.modifier_hands[p]:
        raise RuleViolation(
            "power-shift", "{who} has no Modifier card {modifier!r} in hand", who=P.name(state, p), modifier=mid
        )


def play(state: GameState, p: int, mid: str) -> None:
    state.modifier_hands[p].remove(mid)
    state.modifier_played[p] = mid


def end_round(state: GameState) -> None:
    """ "After your turn, discard your played Modifier card with your Power card" (or to the
    hand, when Empowerment took it back)."""
    for q, mid in enumerate(state.modifier_played):
        if mid is not None:
            (state.modifier_hands if state.modifier_take_back[q] else state.modifier_discards)[q].add(mid)
    state.modifier_played = [None] * state.n
    state.modifier_take_back = [False] * state.n


# --- Empowerment ----------------------------------------------------------------------------


def returnable_modifiers(state: GameState, p: int) -> list[str]:
    """Empowerment: "You may also return one of your played Modifier cards to your hand
    instead": the discarded ones and this round's."""
    if not state.rules.power_shift:
        return []
    cards = set(state.modifier_discards[p])
    mid = state.modifier_played[p]
    if mid is not None and not state.modifier_take_back[p]:
        cards.add(mid)
    return sorted(cards)


def return_modifier(state: GameState, p: int, mid: str) -> None:
    """Empowerment returns Modifier `mid` to p's hand (this round's at the end of the round:
    its total still counts for the first player marker, as the Power card's does)."""
    if mid not in returnable_modifiers(state, p):
        # Not listed: which played card an earlier Empowerment returned to the hand is secret.
        raise RuleViolation(
            "special-action",
            "{who} can return only a played Modifier card (this round's, or one from their discard pile)",
            who=P.name(state, p),
        )
    if mid == state.modifier_played[p]:
        state.modifier_take_back[p] = True
    else:
        state.modifier_discards[p].remove(mid)
        state.modifier_hands[p].add(mid)


def modifier_taken_back(state: GameState, sp: Special, e: ev.ModifierTakenBack) -> None:
    """Empowerment's step for ModifierTakenBack (its effect registers it): instead of a
    Power card, one played Modifier card back to the hand; the special action ends."""
    p = P.expect_player(state, e.player, sp.player, P.N_("take back a Modifier card"))
    return_modifier(state, p, e.modifier)
    finish_special(state)


# --- setup: deal and pass ---------------------------------------------------------------------


def _lefts(players: list[int]) -> dict[int, int]:
    """Each player's neighbour to the left: the next player clockwise (`players`: the seats
    that are players, in seat order; the dummy is not at the table's hands)."""
    return {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}


def _dealt(state: GameState) -> set[str]:
    return set().union(*state.modifier_hands)


def _ask_deal(state: GameState) -> Ask:
    waiting = tuple(state.players[p] for p in P.players_only(state, range(state.n)) if not state.modifier_hands[p])
    # "free" lets random playouts deal legal cards; views never show it (it would tell the
    # cards others were dealt).
    ids = state.modifiers.sorted_keys()
    dealt = _dealt(state)
    return Ask(
        "deal_modifiers", waiting, {"modifiers": list(ids), "count": DEALT, "free": [m for m in ids if m not in dealt]}
    )


def _apply_deal(state: GameState, e: ev.ModifiersDealt) -> None:
    P.expect_stage(state, ("modifiers_deal",), P.N_("entering dealt Modifier cards"))
    p = P.player(state, e.player)
    if p == state.dummy:
        raise RuleViolation("power-shift", "the dummy is not dealt Modifier cards")
    if state.modifier_hands[p]:
        raise RuleViolation("power-shift", "{who}'s Modifier cards are already entered", who=P.name(state, p))
    dealt = set(e.modifiers)
    if len(dealt) != DEALT:
        raise RuleViolation("power-shift", "three different Modifier cards are dealt to each player")
    for mid in e.modifiers:
        if mid not in state.modifiers:
            raise RuleViolation("power-shift", "{modifier!r} is not a Modifier card of this game", modifier=mid)
    if not dealt.isdisjoint(_dealt(state)):
        # Names no card: which cards another player holds stays secret.
        raise RuleViolation(
            "power-shift", "a card entered is already in another player's hand: check the cards you were dealt"
        )
    state.modifier_hands[p] = dealt
    if all(state.modifier_hands[q] for q in P.players_only(state, range(state.n))):
        state.stage = "modifiers_pass"


def _ask_pass(state: GameState) -> Ask:
    players = P.players_only(state, range(state.n))
    waiting = tuple(state.players[p] for p in players if p not in state.modifier_passes)
    lefts = _lefts(players)
    return Ask(
        "pass_modifier",
        waiting,
        {
            "hands": {state.players[p]: sorted(state.modifier_hands[p]) for p in players},
            "to": {state.players[p]: state.players[lefts[p]] for p in players},
            "chosen": [state.players[p] for p in players if p in state.modifier_passes],
        },
    )


def _apply_pass(state: GameState, e: ev.ModifierPassed) -> None:
    P.expect_stage(state, ("modifiers_pass",), P.N_("passing a Modifier card"))
    p = P.player(state, e.player)
    if p == state.dummy:
        raise RuleViolation("power-shift", "the dummy has no Modifier cards to pass")
    if e.modifier not in state.modifier_hands[p]:
        raise RuleViolation("power-shift", "{who} can pass only one of their own Modifier cards", who=P.name(state, p))
    state.modifier_passes[p] = e.modifier  # may change until everyone has chosen
    players = P.players_only(state, range(state.n))
    if len(state.modifier_passes) < len(players):
        return
    for q in players:  # "Once everyone has passed a card"
        state.modifier_hands[q].remove(state.modifier_passes[q])
    lefts = _lefts(players)
    for q in players:
        state.modifier_hands[lefts[q]].add(state.modifier_passes[q])
    state.modifier_passes = {}
    begin_round(state)


# --- the ability ----------------------------------------------------------------------------------


def ability_stage(state: GameState, p: int) -> str:
    """The stage after p took Caballeros to the court: the ability, or choosing a card."""
    mid = state.modifier_played[p] if state.rules.power_shift else None
    return "modifier_ability" if mid is not None and state.modifiers[mid].effect else "choose_card"


def _ask_ability(state: GameState) -> Ask:
    p = state.turn.player
    m = state.modifiers[state.modifier_played[p]]
    refusal = start_refusal(state, m, m.effect, p)
    return Ask(
        "modifier_ability",
        (state.players[p],),
        {
            "modifier": m.id,
            "name": m.name,
            "text": m.text,
            "effect": m.effect,
            "refused": refusal.detail if refusal else None,
        },
    )


def _apply_ability_used(state: GameState, e: ev.ModifierAbilityUsed) -> None:
    P.expect_stage(state, ("modifier_ability",), P.N_("using a Modifier card's ability"))
    p = P.expect_player(state, e.player, state.turn.player, P.N_("use a Modifier card's ability"))
    m = state.modifiers[state.modifier_played[p]]
    refusal = start_refusal(state, m, m.effect, p)
    if refusal is not None:
        raise refusal
    state.special = Special(card=m, effect=m.effect, player=p)
    begin_special(state)  # no veto window: the ability is not an Action card's Special action


def _apply_ability_skipped(state: GameState, e: ev.ModifierAbilitySkipped) -> None:
    P.expect_stage(state, ("modifier_ability",), P.N_("passing up a Modifier card's ability"))
    P.expect_player(state, e.player, state.turn.player, P.N_("pass up a Modifier card's ability"))
    state.stage = "choose_card"


# --- playouts -------------------------------------------------------------------------------------


def _choose_power(rng, pid, o):
    mods = o.get("modifiers")
    if mods:  # none in hand (or no Power Shift): the plain choice
        usable = [mid for mid, spec in mods.items() if spec["cards"]]
        if usable and rng.random() < 0.4:
            mid = rng.choice(sorted(usable))
            return ev.PowerCardPlayed(player=pid, card=rng.choice(mods[mid]["cards"]), modifier=mid)
    return ev.PowerCardPlayed(player=pid, card=rng.choice(o["cards"]))


def _choose_take_back(rng, pid, o):
    """Empowerment: a Power card back, or (Power Shift) a played Modifier card instead."""
    modifiers = o.get("modifiers") or []
    if modifiers and (not o["cards"] or rng.random() < 0.3):
        return ev.ModifierTakenBack(player=pid, modifier=rng.choice(modifiers))
    return ev.PowerCardTakenBack(player=pid, card=rng.choice(o["cards"]))


CHOOSERS = {
    "deal_modifiers": lambda rng, pid, o: ev.ModifiersDealt(player=pid, modifiers=rng.sample(o["free"], DEALT)),
    "pass_modifier": lambda rng, pid, o: ev.ModifierPassed(player=pid, modifier=rng.choice(o["hands"][pid])),
    "modifier_ability": lambda rng, pid, o: (
        ev.ModifierAbilitySkipped if o["refused"] or rng.random() < 0.3 else ev.ModifierAbilityUsed
    )(player=pid),
    # Plays a Modifier sometimes; without any it is the plain choice of a Power card.
    "play_power_card": _choose_power,
    "take_back_power_card": _choose_take_back,
}


DEAL = Stage("modifiers_deal", _ask_deal, {ev.ModifiersDealt: _apply_deal})
PASS = Stage("modifiers_pass", _ask_pass, {ev.ModifierPassed: _apply_pass})
ABILITY = Stage(
    "modifier_ability",
    _ask_ability,
    {ev.ModifierAbilityUsed: _apply_ability_used, ev.ModifierAbilitySkipped: _apply_ability_skipped},
)
PART = register_part(
    Part(
        "power-shift",
        (DEAL, PASS, ABILITY),
        hooks={
            "power_options": play_options,
            "check_modifier_total": check_total,
            "check_modifier_held": check_held,
            "play_modifier": play,
            "played_values": totals_played,
            "power_totals": totals,
            "after_replenish": ability_stage,
            "end_round": end_round,
        },
    )
)


def _card_file_problem(raw: Any) -> str | None:
    """What is wrong with a card file's `modifiers` section (engine/board/merge.py asks)."""
    try:
        parse_modifiers(raw, allow_stand_in=True)
    except ModifierDataError as exc:
        return str(exc)
    return None


CARD_FILE_SECTIONS["modifiers"] = _card_file_problem
