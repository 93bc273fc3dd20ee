"""King and Intrigue's markers as a table lays them out (the snapshot's fields), in one place:
the module whose card lays each one and how long it stays, as the tracked game keeps it
(engine/effects/*.py, engine/rules/king_intrigue/round.py). Scoring only (engine/freeplay.py) and its
board entry (companion/entry/board.py) read them here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import N_

Lasts = Literal["general_scoring", "round", "card"]


@dataclass(frozen=True)
class MarkerFacts:
    module: str | None  # None: the base game's cards (the 130 card lays the 2x markers)
    lasts: Lasts  # gone after the next general scoring, at the round's end (and the general
    # scoring directly after it), or until a card changes it (the table enters that)


MARKERS: dict[str, MarkerFacts] = {
    # "After the next general scoring, return the Region card and the 2x marker to the supply"
    "double_scoring": MarkerFacts(None, "general_scoring"),
    # "After general scoring is completed, remove the alliance markers"
    "alliance": MarkerFacts("players-edition", "general_scoring"),
    # Relocate: scored on its region's scoreboard, then returned
    "castillo_at": MarkerFacts("players-edition", "general_scoring"),
    # its card's `until` is "round" or "general_scoring": gone after a general scoring either way
    # (at the round's end too when the table's card says so: engine/freeplay.py)
    "quarantine": MarkerFacts("players-edition", "general_scoring"),
    "bridge": MarkerFacts("players-edition", "card"),
    "bridge_regions": MarkerFacts("players-edition", "card"),
    "reversed": MarkerFacts("special-cards", "card"),
    # "this round ... and the general scoring directly following"
    "kings_guard": MarkerFacts("special-cards", "round"),
    "mistress": MarkerFacts("special-cards", "round"),
    "limit_tables": MarkerFacts("special-cards", "card"),
}
MODULE_NAMES = {"players-edition": N_("Player's Edition"), "special-cards": N_("Special cards")}


def lasting(lasts: Lasts) -> tuple[str, ...]:
    return tuple(field for field, facts in MARKERS.items() if facts.lasts == lasts)
