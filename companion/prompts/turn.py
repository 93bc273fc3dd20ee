"""A turn's prompts: the action cards turned up, the Power card played, the court replenished, the
action card taken, the Caballeros placed and the special action announced (or vetoed), and the
round played on the board (scoring-only tables). Functions of the prompt builder (a
PromptContext), registered by ask kind in companion.prompts.registry."""

from __future__ import annotations

import dataclasses

from companion.prompts import card_words, modules_2023
from companion.prompts.context import PromptContext
from companion.prompts.prompt import Choice, Prompt, caballeros_words, placed_nothing
from companion.table_rules.card_learning import card_facts
from engine.board.model import CASTILLO
from engine.primitives import Ask

SPECIAL_HINT = "tap Do the special action (or Skip it)"  # a turn's hint, after its placing


def reveal_action_cards(builder: PromptContext, ask: Ask) -> Prompt:
    prompt = Prompt(
        builder.title(ask, "turn up one card on each stack"),
        "Pick the card showing on each stack, then Reveal.",
        actor=None,
        choices=[Choice("Turn up the cards", action="reveal_cards", style="primary")],
    )
    if builder.board.rules != "classic":
        # The 2023 card set is not all published: a card the set does not list is added
        # once, from the box, and the game goes on (engine/card_entry.py).
        prompt.choices.append(
            Choice("A card turned up is not in the list: add it to your card set", action="add_card", style="quiet")
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
    notes = ["Face up now:"] + [builder.card_label(cid) for _, cid in sorted(stacks.items(), key=lambda kv: int(kv[0]))]
    why = builder.why_in_private(pid)
    prompt = Prompt(
        builder.title(ask, f"{builder.name(pid)} plays next"),
        f"{builder.name(pid)}: tap the Power card you laid down.",
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
                f"First use {ability.name}: {ability.text or ability.effect.replace('_', ' ')}",
                events=[full, {"type": "modifier_ability_used", "player": pid}],
            ),
        )
    choices.append(Choice("Other replenishment: fewer, or from the board", action="replenish_custom", style="quiet"))
    moved = f"{most} Caballero{'s' if most != 1 else ''} from the provinces to the court, then " if most else ""
    return Prompt(
        builder.title(ask, f"{who} replenishes and takes an action card"),
        f"{who}: {moved}tap the action card taken."
        + (f" Taking a card passes up {ability.name}'s ability." if ability else ""),
        actor=pid,
        choices=choices,
    )


def replenish_custom(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    most = ask.options.get("max", 0)
    return Prompt(
        builder.title(ask, f"{builder.name(pid)} replenishes"),
        f"Up to {most} from the provinces to the court. When the provinces run short, "
        "tap regions to take them from the board.",
        actor=pid,
        map_mode="count",
        areas=list(ask.options.get("regions", {})),
        limit=most,
        full=f"up to {caballeros_words(most)} to {builder.name(pid)}'s court this turn",
        steppers={"__provinces__": ("from the provinces", 0, most)},
        prefill={"__provinces__": most},
        confirm_empty=f"Move no Caballeros to {builder.name(pid)}'s court?",
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
        builder.title(ask, f"{builder.name(pid)} takes an action card"),
        f"{builder.name(pid)}: which card did you take?",
        actor=pid,
        choices=choices,
    )


def turn_action(builder: PromptContext, ask: Ask, prefill_castillo: int = 0) -> Prompt:
    pid = ask.players[0]
    place, special = ask.options["place"], ask.options["special"]
    card = builder.card(ask.card)
    prompt = Prompt(builder.title(ask, f"{builder.name(pid)} plays {card}"), actor=pid)
    hints = []
    # Nothing to place (an empty court, a card that places none): said, nothing highlighted
    empty = nothing_placeable(ask)
    if empty:
        hints.append(_nothing_to_place(builder, ask))
    elif place:
        where = " (the tower counts the Castillo)" if builder.tower_counts(pid) else ""
        hints.append(
            "read the card's number of Caballeros off it to place them"
            if place.get("refused")
            else f"tap regions to place up to {place['max']} Caballero{'' if place['max'] == 1 else 's'}{where}"
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
        words = " and ".join(
            "number of Caballeros" if f.key == "placement" else f.key.removeprefix("params.").replace("_", " ")
            for f in facts
        )
        prompt.choices.append(
            Choice(f"Read {card}'s {words} off the card", action=f"card_facts:{ask.card}", style="primary")
        )
        prompt.notes.append(
            f"Your card set does not know {card}'s {words} yet: read it off the card "
            "(asked once: your next games keep it)."
        )
    if special and special.get("refused"):
        # A fact of the card or board the table has not entered: only skipping is possible.
        if facts:  # said plainly: what to read off the card (the card file's words are for files)
            hints.append(f"{card}'s special action needs its {words}: read it off the card, or skip it")
        else:
            hints.append(f"{special['text']} cannot be done: {special['refused']}")
        if facts:
            pass
        elif "card file" in special["refused"]:
            prompt.notes.append(
                "Skip it now; complete the card set (Add a card, when the next round's cards "
                "are turned up) and the card works from then on."
            )
        else:  # a board fact: the game keeps the board it started with
            prompt.notes.append("Skip it now; enter the fact on your board's page: your next games use it.")
        prompt.choices.append(
            Choice(
                "Skip the special action",
                {"type": "special_action_skipped", "player": pid},
                style="primary",
                places_first=bool(place),
            )
        )
    elif special:
        # what to do now in a few words; the card's own text is a note (pasted into the hint, it
        # read "...; or You are only allowed to swap them, if ...")
        hints.append(SPECIAL_HINT)
        if special.get("text"):
            prompt.notes.append(f"{card}: {special['text']}")
        for option in special.get("options") or [None]:
            label = f"Special: {option.replace('_', ' ')}" if option else "Do the special action"
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
                "Skip the special action",
                {"type": "special_action_skipped", "player": pid},
                style="quiet",
                places_first=bool(place),
            )
        )
    if empty and special:
        prompt.choices = nothing_placed_first(prompt.choices, pid)
        prompt.notes.append(
            "Nothing to place: the special action ends the turn. Should it bring Caballeros "
            'to the court, tap its "..., then place" instead.'
        )
    elif empty:  # the placement is all that is left of the turn: one tap, no question
        prompt.choices.append(Choice("Skip placing: the turn ends", placed_nothing(pid), style="primary"))
    prompt.hint = f"{builder.name(pid)}: " + ("; " if empty else "; or ").join(hints)
    if ask.options.get("special_first"):  # e.g. the Hurricane: its disc before any placement
        prompt.hint += f". Place Caballeros after it ({card}: {ask.options['special_first']})"
    if place and not special and not empty:
        # The placement is all that is left of the turn: the tap that fills it places them
        # (as "Do"/"Skip the special action" does when placing first); fewer take Confirm.
        prompt.auto_confirm = True
        prompt.hint += ": the last one places them (fewer: Confirm)"
    if place and not empty:
        prompt.confirm_empty = (
            f"Place no Caballeros and end {builder.name(pid)}'s turn?"
            if not special
            else f"Place no Caballeros? {builder.name(pid)} then does the special action."
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
            later.append(dataclasses.replace(c, label=f"{c.label}, then place", style="quiet", places_first=False))
        else:
            out.append(c)
    if not later:  # nothing starts it by an input of its own (skipped, or the Castillo counted first)
        later.append(Choice("Skip placing first", placed_nothing(pid), style="quiet"))
    return out + later


def _nothing_to_place(builder: PromptContext, ask: Ask) -> str:
    if ask.options["place"].get("card_allows") == 0:
        return f"{builder.placing_card(ask)} places no Caballeros: skip placing"
    return "no Caballeros in the court: skip placing"


def _placement_full(builder: PromptContext, ask: Ask) -> str:
    pid, place, card = ask.players[0], ask.options["place"], builder.placing_card(ask)
    most, allows = place["max"], place.get("card_allows")
    if allows is not None and most < allows:  # the court holds fewer than the card allows
        return f"{builder.name(pid)} has {caballeros_words(most)} in the court ({card} places up to {allows})"
    return f"{card} places up to {caballeros_words(most)}"


def place_extra(builder: PromptContext, ask: Ask, prefill_castillo: int = 0) -> Prompt:
    pid = ask.players[0]
    most = ask.options["max"]
    return Prompt(
        builder.title(ask, f"{builder.name(pid)} places extra Caballeros"),
        f"Tap any regions (not the King's) to place up to {most}, then Confirm.",
        actor=pid,
        map_mode="count",
        areas=builder.placeable(ask.options["areas"], pid),
        limit=most,
        full=f"{builder.card(ask.card) or 'The card'} places up to {caballeros_words(most)} more",
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
        choices.append(Choice(f"{builder.name(p)}: Veto!", {"type": "veto_used", "player": p}, style="primary"))
        choices.append(Choice(f"{builder.name(p)}: no veto", {"type": "veto_waived", "player": p}))
    # Which action: several cards share a name (the classic "Special Scoring" cards).
    hint = (
        f"{builder.name(against)} announces {builder.card_label(ask.card)}. "
        f"{', '.join(builder.name(p) for p in ask.players)} may veto it before anything of it is done."
    )
    if _veto_2023(builder):
        hint = (
            card_words.step_words("veto_2023")
            .hints["veto"]
            .format(
                against=builder.name(against),
                card=builder.card(ask.card),
                players=", ".join(builder.name(p) for p in ask.players),
            )
        )
    return Prompt(
        builder.title(ask, f"may anyone stop {builder.name(against)}?"), hint, actor=ask.players[0], choices=choices
    )


def _veto_2023(builder: PromptContext) -> bool:
    return any(c.effect == "veto_2023" for c in builder.board.cards.values())


def play_round(builder: PromptContext, ask: Ask) -> Prompt:
    last = ask.options.get("general_scoring_next")
    return Prompt(
        builder.title(ask, "the table plays"),
        "Play the round on the board. Enter the board before a scoring; "
        + ("a general scoring follows this round." if last else "then finish the round."),
        choices=[
            Choice("Enter the board", action="enter_board"),
            Choice("Special scoring", action="special_scoring"),
            Choice("Round finished", {"type": "round_finished"}, style="primary"),
        ],
    )


def game_over(builder: PromptContext, ask: Ask) -> Prompt:
    winners = ask.options.get("winners", [])
    return Prompt(
        f"Game over - El Grande: {' and '.join(builder.name(p) for p in winners)}",
        choices=[Choice("Final standings", action="standings", style="primary")],
    )
