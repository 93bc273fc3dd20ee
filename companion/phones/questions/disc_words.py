"""The words of a 2023 or King and Intrigue disc whose purpose is new (Civil War, Eviction, a
Grande in the Castillo), and the notice of a general scoring without discs. Card-specific words:
they stay verbatim here until they move to their card's home."""

from __future__ import annotations

from companion.phones.views import PURPOSE_TEXT
from companion.table.authority import Table

CASTILLO_STAYS = (
    "The King stands by the Castillo",
    "Nobody sets a disc at this general scoring: the Castillo is scored, and every Caballero in it is thrown back in.",
)


def disc_words(table: Table, builder, ask, pid: str, grande_in_castillo: bool) -> tuple[str, str]:
    """What a 2023 disc is for, in plain words (title, hint), when it is not a classic purpose."""
    purpose = ask.options.get("purpose")
    words = builder.secret_purpose(ask, pid)
    if purpose == "civil_war":
        return (
            "Civil War: choose a region where you have at least one Caballero",
            f"Set your disc to {words}. All discs are turned up together; the King's region cannot be chosen.",
        )
    if purpose == "eviction_destination":
        card = table.board.cards.get(ask.card) if ask.card else None
        name = card.name if card is not None else "Eviction"
        source = evicted_region(table)
        left = f"All your Caballeros in {builder.area(source)}" if source else "Your evicted Caballeros"
        return (
            f"{name}: where do your Caballeros go?",
            f"{left} move to the region you pick (the King's region or the same region: back to your "
            "court). All discs are turned up together.",
        )
    if purpose == "castillo_destination" and grande_in_castillo:
        return (
            "General scoring: where do your Castillo Caballeros and your Grande go?",
            "Set your secret disc. After the Castillo is scored, your Caballeros in it and your Grande "
            "(thrown in with Competition) move to this region; the King's region is not offered, "
            "since no Grande may go there.",
        )
    if purpose in PURPOSE_TEXT:
        return PURPOSE_TEXT[purpose]
    return ("Secret disc: " + (purpose or "a region").replace("_", " "), f"Set your disc to {words}.")


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
