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

from companion.words import N_, _, ngettext
from companion.words.effects import effect_title, rule_words
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


def _count(params: dict, key: str = "count") -> int:
    """The number a card's plural form follows (a number nobody entered, "?", takes the plural)."""
    value = params.get(key)
    return value if isinstance(value, int) else 2


def _civil_war_disc(name: str, params: dict) -> str:
    count = params.get("count")
    to_court = params.get("outcome") == "to_court"
    if count and to_court:
        return ngettext(
            "the region where {n} of your Caballeros there go to your court"
            " (Civil War: a region where you have at least one)",
            "the region where {n} of your Caballeros there go to your court"
            " (Civil War: a region where you have at least one)",
            count,
        ).format(n=count)
    if count:
        return ngettext(
            "the region where {n} of your Caballeros there go back to the provinces"
            " (Civil War: a region where you have at least one)",
            "the region where {n} of your Caballeros there go back to the provinces"
            " (Civil War: a region where you have at least one)",
            count,
        ).format(n=count)
    if to_court:
        return _(
            "the region where all your Caballeros there go to your court"
            " (Civil War: a region where you have at least one)"
        )
    return _(
        "the region where all your Caballeros there go back to the provinces "
        "(Civil War: a region where you have at least one)"
    )


EVICTION_DESTINATION = N_(
    "where your Caballeros leave the evicted region to (the King's region or the same region: back to your court)"
)
STAND_IN_SWAPS = {
    "king_and_own_grande": N_("swap the King and your Grande"),
    "king_and_any_grande": N_("swap the King and a Grande"),
    "own_grande_and_other_grande": N_("swap your Grande and another"),
    "any_two_grandes": N_("swap two Grandes"),
}
CIVIL_WAR_PRINTED = N_("what happens there is printed on the card")
CIVIL_WAR_OUTCOMES = {"send_back": N_("Caballeros there go back"), "to_court": N_("Caballeros there go to the court")}

CARD_WORDS: dict[str, CardWords] = {
    # ---- the base game's effects (classic and 2023) ----------------------------------------
    "move": CardWords(
        does=lambda p: _("move up to {total} Caballeros ({own} own, {foreign} others')").format(
            total=_n(p, "total"), own=_n(p, "own"), foreign=_n(p, "foreign")
        )
    ),
    "move_all_own": CardWords(does=lambda p: _("move all your Caballeros out of one region")),
    "place_extra": CardWords(
        does=lambda p: ngettext(
            "place {n} more Caballero in any regions", "place {n} more Caballeros in any regions", _count(p)
        ).format(n=_n(p, "count"))
    ),
    "choice": CardWords(
        does=lambda p: _("move all yours out of a region, or place {n} more").format(n=_n(p, "count")),
        options={  # King and Intrigue's Intrigue card, with 2-3 players
            "intrigue_move": N_("Intrigue card: move 1 Caballero (yours or another player's)"),
            "intrigue_move_all_own": N_("Intrigue card: move all your Caballeros from one region to another"),
        },
    ),
    # Decay of Authority takes from the courts: "send all of the Caballeros from their courts back"
    "decay": CardWords(
        does=lambda p: (
            ngettext(
                "each other player sends {n} Caballero from their court to the provinces",
                "each other player sends {n} Caballeros from their court to the provinces",
                _count(p),
            ).format(n=_n(p, "count"))
            if p.get("count")
            else _("the others send all the Caballeros in their courts to the provinces")
        )
    ),
    "one_of_each_back": CardWords(does=lambda p: _("send one Caballero of each other player back")),
    "king_is_angry": CardWords(
        does=lambda p: ngettext(
            "each other player sends {n} Caballero back", "each other player sends {n} Caballeros back", _count(p)
        ).format(n=_n(p, "count"))
    ),
    "disc_send_back": CardWords(
        does=lambda p: (
            _("the others send back from a region they pick with the disc ({n} each)").format(n=p["count"])
            if p.get("count")
            else _("the others send back from a region they pick with the disc")
        ),
        purposes={"send_back": N_("the region you send Caballeros back to the provinces from")},
        phone={
            "send_back": (
                N_("Secret disc: which region do you lose Caballeros from?"),
                N_("The card sends your Caballeros back from the region you pick."),
            )
        },
    ),
    "score_chosen_region": CardWords(does=lambda p: _("score a region of your choice")),
    "score_group": CardWords(does=lambda p: _("score all {points}-point regions").format(points=_n(p, "group"))),
    "score_first_only": CardWords(does=lambda p: _("score only the 1st places, everywhere")),
    "score_most": CardWords(does=lambda p: _("score the region(s) with the most Caballeros")),
    "score_least": CardWords(does=lambda p: _("score the region(s) with the fewest Caballeros")),
    "score_castillo": CardWords(does=lambda p: _("score the Castillo")),
    "court": CardWords(
        does=lambda p: ngettext(
            "{n} Caballero from the provinces to your court",
            "{n} Caballeros from the provinces to your court",
            _count(p),
        ).format(n=_n(p, "count"))
    ),
    "disc_scoring": CardWords(
        does=lambda p: _("score the regions picked with the secret discs"),
        purposes={"special_scoring": N_("the region you want scored: it is scored only if nobody else picks it")},
        phone={
            "special_scoring": (
                N_("Special scoring: which region should score?"),
                N_("Every region chosen by exactly one player is scored."),
            )
        },
    ),
    "eviction": CardWords(
        does=lambda p: _("the others move theirs out of a region you choose (discs)"),
        purposes={"eviction_destination": EVICTION_DESTINATION},
        disc=lambda name, p: _("{card}: {purpose}").format(card=name, purpose=_(EVICTION_DESTINATION)),
        phone={
            "eviction_destination": (
                N_("Eviction: where do your evicted Caballeros go?"),
                N_("Your Caballeros leave the evicted region for the region you pick."),
            ),
            # a 2023 game, the card and the region evicted known: {left} is "All your Caballeros in
            # <region>" or "Your evicted Caballeros"
            "eviction_destination_2023": (
                N_("{card}: where do your Caballeros go?"),
                N_(
                    "{left} move to the region you pick (the King's region or the same region: back to your "
                    "court). All discs are turned up together."
                ),
            ),
        },
    ),
    "move_king": CardWords(
        does=lambda p: _("move the King to a neighbouring region") if p.get("adjacent_only") else _("move the King"),
        options={"kings_card": N_("King's Card: move the King (to any region)")},  # King and Intrigue, 2-3 players
    ),
    "power_card_back": CardWords(asks=("take_back_power_card",)),
    "mobile_scoreboard": CardWords(asks=("place_mobile_scoreboard",)),
    # ---- the 2023 edition's effects -----------------------------------------------------------
    "militia": CardWords(
        does=lambda p: ngettext(
            "place {n} Caballero anywhere but the King's region",
            "place {n} Caballeros anywhere but the King's region",
            _count(p),
        ).format(n=_n(p, "count")),
        asks=("place_anywhere",),
    ),
    "civil_war": CardWords(
        does=lambda p: _("the others pick a region (disc): {outcome}").format(
            outcome=_(CIVIL_WAR_OUTCOMES.get(p.get("outcome") or "", CIVIL_WAR_PRINTED))
        ),
        purposes={
            "civil_war": N_(
                "the region where you lose your Caballeros to Civil War (a region where you have at least one)"
            )
        },
        disc=lambda name, p: _civil_war_disc(name, p),
        public={"civil_war": N_("Civil War: which region each loses")},
        phone={
            "civil_war": (  # {words}: what the disc is for (`disc`)
                N_("Civil War: choose a region where you have at least one Caballero"),
                N_("Set your disc to {words}. All discs are turned up together; the King's region cannot be chosen."),
            )
        },
    ),
    "revelation": CardWords(does=lambda p: _("score the Castillo; its Caballeros stay in it")),
    "empowerment": CardWords(does=lambda p: _("take a Power card back into your hand"), asks=("take_back_power_card",)),
    "enactment": CardWords(does=lambda p: _("place or move a Scoring tile"), asks=("place_scoring_tile",)),
    "adopted_home": CardWords(does=lambda p: _("move your Grande (Grandes may share a region)")),
    "your_majesty": CardWords(does=lambda p: _("move the King to any region")),
    "exile": CardWords(
        does=lambda p: _("move the King to France or Portugal"),
        hints={"move_king": N_("{card}: the King goes to {places}.")},  # {places}: "France or Portugal"
        buttons={"move_king": N_("The King goes to {place}")},
    ),
    "entourage": CardWords(
        does=lambda p: ngettext(
            "move the King with {n} Caballero", "move the King with {n} Caballeros", _count(p)
        ).format(n=_n(p, "count")),
        asks=("move_king_with_entourage",),
    ),
    "competition": CardWords(
        does=lambda p: _("Grandes may go into the Castillo"),
        hints={"move_grande": N_("{card}: {player} throws their Grande into the Castillo.")},
        buttons={"move_grande": N_("Throw {player}'s Grande into the Castillo")},
        phone={
            # the general scoring's disc, for a player whose Grande Competition threw in
            "castillo_destination": (
                N_("General scoring: where do your Castillo Caballeros and your Grande go?"),
                N_(
                    "Set your secret disc. After the Castillo is scored, your Caballeros in it and your Grande "
                    "(thrown in with Competition) move to this region; the King's region is not offered, "
                    "since no Grande may go there."
                ),
            )
        },
    ),
    "chalet": CardWords(does=lambda p: _("the King to the region with the fewest Caballeros")),
    "rebellion": CardWords(
        does=lambda p: _("the King beside the Castillo"),
        # the King beside the Castillo: moved there, then the general scoring scores it, no disc
        titles={"reveal_secret_discs": N_("the King stands by the Castillo")},
        hints={
            "move_king": N_("{card}: the King stands beside the Castillo, which becomes his region."),
            "reveal_secret_discs": N_(
                "Nobody sets a disc: lift the Castillo, count and score it, then throw every Caballero back in."
            ),
        },
        buttons={"move_king": N_("The King stands beside the Castillo")},
        phone={
            "castillo_stays": (
                N_("The King stands by the Castillo"),
                N_(
                    "Nobody sets a disc at this general scoring: the Castillo is scored, and every "
                    "Caballero in it is thrown back in."
                ),
            )
        },
    ),
    "infiltration": CardWords(does=lambda p: _("place Caballeros in the King's region too")),
    "stand_in": CardWords(
        does=lambda p: _(STAND_IN_SWAPS.get(p.get("swap") or "", N_("swap two pieces"))), asks=("swap_pieces",)
    ),
    "veto_2023": CardWords(
        does=lambda p: _("stop a special action, this round or next"),
        hints={
            "veto": N_(
                "{against} announces {card}. {players}: decide now; a Veto prevents the whole special action, "
                "and none can stop it once it has begun."
            )
        },
        phone={
            "veto": (
                N_("Veto: stop {against}'s {card}?"),
                N_(
                    "{against} announces the special action of {card}. Decide now, all or nothing: "
                    "your Veto prevents the whole special action; once it has begun nobody can stop it."
                ),
            )
        },
    ),
    # ---- King and Intrigue's effects ------------------------------------------------------------
    "field_day": CardWords(
        purposes={"field_day": N_("Field Day: the region your Grande moves to (the King's region: it stays)")},
        public={"field_day": N_("Field Day: where each Grande goes")},
        phone={
            "field_day": (
                N_("Field Day: where does your Grande go?"),
                N_(
                    "Your Grande moves to the region you pick (the King's region: it stays where it is). All discs "
                    "are revealed together."
                ),
            )
        },
        king_intrigue=True,
    ),
    "alliance": CardWords(
        purposes={
            "alliance": N_("Alliance: the first of the two regions scored as one at the next general scoring"),
            "alliance_second": N_("Alliance: the second region (next to the first)"),
        },
        token=N_("the Alliance markers"),
        king_intrigue=True,
    ),
    "relocate": CardWords(
        purposes={"relocate": N_("Relocate: the region the Castillo moves onto with its contents")}, king_intrigue=True
    ),
    "double_scoring": CardWords(
        purposes={"double_scoring": N_("the region whose points the 2x marker doubles at the next general scoring")},
        king_intrigue=True,
    ),
    "score_offered_three": CardWords(
        purposes={
            "offer_for_scoring": N_("a region you offer for scoring (three in all; the player on your left picks one)")
        },
        king_intrigue=True,
    ),
    "bridge": CardWords(
        asks=("bridge_crossing",),
        purposes={
            "bridge": N_("Bridge Construction: the first of the two neighbouring regions the bridge joins"),
            "bridge_second": N_("Bridge Construction: the second region (next to the first)"),
        },
        token=N_("the bridge"),
        king_intrigue=True,
    ),
    "civil_war_ki": CardWords(purposes={"civil_war": N_("Civil War: the region it strikes")}, king_intrigue=True),
    "kings_guard": CardWords(
        purposes={"kings_guard": N_("King's Guard: the region it guards")},
        token=N_("the King's Guard"),
        king_intrigue=True,
    ),
    "quarantine": CardWords(
        purposes={"quarantine": N_("Quarantine: the region closed off")},
        token=N_("the Quarantine token"),
        king_intrigue=True,
    ),
    "table_for_six": CardWords(
        purposes={"table_for_six": N_("Table for Six: the region whose Caballeros are limited")}, king_intrigue=True
    ),
    "hurricane": CardWords(
        purposes={"hurricane": N_("Hurricane: the region your disc names (all discs are revealed together)")},
        public={"hurricane": N_("Hurricane")},
        phone={
            "hurricane": (
                N_("Hurricane: which region does your disc name?"),
                N_("Pick a region; all discs are revealed together."),
            )
        },
        king_intrigue=True,
    ),
    "espionage": CardWords(asks=("spy_move",), king_intrigue=True),
    "revolt": CardWords(asks=("turn_scoreboard",), king_intrigue=True),
    "cancel_token": CardWords(asks=("remove_token",), king_intrigue=True),
    "risk_of_collapse": CardWords(token=N_("the Risk of Collapse token"), king_intrigue=True),
    "mistress": CardWords(token=N_("the Mistress"), king_intrigue=True),
}


def step_words(effect: str) -> CardWords:
    """The words of `effect`'s cards (empty ones for an effect not worded here). Its templates are
    the English messages: translate them where shown (`_(words.hints["veto"]).format(...)`)."""
    return CARD_WORDS.get(effect, CardWords())


def does(effect: str, params: dict) -> str:
    """A card's effect in a few words ("score all 4-point regions"); '' for one not worded here."""
    words = step_words(effect).does
    return words(params or {}) if words else ""


def purposes(king_intrigue: bool = False) -> dict[str, str]:
    """Purpose -> what the region asked for is for, of the base game's cards or King and Intrigue's
    (the English message: translated where shown, `_(words)`)."""
    return {p: w for cw in CARD_WORDS.values() if cw.king_intrigue == king_intrigue for p, w in cw.purposes.items()}


def public_purposes(king_intrigue: bool = False) -> dict[str, str]:
    """Disc purpose -> what everyone's discs are for, said on the public screen (never a pick; the
    English message, translated where shown)."""
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
    return _(title).format(**fields), _(hint).format(**fields)


def tokens() -> dict[str, str]:
    """Token id -> its words ("the Alliance markers"): the tokens the cards lay."""
    return {effect: _(cw.token) for effect, cw in CARD_WORDS.items() if cw.token}


def options() -> dict[str, str]:
    """A special action option -> its button (King and Intrigue's 2-3 player choice)."""
    return {o: _(w) for cw in CARD_WORDS.values() for o, w in cw.options.items()}


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
                effect_title(spec.name),
                rule_words(spec.name, texts),
                {n: p.model_dump(exclude_none=True) for n, p in spec.params.items()},
                spec.notes,
            )
        )
    return out


def option_words(option: str) -> str:
    """A special action option's button words (an option not worded here: its id, spaced)."""
    return options().get(option, option.replace("_", " "))
