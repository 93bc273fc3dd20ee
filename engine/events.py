"""Typed events: the only way a game's state changes.

A game is its `GameSetup` plus a list of events; replaying them rebuilds it.
Events serialise to JSON lines (one object per line, tagged by `type`).
Chance is never generated here: the table enters what it revealed.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Id = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")]
Count = Annotated[int, Field(ge=0, le=30)]
# A mobile scoreboard ("8-4-0", "4-0-0", classic) or a Scoring tile ("tile_a", 2023).
PieceId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_-]+$")]


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# Revisions of how the engine reads the rule book, where a change alters what a saved
# game's events lead to. A saved game replays under its own revision.
#   1: the Veto was held once its special action was started (skipping it lost the card)
#   2: taking the Veto card is holding the Veto ("place it on the table in front of you")
#   3: the Castillo scoring card's Castillo is lifted and counted after the veto window, as its
#      special action's first step (up to 2 it could be counted before the action was announced,
#      so the counts were seen before anyone decided on a Veto); a ♠ card the table enters
#      without its Caballeros has them unknown, asked when played (up to 2: its stack's)
RULES_REVISION = 3


class GameSetup(_Event):
    """What the table decided before the first round (region cards drawn, seats)."""

    players: list[Id] = Field(description="player ids in clockwise seat order")
    names: dict[Id, str] = Field(default_factory=dict)
    variant: Literal["full", "short"] = "full"
    king: Id = Field(description="region of the King's starting region card")
    homes: dict[Id, Id] = Field(description="player -> home region card drawn")
    start_player: Id
    revision: int = Field(
        RULES_REVISION,
        ge=1,
        le=RULES_REVISION,
        description="how the engine reads the rule book; saved games keep theirs",
    )
    # Which game: a rule set and its modules (engine/rules). Games saved before rule sets
    # existed have none of these fields and are classic games.
    rules: Literal["classic", "2023", "king-intrigue"] = "classic"
    modules: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list, max_length=8)
    dummy: Id | None = Field(None, description="2023, 2 players: the dummy's colour")
    # The table's own board and card-set files, kept in the game so it replays the same
    # however the files change later (engine/board/ validates them).
    board_file: dict | None = None
    cards_file: dict | None = None
    removed_cards: list[Id] = Field(
        default_factory=list, max_length=10, description="Old Hands: the cards returned to the box"
    )
    # Left out of the saved setup while at their defaults, so that games saved before they
    # existed write the same setup line.
    added_cards: list[Id] = Field(
        default_factory=list,
        max_length=10,
        exclude_if=lambda v: not v,
        description="Old Hands: the ♣ cards added (none named: all of them)",
    )
    stand_in_modifiers: bool = Field(
        False,
        exclude_if=lambda v: not v,
        description="Power Shift: the table chose the stand-in modifier "
        "cards (not the printed ones; engine/rules/edition_2023/power_shift.py)",
    )

    @classmethod
    def from_saved(cls, data: dict) -> GameSetup:
        """A setup read back from a saved game: one saved before revisions existed is revision 1."""
        if isinstance(data, dict) and "revision" not in data:
            data = {**data, "revision": 1}
        return cls.model_validate(data)


class ActionCardsRevealed(_Event):
    type: Literal["action_cards_revealed"] = "action_cards_revealed"
    cards: list[Id] = Field(description="card id turned up on stacks 1, 2, 3, 4 in order")


class PowerCardPlayed(_Event):
    type: Literal["power_card_played"] = "power_card_played"
    player: Id
    card: int
    # Power Shift: a Modifier card played with it (left out of the saved line when none).
    modifier: Id | None = Field(None, exclude_if=lambda v: v is None)


class CourtReplenished(_Event):
    """Replenishment at the start of a turn, or The Court card's special action."""

    type: Literal["court_replenished"] = "court_replenished"
    player: Id
    from_provinces: Count
    from_regions: dict[Id, Count] = Field(default_factory=dict)


class ActionCardChosen(_Event):
    type: Literal["action_card_chosen"] = "action_card_chosen"
    player: Id
    stack: int


class CaballerosPlaced(_Event):
    """The Action card's placement: court -> regions next to the King / Castillo."""

    type: Literal["caballeros_placed"] = "caballeros_placed"
    player: Id
    placements: dict[Id, Count] = Field(default_factory=dict)


class SpecialActionStarted(_Event):
    type: Literal["special_action_started"] = "special_action_started"
    player: Id
    option: Id | None = Field(default=None, description="for a card that offers a choice")


class SpecialActionSkipped(_Event):
    type: Literal["special_action_skipped"] = "special_action_skipped"
    player: Id


class SpecialActionFinished(_Event):
    """Ends a 'you may move up to N' special action early."""

    type: Literal["special_action_finished"] = "special_action_finished"
    player: Id


class CaballerosMoved(_Event):
    type: Literal["caballeros_moved"] = "caballeros_moved"
    player: Id
    owner: Id
    source: Id
    target: Id
    count: Annotated[int, Field(ge=1, le=30)] = 1


class ExtraCaballerosPlaced(_Event):
    """Intrigue: additional Caballeros from the court to any region(s)."""

    type: Literal["extra_caballeros_placed"] = "extra_caballeros_placed"
    player: Id
    placements: dict[Id, Count] = Field(default_factory=dict)


class CaballerosSentBack(_Event):
    """Caballeros of `owner` go back to the provinces, chosen by `player`."""

    type: Literal["caballeros_sent_back"] = "caballeros_sent_back"
    player: Id
    owner: Id
    from_court: Count = 0
    from_regions: dict[Id, Count] = Field(default_factory=dict)


class SecretDiscSet(_Event):
    type: Literal["secret_disc_set"] = "secret_disc_set"
    player: Id
    region: Id


class SecretDiscsRevealed(_Event):
    """The table turns all secret discs up at once (only when everyone has chosen)."""

    type: Literal["secret_discs_revealed"] = "secret_discs_revealed"


class CastilloCounted(_Event):
    """The Castillo lifted at a general scoring: what the table counted inside.

    The physical count wins over the recorded turns; the difference comes from
    (or goes back to) the provinces."""

    type: Literal["castillo_counted"] = "castillo_counted"
    counts: dict[Id, Count]


class RegionChosen(_Event):
    """The region a special action names: a special scoring's, or Eviction's."""

    type: Literal["region_chosen"] = "region_chosen"
    player: Id
    region: Id


class MobileScoreboardPlaced(_Event):
    type: Literal["mobile_scoreboard_placed"] = "mobile_scoreboard_placed"
    player: Id
    scoreboard: Literal["8-4-0", "4-0-0"]
    area: Id


class PowerCardTakenBack(_Event):
    type: Literal["power_card_taken_back"] = "power_card_taken_back"
    player: Id
    card: int


class GrandeMoved(_Event):
    type: Literal["grande_moved"] = "grande_moved"
    player: Id
    region: Id


class KingMoved(_Event):
    type: Literal["king_moved"] = "king_moved"
    player: Id
    region: Id


class TableCorrected(_Event):
    """The position as it really lies on the table: a correction the table confirmed, or
    (with `round`) where tracking starts in a game already under way. Fields left out
    stay as they are; `regions` replaces the whole board (Castillo apart). The provinces
    make up the rest of each player's 30 Caballeros. See engine/correction.py."""

    type: Literal["table_corrected"] = "table_corrected"
    regions: dict[Id, dict[Id, Count]] | None = None
    castillo: dict[Id, Count] | None = None  # hidden: from the tower, never typed in public
    court: dict[Id, Count] | None = None
    king: Id | None = None
    grandes: dict[Id, Id] | None = None
    # classic: the mobile scoreboards "8-4-0", "4-0-0"; 2023: the Scoring tiles (engine/correction.py checks)
    mobile_scoreboards: dict[PieceId, Id | None] | None = None
    scores: dict[Id, Annotated[int, Field(ge=0, le=999)]] | None = None
    # Only where tracking starts, before anything else happened in the game:
    round: int | None = None
    start_player: Id | None = None
    power_spent: dict[Id, list[int]] | None = None  # values each player laid down so far
    vetoes: list[Id] | None = None  # who holds a Veto card now
    reason: str = Field("", max_length=200)  # what the table said was wrong


class VetoUsed(_Event):
    type: Literal["veto_used"] = "veto_used"
    player: Id


class VetoWaived(_Event):
    type: Literal["veto_waived"] = "veto_waived"
    player: Id


# --- 2023 rule sets: the 2-player dummy (engine/rules/edition_2023/dummy.py) ---------------------------


class DummyRegionCardsDrawn(_Event):
    """2023, 2 players, the start of a round: the Region cards the table drew for the dummy,
    in the order drawn (2; 1 when the first took its last Caballeros out)."""

    type: Literal["dummy_region_cards_drawn"] = "dummy_region_cards_drawn"
    regions: list[Id] = Field(min_length=1, max_length=2)


class DummyPowerCardRevealed(_Event):
    """2023, 2 players: the top card of the dummy's shuffled Power cards, turned up before
    the players play theirs."""

    type: Literal["dummy_power_card_revealed"] = "dummy_power_card_revealed"
    card: Annotated[int, Field(ge=1, le=99)]


class DummyActionCardTaken(_Event):
    """Which card the dummy took, entered by the table only when the rule cannot tell: two
    remaining cards show the same number of Caballeros, or a card's number is unknown."""

    type: Literal["dummy_action_card_taken"] = "dummy_action_card_taken"
    stack: int


# --- 2023 rule sets: Power Shift (engine/rules/edition_2023/power_shift.py) -------------------------------


class ModifiersDealt(_Event):
    """The three Modifier cards dealt to a player, entered by that player in private."""

    type: Literal["modifiers_dealt"] = "modifiers_dealt"
    player: Id
    modifiers: list[Id] = Field(min_length=3, max_length=3)


class ModifierPassed(_Event):
    """The Modifier card a player passes face down to the left (secret)."""

    type: Literal["modifier_passed"] = "modifier_passed"
    player: Id
    modifier: Id


class ModifierAbilityUsed(_Event):
    """The played Modifier card's ability, used after taking Caballeros to the court and
    before choosing an Action card."""

    type: Literal["modifier_ability_used"] = "modifier_ability_used"
    player: Id


class ModifierAbilitySkipped(_Event):
    type: Literal["modifier_ability_skipped"] = "modifier_ability_skipped"
    player: Id


class ModifierTakenBack(_Event):
    """Empowerment with Power Shift: "You may also return one of your played Modifier cards
    to your hand instead" (of a Power card)."""

    type: Literal["modifier_taken_back"] = "modifier_taken_back"
    player: Id
    modifier: Id


# --- King and Intrigue (engine/rules/king_intrigue/round.py) ---------------------------------------


class PowerCardsChosen(_Event):
    """King and Intrigue setup: the Power cards a player keeps for the game (13 of their set),
    chosen in secret; the rest leave the game unseen."""

    type: Literal["power_cards_chosen"] = "power_cards_chosen"
    player: Id
    cards: list[Annotated[int, Field(ge=1, le=999)]] = Field(min_length=1, max_length=40)


class ScoreboardTurned(_Event):
    """Revolt (King and Intrigue, Special cards): a mobile scoreboard turned over, to its
    reversed side (0/4/8: the fewest score first) or back."""

    type: Literal["scoreboard_turned"] = "scoreboard_turned"
    player: Id
    scoreboard: Literal["8-4-0", "4-0-0"]


# --- 2023 effects (engine/effects/) that no earlier event can say -------------------------


class ScoringTilePlaced(_Event):
    """Enactment: a Scoring tile placed on a free Scoring board, or moved from one to another."""

    type: Literal["scoring_tile_placed"] = "scoring_tile_placed"
    player: Id
    tile: Id
    area: Id


class EntourageMoved(_Event):
    """Entourage: the King moves to `region`, and these Caballeros of the region he leaves
    go with him (owner -> how many): one move, so the King's region is never entered alone."""

    type: Literal["entourage_moved"] = "entourage_moved"
    player: Id
    region: Id
    caballeros: dict[Id, Count] = Field(default_factory=dict)


class PiecesSwapped(_Event):
    """Stand-in: two pieces change places: the King and one Grande (`king` true, one owner
    in `grandes`), or two Grandes (two owners)."""

    type: Literal["pieces_swapped"] = "pieces_swapped"
    player: Id
    king: bool = False
    grandes: list[Id] = Field(min_length=1, max_length=2)


class CardSetCompleted(_Event):
    """The table completes its card set during a game (2023: most cards' stacks and copies are
    not published): a card turned up that the set does not list is added, or a listed card's
    stack, copies or numbers given, in the card-file vocabulary (engine/card_entry.py)."""

    type: Literal["card_set_completed"] = "card_set_completed"
    cards: list[dict] = Field(min_length=1, max_length=10)


class BoardFactsEntered(_Event):
    """The table enters facts of its board the rule book does not publish, during a game (the
    2-3 player side's scoreboards, France's or Portugal's neighbours, a Scoring tile's values),
    in the board-file vocabulary (engine/card_entry.py)."""

    type: Literal["board_facts_entered"] = "board_facts_entered"
    board: dict


class TokenRemoved(_Event):
    """King and Intrigue, Special cards: a lasting card or token taken off the table (a limit
    table, a card lying in front of another player; with the optional rule other tokens)."""

    type: Literal["token_removed"] = "token_removed"
    player: Id
    token: Id


Event = Annotated[
    ActionCardsRevealed
    | PowerCardPlayed
    | CourtReplenished
    | ActionCardChosen
    | CaballerosPlaced
    | SpecialActionStarted
    | SpecialActionSkipped
    | SpecialActionFinished
    | CaballerosMoved
    | ExtraCaballerosPlaced
    | CaballerosSentBack
    | SecretDiscSet
    | SecretDiscsRevealed
    | CastilloCounted
    | RegionChosen
    | MobileScoreboardPlaced
    | PowerCardTakenBack
    | GrandeMoved
    | KingMoved
    | VetoUsed
    | VetoWaived
    | TableCorrected
    | DummyRegionCardsDrawn
    | DummyPowerCardRevealed
    | DummyActionCardTaken
    | ModifiersDealt
    | ModifierPassed
    | ModifierAbilityUsed
    | ModifierAbilitySkipped
    | ModifierTakenBack
    | ScoringTilePlaced
    | EntourageMoved
    | PiecesSwapped
    | CardSetCompleted
    | BoardFactsEntered
    | PowerCardsChosen
    | ScoreboardTurned
    | TokenRemoved,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def event_from_json(line: str | bytes) -> Event:
    return EVENT_ADAPTER.validate_json(line)


def event_from_dict(data: dict) -> Event:
    return EVENT_ADAPTER.validate_python(data)


def event_to_json(event: _Event) -> str:
    return event.model_dump_json()
