"""The 2023 edition's modules at the table: Power Shift's Modifier cards (their labels, the Power
card played with one, the cards dealt and passed in private, an ability used) and the 2-player
dummy (the table enters only what chance decided). Functions of the prompt builder (a
PromptContext), registered by ask kind in companion.prompts.registry."""

from __future__ import annotations

from companion.prompts import discs
from companion.prompts.context import PromptContext
from companion.prompts.prompt import Choice, PrivatePick, Prompt, answers_now, signed
from companion.words import N_, _, names, ngettext
from companion.words.effects import effect_title, parameters_tag
from companion.words.refusals import said_words
from engine.primitives import Ask


def modifier_order(builder: PromptContext) -> list[str]:
    return sorted(builder.modifiers, key=lambda mid: (builder.modifiers[mid].value, mid))


def _modifier_print(builder: PromptContext, mid: str) -> tuple:
    """What is printed on a Modifier card: twins print the same."""
    m = builder.modifiers[mid]
    return m.name, m.value, m.effect, repr(sorted(m.params.items())), m.text


def modifier_twins(builder: PromptContext) -> list[list[str]]:
    """The Modifier cards grouped by print, in value order."""
    groups: dict[tuple, list[str]] = {}
    for mid in modifier_order(builder):
        groups.setdefault(_modifier_print(builder, mid), []).append(mid)
    return list(groups.values())


COPY_WORDS = {1: N_("second copy"), 2: N_("third copy"), 3: N_("fourth copy")}


def modifier_label(builder: PromptContext, mid: str, numbered: bool = True) -> str:
    """ "Stand-in +1 (+1)"; cards of one name and value with other abilities say theirs
    ("Stand-in −1 · militia"); twins are told apart in words ("(second copy)") where each copy
    is a button of its own."""
    m = builder.modifiers.get(mid)
    if m is None:
        return mid
    value = signed(m.value)
    name = names.card(m.name)
    label = name if value in name else _("{card} ({value})").format(card=name, value=value)
    mine = _modifier_print(builder, mid)
    namesakes = {
        _modifier_print(builder, k)
        for k in builder.modifiers
        if builder.modifiers[k].name == m.name and builder.modifiers[k].value == m.value
    }
    if len(namesakes) > 1:
        label = _("{card} · {ability}").format(card=label, ability=_ability_words(builder, mid, namesakes))
    twins = [k for k in modifier_order(builder) if _modifier_print(builder, k) == mine]
    if numbered and len(twins) > 1 and twins.index(mid):  # a copy number is internal: words, from the second on
        copy = _(COPY_WORDS.get(twins.index(mid), N_("another copy")))
        label = _("{card} ({copy})").format(card=label, copy=copy)
    return label


def _ability_words(builder: PromptContext, mid: str, namesakes: set) -> str:
    """A short tag telling a card from its namesakes: its ability's effect ("court"), and
    the numbers that differ when two namesakes share the effect ("move 1 foreign")."""
    m = builder.modifiers[mid]
    if m.effect is None:
        return _("no ability")
    words = effect_title(m.effect)
    others = [
        builder.modifiers[k].params
        for k in builder.modifiers
        if _modifier_print(builder, k) in namesakes
        and builder.modifiers[k].effect == m.effect
        and builder.modifiers[k].params != m.params
    ]
    differ = [k for k, v in m.params.items() if v and any(o.get(k) != v for o in others)]
    return " ".join(filter(None, [words, parameters_tag(m.params, differ)]))


def _total_gone_words(builder: PromptContext, total: int) -> str:
    who = [
        builder.name(p["id"]) if builder.names.get(p["id"]) else p.get("name") or p["id"]
        for p in builder.public_view().get("players", [])
        if p.get("power_total") == total
    ]
    return _("A total of {total} was played by {who} this round (each total once)").format(
        total=total, who=", ".join(who) or _("another player")
    )


def _modifier_gone_words(builder: PromptContext, label: str, twins: list[str]) -> str:
    who = [
        builder.name(p["id"]) if builder.names.get(p["id"]) else p.get("name") or p["id"]
        for p in builder.public_view().get("players", [])
        if p.get("modifier_played") in twins
    ]
    return _("{card} was played by {who} this round").format(card=label, who=", ".join(who) or _("another player"))


def modifiers_played(builder: PromptContext) -> set[str]:
    return {p.get("modifier_played") for p in builder.public_view().get("players", []) if p.get("modifier_played")}


def _totals_played(builder: PromptContext) -> set[int]:
    return {p["power_total"] for p in builder.public_view().get("players", []) if p.get("power_total") is not None}


def offer_modifier_cards(builder: PromptContext, prompt: Prompt, pid: str) -> None:
    """Power Shift: a Power card may be played with a Modifier card, tapped first (its sub-prompt)."""
    # Power Shift. The hand of Modifier cards is secret: every card of the set is offered
    # but those played face up this round (the engine refuses one not held).
    # Twins (the same print) are one button: nobody can tell their copies apart, and the
    # table takes a twin for the copy the player holds.
    played = modifiers_played(builder)
    for twins in modifier_twins(builder):
        left = [mid for mid in twins if mid not in played]
        label = modifier_label(builder, twins[0], numbered=False)
        # the side panel heads these "Played with a Modifier card?": the card's name alone
        prompt.choices.append(
            Choice(
                label,
                action=f"sub:modifier:{(left or twins)[0]}",
                style="quiet",
                enabled=bool(left),
                why_not="" if left else _modifier_gone_words(builder, label, twins),
            )
        )
    prompt.hint = _(
        "{who}: tap the Power card you laid down; played with a Modifier card, tap the Modifier card first."
    ).format(who=builder.name(pid))


def modifier_power_prompt(builder: PromptContext, ask: Ask, mid: str) -> Prompt:
    """The Power card played with Modifier card `mid`: each value with the total it makes.
    Greyed out only what everyone knows cannot be played: a total already played, or a
    value this player laid down before."""
    pid = ask.players[0]
    m = builder.modifiers[mid]
    totals = _totals_played(builder)
    gone = set(ask.options.get("unavailable", ()))
    spent = gone - totals  # surely laid down earlier: not a total anyone played this round
    choices = [
        Choice(
            f"{v} {signed(m.value)} = {v + m.value}",
            {"type": "power_card_played", "player": pid, "card": v, "modifier": mid},
            enabled=v not in spent and v + m.value not in totals,
            why_not=builder.power_gone_words(pid, v)
            if v in spent
            else _total_gone_words(builder, v + m.value)
            if v + m.value in totals
            else "",
        )
        for v in range(1, 14)
    ]
    choices.append(Choice(_("Without a Modifier card"), action="sub:", style="quiet"))
    return Prompt(
        builder.title(ask, _("{who} plays next").format(who=builder.name(pid))),
        _("{who} plays {card}: tap the Power card; the total decides the turn order.").format(
            who=builder.name(pid), card=modifier_label(builder, mid, numbered=False)
        ),
        actor=pid,
        choices=choices,
        columns=4,
    )


def played_ability(builder: PromptContext, pid: str):
    """The Modifier card `pid` played this round, if it has an ability (public: face up)."""
    for p in builder.public_view().get("players", []):
        if p.get("id") == pid and p.get("modifier_played"):
            m = builder.modifiers.get(p["modifier_played"])
            return m if m is not None and m.effect else None
    return None


def deal_modifiers(builder: PromptContext, ask: Ask) -> Prompt:
    return discs.private_round(
        builder, ask, _("enter the three Modifier cards dealt to you"), _("Modifier cards dealt")
    )


def pass_modifier(builder: PromptContext, ask: Ask) -> Prompt:
    return discs.private_round(
        builder, ask, _("choose the Modifier card you pass face down to your left"), _("Modifier cards to pass")
    )


def modifier_ability(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    o = ask.options
    card = names.card(o["name"])
    text = names.card_text(o["text"]) if o.get("text") else ""
    prompt = Prompt(
        builder.title(ask, _("{who} may use {card}'s ability").format(who=builder.name(pid), card=card)), actor=pid
    )
    skip = Choice(_("Skip the ability"), {"type": "modifier_ability_skipped", "player": pid}, style="quiet")
    if o.get("refused"):
        prompt.hint = _("{text} Not possible now: {why}").format(text=text, why=said_words(o["refused"]))
        prompt.choices = [Choice(_("Skip the ability"), skip.event, style="primary")]
        return prompt
    prompt.hint = _("{who}: before taking an Action card, you may: {text}").format(
        who=builder.name(pid), text=text or o["effect"]
    )
    prompt.choices = [
        Choice(
            _("Use it: {text}").format(text=text or o["effect"].replace("_", " ")),
            {"type": "modifier_ability_used", "player": pid},
            style="primary",
        ),
        skip,
    ]
    return prompt


def dummy_region_cards(builder: PromptContext, ask: Ask) -> Prompt:
    o = ask.options
    dummy = builder.name(o["dummy"])
    n = o["draw"]
    notes = []
    if o.get("kings_region") in o["pile"]:
        notes.append(
            _("A card showing the King's region ({region}) places nothing.").format(
                region=builder.area(o["kings_region"])
            )
        )
    if o.get("last_caballeros"):
        notes.append(
            _("Its last Caballeros go to the first card outside the King's region: then no second card is drawn.")
        )
    two = n == 2
    prompt = Prompt(
        builder.title(
            ask,
            (
                _("draw two Region cards for {dummy}: which regions?")
                if two
                else _("draw one Region card for {dummy}: which regions?")
            ).format(dummy=dummy),
        ),
        (
            _("Draw two Region cards for {dummy} and tap the regions shown, in the order drawn.")
            if two
            else ngettext(
                "Draw one Region card for {dummy} and tap the region shown, in the order drawn.",
                "Draw one Region card for {dummy} and tap the regions shown, in the order drawn.",
                n,
            )
        ).format(dummy=dummy),
        map_mode="count",
        areas=list(o["pile"]),
        limit=n,
        per_area=1,
        full=(
            _("{dummy} draws two Region cards this round") if two else _("{dummy} draws one Region card this round")
        ).format(dummy=dummy),
        auto_confirm=not o.get("last_caballeros"),
        notes=notes,
        on_counts=lambda counts: {
            "type": "dummy_region_cards_drawn",
            "regions": [a for a, c in counts.items() for _ in range(c)],
        },
    )
    return prompt


def dummy_power_card(builder: PromptContext, ask: Ask) -> Prompt:
    dummy = builder.name(ask.options["dummy"])
    cards = ask.options["cards"]
    choices = [Choice(str(v), {"type": "dummy_power_card_revealed", "card": v}) for v in cards]
    return Prompt(
        builder.title(ask, _("turn up {dummy}'s next Power card: which value?").format(dummy=dummy)),
        _(
            "Turn up the top card of {dummy}'s Power cards and tap its value. No one plays that value this round."
        ).format(dummy=dummy),
        choices=choices,
        columns=4,
    )


def dummy_action_card(builder: PromptContext, ask: Ask) -> Prompt:
    o = ask.options
    dummy = builder.name(o["dummy"])
    choices = [
        Choice(builder.card_label(cid), {"type": "dummy_action_card_taken", "stack": int(s)})
        for s, cid in sorted(o["stacks"].items(), key=lambda kv: int(kv[0]))
    ]
    return Prompt(
        builder.title(ask, _("which card does {dummy} take?").format(dummy=dummy)),
        _("{dummy} takes the remaining Action card with the most Caballeros: {why}").format(
            dummy=dummy[:1].upper() + dummy[1:], why=o["why"]
        ),
        choices=choices,
    )


def dealt_modifiers_pick(builder: PromptContext, ask: Ask, pid: str) -> PrivatePick | None:
    """The three Modifier cards dealt to `pid`, entered in private."""
    if not answers_now(ask, pid):
        return None
    o = ask.options
    return PrivatePick(
        pid,
        ask.kind,
        _("Your Modifier cards"),
        _("Tap the three Modifier cards you were dealt. Nobody else sees them."),
        [(m, modifier_label(builder, m)) for m in modifier_order(builder) if m in o["modifiers"]],
        count=o.get("count", 3),
    )


def passed_modifier_pick(builder: PromptContext, ask: Ask, pid: str) -> PrivatePick | None:
    """The Modifier card `pid` passes face down (changed until everyone has chosen)."""
    o = ask.options
    hand = (o.get("hands") or {}).get(pid)
    if not answers_now(ask, pid, may_change=True) or hand is None:
        return None
    to = builder.name((o.get("to") or {}).get(pid, ""))
    return PrivatePick(
        pid,
        ask.kind,
        _("Pass a Modifier card"),
        _("Choose the Modifier card you pass face down to {who}. It can be changed until everyone has chosen.").format(
            who=to
        ),
        [(m, modifier_label(builder, m)) for m in hand],
    )
