"""A turn's prompts: the action cards turned up, the Power card played, the court replenished, the
action card taken, the Caballeros placed and the special action announced (or vetoed), and the
round played on the board (scoring-only tables). Functions of the prompt builder (a
PromptContext), registered by ask kind in companion.prompts.registry."""

from __future__ import annotations

import dataclasses

from companion.prompts import card_words, modules_2023
from companion.prompts.context import PromptContext
from companion.prompts.prompt import Choice, Prompt, placed_nothing
from companion.table_rules.card_learning import card_facts
from companion.words import N_, _, names, ngettext
from companion.words.effects import effect_title
from companion.words.refusals import said_words
from engine.board.model import CASTILLO
from engine.primitives import Ask

SPECIAL_HINT = N_("tap Do the special action (or Skip it)")  # a turn's hint, after its placing (_ at use)
BOARD_FACT_LATER = N_("Skip it now; enter the fact on your board's page: your next games use it.")
# A card's fact the table reads off the card (a card-file parameter, engine/board/effect_specs.py),
# as the prompt names it: "Read Militia's number of Caballeros off the card".
FACT_WORDS = {
    "placement": N_("number of Caballeros"),
    "params.count": N_("number"),
    "params.own": N_("number of your own Caballeros"),
    "params.foreign": N_("number of other players' Caballeros"),
    "params.total": N_("total number of Caballeros"),
    "params.group": N_("group of regions"),
    "params.king_to": N_("where the King goes"),
    "params.whose": N_("whose Caballeros go with the King"),
    "params.outcome": N_("outcome"),
    "params.swap": N_("which pieces swap"),
    "params.adjacent_only": N_("how far the King moves"),
    "params.options": N_("choice of actions"),
}
OTHER_FACT = N_("value printed on the card")  # a parameter not listed above: never its key


def fact_words(key: str) -> str:
    """A fact of a card to read off it, in the table's words (never the card file's key)."""
    return _(FACT_WORDS.get(key, OTHER_FACT))


def reveal_action_cards(builder: PromptContext, ask: Ask) -> Prompt:
    prompt = Prompt(
        builder.title(ask, _("turn up one card on each stack")),
        _("Pick the card showing on each stack, then Reveal."),
        actor=None,
        choices=[Choice(_("Turn up the cards"), action="reveal_cards", style="primary")],
    )
    if builder.board.rules != "classic":
        # The 2023 card set is not all published: a card the set does not list is added
        # once, from the box, and the game goes on (engine/card_entry.py).
        prompt.choices.append(
            Choice(_("A card turned up is not in the list: add it to your card set"), action="add_card", style="quiet")
        )
    return prompt


def reveal_choices(builder: PromptContext, ask: Ask) -> dict[int, list[tuple[str, str]]]:
    """Stack -> (card id, card name) the table may have turned up."""
    return {
        int(s): [(cid, builder.card_label(cid)) for cid in sorted(cards)] for s, cards in ask.options["stacks"].items()
    }


def play_power_card(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    # The hand is private: only what everyone knows is greyed out (values played this
    # round, and this player's earlier ones); the engine refuses any other card not held.
    gone = set(ask.options.get("unavailable", ()))
    choices = [
        Choice(
            str(v),
            {"type": "power_card_played", "player": pid, "card": v},
            enabled=v not in gone,
            why_not=builder.power_gone_words(pid, v) if v in gone else "",
        )
        for v in range(1, 14)
    ]
    stacks = ask.options.get("stacks", {})
    notes = [_("Face up now:")] + [
        builder.card_label(cid) for _, cid in sorted(stacks.items(), key=lambda kv: int(kv[0]))
    ]
    why = builder.why_in_private(pid)
    prompt = Prompt(
        builder.title(ask, _("{who} plays next").format(who=builder.name(pid))),
        _("{who}: tap the Power card you laid down.").format(who=builder.name(pid)),
        actor=pid,
        choices=choices + ([why] if why else []),
        columns=4,
        notes=notes if stacks else [],
    )
    if "modifiers" in ask.options and builder.modifiers:
        modules_2023.offer_modifier_cards(builder, prompt, pid)
    return prompt


def replenish(builder: PromptContext, ask: Ask) -> Prompt:
    """At a turn's start one tap takes the full replenishment and the action card (the
    usual case); anything else goes through `replenish_custom`."""
    pid = ask.players[0]
    most = ask.options.get("max", 0)
    stacks = ask.options.get("stacks")
    if not stacks:  # The Court card
        return replenish_custom(builder, ask)
    who = builder.name(pid)
    full = {"type": "court_replenished", "player": pid, "from_provinces": most, "from_regions": {}}
    ability = modules_2023.played_ability(builder, pid)
    # Power Shift: the played Modifier card's ability comes between the court and the card;
    # taking a card straight away passes it up.
    skip = [{"type": "modifier_ability_skipped", "player": pid}] if ability else []
    choices = [
        Choice(
            builder.card_label(cid),
            events=[full, *skip, {"type": "action_card_chosen", "player": pid, "stack": int(s)}],
        )
        for s, cid in sorted(stacks.items(), key=lambda kv: int(kv[0]))
    ]
    if ability:
        choices.insert(
            0,
            Choice(
                _("First use {card}: {text}").format(
                    card=names.card(ability.name),
                    text=names.card_text(ability.text) if ability.text else effect_title(ability.effect),
                ),
                events=[full, {"type": "modifier_ability_used", "player": pid}],
            ),
        )
    choices.append(Choice(_("Other replenishment: fewer, or from the board"), action="replenish_custom", style="quiet"))
    if most:
        hint = ngettext(
            "{who}: {n} Caballero from the provinces to the court, then tap the action card taken.",
            "{who}: {n} Caballeros from the provinces to the court, then tap the action card taken.",
            most,
        ).format(who=who, n=most)
    else:
        hint = _("{who}: tap the action card taken.").format(who=who)
    if ability:
        hint = _("{hint} Taking a card passes up {card}'s ability.").format(hint=hint, card=names.card(ability.name))
    return Prompt(
        builder.title(ask, _("{who} replenishes and takes an action card").format(who=who)),
        hint,
        actor=pid,
        choices=choices,
    )


def replenish_custom(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    most = ask.options.get("max", 0)
    return Prompt(
        builder.title(ask, _("{who} replenishes").format(who=builder.name(pid))),
        _(
            "Up to {n} from the provinces to the court. When the provinces run short, "
            "tap regions to take them from the board."
        ).format(n=most),
        actor=pid,
        map_mode="count",
        areas=list(ask.options.get("regions", {})),
        limit=most,
        full=ngettext(
            "up to {n} Caballero to {who}'s court this turn", "up to {n} Caballeros to {who}'s court this turn", most
        ).format(n=most, who=builder.name(pid)),
        steppers={"__provinces__": (_("from the provinces"), 0, most)},
        prefill={"__provinces__": most},
        confirm_empty=_("Move no Caballeros to {who}'s court?").format(who=builder.name(pid)),
        on_counts=lambda counts: {
            "type": "court_replenished",
            "player": pid,
            "from_provinces": counts.pop("__provinces__", 0),
            "from_regions": counts,
        },
    )


def choose_action_card(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    choices = [
        Choice(builder.card_label(cid), {"type": "action_card_chosen", "player": pid, "stack": int(s)})
        for s, cid in sorted(ask.options["stacks"].items(), key=lambda kv: int(kv[0]))
    ]
    return Prompt(
        builder.title(ask, _("{who} takes an action card").format(who=builder.name(pid))),
        _("{who}: which card did you take?").format(who=builder.name(pid)),
        actor=pid,
        choices=choices,
    )


def turn_action(builder: PromptContext, ask: Ask, prefill_castillo: int = 0) -> Prompt:
    pid = ask.players[0]
    place, special = ask.options["place"], ask.options["special"]
    card = builder.card(ask.card)
    prompt = Prompt(builder.title(ask, _("{who} plays {card}").format(who=builder.name(pid), card=card)), actor=pid)
    hints = []
    # Nothing to place (an empty court, a card that places none): said, nothing highlighted
    empty = nothing_placeable(ask)
    if empty:
        hints.append(_nothing_to_place(builder, ask))
    elif place:
        if place.get("refused"):
            hints.append(_("read the card's number of Caballeros off it to place them"))
        elif builder.tower_counts(pid):
            hints.append(
                ngettext(
                    "tap regions to place up to {n} Caballero (the tower counts the Castillo)",
                    "tap regions to place up to {n} Caballeros (the tower counts the Castillo)",
                    place["max"],
                ).format(n=place["max"])
            )
        else:
            hints.append(
                ngettext(
                    "tap regions to place up to {n} Caballero",
                    "tap regions to place up to {n} Caballeros",
                    place["max"],
                ).format(n=place["max"])
            )
        prompt.map_mode, prompt.areas, prompt.limit = "count", builder.placeable(place["areas"], pid), place["max"]
        prompt.full = _placement_full(builder, ask)
        prompt.prefill = {CASTILLO: prefill_castillo} if prefill_castillo else {}
        prompt.on_counts = lambda counts: {
            "type": "caballeros_placed",
            "player": pid,
            "placements": {a: c for a, c in counts.items() if c},
        }
    facts = (
        card_facts(builder.board, ask.card)
        if builder.board.rules == "2023"
        and ((place and place.get("refused")) or (special and "card file" in (special.get("refused") or "")))
        else []
    )
    if facts:
        # A listed card whose numbers nobody entered: read them off the card now, and play on
        words = _(" and ").join(fact_words(f.key) for f in facts)
        prompt.choices.append(
            Choice(
                _("Read {card}'s {facts} off the card").format(card=card, facts=words),
                action=f"card_facts:{ask.card}",
                style="primary",
            )
        )
        prompt.notes.append(
            _(
                "Your card set does not know {card}'s {facts} yet: read it off the card "
                "(asked once: your next games keep it)."
            ).format(card=card, facts=words)
        )
    if special and special.get("refused"):
        # A fact of the card or board the table has not entered: only skipping is possible.
        if facts:  # said plainly: what to read off the card (the card file's words are for files)
            hints.append(
                _("{card}'s special action needs its {facts}: read it off the card, or skip it").format(
                    card=card, facts=words
                )
            )
        else:
            hints.append(
                _("{action} cannot be done: {why}").format(
                    action=names.card_text(special["text"]), why=said_words(special["refused"])
                )
            )
        if facts:
            pass
        elif "card file" in special["refused"]:
            prompt.notes.append(
                _(
                    "Skip it now; complete the card set (Add a card, when the next round's cards "
                    "are turned up) and the card works from then on."
                )
            )
        else:  # a board fact: the game keeps the board it started with
            prompt.notes.append(_(BOARD_FACT_LATER))
        prompt.choices.append(
            Choice(
                _("Skip the special action"),
                {"type": "special_action_skipped", "player": pid},
                style="primary",
                places_first=bool(place),
            )
        )
    elif special:
        # what to do now in a few words; the card's own text is a note (pasted into the hint, it
        # read "...; or You are only allowed to swap them, if ...")
        hints.append(_(SPECIAL_HINT))
        if special.get("text"):
            prompt.notes.append(_("{card}: {text}").format(card=card, text=names.card_text(special["text"])))
        for option in special.get("options") or [None]:
            label = (
                _("Special: {option}").format(option=card_words.option_words(option))
                if option
                else _("Do the special action")
            )
            if special.get("count_first"):
                # A game saved before rules revision 3: the Castillo is counted, then the
                # action announced. Since, it is announced (any Veto first), then counted.
                prompt.choices.append(Choice(label, action="count_castillo", places_first=bool(place)))
                continue
            prompt.choices.append(
                Choice(
                    label,
                    {"type": "special_action_started", "player": pid, "option": option},
                    places_first=bool(place),
                )
            )
        prompt.choices.append(
            Choice(
                _("Skip the special action"),
                {"type": "special_action_skipped", "player": pid},
                style="quiet",
                places_first=bool(place),
            )
        )
    if empty and special:
        prompt.choices = nothing_placed_first(prompt.choices, pid)
        prompt.notes.append(
            _(
                "Nothing to place: the special action ends the turn. Should it bring Caballeros "
                'to the court, tap its "..., then place" instead.'
            )
        )
    elif empty:  # the placement is all that is left of the turn: one tap, no question
        prompt.choices.append(Choice(_("Skip placing: the turn ends"), placed_nothing(pid), style="primary"))
    joined = hints[0] if hints else ""
    for then in hints[1:]:
        # Translators: two things a player may do at a turn, "tap regions ...; or tap Do the special action"
        joined = (_("{first}; {then}") if empty else _("{first}; or {then}")).format(first=joined, then=then)
    prompt.hint = _("{who}: {what}").format(who=builder.name(pid), what=joined)
    if ask.options.get("special_first"):  # e.g. the Hurricane: its disc before any placement
        prompt.hint = _("{hint}. Place Caballeros after it ({card}: {first})").format(
            hint=prompt.hint, card=card, first=names.card_text(ask.options["special_first"])
        )
    if place and not special and not empty:
        # The placement is all that is left of the turn: the tap that fills it places them
        # (as "Do"/"Skip the special action" does when placing first); fewer take Confirm.
        prompt.auto_confirm = True
        prompt.hint = _("{hint}: the last one places them (fewer: Confirm)").format(hint=prompt.hint)
    if place and not empty:
        prompt.confirm_empty = (
            _("Place no Caballeros and end {who}'s turn?").format(who=builder.name(pid))
            if not special
            else _("Place no Caballeros? {who} then does the special action.").format(who=builder.name(pid))
        )
    return prompt


def nothing_placeable(ask: Ask) -> bool:
    """A turn whose placement can place nothing (an empty court, a card that places none)."""
    place = ask.options.get("place")
    return bool(place) and not place.get("refused") and place["max"] == 0


def nothing_placed_first(choices: list[Choice], pid: str) -> list[Choice]:
    """Nothing to place, the special action to come: each way to start it places nothing in
    the same tap (the turn ends with it), and a quiet twin leaves the placing for after it (a
    special action may bring Caballeros to the court)."""
    out, later = [], []
    for c in choices:
        if (c.event or {}).get("type") == "special_action_started":
            out.append(dataclasses.replace(c, event=None, events=[placed_nothing(pid), c.event], places_first=False))
            label = _("{action}, then place").format(action=c.label)
            later.append(dataclasses.replace(c, label=label, style="quiet", places_first=False))
        else:
            out.append(c)
    if not later:  # nothing starts it by an input of its own (skipped, or the Castillo counted first)
        later.append(Choice(_("Skip placing first"), placed_nothing(pid), style="quiet"))
    return out + later


def _nothing_to_place(builder: PromptContext, ask: Ask) -> str:
    if ask.options["place"].get("card_allows") == 0:
        return _("{card} places no Caballeros: skip placing").format(card=builder.placing_card(ask))
    return _("no Caballeros in the court: skip placing")


def _placement_full(builder: PromptContext, ask: Ask) -> str:
    pid, place, card = ask.players[0], ask.options["place"], builder.placing_card(ask)
    most, allows = place["max"], place.get("card_allows")
    if allows is not None and most < allows:  # the court holds fewer than the card allows
        return ngettext(
            "{who} has {n} Caballero in the court ({card} places up to {allows})",
            "{who} has {n} Caballeros in the court ({card} places up to {allows})",
            most,
        ).format(who=builder.name(pid), n=most, card=card, allows=allows)
    return ngettext("{card} places up to {n} Caballero", "{card} places up to {n} Caballeros", most).format(
        card=card, n=most
    )


def place_extra(builder: PromptContext, ask: Ask, prefill_castillo: int = 0) -> Prompt:
    pid = ask.players[0]
    most = ask.options["max"]
    return Prompt(
        builder.title(ask, _("{who} places extra Caballeros").format(who=builder.name(pid))),
        _("Tap any regions (not the King's) to place up to {n}, then Confirm.").format(n=most),
        actor=pid,
        map_mode="count",
        areas=builder.placeable(ask.options["areas"], pid),
        limit=most,
        full=ngettext("{card} places up to {n} Caballero more", "{card} places up to {n} Caballeros more", most).format(
            card=builder.card(ask.card) or _("The card"), n=most
        ),
        prefill={CASTILLO: prefill_castillo} if prefill_castillo else {},
        on_counts=lambda counts: {
            "type": "extra_caballeros_placed",
            "player": pid,
            "placements": {a: c for a, c in counts.items() if c},
        },
    )


def veto(builder: PromptContext, ask: Ask) -> Prompt:
    against = ask.options["against"]
    choices = []
    for p in ask.players:
        choices.append(
            Choice(_("{who}: Veto!").format(who=builder.name(p)), {"type": "veto_used", "player": p}, style="primary")
        )
        choices.append(Choice(_("{who}: no veto").format(who=builder.name(p)), {"type": "veto_waived", "player": p}))
    players = ", ".join(builder.name(p) for p in ask.players)
    # Which action: several cards share a name (the classic "Special Scoring" cards).
    hint = _("{against} announces {card}. {players} may veto it before anything of it is done.").format(
        against=builder.name(against), card=builder.card_label(ask.card), players=players
    )
    if _veto_2023(builder):
        hint = _(card_words.step_words("veto_2023").hints["veto"]).format(
            against=builder.name(against), card=builder.card(ask.card), players=players
        )
    return Prompt(
        builder.title(ask, _("may anyone stop {who}?").format(who=builder.name(against))),
        hint,
        actor=ask.players[0],
        choices=choices,
    )


def _veto_2023(builder: PromptContext) -> bool:
    return any(c.effect == "veto_2023" for c in builder.board.cards.values())


def play_round(builder: PromptContext, ask: Ask) -> Prompt:
    last = ask.options.get("general_scoring_next")
    return Prompt(
        builder.title(ask, _("the table plays")),
        _("Play the round on the board. Enter the board before a scoring; a general scoring follows this round.")
        if last
        else _("Play the round on the board. Enter the board before a scoring; then finish the round."),
        choices=[
            Choice(_("Enter the board"), action="enter_board"),
            Choice(_("Special scoring"), action="special_scoring"),
            Choice(_("Round finished"), {"type": "round_finished"}, style="primary"),
        ],
    )


def game_over(builder: PromptContext, ask: Ask) -> Prompt:
    winners = ask.options.get("winners", [])
    return Prompt(
        _("Game over - El Grande: {winners}").format(winners=_(" and ").join(builder.name(p) for p in winners)),
        choices=[Choice(_("Final standings"), action="standings", style="primary")],
    )
