"""Private card choices on the phones: Power Shift's Modifier cards dealt and passed, a card taken
back (2023), and King and Intrigue's Power cards kept in secret.

A Modifier card is named by its face, never by the set's card id (views.Faces): twins cannot be
told apart at the table, and an id would say which copy someone holds. A Power card is named by
its value ("power:N")."""

from __future__ import annotations

from companion.phones.questions.memory import GameMemory
from companion.phones.refusals import Refused
from companion.phones.views import Faces, OptionOut, PrivateAsk, modifier_faces
from companion.prompts.prompt import MODIFIER_PREFIX
from companion.table.authority import Table
from companion.words import _, ngettext

# Private choices a phone answers besides its discs (a Veto too: veto.py).
PHONE_PRIVATE_KINDS = (
    "deal_modifiers",
    "pass_modifier",
    "take_back_power_card",
    "choose_power_cards",
)  # the last: King and Intrigue's 13 kept, in secret
# Entering the Modifier cards dealt is refused when more copies of a card are entered than the set
# has: someone made a mistake. Each refusal tells a little about others' hands, so a phone gets
# this many; after that the cards are entered on the tablet, with the table watching.
DEAL_REFUSALS = 3


def faces_of(table: Table, memory: GameMemory) -> Faces | None:
    """This game's Modifier cards by face (Power Shift), or None."""
    if not memory.faces_read:
        modifiers = table.state.modifiers if table.state is not None else {}
        memory.faces = modifier_faces(modifiers) if modifiers else None
        memory.faces_read = True
    return memory.faces


def cards_ask(pick, faces: Faces | None, mine: dict) -> PrivateAsk:
    """A table's private pick of cards (companion.prompts.builder.PrivatePick) as the phone asks it:
    Modifier cards by face, Power cards by value; the seat's own current answer."""
    if pick.kind == "deal_modifiers" and faces is not None:
        options = [faces.option(face, min(pick.count, len(ids))) for face, ids in faces.ids.items()]
        return PrivateAsk(
            "cards",
            _("Your Modifier cards"),
            ngettext(
                "Tap the {n} Modifier card you were dealt, then Confirm. Nobody else sees it.",
                "Tap the {n} Modifier cards you were dealt (a card you hold twice: tap it twice), then "
                "Confirm. Nobody else sees them.",
                pick.count,
            ).format(n=pick.count),
            options,
            count=pick.count,
        )
    cards: list[OptionOut] = []
    held: set[str] = set()
    for value, label in pick.options:
        mid = value[len(MODIFIER_PREFIX) :] if value.startswith(MODIFIER_PREFIX) else value
        if faces is not None and mid in faces.face_of:
            held.add(faces.face_of[mid])  # twins once: they are one card at the table
        else:
            cards.append(OptionOut(id=f"power:{value}", label=label))
    options = cards + [faces.options[face] for face in faces.ids if face in held] if faces else cards
    chosen = []
    passing = mine.get("modifier_passing")
    if pick.kind == "pass_modifier" and faces is not None and passing in faces.face_of:
        chosen = [faces.options[faces.face_of[passing]]]
    return PrivateAsk("cards", pick.title, pick.hint, options, count=pick.count, chosen=chosen)


def card_values(table: Table, memory: GameMemory, ask, pick, qid: str, pid: str, values: list[str]) -> list[str]:
    """The phone's answer (faces of Modifier cards, "power:N") as the values of the table's
    private pick (card ids). Refused with a message when it is not one of the options."""
    faces = faces_of(table, memory)
    if len(values) != pick.count:
        raise Refused(
            422,
            ngettext("Pick {n} card, not {got}.", "Pick {n} cards, not {got}.", pick.count).format(
                n=pick.count, got=len(values)
            ),
        )
    offered = {v for v, _ in pick.options}
    if pick.kind == "deal_modifiers":
        return _dealt_ids(memory, ask, faces, values, (qid, pid))
    out = []
    for value in values:
        if value.startswith("power:") and value[len("power:") :] in offered:
            out.append(value[len("power:") :])
            continue
        prefix = MODIFIER_PREFIX if pick.kind == "take_back_power_card" else ""
        ids = faces.ids.get(value, []) if faces is not None else []
        match = [prefix + m for m in ids if prefix + m in offered]
        if not match:
            raise Refused(422, _("That card is not one of your choices; pick one from the list."))
        out.append(match[0])
    return out


def _dealt_ids(memory: GameMemory, ask, faces: Faces | None, values: list[str], key: tuple[str, str]) -> list[str]:
    """The copies of the faces a player entered that no other player entered: twins are one
    card at the table. More copies of a face than are left is a mistake at the table."""
    if faces is None or any(v not in faces.ids for v in values):
        raise Refused(422, _("That card is not one of the Modifier cards of this game; pick from the list."))
    refused = memory.deal_refused.get(key, 0)
    if refused >= DEAL_REFUSALS:
        raise Refused(
            409,
            ngettext(
                "Your Modifier cards were refused {n} time: enter them on the tablet's private "
                "screen, with the table checking the cards.",
                "Your Modifier cards were refused {n} times: enter them on the tablet's private "
                "screen, with the table checking the cards.",
                DEAL_REFUSALS,
            ).format(n=DEAL_REFUSALS),
        )
    free = set(ask.options.get("free", ()))
    ids: list[str] = []
    for face in dict.fromkeys(values):
        wanted = values.count(face)
        label = faces.options[face].label
        if wanted > len(faces.ids[face]):
            raise Refused(
                422,
                ngettext(
                    "The set has only {n} {card}: check your three cards.",
                    "The set has only {n} {card}: check your three cards.",
                    len(faces.ids[face]),
                ).format(n=len(faces.ids[face]), card=label),
            )
        left = [m for m in faces.ids[face] if m in free]
        if wanted > len(left):
            memory.deal_refused[key] = refused + 1
            raise Refused(
                409,
                _(
                    "{card}: more of these cards would be entered than the set has. Check your "
                    "three cards; if they are right, another player entered a wrong card and the "
                    "tablet can undo theirs."
                ).format(card=label),
            )
        ids += left[:wanted]
    return ids
