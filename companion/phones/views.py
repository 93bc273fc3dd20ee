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

`Snapshot` is what the server reads from the table in one go (questions/snapshot.py, under the
table's lock); `phone_view` and `status_view` turn it into messages.

2023 rule sets add, per seat: its own Modifier cards (Power Shift), named by
face (`Faces`: twins are one card at the table, and a card id would tell which
copy a player holds); the question of a private choice (`PrivateAsk`: the
cards dealt, the one passed, a card taken back, or a Veto); the words of a
disc whose purpose is new (Civil War, Coup, a Grande in the Castillo). A
classic game's views are as before.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from companion.plays.bgstats import log_in_words
from companion.prompts.card_words import phone_words
from companion.words import _
from companion.words import names as edition
from companion.words.colours import COLOUR_WORDS
from companion.words.colours import colour_word as words_colour
from companion.words.effects import effect_title
from engine.board.model import Board

DISC_KINDS = ("secret_disc", "count_castillo", "reveal_secret_discs")

COLOUR_NAMES = COLOUR_WORDS  # the 2023 box's too (ids; the words a phone reads: colour_word)


def colour_word(pid: str) -> str:
    """A seat's colour in the reader's language ("Rot"); an id the box lacks, as it is."""
    return words_colour(pid) if pid in COLOUR_WORDS else pid


def seat_name(names: Mapping[str, str], pid: str) -> str:
    """The name a seat is shown by: its typed name, or its colour in the reader's language when
    the seat kept its colour's name."""
    typed = " ".join(str(names.get(pid) or "").split())
    return colour_word(pid) if typed in ("", COLOUR_NAMES.get(pid, pid)) else typed


# What a disc is for, on a phone: the game's own purposes here, a card's from its words
# (companion/prompts/card_words.py). Made when a view is made: in the reader's language.
PURPOSE_TEXT = {
    "castillo_destination": lambda: (
        _("General scoring: where do your Castillo Caballeros go?"),
        _(
            "Set your secret disc. After the Castillo is scored, your Caballeros in it move to this "
            "region (the King's region sends them back to your court)."
        ),
    ),
    "setup_caballero": lambda: (  # King and Intrigue's setup
        _("Setup: where does your first Caballero go?"),
        _(
            "Pick a region (not the King's). All discs are revealed together; then each player places 1 "
            "Caballero from the province there."
        ),
    ),
    "send_back": lambda: phone_words("disc_send_back", "send_back"),
    "eviction_destination": lambda: phone_words("eviction", "eviction_destination"),
    "special_scoring": lambda: phone_words("disc_scoring", "special_scoring"),
    "hurricane": lambda: phone_words("hurricane", "hurricane"),
    "field_day": lambda: phone_words("field_day", "field_day"),
}


def purpose_text(purpose: str | None) -> tuple[str, str]:
    """(title, hint) of a disc's purpose, in the reader's language."""
    words = PURPOSE_TEXT.get(purpose or "")
    return words() if words else (_("Secret disc: pick a region"), _("All discs are revealed together."))


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatOut(_Out):
    id: str
    name: str
    colour: str  # display name of the colour


class RegionOut(_Out):
    id: str
    name: str  # with accents: "País Vasco"
    king: bool  # the King stands there (public)


class OptionOut(_Out):
    """One thing a 2023 private question offers: a Modifier card's face, a Power card, or a
    Veto answer. A Modifier card is named by its face ("card3"), never by the set's card id:
    twins cannot be told apart at the table, and an id would say which copy someone holds."""

    id: str
    label: str
    note: str = ""  # a Modifier card's ability, in the card's own words
    most: int = 1  # how many times it may be picked in one answer (twin Modifier cards)


class FactsOut(_Out):
    castillo: int  # this seat's own Caballeros in the Castillo
    score: int
    power_cards: list[int] | None  # this seat's own hand; None in scoring-only mode
    modifiers: list[OptionOut] | None = None  # Power Shift: this seat's own Modifier cards in hand


class QuestionOut(_Out):
    id: str  # send it back with a pick; a pick against an old id is refused
    state: Literal["waiting", "choose", "locked", "revealed"]
    title: str
    hint: str
    regions: list[RegionOut]  # only while this seat may choose: the regions allowed to it
    pick: RegionOut | None  # this seat's own pick (or its revealed pick)
    waiting_for: list[str]  # names of players still to choose (public)
    # 2023: "disc" (a region, above), "cards" (Modifier or Power cards: `count` of `options`,
    # this seat's current answer in `chosen`) or "veto" (use it or let the special action pass).
    kind: Literal["disc", "cards", "veto"] = "disc"
    options: list[OptionOut] = []
    count: int = 1
    chosen: list[OptionOut] = []


class PhoneView(_Out):
    type: Literal["view"] = "view"
    seq: int  # per seat, +1 for every change of this view
    seat: SeatOut
    round: int
    rounds: int
    question: QuestionOut
    facts: FactsOut
    last_seq: int = 0  # the number of this seat's last accepted answer: the page numbers its next one above
    bgstats: dict[str, str] | None = None  # the game over: BG Stats' push link and its button's words (plays)


class PendingView(_Out):
    """All an unconfirmed phone sees: no question, no facts, no pick."""

    type: Literal["pending"] = "pending"
    seat: SeatOut
    number: str  # the two digits the tablet shows next to "Is this Ana's phone?"
    title: str
    hint: str


class SeatChoice(_Out):
    """A phone without a seat (its player changed colour, or sat out a game): which one is yours?"""

    type: Literal["choose_seat"] = "choose_seat"
    was: str | None  # the seat it held last, in words ("Ana (Red)")
    suggested: str | None  # the free seat of the same player or colour, listed first
    seats: list[SeatOut]  # the seats no phone holds now
    title: str
    hint: str


class SeatStatus(_Out):
    id: str
    name: str
    colour: str
    joined: bool  # a phone holds this seat's credential and the tablet confirmed it
    connected: bool  # that phone has a live connection now
    asked: bool  # this seat takes part in the open secret choice
    chosen: bool  # ...and has set its disc (never which region)


class StatusView(_Out):
    type: Literal["status"] = "status"
    seq: int  # +1 for every change of the status
    round: int
    choice: Literal["none", "open", "all_chosen", "locked"]
    purpose: str | None
    seats: list[SeatStatus]


@dataclass
class PrivateAsk:
    """A 2023 private question put to one seat (its own secrets only), in phone terms."""

    kind: Literal["cards", "veto"]
    title: str
    hint: str
    options: list[OptionOut]
    count: int = 1
    chosen: list[OptionOut] = field(default_factory=list)


@dataclass
class Snapshot:
    """Read from the table in one go. Holds private facts: never sent as such."""

    mode: str
    players: list[str]
    qid: str
    kind: str
    purpose: str | None
    needed: list[str]  # seats taking part in the open secret choice
    chosen: list[str]
    allowed: dict[str, list[str]]
    round: int
    rounds: int
    king: str | None
    names: dict[str, str]
    scores: dict[str, int]
    private: dict[str, dict]
    revealed: dict[str, str] = field(default_factory=dict)  # last reveal's picks (own one is shown)
    over: bool = False
    winners: list[str] = field(default_factory=list)
    # 2023 rule sets (empty for a classic game: its phone views are unchanged).
    disc_words: dict[str, tuple[str, str]] = field(default_factory=dict)  # seat -> (title, hint) of its disc
    asks: dict[str, PrivateAsk] = field(default_factory=dict)  # seat -> its private question now
    private_kind: str | None = None  # deal_modifiers, pass_modifier, veto ...: what `asks` are
    private_needed: list[str] = field(default_factory=list)  # seats taking part (public)
    private_chosen: list[str] = field(default_factory=list)  # ...that have answered (public)
    hands: dict[str, list[OptionOut]] = field(default_factory=dict)  # seat -> own Modifier cards
    notice: tuple[str, str] | None = None  # (title, hint) for everyone: a scoring without discs
    again: list[str] = field(default_factory=list)  # seats whose private choice the tablet undid
    answered: dict[str, int] = field(default_factory=dict)  # seat -> its last accepted answer's number
    play_link: str | None = None  # the game over: BG Stats' push link (companion.plays.bgstats)


def region_out(board: Board, rid: str, king: str | None) -> RegionOut:
    return RegionOut(id=rid, name=edition.area(board, board.area_index[rid]), king=rid == king)


def _choice_state(snap: Snapshot) -> str:
    if snap.kind == "secret_disc":
        return "open"
    if snap.kind in DISC_KINDS:
        # Scoring-only mode: once the Castillo is counted the discs are locked.
        return "locked" if snap.mode == "scoring" and snap.kind == "reveal_secret_discs" else "all_chosen"
    return "none"


PRIVATE_ROUNDS = {  # 2023 choices every player makes at once, in private: (done title, done hint)
    "deal_modifiers": lambda: (
        _("Your Modifier cards are entered"),
        _("They are in your hand below. Next, everyone passes one card to the left."),
    ),
    "pass_modifier": lambda: (
        _("Your card to pass is chosen"),
        _("The cards change hands once everyone has chosen."),
    ),
    "choose_power_cards": lambda: (
        _("Your Power cards are kept"),
        _("They are your hand below; the others left the game unseen. The game starts once everyone has chosen."),
    ),
}


def _private_question(snap: Snapshot, pid: str) -> dict | None:
    """The question of a 2023 private choice (Power Shift, a Veto, a card taken back), or None."""
    names = snap.names
    waiting = [seat_name(names, p) for p in snap.private_needed if p not in snap.private_chosen]
    own = snap.asks.get(pid)
    if own is not None:
        return dict(
            state="choose",
            title=own.title,
            hint=own.hint,
            kind=own.kind,
            options=own.options,
            count=own.count,
            chosen=own.chosen,
            waiting_for=waiting,
        )
    if snap.private_kind not in PRIVATE_ROUNDS:
        return None
    if pid in snap.private_chosen:
        title, hint = PRIVATE_ROUNDS[snap.private_kind]()
    else:
        title, hint = _("Other players are choosing secretly"), _("Nothing to choose for you this time.")
    return dict(state="waiting", title=title, hint=hint, kind="cards", waiting_for=waiting)


def phone_view(board: Board, snap: Snapshot, pid: str, seq: int = 0) -> PhoneView:
    mine = snap.private[pid]
    names = snap.names
    choice = _choice_state(snap)
    waiting = [seat_name(names, p) for p in snap.needed if p not in snap.chosen]
    regions: list[RegionOut] = []
    pick: RegionOut | None = None
    private = _private_question(snap, pid)
    if private is not None:
        state, title, hint = private.pop("state"), private.pop("title"), private.pop("hint")
    elif snap.notice is not None:
        (title, hint), state, choice = snap.notice, "waiting", "none"
    elif choice != "none" and pid in snap.needed:
        title, hint = snap.disc_words.get(pid) or purpose_text(snap.purpose)
        own = mine.get("secret_disc")
        pick = region_out(board, own, snap.king) if own else None
        allowed = snap.allowed.get(pid, [])
        if choice == "locked" or not allowed:
            state = "locked"
            hint = _("Your disc is locked. The tablet reveals all discs together.")
        else:
            state = "choose"
            regions = [region_out(board, r, snap.king) for r in allowed]
            if pick:
                hint = _("You can change your pick until the tablet reveals the discs.")
    elif choice != "none":
        state, title = "waiting", _("Other players are choosing secretly")
        hint = _("Nothing to choose for you this time.")
    elif snap.over:  # before the last scoring's revealed discs: no next secret choice comes
        state, title = "waiting", _("Game over")
        winners = ", ".join(seat_name(names, p) for p in snap.winners)
        hint = _("Won by {winners}").format(winners=winners) if snap.winners else _("Thanks for playing.")
    elif pid in snap.revealed:
        state, title = "revealed", _("Discs revealed")
        hint = _("Your disc is locked. Your phone lights up when the next secret choice comes.")
        pick = region_out(board, snap.revealed[pid], snap.king)
    else:
        state, title = "waiting", _("Nothing to choose right now")
        hint = _("Your phone lights up when a secret choice is asked of you.")
    if state in ("waiting", "revealed") and mine.get("refused"):  # the tablet refused this seat's card: why
        state, pick = "waiting", None
        title, hint = _("Only you see why the tablet refused your card"), str(mine["refused"])
    hand = mine.get("power_cards_in_hand")
    facts = FactsOut(
        castillo=int(mine.get("castillo") or 0),
        score=int(snap.scores.get(pid, 0)),
        power_cards=sorted(int(c) for c in hand) if snap.mode == "tracking" and hand is not None else None,
        modifiers=snap.hands.get(pid),
    )
    extra = private or {"waiting_for": waiting if choice != "none" else []}
    if pid in snap.again and state == "choose":  # it had answered: the undo on the tablet is why it asks
        hint = _("The tablet undid your choice: choose again. {hint}").format(hint=hint)
    return PhoneView(
        seq=seq,
        seat=SeatOut(id=pid, name=seat_name(names, pid), colour=colour_word(pid)),
        round=snap.round,
        rounds=snap.rounds,
        question=QuestionOut(id=snap.qid, state=state, title=title, hint=hint, regions=regions, pick=pick, **extra),
        facts=facts,
        last_seq=snap.answered.get(pid, 0),
        bgstats={"link": snap.play_link, "words": log_in_words()} if snap.over and snap.play_link else None,
    )


def pending_view(pid: str, name: str, number: str) -> PendingView:
    name = seat_name({pid: name}, pid)
    return PendingView(
        seat=SeatOut(id=pid, name=name, colour=colour_word(pid)),
        number=number,
        title=_("Waiting for the tablet"),
        hint=_(
            "The tablet asks: is this {name}'s phone? Once someone taps Yes there, your secret "
            "disc and your Castillo count appear here."
        ).format(name=name),
    )


def seat_choice(names: dict[str, str], free: list[str], suggested: str | None, was: str) -> SeatChoice:
    order = ([suggested] if suggested in free else []) + [p for p in free if p != suggested]
    seats = [SeatOut(id=pid, name=seat_name(names, pid), colour=colour_word(pid)) for pid in order]
    if seats:
        title = _("Which seat is yours?")
        if was:
            hint = _("This phone was {seat}'s. Tap your seat. The tablet may ask whether this is your phone.")
        else:
            hint = _("Tap your seat. The tablet may ask whether this is your phone.")
    else:
        title = _("Every seat has a phone")
        if was:
            hint = _(
                "This phone was {seat}'s. If one of these seats is yours, ask the tablet for its new "
                "code (Phones, New code)."
            )
        else:
            hint = _("If one of these seats is yours, ask the tablet for its new code (Phones, New code).")
    hint = hint.format(seat=was)
    return SeatChoice(
        was=was or None, suggested=order[0] if suggested in free else None, seats=seats, title=title, hint=hint
    )


def status_view(snap: Snapshot, seats: dict[str, dict[str, bool]], seq: int = 0) -> StatusView:
    choice = _choice_state(snap)
    purpose = snap.purpose if choice != "none" else None
    needed, chosen = snap.needed, snap.chosen
    if choice == "none" and snap.private_kind in PRIVATE_ROUNDS:
        # Power Shift's deal and pass: who has answered (never what), as for the discs.
        choice = "open" if len(snap.private_chosen) < len(snap.private_needed) else "all_chosen"
        purpose, needed, chosen = snap.private_kind, snap.private_needed, snap.private_chosen
    return StatusView(
        seq=seq,
        round=snap.round,
        choice=choice,
        purpose=purpose,
        seats=[
            SeatStatus(
                id=pid,
                name=seat_name(snap.names, pid),
                colour=colour_word(pid),
                joined=seats[pid]["joined"],
                connected=seats[pid]["connected"],
                asked=choice != "none" and pid in needed,
                chosen=choice != "none" and pid in chosen,
            )
            for pid in snap.players
        ],
    )


# ---- Power Shift's Modifier cards, as the players hold them ------------------------------------

_TWIN_NUMBER = re.compile(r" #\d+$")


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}"


@dataclass(frozen=True)
class Faces:
    """The Modifier cards of a game grouped by what is printed on them. A phone names a card
    by its face: a player cannot tell twins apart, and the set's ids would tell which copy
    another player was dealt. The server maps a face back to a copy (`ids`)."""

    face_of: dict[str, str]  # card id -> face key ("card1", ...), in the set's order
    ids: dict[str, list[str]]  # face key -> the card ids with that face, sorted
    printed: dict[str, tuple[str, int, str, str]]  # face key -> (name, value, effect, text) as the set has it

    @property
    def options(self) -> dict[str, OptionOut]:
        """Face key -> what the phone shows, in the reader's language (made at each read)."""
        return {face: _face_option(face, *printed) for face, printed in self.printed.items()}

    def option(self, face: str, most: int = 1) -> OptionOut:
        return self.options[face].model_copy(update={"most": most})

    def hand(self, ids) -> list[OptionOut]:
        """A hand of card ids, as faces (twins repeated), in the set's order."""
        order = list(self.ids)
        return [self.options[f] for f in sorted((self.face_of[m] for m in ids if m in self.face_of), key=order.index)]


def modifier_faces(modifiers: Mapping) -> Faces:
    """`modifiers`: the game's Modifier cards (id -> card with value, name, effect, params, text)."""
    groups: dict[tuple, list[str]] = {}
    for mid in sorted(modifiers, key=lambda m: (modifiers[m].value, m)):
        m = modifiers[mid]
        key = (m.name, m.value, m.effect, json.dumps(m.params, sort_keys=True, default=str), m.text)
        groups.setdefault(key, []).append(mid)
    face_of, ids, printed = {}, {}, {}
    for i, members in enumerate(groups.values(), 1):
        face, m = f"card{i}", modifiers[members[0]]
        ids[face] = sorted(members)
        printed[face] = (m.name, m.value, m.effect or "", m.text or "")
        face_of.update({mid: face for mid in members})
    return Faces(face_of, ids, printed)


def _face_option(face: str, name: str, value: int, effect: str, text: str) -> OptionOut:
    signed = _signed(value)
    shown = _TWIN_NUMBER.sub("", edition.card(name))
    label = shown if signed in shown else _("{card} ({value})").format(card=shown, value=signed)
    note = edition.card_text(text) if text else (effect_title(effect) if effect else _("no ability"))
    return OptionOut(id=face, label=label, note=note)
