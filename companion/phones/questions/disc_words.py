"""The words of a 2023 or King and Intrigue disc whose purpose is new (Civil War, Eviction, a
Grande in the Castillo), and the notice of a general scoring without discs. The words themselves
are the cards' (companion/prompts/card_words.py, `phone`); this fills them in for one seat."""

from __future__ import annotations

from companion.phones.views import PURPOSE_TEXT, purpose_text
from companion.prompts.card_words import phone_words
from companion.table.authority import Table
from companion.words import _, names


def castillo_stays() -> tuple[str, str]:
    """The notice of a general scoring whose Castillo stays (Rebellion), in the reader's language."""
    return phone_words("rebellion", "castillo_stays")


def disc_words(table: Table, builder, ask, pid: str, grande_in_castillo: bool) -> tuple[str, str]:
    """What a 2023 disc is for, in plain words (title, hint), when it is not a classic purpose."""
    purpose = ask.options.get("purpose")
    words = builder.secret_purpose(ask, pid)
    if purpose == "civil_war":
        return phone_words("civil_war", "civil_war", words=words)
    if purpose == "eviction_destination":
        card = table.board.cards.get(ask.card) if ask.card else None
        name = names.card(card.name) if card is not None else names.card("Eviction")
        source = evicted_region(table)
        if source:
            left = _("All your Caballeros in {region}").format(region=builder.area(source))
        else:
            left = _("Your evicted Caballeros")
        return phone_words("eviction", "eviction_destination_2023", card=name, left=left)
    if purpose == "castillo_destination" and grande_in_castillo:
        return phone_words("competition", "castillo_destination")
    if purpose in PURPOSE_TEXT:
        return purpose_text(purpose)
    if purpose:
        title = _("Secret disc: {purpose}").format(purpose=purpose.replace("_", " "))
    else:
        title = _("Secret disc: pick a region")
    return title, _("Set your disc to {words}.").format(words=words)


def evicted_region(table: Table) -> str | None:
    """The region the current special action's player chose (Coup, Eviction): public."""
    for record in reversed(table.effective):
        if record["t"] != "event":
            continue
        kind = record["e"].get("type")
        if kind == "region_chosen":
            return record["e"].get("region")
        if kind == "special_action_started":
            return None
    return None
