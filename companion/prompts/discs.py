"""Secret discs and the scorings they serve: what a disc is for, in words; who is still to set
theirs; the reveal; the Castillo lifted and counted; and the rounds where several players answer
at once, each in private. Functions of the prompt builder (a PromptContext), registered by ask
kind in companion.prompts.registry."""

from __future__ import annotations

from companion.prompts import card_words
from companion.prompts.context import PromptContext
from companion.prompts.prompt import Choice, PrivatePick, Prompt, answers_now
from engine.board.model import CASTILLO
from engine.primitives import Ask

# What a disc is for, by purpose: the general scoring's own, then the cards' (card_words).
PURPOSES = {
    "castillo_destination": "the region your Caballeros in the Castillo go to at this general scoring "
    "(the King's region sends them to your court)",
    **card_words.purposes(),
}
# Said on the public screen: what the discs are for, never anyone's pick.
PUBLIC_PURPOSES = card_words.public_purposes()


def secret_purpose(builder: PromptContext, ask: Ask, pid: str | None = None) -> str:
    """What a secret disc is for, in words, for the private pick screen (`pid`: its player)."""
    purpose = ask.options.get("purpose", "")
    words = builder.PURPOSES.get(purpose, purpose.replace("_", " "))
    card = builder.board.cards.get(ask.card) if ask.card else None
    if card is not None:  # Civil War's numbers, Eviction's name: worded from the card (card_words)
        words = card_words.disc_words(card.effect, purpose, card.name, card.params) or words
    if purpose == "castillo_destination" and pid is not None and _grande_in_castillo(builder, pid):
        words += "; your Grande leaves the Castillo with them (never to the King's region)"
    return words


def _grande_in_castillo(builder: PromptContext, pid: str) -> bool:
    return any(p.get("id") == pid and p.get("grande") == CASTILLO for p in builder.public_view().get("players", []))


def secret_disc(builder: PromptContext, ask: Ask) -> Prompt:
    purpose = builder.PUBLIC_PURPOSES.get(ask.options["purpose"], ask.options["purpose"].replace("_", " "))
    choices = [Choice(f"{builder.name(p)}: secret disc", action=f"secret:{p}") for p in ask.players]
    chosen = ask.options.get("chosen", [])
    done = f" Chosen: {', '.join(builder.name(p) for p in chosen)}." if chosen else ""
    return Prompt(
        builder.title(ask, f"secret discs ({purpose})"),
        f"Waiting for {', '.join(builder.name(p) for p in ask.players)} to set their disc, on their "
        f"phone or here behind a private screen.{done}",
        choices=choices,
    )


def secret_options(builder: PromptContext, ask: Ask, pid: str) -> list[tuple[str, str]]:
    """(region id, name) a player may set the disc to: for the private screen only."""
    return [(r, builder.area(r)) for r in ask.options["regions"][pid]]


def reveal_secret_discs(builder: PromptContext, ask: Ask) -> Prompt:
    if ask.options.get("castillo_stays"):
        rebellion = card_words.step_words("rebellion")  # the King beside the Castillo: no disc
        return Prompt(
            builder.title(ask, rebellion.titles["reveal_secret_discs"]),
            rebellion.hints["reveal_secret_discs"],
            choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
        )
    if ask.options["purpose"] == "castillo_destination":
        return Prompt(
            builder.title(ask, "everyone has chosen"),
            "Lift the Castillo: open it and check the count.",
            choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
        )
    return Prompt(
        builder.title(ask, "everyone has chosen"),
        "All discs are turned up together.",
        choices=[Choice("Reveal the discs", {"type": "secret_discs_revealed"}, style="primary")],
    )


def count_castillo_prompt(builder: PromptContext, ask: Ask) -> Prompt:
    """The Castillo scoring card's first step: lift the Castillo and count, then it is scored."""
    pid = ask.players[0]
    return Prompt(
        builder.title(ask, f"{builder.name(pid)} scores the Castillo"),
        "Lift the Castillo: open it and check the count; then it is scored (a Veto may still stop it).",
        actor=pid,
        choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
    )


def lift_castillo(builder: PromptContext, ask: Ask) -> Prompt:
    """The Castillo scoring card, announced and let pass by every Veto holder: only now is the
    Castillo lifted and counted (the tower's count, checked), then scored."""
    pid = ask.players[0]
    return Prompt(
        builder.title(ask, f"{builder.name(pid)} scores the Castillo"),
        f"{builder.card(ask.card)}: nobody stops it. Lift the Castillo: open it and check the count; "
        "then it is scored.",
        actor=pid,
        choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
    )


def count_castillo(builder: PromptContext, ask: Ask) -> Prompt:
    return Prompt(
        builder.title(ask, "everyone has chosen"),
        "Lift the Castillo: open it and check the count.",
        choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
    )


def private_round(builder: PromptContext, ask: Ask, what: str, title: str) -> Prompt:
    """Several players answer at once, each in private: on their phone, or here behind the
    private screen. Only who is still to answer is shown."""
    choices = [Choice(f"{builder.name(p)}: in private", action=f"private:{p}") for p in ask.players]
    chosen = ask.options.get("chosen", [])
    done = f" Done: {', '.join(builder.name(p) for p in chosen)}." if chosen else ""
    return Prompt(
        builder.title(ask, title),
        f"{', '.join(builder.name(p) for p in ask.players)}: {what}, on your "
        f"phone or here behind a private screen.{done}",
        choices=choices,
    )


def secret_disc_pick(builder: PromptContext, ask: Ask, pid: str) -> PrivatePick | None:
    """The region `pid` sets their disc to (changed until everyone has chosen)."""
    regions = (ask.options.get("regions") or {}).get(pid)
    if not answers_now(ask, pid, may_change=True) or regions is None:
        return None
    return PrivatePick(
        pid,
        ask.kind,
        "Your secret disc",
        "Set your disc to " + secret_purpose(builder, ask, pid) + ".",
        [(r, builder.area(r)) for r in regions],
    )
