"""A card's words in one home: what the table says of each effect a card may carry.

`CARD_WORDS` maps an effect id (the card data's `effect`; its rule is engine/effects/<effect>.py,
its test tests/engine/effects/test_<effect>.py) to its `CardWords`: what it does in a few words
(a 2023 card's button, card learning), what a region it asks for is for (a secret disc's private
screen, King and Intrigue's region pick), what the public screen says while the discs are set,
what a phone asks, the token it lays, the options it offers, and the ask kinds of its own steps
(whose prompts companion.prompts.registry finds by kind). Changing what a card says is
changing its entry here; tests/companion/prompts/test_card_words.py holds every shipped card to
it. `effect_choices` gives the card-set editor each effect's rule text (engine/data/effects.json).

The phones' words are here for companion/phones to read: templates whose {fields} the phone
fills in (the card's name, the words of its disc).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.board.effect_specs import EFFECT_SPECS


@dataclass(frozen=True)
class CardWords:
    """What the table says of the cards of one effect. Every field may be left out."""

    does: Callable[[dict], str] | None = None  # from its numbers: what it does, in a few words
    purposes: Mapping[str, str] = field(default_factory=dict)  # purpose of a region it asks for -> what for
    disc: Callable[[str, dict], str] | None = None  # its disc's purpose, from the card's name and numbers
    public: Mapping[str, str] = field(default_factory=dict)  # disc purpose -> what the discs are for (public)
    phone: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # question -> (title, hint) on a phone
    # Where the card words a step itself: ask kind -> its title, its hint, its button (templates:
    # {card}, {player}, ... filled in by the builder of that kind).
    titles: Mapping[str, str] = field(default_factory=dict)
    hints: Mapping[str, str] = field(default_factory=dict)
    buttons: Mapping[str, str] = field(default_factory=dict)
    token: str = ""  # the token it lays, as a card that removes one names it
    options: Mapping[str, str] = field(default_factory=dict)  # special action option -> its button
    king_intrigue: bool = False  # a King and Intrigue card: its builder's words (KIPromptBuilder)
    # The ask kinds of its own steps: their prompts (and their words) are made by the builder
    # registered for the kind (companion.prompts.registry, king_intrigue.KI_PROMPTS).
    asks: tuple[str, ...] = ()


def _n(params: dict, key: str, default: str = "?") -> str:
    value = params.get(key)
    return default if value is None else str(value)


def _caballeros(n: int) -> str:
    return f"{n} Caballero{'' if n == 1 else 's'}"


def _civil_war_disc(name: str, params: dict) -> str:
    count = params.get("count")
    lost = f"{count} of your Caballeros" if count else "all your Caballeros"
    where = "to your court" if params.get("outcome") == "to_court" else "back to the provinces"
    return f"the region where {lost} there go {where} (Civil War: a region where you have at least one)"


EVICTION_DESTINATION = (
    "where your Caballeros leave the evicted region to (the King's region or the same region: back to your court)"
)
STAND_IN_SWAPS = {
    "king_and_own_grande": "swap the King and your Grande",
    "king_and_any_grande": "swap the King and a Grande",
    "own_grande_and_other_grande": "swap your Grande and another",
    "any_two_grandes": "swap two Grandes",
}
CIVIL_WAR_OUTCOMES = {"send_back": "Caballeros there go back", "to_court": "Caballeros there go to the court"}

CARD_WORDS: dict[str, CardWords] = {
    # ---- the base game's effects (classic and 2023) ----------------------------------------
    "move": CardWords(
        does=lambda p: f"move up to {_n(p, 'total')} Caballeros ({_n(p, 'own')} own, {_n(p, 'foreign')} others')"
    ),
    "move_all_own": CardWords(does=lambda p: "move all your Caballeros out of one region"),
    "place_extra": CardWords(does=lambda p: f"place {_n(p, 'count')} more Caballeros in any regions"),
    "choice": CardWords(
        does=lambda p: f"move all yours out of a region, or place {_n(p, 'count')} more",
        options={  # King and Intrigue's Intrigue card, with 2-3 players
            "intrigue_move": "Intrigue card: move 1 Caballero (yours or another player's)",
            "intrigue_move_all_own": "Intrigue card: move all your Caballeros from one region to another",
        },
    ),
    # Decay of Authority takes from the courts: "send all of the Caballeros from their courts back"
    "decay": CardWords(
        does=lambda p: (
            f"each other player sends {_caballeros(p['count'])} from their court to the provinces"
            if p.get("count")
            else "the others send all the Caballeros in their courts to the provinces"
        )
    ),
    "one_of_each_back": CardWords(does=lambda p: "send one Caballero of each other player back"),
    "king_is_angry": CardWords(does=lambda p: f"each other player sends {_n(p, 'count')} Caballeros back"),
    "disc_send_back": CardWords(
        does=lambda p: (
            "the others send back from a region they pick with the disc"
            + (f" ({p['count']} each)" if p.get("count") else "")
        ),
        purposes={"send_back": "the region you send Caballeros back to the provinces from"},
        phone={
            "send_back": (
                "Secret disc: which region do you lose Caballeros from?",
                "The card sends your Caballeros back from the region you pick.",
            )
        },
    ),
    "score_chosen_region": CardWords(does=lambda p: "score a region of your choice"),
    "score_group": CardWords(does=lambda p: f"score all {_n(p, 'group')}-point regions"),
    "score_first_only": CardWords(does=lambda p: "score only the 1st places, everywhere"),
    "score_most": CardWords(does=lambda p: "score the region(s) with the most Caballeros"),
    "score_least": CardWords(does=lambda p: "score the region(s) with the fewest Caballeros"),
    "score_castillo": CardWords(does=lambda p: "score the Castillo"),
    "court": CardWords(does=lambda p: f"{_n(p, 'count')} Caballeros from the provinces to your court"),
    "disc_scoring": CardWords(
        does=lambda p: "score the regions picked with the secret discs",
        purposes={"special_scoring": "the region you want scored: it is scored only if nobody else picks it"},
        phone={
            "special_scoring": (
                "Special scoring: which region should score?",
                "Every region chosen by exactly one player is scored.",
            )
        },
    ),
    "eviction": CardWords(
        does=lambda p: "the others move theirs out of a region you choose (discs)",
        purposes={"eviction_destination": EVICTION_DESTINATION},
        disc=lambda name, p: f"{name}: {EVICTION_DESTINATION}",
        phone={
            "eviction_destination": (
                "Eviction: where do your evicted Caballeros go?",
                "Your Caballeros leave the evicted region for the region you pick.",
            ),
            # a 2023 game, the card and the region evicted known: {left} is "All your Caballeros in
            # <region>" or "Your evicted Caballeros"
            "eviction_destination_2023": (
                "{card}: where do your Caballeros go?",
                "{left} move to the region you pick (the King's region or the same region: back to your "
                "court). All discs are turned up together.",
            ),
        },
    ),
    "move_king": CardWords(
        does=lambda p: "move the King" + (" to a neighbouring region" if p.get("adjacent_only") else ""),
        options={"kings_card": "King's Card: move the King (to any region)"},  # King and Intrigue, 2-3 players
    ),
    "power_card_back": CardWords(asks=("take_back_power_card",)),
    "mobile_scoreboard": CardWords(asks=("place_mobile_scoreboard",)),
    # ---- the 2023 edition's effects -----------------------------------------------------------
    "militia": CardWords(
        does=lambda p: f"place {_n(p, 'count')} Caballeros anywhere but the King's region", asks=("place_anywhere",)
    ),
    "civil_war": CardWords(
        does=lambda p: (
            "the others pick a region (disc): "
            + CIVIL_WAR_OUTCOMES.get(p.get("outcome") or "", "what happens there is printed on the card")
        ),
        purposes={
            "civil_war": "the region where you lose your Caballeros to Civil War (a region where you have at least one)"
        },
        disc=lambda name, p: _civil_war_disc(name, p),
        public={"civil_war": "Civil War: which region each loses"},
        phone={
            "civil_war": (  # {words}: what the disc is for (`disc`)
                "Civil War: choose a region where you have at least one Caballero",
                "Set your disc to {words}. All discs are turned up together; the King's region cannot be chosen.",
            )
        },
    ),
    "revelation": CardWords(does=lambda p: "score the Castillo; its Caballeros stay in it"),
    "empowerment": CardWords(does=lambda p: "take a Power card back into your hand", asks=("take_back_power_card",)),
    "enactment": CardWords(does=lambda p: "place or move a Scoring tile", asks=("place_scoring_tile",)),
    "adopted_home": CardWords(does=lambda p: "move your Grande (Grandes may share a region)"),
    "your_majesty": CardWords(does=lambda p: "move the King to any region"),
    "exile": CardWords(
        does=lambda p: "move the King to France or Portugal",
        hints={"move_king": "{card}: the King goes to {places}."},  # {places}: "France or Portugal"
        buttons={"move_king": "The King goes to {place}"},
    ),
    "entourage": CardWords(
        does=lambda p: f"move the King with {_n(p, 'count')} Caballeros", asks=("move_king_with_entourage",)
    ),
    "competition": CardWords(
        does=lambda p: "Grandes may go into the Castillo",
        hints={"move_grande": "{card}: {player} throws their Grande into the Castillo."},
        buttons={"move_grande": "Throw {player}'s Grande into the Castillo"},
        phone={
            # the general scoring's disc, for a player whose Grande Competition threw in
            "castillo_destination": (
                "General scoring: where do your Castillo Caballeros and your Grande go?",
                "Set your secret disc. After the Castillo is scored, your Caballeros in it and your Grande "
                "(thrown in with Competition) move to this region; the King's region is not offered, "
                "since no Grande may go there.",
            )
        },
    ),
    "chalet": CardWords(does=lambda p: "the King to the region with the fewest Caballeros"),
    "rebellion": CardWords(
        does=lambda p: "the King beside the Castillo",
        # the King beside the Castillo: moved there, then the general scoring scores it, no disc
        titles={"reveal_secret_discs": "the King stands by the Castillo"},
        hints={
            "move_king": "{card}: the King stands beside the Castillo, which becomes his region.",
            "reveal_secret_discs": "Nobody sets a disc: lift the Castillo, count and score it, then throw every "
            "Caballero back in.",
        },
        buttons={"move_king": "The King stands beside the Castillo"},
        phone={
            "castillo_stays": (
                "The King stands by the Castillo",
                "Nobody sets a disc at this general scoring: the Castillo is scored, and every "
                "Caballero in it is thrown back in.",
            )
        },
    ),
    "infiltration": CardWords(does=lambda p: "place Caballeros in the King's region too"),
    "stand_in": CardWords(
        does=lambda p: STAND_IN_SWAPS.get(p.get("swap") or "", "swap two pieces"), asks=("swap_pieces",)
    ),
    "veto_2023": CardWords(
        does=lambda p: "stop a special action, this round or next",
        hints={
            "veto": "{against} announces {card}. {players}: decide now; a Veto prevents the whole special action, "
            "and none can stop it once it has begun."
        },
        phone={
            "veto": (
                "Veto: stop {against}'s {card}?",
                "{against} announces the special action of {card}. Decide now, all or nothing: "
                "your Veto prevents the whole special action; once it has begun nobody can stop it.",
            )
        },
    ),
    # ---- King and Intrigue's effects ------------------------------------------------------------
    "field_day": CardWords(
        purposes={"field_day": "Field Day: the region your Grande moves to (the King's region: it stays)"},
        public={"field_day": "Field Day: where each Grande goes"},
        phone={
            "field_day": (
                "Field Day: where does your Grande go?",
                "Your Grande moves to the region you pick (the King's region: it stays where it is). All discs "
                "are revealed together.",
            )
        },
        king_intrigue=True,
    ),
    "alliance": CardWords(
        purposes={
            "alliance": "Alliance: the first of the two regions scored as one at the next general scoring",
            "alliance_second": "Alliance: the second region (next to the first)",
        },
        token="the Alliance markers",
        king_intrigue=True,
    ),
    "relocate": CardWords(
        purposes={"relocate": "Relocate: the region the Castillo moves onto with its contents"}, king_intrigue=True
    ),
    "double_scoring": CardWords(
        purposes={"double_scoring": "the region whose points the 2x marker doubles at the next general scoring"},
        king_intrigue=True,
    ),
    "score_offered_three": CardWords(
        purposes={
            "offer_for_scoring": "a region you offer for scoring (three in all; the player on your left picks one)"
        },
        king_intrigue=True,
    ),
    "bridge": CardWords(
        asks=("bridge_crossing",),
        purposes={
            "bridge": "Bridge Construction: the first of the two neighbouring regions the bridge joins",
            "bridge_second": "Bridge Construction: the second region (next to the first)",
        },
        token="the bridge",
        king_intrigue=True,
    ),
    "civil_war_ki": CardWords(purposes={"civil_war": "Civil War: the region it strikes"}, king_intrigue=True),
    "kings_guard": CardWords(
        purposes={"kings_guard": "King's Guard: the region it guards"}, token="the King's Guard", king_intrigue=True
    ),
    "quarantine": CardWords(
        purposes={"quarantine": "Quarantine: the region closed off"}, token="the Quarantine token", king_intrigue=True
    ),
    "table_for_six": CardWords(
        purposes={"table_for_six": "Table for Six: the region whose Caballeros are limited"}, king_intrigue=True
    ),
    "hurricane": CardWords(
        purposes={"hurricane": "Hurricane: the region your disc names (all discs are revealed together)"},
        public={"hurricane": "Hurricane"},
        phone={
            "hurricane": (
                "Hurricane: which region does your disc name?",
                "Pick a region; all discs are revealed together.",
            )
        },
        king_intrigue=True,
    ),
    "espionage": CardWords(asks=("spy_move",), king_intrigue=True),
    "revolt": CardWords(asks=("turn_scoreboard",), king_intrigue=True),
    "cancel_token": CardWords(asks=("remove_token",), king_intrigue=True),
    "risk_of_collapse": CardWords(token="the Risk of Collapse token", king_intrigue=True),
    "mistress": CardWords(token="the Mistress", king_intrigue=True),
}


def step_words(effect: str) -> CardWords:
    """The words of `effect`'s cards (empty ones for an effect not worded here)."""
    return CARD_WORDS.get(effect, CardWords())


def does(effect: str, params: dict) -> str:
    """A card's effect in a few words ("score all 4-point regions"); '' for one not worded here."""
    words = step_words(effect).does
    return words(params or {}) if words else ""


def purposes(king_intrigue: bool = False) -> dict[str, str]:
    """Purpose -> what the region asked for is for, of the base game's cards or King and Intrigue's."""
    return {p: w for cw in CARD_WORDS.values() if cw.king_intrigue == king_intrigue for p, w in cw.purposes.items()}


def public_purposes(king_intrigue: bool = False) -> dict[str, str]:
    """Disc purpose -> what everyone's discs are for, said on the public screen (never a pick)."""
    return {p: w for cw in CARD_WORDS.values() if cw.king_intrigue == king_intrigue for p, w in cw.public.items()}


def disc_words(effect: str | None, purpose: str, name: str, params: dict) -> str | None:
    """What the disc of a card of `effect` is for, worded from the card itself; None if it words
    no more than its purpose."""
    cw = CARD_WORDS.get(effect or "")
    if cw is None or cw.disc is None or purpose not in cw.purposes:
        return None
    return cw.disc(name, params)


def phone_words(effect: str, question: str, **fields: str) -> tuple[str, str]:
    """What a phone asks for a card of `effect` (title, hint), its {fields} filled in."""
    title, hint = CARD_WORDS[effect].phone[question]
    return title.format(**fields), hint.format(**fields)


def tokens() -> dict[str, str]:
    """Token id -> its words ("the Alliance markers"): the tokens the cards lay."""
    return {effect: cw.token for effect, cw in CARD_WORDS.items() if cw.token}


def options() -> dict[str, str]:
    """A special action option -> its button (King and Intrigue's 2-3 player choice)."""
    return {o: w for cw in CARD_WORDS.values() for o, w in cw.options.items()}


@dataclass(frozen=True)
class EffectChoice:
    """One effect a card may have, for the card-set editor: its rule text beside it."""

    name: str
    title: str  # "Militia"
    rule_text: str  # the rule book's own sentences (2023 first)
    params: dict[str, dict]  # name -> {type, required, meaning, values, min, max}
    notes: str = ""


def effect_choices(rules: str = "2023") -> list[EffectChoice]:
    """Every effect a card of `rules` may carry (engine/data/effects.json), with its rule text."""
    out = []
    for spec in EFFECT_SPECS.values():
        if rules not in spec.rules:
            continue
        texts = sorted(spec.rule_text, key=lambda t: t.book != rules)
        out.append(
            EffectChoice(
                spec.name,
                spec.name.replace("_", " ").capitalize(),
                " ".join(f"({t.book}) {t.text}" for t in texts),
                {n: p.model_dump(exclude_none=True) for n, p in spec.params.items()},
                spec.notes,
            )
        )
    return out
