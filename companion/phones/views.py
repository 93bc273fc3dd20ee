"""What a phone and a spectator may see, as allow-listed models.

Every message the phone server sends is one of these models, built field by
field from the table: a phone's view holds its own seat's private facts and
pick and public facts (round, who still has to choose), never a filtered copy
of the whole state; the status feed says only WHO has chosen, never what.

A phone the tablet has not confirmed yet ("is this Ana's phone?") gets only a
`PendingView`: its seat's public name and colour and the number to match with
the tablet, nothing else. A phone of an earlier game whose player has no seat
in this one gets a `SeatChoice`: the free seats (names and colours, public) to
pick from, nothing of any game.

`Snapshot` is what the server reads from the table in one go (under the
table's lock); `phone_view` and `status_view` turn it into messages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict

from engine.board import Board

DISC_KINDS = ("secret_disc", "count_castillo", "reveal_secret_discs")

COLOUR_NAMES = {"red": "Red", "yellow": "Yellow", "green": "Green", "blue": "Blue", "black": "Black"}

PURPOSE_TEXT = {
    "castillo_destination": (
        "General scoring: where do your Castillo Caballeros go?",
        "Set your secret disc. After the Castillo is scored, your Caballeros in it move to this "
        "region (the King's region sends them back to your court)."),
    "send_back": (
        "Secret disc: which region do you lose Caballeros from?",
        "The card sends your Caballeros back from the region you pick."),
    "eviction_destination": (
        "Eviction: where do your evicted Caballeros go?",
        "Your Caballeros leave the evicted region for the region you pick."),
    "special_scoring": (
        "Special scoring: which region should score?",
        "Every region chosen by exactly one player is scored."),
}
GENERIC_PURPOSE = ("Secret disc: pick a region", "All discs are revealed together.")


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatOut(_Out):
    id: str
    name: str
    colour: str          # display name of the colour


class RegionOut(_Out):
    id: str
    name: str            # with accents: "País Vasco"
    king: bool           # the King stands there (public)


class FactsOut(_Out):
    castillo: int                      # this seat's own Caballeros in the Castillo
    score: int
    power_cards: Optional[list[int]]   # this seat's own hand; None in scoring-only mode


class QuestionOut(_Out):
    id: str              # send it back with a pick; a pick against an old id is refused
    state: Literal["waiting", "choose", "locked", "revealed"]
    title: str
    hint: str
    regions: list[RegionOut]       # only while this seat may choose: the regions allowed to it
    pick: Optional[RegionOut]      # this seat's own pick (or its revealed pick)
    waiting_for: list[str]         # names of players still to choose (public)


class PhoneView(_Out):
    type: Literal["view"] = "view"
    seq: int             # per seat, +1 for every change of this view
    seat: SeatOut
    round: int
    rounds: int
    question: QuestionOut
    facts: FactsOut


class PendingView(_Out):
    """All an unconfirmed phone sees: no question, no facts, no pick."""

    type: Literal["pending"] = "pending"
    seat: SeatOut
    number: str          # the two digits the tablet shows next to "Is this Ana's phone?"
    title: str
    hint: str


class SeatChoice(_Out):
    """A phone without a seat (its player changed colour, or sat out a game): which one is yours?"""

    type: Literal["choose_seat"] = "choose_seat"
    was: Optional[str]          # the seat it held last, in words ("Ana (Red)")
    suggested: Optional[str]    # the free seat of the same player or colour, listed first
    seats: list[SeatOut]        # the seats no phone holds now
    title: str
    hint: str


class SeatStatus(_Out):
    id: str
    name: str
    colour: str
    joined: bool         # a phone holds this seat's credential and the tablet confirmed it
    connected: bool      # that phone has a live connection now
    asked: bool          # this seat takes part in the open secret choice
    chosen: bool         # ...and has set its disc (never which region)


class StatusView(_Out):
    type: Literal["status"] = "status"
    seq: int             # +1 for every change of the status
    round: int
    choice: Literal["none", "open", "all_chosen", "locked"]
    purpose: Optional[str]
    seats: list[SeatStatus]


@dataclass
class Snapshot:
    """Read from the table in one go. Holds private facts: never sent as such."""

    mode: str
    players: list[str]
    qid: str
    kind: str
    purpose: Optional[str]
    needed: list[str]            # seats taking part in the open secret choice
    chosen: list[str]
    allowed: dict[str, list[str]]
    round: int
    rounds: int
    king: Optional[str]
    names: dict[str, str]
    scores: dict[str, int]
    private: dict[str, dict]
    revealed: dict[str, str] = field(default_factory=dict)  # last reveal's picks (own one is shown)
    over: bool = False
    winners: list[str] = field(default_factory=list)


def region_out(board: Board, rid: str, king: Optional[str]) -> RegionOut:
    return RegionOut(id=rid, name=board.area_name(board.area_index[rid]), king=rid == king)


def _choice_state(snap: Snapshot) -> str:
    if snap.kind == "secret_disc":
        return "open"
    if snap.kind in DISC_KINDS:
        # Scoring-only mode: once the Castillo is counted the discs are locked.
        return "locked" if snap.mode == "scoring" and snap.kind == "reveal_secret_discs" else "all_chosen"
    return "none"


def phone_view(board: Board, snap: Snapshot, pid: str, seq: int = 0) -> PhoneView:
    mine = snap.private[pid]
    names = snap.names
    choice = _choice_state(snap)
    waiting = [names[p] for p in snap.needed if p not in snap.chosen]
    regions: list[RegionOut] = []
    pick: Optional[RegionOut] = None
    if choice != "none" and pid in snap.needed:
        title, hint = PURPOSE_TEXT.get(snap.purpose or "", GENERIC_PURPOSE)
        own = mine.get("secret_disc")
        pick = region_out(board, own, snap.king) if own else None
        allowed = snap.allowed.get(pid, [])
        if choice == "locked" or not allowed:
            state = "locked"
            hint = "Your disc is locked. The tablet reveals all discs together."
        else:
            state = "choose"
            regions = [region_out(board, r, snap.king) for r in allowed]
            if pick:
                hint = "You can change your pick until the tablet reveals the discs."
    elif choice != "none":
        state, title = "waiting", "Other players are choosing secretly"
        hint = "Nothing to choose for you this time."
    elif pid in snap.revealed:
        state, title = "revealed", "Discs revealed"
        hint = "Your disc is locked. Your phone lights up when the next secret choice comes."
        pick = region_out(board, snap.revealed[pid], snap.king)
    elif snap.over:
        state, title = "waiting", "Game over"
        hint = "Won by " + ", ".join(names[p] for p in snap.winners) if snap.winners else "Thanks for playing."
    else:
        state, title = "waiting", "Nothing to choose right now"
        hint = "Your phone lights up when a secret choice is asked of you."
    hand = mine.get("power_cards_in_hand")
    facts = FactsOut(castillo=int(mine.get("castillo") or 0), score=int(snap.scores.get(pid, 0)),
                     power_cards=sorted(int(c) for c in hand) if snap.mode == "tracking" and hand is not None
                     else None)
    return PhoneView(
        seq=seq, seat=SeatOut(id=pid, name=names[pid], colour=COLOUR_NAMES.get(pid, pid)),
        round=snap.round, rounds=snap.rounds,
        question=QuestionOut(id=snap.qid, state=state, title=title, hint=hint, regions=regions, pick=pick,
                             waiting_for=waiting if choice != "none" else []),
        facts=facts)


def pending_view(pid: str, name: str, number: str) -> PendingView:
    return PendingView(
        seat=SeatOut(id=pid, name=name, colour=COLOUR_NAMES.get(pid, pid)), number=number,
        title="Waiting for the tablet",
        hint=f"The tablet asks: is this {name}'s phone? Once someone taps Yes there, your secret "
             "disc and your Castillo count appear here.")


def seat_choice(names: dict[str, str], free: list[str], suggested: Optional[str], was: str) -> SeatChoice:
    order = ([suggested] if suggested in free else []) + [p for p in free if p != suggested]
    seats = [SeatOut(id=pid, name=names[pid], colour=COLOUR_NAMES.get(pid, pid)) for pid in order]
    if seats:
        title = "Which seat is yours?"
        hint = ((f"This phone was {was}'s. " if was else "")
                + "Tap your seat. The tablet may ask whether this is your phone.")
    else:
        title = "Every seat has a phone"
        hint = ((f"This phone was {was}'s. " if was else "")
                + "If one of these seats is yours, ask the tablet for its new code (Phones, New code).")
    return SeatChoice(was=was or None, suggested=order[0] if suggested in free else None, seats=seats,
                      title=title, hint=hint)


def status_view(snap: Snapshot, seats: dict[str, dict[str, bool]], seq: int = 0) -> StatusView:
    choice = _choice_state(snap)
    return StatusView(
        seq=seq, round=snap.round, choice=choice, purpose=snap.purpose if choice != "none" else None,
        seats=[SeatStatus(id=pid, name=snap.names[pid], colour=COLOUR_NAMES.get(pid, pid),
                          joined=seats[pid]["joined"], connected=seats[pid]["connected"],
                          asked=choice != "none" and pid in snap.needed,
                          chosen=choice != "none" and pid in snap.chosen)
               for pid in snap.players])
