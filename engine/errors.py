"""Typed errors. A refused input raises RuleViolation naming the rule it breaks;
the state is left exactly as it was."""

from __future__ import annotations

# Short citations of the rules the engine enforces, keyed by a stable id.
RULES: dict[str, str] = {
    "phase-order": "each phase happens in its order; only the asked input is accepted now",
    "turn-order": "the player asked now acts; others wait their turn",
    "setup": "setup: 2 to 5 players, distinct colours and home regions, the King not in a home region",
    "reveal": "Reveal: one card is turned up from each of stacks 1-4 (the King's card is always up)",
    "power-card-in-hand": "Power cards: each card is played once per game, from your hand",
    "power-card-distinct": "Power cards: a value already played this round may not be played",
    "replenish-limit": "Replenishment: up to the number on your Power card moves from the provinces to the court",
    "replenish-from-board": "Replenishment: Caballeros come from the board only when the provinces run short, never from the Castillo",
    "action-card-available": "Action cards: choose one of the face-up cards still on the table",
    "placement-limit": "Placement: up to the number on the Action card, only from your court",
    "placement-area": "Placement: only into regions adjacent to the King's region, or into the Castillo",
    "kings-region-taboo": "The King's region is taboo: nothing moves into or out of it except the King",
    "castillo-no-removal": "Caballeros are never taken out of the Castillo (until a general scoring)",
    "either-order": "Placement and special action are done in either order, each completed before the other",
    "special-action": "Special action: do as much of it as the card says, exactly as stated",
    "veto": "Veto: once, in the round taken or the next, stop all or the rest of another player's special action",
    "secret-disc": "Secret disc: each player picks a region the card allows; all are revealed together",
    "mobile-scoreboard": "Mobile scoreboards: one per area, never onto each other, never into or out of the King's region",
    "grande": "Grande: may move to any region but the King's region and the Castillo",
    "king-move": "The King moves only by the King's card (anywhere) or the Royal Advisor (to an adjacent region)",
    "castillo-count": "General scoring: the Castillo is lifted and what is inside is counted; nobody owns more than 30 Caballeros",
    "correction": "A table correction: each player owns 30 Caballeros; a correction is made between steps, never midway through a special action or a scoring",
    "game-over": "The game has ended after the last general scoring",
    "unknown-id": "ids must name a player, region or card of this game",
    "card-set": "The card set is completed from the table's own box, in the card-file vocabulary, between steps",
    # 2023 edition (engine/effects/, engine/queries.py)
    "not-a-region": "France and Portugal are not regions: no Caballero, Grande or Scoring tile goes there, only the King (Exile)",
    "board-fact-missing": "A fact the rule book does not publish is entered by the table from its own board before it is needed",
    "card-fact-missing": "What a card does that the rule book does not say is entered by the table from its own card",
    "king-move-2023": "The King moves only as a card says: Your Majesty to any region, Exile to France or Portugal, "
    "Rebellion next to the Castillo, Chalet to the region with the fewest Caballeros, Entourage and Stand-in as stated",
    "militia": "Militia: the card's Caballeros from your court to any region(s) but the King's, never the Castillo",
    "entourage": "Entourage: the King moves and the card's number of Caballeros of his region go with him, as many as there are",
    "grande-castillo": "Competition: only this card throws a Grande into the Castillo; Adopted Home never does",
    "stand-in": "Stand-in: two pieces swap only if both stand in regions (not France, Portugal or the Castillo)",
    "scoring-tile": "Scoring tiles: one per Scoring board, placed or moved only by Enactment, never into or out of the King's region",
    # 2023 rule modules (engine/rules/)
    "dummy-region-cards": "2 players, the dummy: each round 2 Region cards from the draw pile, none once all 30 of its Caballeros are out; all reshuffled after each general scoring",
    "dummy-power-card": "2 players, the dummy: its shuffled Power cards are turned up one a round, each once",
    "dummy-action-card": "2 players, the dummy: it takes the remaining Action card with the most Caballeros",
    "power-shift": "Power Shift: three Modifier cards dealt to each player, one passed left; at most one played with a Power card",
    # King and Intrigue (engine/rules/king_intrigue/round.py)
    "card-set-incomplete": "King and Intrigue: a game starts only when every card it uses is complete (values, Caballeros "
    "to the court, actions, what each Action card places), entered once from the table's own box",
    "power-cards-chosen": "King and Intrigue setup: each player secretly keeps 13 different Power cards of their set; the "
    "rest leave the game unseen",
    "bridge": "Bridge Construction: directly before your turn in following rounds, your own Caballeros move freely "
    "between the bridge's two regions",
    "board-entry": "Scoring only: the board is entered as it lies, every piece and marker where the rules let it be",
    "castillo-collapse": "Risk of Collapse: while the tile lies on the Castillo nothing more goes in; what is inside "
    "stays and is scored",
}


class EngineError(Exception):
    """Base class of the engine's errors."""


class RuleViolation(EngineError):
    """An input the rules refuse. `rule` is a key of RULES; `str()` names both. `private`: (a
    player's id, why in words for that player alone) when the reason is their secret (a hand
    kept hidden): the public words then say nothing a secret would tell."""

    def __init__(self, rule: str, detail: str, private: tuple[str, str] | None = None) -> None:
        self.rule = rule
        self.detail = detail
        self.private = private
        super().__init__(f"{detail} (rule: {RULES[rule]})")
