"""Secret discs and the scorings they serve: what a disc is for, in words; who is still to set
theirs; the reveal; the Castillo lifted and counted; and the rounds where several players answer
at once, each in private. Functions of the prompt builder (a PromptContext), registered by ask
kind in companion.prompts.registry."""

from __future__ import annotations

from companion.prompts import card_words
from companion.prompts.context import PromptContext
from companion.prompts.prompt import Choice, PrivatePick, Prompt, answers_now
from companion.words import N_, _, names
from engine.board.model import CASTILLO
from engine.primitives import Ask

# What a disc is for, by purpose: the general scoring's own, then the cards' (card_words); the
# English messages, translated where shown.
PURPOSES = {
    "castillo_destination": N_(
        "the region your Caballeros in the Castillo go to at this general scoring "
        "(the King's region sends them to your court)"
    ),
    **card_words.purposes(),
}
# Said on the public screen: what the discs are for, never anyone's pick.
PUBLIC_PURPOSES = card_words.public_purposes()


def secret_purpose(builder: PromptContext, ask: Ask, pid: str | None = None) -> str:
    """What a secret disc is for, in words, for the private pick screen (`pid`: its player)."""
    purpose = ask.options.get("purpose", "")
    words = builder.PURPOSES.get(purpose)
    words = _(words) if words else purpose.replace("_", " ")
    card = builder.board.cards.get(ask.card) if ask.card else None
    if card is not None:  # Civil War's numbers, Eviction's name: worded from the card (card_words)
        words = card_words.disc_words(card.effect, purpose, names.card(card.name), card.params) or words
    if purpose == "castillo_destination" and pid is not None and _grande_in_castillo(builder, pid):
        words = _("{purpose}; your Grande leaves the Castillo with them (never to the King's region)").format(
            purpose=words
        )
    return words


def _grande_in_castillo(builder: PromptContext, pid: str) -> bool:
    return any(p.get("id") == pid and p.get("grande") == CASTILLO for p in builder.public_view().get("players", []))


def secret_disc(builder: PromptContext, ask: Ask) -> Prompt:
    purpose = builder.PUBLIC_PURPOSES.get(ask.options["purpose"])
    purpose = _(purpose) if purpose else ask.options["purpose"].replace("_", " ")
    choices = [Choice(_("{who}: secret disc").format(who=builder.name(p)), action=f"secret:{p}") for p in ask.players]
    chosen = ask.options.get("chosen", [])
    hint = _("Waiting for {players} to set their disc, on their phone or here behind a private screen.").format(
        players=", ".join(builder.name(p) for p in ask.players)
    )
    if chosen:
        hint = _("{hint} Chosen: {players}.").format(hint=hint, players=", ".join(builder.name(p) for p in chosen))
    return Prompt(builder.title(ask, _("secret discs ({purpose})").format(purpose=purpose)), hint, choices=choices)


def secret_options(builder: PromptContext, ask: Ask, pid: str) -> list[tuple[str, str]]:
    """(region id, name) a player may set the disc to: for the private screen only."""
    return [(r, builder.area(r)) for r in ask.options["regions"][pid]]


def reveal_secret_discs(builder: PromptContext, ask: Ask) -> Prompt:
    if ask.options.get("castillo_stays"):
        rebellion = card_words.step_words("rebellion")  # the King beside the Castillo: no disc
        return Prompt(
            builder.title(ask, _(rebellion.titles["reveal_secret_discs"])),
            _(rebellion.hints["reveal_secret_discs"]),
            choices=[Choice(_("Open the Castillo"), action="open_castillo", style="primary")],
        )
    if ask.options["purpose"] == "castillo_destination":
        return Prompt(
            builder.title(ask, _("everyone has chosen")),
            _("Lift the Castillo: open it and check the count."),
            choices=[Choice(_("Open the Castillo"), action="open_castillo", style="primary")],
        )
    return Prompt(
        builder.title(ask, _("everyone has chosen")),
        _("All discs are turned up together."),
        choices=[Choice(_("Reveal the discs"), {"type": "secret_discs_revealed"}, style="primary")],
    )


def count_castillo_prompt(builder: PromptContext, ask: Ask) -> Prompt:
    """The Castillo scoring card's first step: lift the Castillo and count, then it is scored."""
    pid = ask.players[0]
    return Prompt(
        builder.title(ask, _("{who} scores the Castillo").format(who=builder.name(pid))),
        _("Lift the Castillo: open it and check the count; then it is scored (a Veto may still stop it)."),
        actor=pid,
        choices=[Choice(_("Open the Castillo"), action="open_castillo", style="primary")],
    )


def lift_castillo(builder: PromptContext, ask: Ask) -> Prompt:
    """The Castillo scoring card, announced and let pass by every Veto holder: only now is the
    Castillo lifted and counted (the tower's count, checked), then scored."""
    pid = ask.players[0]
    return Prompt(
        builder.title(ask, _("{who} scores the Castillo").format(who=builder.name(pid))),
        _("{card}: nobody stops it. Lift the Castillo: open it and check the count; then it is scored.").format(
            card=builder.card(ask.card)
        ),
        actor=pid,
        choices=[Choice(_("Open the Castillo"), action="open_castillo", style="primary")],
    )


def count_castillo(builder: PromptContext, ask: Ask) -> Prompt:
    return Prompt(
        builder.title(ask, _("everyone has chosen")),
        _("Lift the Castillo: open it and check the count."),
        choices=[Choice(_("Open the Castillo"), action="open_castillo", style="primary")],
    )


def private_round(builder: PromptContext, ask: Ask, what: str, title: str) -> Prompt:
    """Several players answer at once, each in private: on their phone, or here behind the
    private screen. Only who is still to answer is shown."""
    choices = [Choice(_("{who}: in private").format(who=builder.name(p)), action=f"private:{p}") for p in ask.players]
    chosen = ask.options.get("chosen", [])
    # Translators: {what} is what they do ("choose the Power cards you keep")
    hint = _("{players}: {what}, on your phone or here behind a private screen.").format(
        players=", ".join(builder.name(p) for p in ask.players), what=what
    )
    if chosen:
        hint = _("{hint} Done: {players}.").format(hint=hint, players=", ".join(builder.name(p) for p in chosen))
    return Prompt(builder.title(ask, title), hint, choices=choices)


def secret_disc_pick(builder: PromptContext, ask: Ask, pid: str) -> PrivatePick | None:
    """The region `pid` sets their disc to (changed until everyone has chosen)."""
    regions = (ask.options.get("regions") or {}).get(pid)
    if not answers_now(ask, pid, may_change=True) or regions is None:
        return None
    return PrivatePick(
        pid,
        ask.kind,
        _("Your secret disc"),
        _("Set your disc to {purpose}.").format(purpose=secret_purpose(builder, ask, pid)),
        [(r, builder.area(r)) for r in regions],
    )
