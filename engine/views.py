"""What each observer may see, as allow-listed models.

The public view (the tablet, spectators) never holds the Castillo tallies,
the provinces (they would give the Castillo away: 30 minus the rest), the
cards in a hand, or any secret-disc choice before the reveal. A player's view
adds that player's own private facts, and nobody else's.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .flow import asked
from .primitives import Ask
from .rules.edition_2023 import power_shift
from .state import GameState

# Asks whose options show private facts (a hand, the provinces, a disc, Modifier cards).
PRIVATE_ASKS = {"play_power_card", "replenish", "take_back_power_card", "secret_disc", "pass_modifier"}
# What of those asks' options anyone may see (worked out from public facts only).
PUBLIC_OPTIONS = {
    "play_power_card": ("unavailable", "stacks"),
    "secret_disc": ("purpose",),
    "replenish": ("max", "regions", "stacks"),
    "pass_modifier": ("chosen",),
}
# Asks with options per player ({"field": {player: ...}}): the player asked sees only theirs.
PER_PLAYER_OPTIONS = {"secret_disc": "regions", "pass_modifier": "hands"}
# Options nobody sees: the engine's own (for random playouts), telling others' secrets.
ENGINE_ONLY_OPTIONS = {"deal_modifiers": ("free",)}


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AskView(_View):
    kind: str
    players: list[str]
    options: dict[str, Any] | None
    vetoes: list[str]
    card: str | None
    round: int
    stage: str


class PlayerPublic(_View):
    id: str
    name: str
    score: int
    court: int
    grande: str | None  # None: the 2-player dummy has no Grande
    power_card_played: int | None
    power_cards_in_hand: int
    vetoes_held: int
    modifier_played: str | None = None  # Power Shift: played face up with the Power card
    power_total: int | None = None  # Power Shift: the card's value plus or minus the Modifier


class ScoringView(_View):
    round: int
    title: str
    lines: list[dict[str, Any]]
    transfers: list[dict[str, Any]]


class OutcomeView(_View):
    round: int
    title: str
    discs: dict[str, str]
    moves: list[dict[str, Any]]


class PublicView(_View):
    round: int
    rounds: list[int]
    variant: str
    stage: str
    asked: AskView
    players: list[PlayerPublic]
    start_player: str
    king: str
    regions: dict[str, dict[str, int]]
    mobile_scoreboards: dict[str, str | None]
    action_cards: dict[int, str | None]
    secret_discs_chosen: list[str]
    scorings: list[ScoringView]
    outcomes: list[OutcomeView]  # what the table moved by hand after each reveal or effect
    winners: list[str]
    rules: str = "classic"
    modules: list[str] = []
    dummy: str | None = None  # 2023, 2 players: the dummy's colour
    discard_pile: list[str] = []  # 2023: used and left-over Action cards, face up
    dummy_region_cards: list[str] = []  # the dummy's Region cards drawn since the last shuffle
    # King and Intrigue (left out while empty): the markers on the board (2x, Alliance, the
    # relocated Castillo -> a region id; a reversed scoreboard -> true) and this round's
    # Action card in front of each player (handed out by rank: public).
    markers: dict[str, Any] = Field(default_factory=dict, exclude_if=lambda v: not v)
    action_cards_held: dict[str, str] = Field(default_factory=dict, exclude_if=lambda v: not v)


class PrivateFacts(_View):
    player: str
    provinces: int
    castillo: int
    power_cards_in_hand: list[int]
    power_cards_discarded: list[int]
    secret_disc: str | None
    modifiers_in_hand: list[str] = []  # Power Shift
    modifiers_discarded: list[str] = []
    modifier_passing: str | None = None  # chosen to pass left, until everyone has chosen


class PlayerView(_View):
    public: PublicView
    private: PrivateFacts


def _ask_view(state: GameState, ask: Ask, observer: str | None) -> AskView:
    options: dict[str, Any] | None = ask.options
    hidden = ENGINE_ONLY_OPTIONS.get(ask.kind)
    if hidden:
        options = {k: v for k, v in ask.options.items() if k not in hidden}
    if ask.kind in PRIVATE_ASKS:
        if observer is None or observer not in ask.players:
            options = {k: ask.options[k] for k in PUBLIC_OPTIONS.get(ask.kind, ()) if k in ask.options} or None
        elif ask.kind in PER_PLAYER_OPTIONS:
            per = PER_PLAYER_OPTIONS[ask.kind]
            options = {**ask.options, per: {observer: ask.options[per][observer]}}
    return AskView(
        kind=ask.kind,
        players=list(ask.players),
        options=options,
        vetoes=list(ask.vetoes),
        card=ask.card,
        round=ask.round,
        stage=ask.stage,
    )


def _power_total(state: GameState, p: int) -> int | None:
    if not state.rules.power_shift or state.played[p] is None:
        return None
    return power_shift.total(state, p)


def _pending_discs(state: GameState) -> dict[int, int]:
    if state.stage in ("scoring_discs", "ki_setup_discs"):  # King and Intrigue's setup disc too
        return state.scoring_discs
    sp = state.special
    if state.stage == "special" and sp is not None and sp.discs is not None:
        return sp.discs
    return {}


def _public(state: GameState, observer: str | None) -> PublicView:
    board = state.board
    pids = state.players
    players = [
        PlayerPublic(
            id=pid,
            name=state.names[pid],
            score=state.scores[p],
            court=state.court[p],
            grande=None if state.grandes[p] is None else board.area_id(state.grandes[p]),
            power_card_played=state.played[p],
            power_cards_in_hand=len(state.hands[p]),
            vetoes_held=sum(1 for q, _ in state.vetoes if q == p),
            modifier_played=state.modifier_played[p] if state.modifier_played else None,
            power_total=_power_total(state, p),
        )
        for p, pid in enumerate(pids)
    ]
    regions = {rid: {pids[p]: c for p, c in enumerate(state.counts[r]) if c} for r, rid in enumerate(board.region_ids)}
    scorings = [
        ScoringView(round=s.round, title=s.title, lines=[ln.to_dict() for ln in s.lines], transfers=list(s.transfers))
        for s in state.scoring_log
    ]
    return PublicView(
        round=state.round,
        rounds=list(state.schedule),
        variant=state.variant,
        stage=state.stage,
        asked=_ask_view(state, asked(state), observer),
        players=players,
        start_player=pids[state.start_player],
        king=board.area_id(state.king),
        regions=regions,
        mobile_scoreboards={sid: (board.area_id(a) if a is not None else None) for sid, a in state.mobile.items()},
        action_cards=dict(state.revealed),
        secret_discs_chosen=[pids[p] for p in _pending_discs(state)],
        scorings=scorings,
        outcomes=[OutcomeView(**o.to_dict()) for o in state.outcomes],
        winners=[pids[p] for p in state.winners],
        rules=state.rules.id,
        modules=sorted(state.rules.modules),
        dummy=None if state.dummy is None else pids[state.dummy],
        discard_pile=list(state.discard_pile),
        dummy_region_cards=[board.region_ids[r] for r in state.region_cards_drawn],
        **(_king_intrigue_public(state) if state.rules.king_intrigue else {}),
    )


def _king_intrigue_public(state: GameState) -> dict[str, Any]:
    from .rules.king_intrigue.round import action_cards_by_rank

    board = state.board
    markers = {
        m: (board.area_id(v) if isinstance(v, int) and not isinstance(v, bool) else v)
        for m, v in state.markers.items()
        if v is not None
    }
    for place, q in state.aside.items():  # a Caballero on the bridge: whose it is (public)
        markers[f"{place}_caballero"] = state.players[q]
    held = {}
    if state.turn_order and all(v is not None for v in state.played):  # the Power cards all played
        held = {state.players[p]: card for p, (card, _) in action_cards_by_rank(state).items()}
    return {"markers": markers, "action_cards_held": held}


def public_view(state: GameState) -> PublicView:
    return _public(state, None)


def player_view(state: GameState, player: str) -> PlayerView:
    p = state.players.index(player)
    disc = _pending_discs(state).get(p)
    private = PrivateFacts(
        player=player,
        provinces=state.provinces[p],
        castillo=state.counts[state.board.castillo][p],
        power_cards_in_hand=sorted(state.hands[p]),
        power_cards_discarded=sorted(state.discards[p]),
        secret_disc=state.board.region_ids[disc] if disc is not None else None,
        modifiers_in_hand=sorted(state.modifier_hands[p]) if state.modifier_hands else [],
        modifiers_discarded=sorted(state.modifier_discards[p]) if state.modifier_discards else [],
        modifier_passing=state.modifier_passes.get(p),
    )
    return PlayerView(public=_public(state, player), private=private)


def castillo_tallies(state: GameState) -> dict[str, int]:
    """The hidden view: who has how many in the Castillo. For the table authority only."""
    return {pid: state.counts[state.board.castillo][p] for p, pid in enumerate(state.players)}
