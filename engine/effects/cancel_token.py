"""The Special card that discards a card or removes a limit table (King and Intrigue).

Rule text: "With this card you may discard a 25 or 75 card placed in front of another player
or remove a limit table. Optional rule: You may choose to allow this card to cancel effects
represented by tokens and tiles. (e.g., alliance markers, risk of collapse tile, the bridge)."

Its name and value are not published (card sc_cancel). The cards it may discard are those whose
value is in the card's `values` (25 and 75, from the text; the table may correct them) and that
lie in front of another player in this engine: the Mistress (public marker `mistress`, while it
acts) and Espionage (`espionage_<player>`; its spy goes back to the court). The optional rule
is the card's `tokens` (1: on, 0: off, the table's choice): then the Alliance markers (both),
the Risk of Collapse tile, the quarantine marker and the bridge may go too. The player names
one (TokenRemoved); with nothing to remove the action is done."""

from __future__ import annotations

import random
from typing import Any

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..events import Event
from ..primitives import Ask
from ..queries import LIMIT_MARKERS
from ..stages.turn import finish_special
from ..state import GameState, Special
from .alliance import MARKERS as ALLIANCE
from .espionage import PREFIX as ESPIONAGE

CARDS_IN_FRONT = {"mistress": "mistress"}  # marker -> effect of the card lying in front
OPTIONAL = {
    "alliance": ALLIANCE,
    "risk_of_collapse": ("risk_of_collapse",),
    "quarantine": ("quarantine",),
    "bridge": ("bridge_1", "bridge_2"),
}


def _card_value(state: GameState, effect: str) -> int | None:
    cards = state.board.ki_cards
    return next((c.value for c in cards.power_cards.values() if c.effect == effect), None) if cards else None


def removable(state: GameState, p: int) -> dict[str, tuple[str, ...]]:
    """Token id -> the markers it takes off."""
    markers = state.markers
    out: dict[str, tuple[str, ...]] = {m: (m,) for m in LIMIT_MARKERS if markers.get(m) is not None}
    values = set(_params(state).get("values") or ())
    for m, effect in CARDS_IN_FRONT.items():
        holder = markers.get(m)
        if holder is not None and holder != state.players[p] and _card_value(state, effect) in values:
            out[m] = (m,)
    if _card_value(state, "espionage") in values:
        for m, holder in markers.items():
            if m.startswith(ESPIONAGE) and holder is not None and holder != state.players[p]:
                out[m] = (m,)
    if _params(state).get("tokens"):
        for token, ms in OPTIONAL.items():
            if any(markers.get(m) is not None for m in ms):
                out[token] = ms
    return out


def _params(state: GameState) -> dict:
    return next((c.params for c in state.board.cards.values() if c.effect == "cancel_token"), {})


def begin(state: GameState, sp: Special) -> None:
    if not removable(state, sp.player):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("remove_token", (state.players[sp.player],), {"tokens": sorted(removable(state, sp.player))})


def removed(state: GameState, sp: Special, e: ev.TokenRemoved) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("remove a card or token"))
    options = removable(state, p)
    if e.token not in options:
        raise P.RuleViolation(
            "special-action",
            "{card} removes one of: {options}; not {token!r}",
            card=P.Card(sp.card.name),
            options=sorted(options),
            token=e.token,
        )
    if e.token == "bridge":
        from .bridge import lift

        lift(state)  # its Caballero back to the owner's court
    if e.token.startswith(ESPIONAGE) and e.token in state.aside:
        state.court[state.aside.pop(e.token)] += 1  # the spy on the discarded card: back to the court
    for m in options[e.token]:
        state.markers[m] = None
    P.outcome(state, f"{sp.card.name}, played by {P.name(state, p)}: {e.token.replace('_', ' ')} removed", [])
    finish_special(state)


def _choose(rng: random.Random, pid: str, o: dict[str, Any]) -> Event:
    return ev.TokenRemoved(player=pid, token=rng.choice(o["tokens"]))


CHOOSERS = {"remove_token": _choose}

register(Effect("cancel_token", begin, ask, steps={ev.TokenRemoved: removed}))
