"""What a card's effect is called and does, in the table's language (the engine names an effect
by its id: engine/data/effects.json, whose rule text quotes the English rule books).

Each effect has a title and one sentence in the team's own words, so a German, Spanish or French
table reads what a card does without the English book's quote; a parameter has a short word for
the tag telling two cards of one name apart ("Move Caballeros 1 others'"). An effect the engine
adds before it is worded here reads as its id, spaced, and test_effects.py names it."""

from __future__ import annotations

from companion.words import N_, _

# effect id -> (title, what it does)
EFFECTS: dict[str, tuple[str, str]] = {
    "move": (
        N_("Move Caballeros"),
        N_("Move Caballeros from region to region (never out of the Castillo or a court)."),
    ),
    "move_all_own": (
        N_("Move all your own from one region"),
        N_("Move every one of your Caballeros out of one region, to any regions."),
    ),
    "place_extra": (N_("Extra Caballeros"), N_("Place more Caballeros from your court in any regions.")),
    "choice": (N_("One of two"), N_("Do one of the two actions the card shows.")),
    "veto": (N_("Veto"), N_("Stop one special action, this round or the next.")),
    "decay": (
        N_("Decay of Authority"),
        N_("Every other player sends Caballeros from their court back to the provinces."),
    ),
    "one_of_each_back": (
        N_("One of each back"),
        N_("Send one Caballero of each other player from any region back to the provinces."),
    ),
    "king_is_angry": (
        N_("The King is Angry"),
        N_("Every other player sends Caballeros back to the provinces, from regions or court."),
    ),
    "disc_send_back": (
        N_("Sent home by disc"),
        N_("Every other player picks a region by disc and sends their Caballeros there back to the provinces."),
    ),
    "score_chosen_region": (N_("Score a region"), N_("Choose one region (not the Castillo) and score it now.")),
    "score_group": (N_("Score a group of regions"), N_("Score every region of the group the card names.")),
    "score_castillo": (N_("Score the Castillo"), N_("Lift the Castillo and score it now.")),
    "score_first_only": (
        N_("First place only"),
        N_("Score every region, but only for the player in first place (a tie scores nothing)."),
    ),
    "score_most": (N_("Score the fullest"), N_("Score the region or regions with the most Caballeros.")),
    "score_least": (
        N_("Score the emptiest"),
        N_("Score the region or regions with the fewest Caballeros (empty regions do not count)."),
    ),
    "mobile_scoreboard": (N_("Mobile scoreboard"), N_("Place a mobile scoreboard on a region, or move one.")),
    "power_card_back": (N_("Power card back"), N_("Take one of your played Power cards back into your hand.")),
    "court": (N_("The Court"), N_("Move Caballeros from the provinces to your court.")),
    "grande": (N_("Move your Grande"), N_("Move your Grande to another region, which becomes your home.")),
    "disc_scoring": (N_("Scoring by disc"), N_("Every player picks a region by disc; each region picked once scores.")),
    "eviction": (
        N_("Eviction"),
        N_("Choose a region: the other players move their Caballeros out of it, to a region each picks by disc."),
    ),
    "move_king": (N_("Move the King"), N_("Move the King to another region.")),
    "militia": (
        N_("Militia"),
        N_("Place Caballeros from your court in any regions but the King's, not in the Castillo."),
    ),
    "civil_war": (
        N_("Civil War"),
        N_("Every other player picks a region where they have Caballeros; the card says what follows."),
    ),
    "revelation": (
        N_("Revelation"),
        N_("Score the Castillo, then throw its Caballeros back in: they stay until the general scoring."),
    ),
    "empowerment": (
        N_("Empowerment"),
        N_("Take the Power card just played, or one of your played ones, back into your hand."),
    ),
    "enactment": (N_("Enactment"), N_("Place a Scoring tile on a free scoring board, or move one already there.")),
    "adopted_home": (N_("Adopted Home"), N_("Move your Grande to another region (not the King's, not the Castillo).")),
    "your_majesty": (N_("Your Majesty"), N_("Move the King to any region of Spain.")),
    "exile": (N_("Exile"), N_("Move the King to France or Portugal.")),
    "entourage": (N_("Entourage"), N_("Move the King, and Caballeros with him.")),
    "competition": (N_("Competition"), N_("Grandes may be thrown into the Castillo and score its Grande bonus.")),
    "chalet": (N_("Chalet"), N_("Move the King to the region with the fewest Caballeros.")),
    "rebellion": (N_("Rebellion"), N_("The King stands by the Castillo: it becomes the King's region.")),
    "infiltration": (N_("Infiltration"), N_("Place your Caballeros in the King's region too.")),
    "stand_in": (N_("Stand-in"), N_("Swap two pieces in the regions.")),
    "veto_2023": (N_("Veto"), N_("Stop one special action, this round or the next.")),
}

# parameter -> its word in a tag ("1 others'": one Caballero of the other players)
PARAMETERS: dict[str, str] = {
    "total": N_("in all"),
    "own": N_("own"),
    "foreign": N_("others'"),
    "one_source": N_("from one region"),
    "one_target": N_("to one region"),
    "count": N_("Caballeros"),
    "adjacent_only": N_("next to the King"),
    "options": N_("options"),
    "group": N_("group"),
    "outcome": N_("outcome"),
    "king_to": N_("the King to"),
    "whose": N_("whose"),
    "swap": N_("swap"),
    "stack": N_("stack"),
    "placement": N_("placement"),
}


# A parameter's chosen value (engine/data/effects.json "values") as its button says it
CHOICES: dict[str, str] = {
    "send_back": N_("back to the province"),
    "to_court": N_("to their court"),
    "any_region": N_("any region"),
    "adjacent_region": N_("a region next to it"),
    "own": N_("own"),
    "opposing": N_("opposing"),
    "any": N_("anyone's"),
    "king_and_own_grande": N_("the King and one's own Grande"),
    "king_and_any_grande": N_("the King and any Grande"),
    "own_grande_and_other_grande": N_("one's own Grande and another Grande"),
    "any_two_grandes": N_("any two Grandes"),
    "move_all_own": N_("move all one's own"),
    "place_extra": N_("place extra Caballeros"),
}


def choice_word(value) -> str:
    """A parameter's value in the table's words (a number or a group as it is)."""
    words = CHOICES.get(value) if isinstance(value, str) else None
    return _(words) if words else str(value).replace("_", " ")


def effect_title(effect: str) -> str:
    """ "Militia", "Bewegung"..., in the table's language."""
    known = EFFECTS.get(effect)
    return _(known[0]) if known else effect.replace("_", " ").capitalize()


def effect_summary(effect: str) -> str:
    """What the effect does, in one sentence of the table's language ('' when not worded)."""
    known = EFFECTS.get(effect)
    return _(known[1]) if known else ""


def parameter_word(name: str) -> str:
    """A parameter's word in a tag telling two cards apart."""
    return _(PARAMETERS[name]) if name in PARAMETERS else name.replace("_", " ")


def parameters_tag(params: dict, differ: list[str]) -> str:
    """The parameters in `differ`, as words: "1 others'", "from one region"."""
    parts = []
    for key in differ:
        value = params[key]
        parts.append(parameter_word(key) if value is True else f"{value} {parameter_word(key)}")
    return " ".join(parts)


def rule_words(effect: str, texts, between: str = " ") -> str:
    """An effect's rule for the card editor: in English the rule books' own sentences, each after
    its book ("(2023) ..."); in another language the team's sentence (no book's translation is
    copied), or the English quotes while it has none."""
    from companion.words import language

    summary = effect_summary(effect)
    if language() != "en" and summary:
        return summary
    return between.join(f"({t.book}) {t.text}" for t in texts)


# Every piece of a parameter's meaning (engine/data/effects.json) the card editor and the card
# facts show: whole, its first sentence, and what a card printing no number means ("all of them")
MEANINGS = (
    N_("Caballeros that may be moved in all"),
    N_("of them, at most this many of your own"),
    N_("of them, at most this many of other players"),
    N_("all from one region (left out: from any regions)"),
    N_("all from one region"),
    N_("from any regions"),
    N_(
        "all to one region (King and Intrigue's Intrigue card: 'from one region to another region'; left out: into any combination of regions, as the classic card)"  # noqa: E501 (a message whole)
    ),
    N_("into any combination of regions, as the classic card"),
    N_("additional Caballeros from your court to any region(s)"),
    N_("the two effects of which the player performs one"),
    N_("how many Caballeros the extra placement places"),
    N_("Caballeros each other player sends from the court (left out: all of them)"),
    N_("Caballeros each other player sends from the court"),
    N_("all of them"),
    N_("Caballeros each other player sends back, from regions and/or the court"),
    N_("Caballeros each other player sends back from the region on the disc (left out: all of them)"),
    N_("Caballeros each other player sends back from the region on the disc"),
    N_("the first-place value(s) of the regions scored, as the board groups them"),
    N_("Caballeros from the provinces to your court"),
    N_("true: only to a region adjacent to the King's; false: to any region"),
    N_("Caballeros from your court placed in any region(s) but the King's, never the Castillo"),
    N_(
        "what each other player does with Caballeros of the region they chose: send them back to the Province, or take them to their Court. Not published by the rule book: the table states it from its card"  # noqa: E501 (a message whole)
    ),
    N_(
        "what each other player does with Caballeros of the region they chose: send them back to the Province, or take them to their Court"  # noqa: E501 (a message whole)
    ),
    N_("how many (left out: all of them in that region). Not published: the table states it"),
    N_("how many (left out: all of them in that region)"),
    N_("how many"),
    N_("all of them in that region"),
    N_("Caballeros moved along with the King (the book: 2)"),
    N_("where the King may go. Not published: the table states it"),
    N_("where the King may go"),
    N_("whose Caballeros go with him. Not published: the table states it"),
    N_("whose Caballeros go with him"),
    N_("which two pieces are swapped. Not published: the table states it from its card"),
    N_("which two pieces are swapped"),
)


def meaning_words(english: str) -> str:
    """A parameter's meaning (or a piece of it) in the table's language; a meaning the data adds
    before it is worded here reads as the data says."""
    return _(english)
