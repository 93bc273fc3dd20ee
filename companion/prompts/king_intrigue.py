"""King and Intrigue at the table: its prompts and words, built from the engine's asks (no Kivy).

`KIPromptBuilder` is the tablet's PromptBuilder for a King and Intrigue game
(`Table.prompt_builder` picks it): the same prompts as the other rule sets where the round is
the base game's, and these where the expansion differs:

- setup: the secret disc for the setup Caballero (what it is for, in words), then each player
  keeps 13 of their 18 Power cards in secret: on their phone, or on the tablet behind the
  private screen, by tapping the cards they leave OUT (5 taps + Confirm, not 13);
- the power phase: one tap per player on the value laid down, from the values of the card set
  in play (never a player's kept hand: it is secret); values everyone knows are gone greyed out;
- the turn: no Action card to take (it came by rank): one tap takes the Power card's
  Caballeros to the court; the round's panel says who holds which Action card and why
  ("170, the highest Power card: the King's Card, places 5"); with 2-3 players the King's Card
  and Intrigue card holders choose between the card's action and their Power card's, in words;
- the expansion's steps: Revolt's scoreboard turned, the 2x marker, Alliance, Relocate,
  Field Day's discs, the three special scorings, into the Castillo, placement anywhere.

Every ready-made input is one the engine accepts (tests/companion/table/test_authority_king_intrigue.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.prompts import card_words, discs, special, turn
from companion.prompts.builder import PromptBuilder
from companion.prompts.prompt import Choice, PrivatePick, Prompt
from companion.prompts.registry import PRIVATE_PICKS, PROMPTS
from companion.table_rules.ki_box_table import ACTION_NAMES, SCORINGS
from companion.words import N_, _, names, ngettext
from engine.primitives import Ask
from engine.rules.king_intrigue.round import _by_rank

HAND_KIND = "choose_power_cards"
STAGE_WORDS = {
    "ki_setup_discs": N_("setup"),
    "ki_choose_hand": N_("setup: Power cards"),
    "ki_bridge": N_("the bridge"),
    "ki_spy": N_("the spy before the general scoring"),
    "ki_spy_special": N_("the spy before the scoring"),
}
# What a region asked for is for: the setup's own, then the cards' (companion.prompts.card_words).
PURPOSES = {
    "setup_caballero": N_(
        "the region where your first Caballero goes from the province (not the King's region); "
        "everyone's disc is revealed together"
    ),
    **card_words.purposes(king_intrigue=True),
}
PUBLIC_PURPOSES = {"setup_caballero": N_("the setup Caballero"), **card_words.public_purposes(king_intrigue=True)}
SCOREBOARD_WORDS = {"8-4-0": N_("the 8-4-0 scoreboard"), "4-0-0": N_("the 4-0-0 scoreboard")}


@dataclass
class KIPrivatePick(PrivatePick):
    """The 13-of-18 choice: the player taps the fewer of the cards they leave out (18: 5 taps)
    and those they keep (with the modules' cards, 13 of 28); the event names the kept."""

    keeps: bool = False  # the values tapped are the cards kept (else those left out)

    def event(self, values: list[str]) -> dict:
        if self.kind != HAND_KIND:
            return super().event(values)
        values = list(values)
        offered = {v for v, _ in self.options}
        if len(values) != self.count or len(set(values)) != len(values):
            words = (
                ngettext(
                    "keep {n} different Power card, not {given}",
                    "keep {n} different Power cards, not {given}",
                    self.count,
                )
                if self.keeps
                else ngettext(
                    "leave out {n} different Power card, not {given}",
                    "leave out {n} different Power cards, not {given}",
                    self.count,
                )
            )
            raise ValueError(words.format(n=self.count, given=len(values)))
        wrong = [v for v in values if v not in offered]
        if wrong:
            raise ValueError(_("{value} is not one of your Power cards").format(value=repr(wrong[0])))
        kept = sorted(int(v) for v, _ in self.options if (v in values) == self.keeps)
        return {"type": "power_cards_chosen", "player": self.player, "cards": kept}


def held_words(builder: KIPromptBuilder) -> list[str]:
    """Who holds which Action card this round and why, from the public view (once every
    Power card is down): "Red played 170, the highest: King's Card (places 5)"."""
    public = builder.public_view()
    players = public.get("players", [])
    played = tuple(p.get("power_card_played") for p in players)
    held = public.get("action_cards_held") or {}
    if not held or any(v is None for v in played):
        return []
    row = builder.board.ki_cards.placements.get(len(players))
    if row is None or any(x is None for x in row):
        return []
    ranks = _by_rank(played, tuple(row))
    order = sorted(range(len(players)), key=lambda q: -played[q])
    out = []
    for i, q in enumerate(order):
        card, places = ranks[q]
        why = _("the highest") if i == 0 else _("the lowest") if i == len(order) - 1 else _("rank {n}").format(n=i + 1)
        name = ACTION_NAMES.get(card)
        # Translators: "Red: 170 King's Card, the highest: King's Card (places 5)"
        out.append(
            _("{who}: {power}, {why}: {card} (places {places})").format(
                who=builder.name(players[q]["id"]),
                power=builder.power_label(played[q]),
                why=why,
                card=_(name) if name else card,
                places=places,
            )
        )
    return out


def option_words(builder: KIPromptBuilder, option: str, ask: Ask) -> str:
    if option == "power_card":
        card = builder.board.cards.get(ask.card)
        value = getattr(card, "id", "").removeprefix("ki_")
        action = names.card(card.name) if card else _("its action")
        if value.isdigit():
            return _("Power card {value}: {action}").format(value=value, action=action)
        return _("Power card: {action}").format(action=action)
    return card_words.option_words(option)


def choose_power_cards(builder: KIPromptBuilder, ask: Ask) -> Prompt:
    o = ask.options
    prompt = discs.private_round(
        builder,
        ask,
        _("keep {n} of your {total} Power cards; nobody sees them").format(n=o["keep"], total=len(o["cards"])),
        _("Power cards kept"),
    )
    prompt.opens_private = True  # one sheet after another: no tap to open the next player's
    return prompt


def play_power_card(builder: KIPromptBuilder, ask: Ask) -> Prompt:
    pid = ask.players[0]
    # The hand is secret: every value of the set in play is offered but what everyone
    # knows is gone (played this round, laid down by this player before); the engine
    # refuses any other card not held.
    gone = set(ask.options.get("unavailable", ()))
    gone |= {p.get("power_card_played") for p in builder.public_view().get("players", [])} - {None}
    values = sorted(builder.board.ki_cards.by_value(builder.modules_in_play()))
    choices = [
        Choice(
            builder.power_label(v),
            {"type": "power_card_played", "player": pid, "card": v},
            enabled=v not in gone,
            why_not=builder.power_gone_words(pid, v) if v in gone else "",
        )
        for v in values
    ]
    why = builder.why_in_private(pid)  # a card refused: why, behind the private screen
    choices += [why] if why else []
    who = builder.name(pid)
    if ask.options.get("after_joker"):
        return Prompt(
            builder.title(ask, _("{who} plays a second card (Joker)").format(who=who)),
            _(
                "{who} played the Joker: now they lay down a second Power card, not a number "
                "played this round; it takes its place in the order by its value. Tap it."
            ).format(who=who),
            actor=pid,
            choices=choices,
            columns=3,
        )
    return Prompt(
        builder.title(ask, _("{who} plays next").format(who=who)),
        _(
            "{who}: tap the Power card you laid down. The highest takes the King's Card, the lowest the Intrigue card."
        ).format(who=who),
        actor=pid,
        choices=choices,
        columns=3,
    )


def replenish(builder: KIPromptBuilder, ask: Ask) -> Prompt:
    pid = ask.players[0]
    most = ask.options.get("max", 0)
    who = builder.name(pid)
    holds = _held(ask)
    full = {"type": "court_replenished", "player": pid, "from_provinces": most, "from_regions": {}}
    choices = [
        Choice(
            _("Take {n} to the court").format(n=most) if most else _("Nothing to take: go on"), full, style="primary"
        ),
        Choice(_("Other replenishment: fewer, or from the board"), action="replenish_custom", style="quiet"),
    ]
    if ask.options.get("provinces", most) < most:
        choices[0].enabled = False  # the provinces run short: from the board (the custom entry)
        left = ask.options.get("provinces", 0)
        choices[0].why_not = ngettext(
            "Only {n} of {who}'s Caballeros is left in the provinces: take the rest from the board"
            " (Other replenishment)",
            "Only {n} of {who}'s Caballeros are left in the provinces: take the rest from the board"
            " (Other replenishment)",
            left,
        ).format(n=left, who=who)
    return Prompt(
        builder.title(
            ask,
            _("{who} holds the {card}").format(who=who, card=holds)
            if holds
            else _("{who} replenishes").format(who=who),
        ),
        ngettext(
            "{who}: {n} Caballero from the provinces to the court as the Power card shows (fewer allowed).",
            "{who}: {n} Caballeros from the provinces to the court as the Power card shows (fewer allowed).",
            most,
        ).format(who=who, n=most),
        actor=pid,
        choices=choices,
        notes=held_words(builder),
    )


def turn_action(builder: KIPromptBuilder, ask: Ask, prefill_castillo: int = 0) -> Prompt:
    prompt = turn.turn_action(builder, ask, prefill_castillo)
    special = ask.options.get("special") or {}
    pid = ask.players[0]
    options = special.get("options")
    if options and not special.get("refused"):
        place = bool(ask.options.get("place"))
        keep = [
            c
            for c in prompt.choices
            if c.event is None and not c.events and c.action != "count_castillo" and c.action is not None
        ]
        skip = [c for c in prompt.choices if (c.event or {}).get("type") == "special_action_skipped"]
        made = [
            Choice(
                option_words(builder, o, ask),
                {"type": "special_action_started", "player": pid, "option": o},
                places_first=place,
            )
            for o in options
        ]
        prompt.choices = keep + made + skip
        if turn.nothing_placeable(ask):  # an empty court: each action ends the turn (or "then place")
            prompt.choices = turn.nothing_placed_first(prompt.choices, pid)
        either = _("choose one action: the Action card's or your Power card's")
        prompt.hint = prompt.hint.replace(_(turn.SPECIAL_HINT), either)
    holds, card = _held(ask), builder.card(ask.card)
    if holds and card != holds:
        prompt.title = builder.title(
            ask, _("{who} ({holds}) plays {card}").format(who=builder.name(pid), holds=holds, card=card)
        )
    prompt.hint = prompt.hint.replace("; or You may ", "; or you may ")
    prompt.notes = held_words(builder) + prompt.notes
    return prompt


def turn_scoreboard(builder: KIPromptBuilder, ask: Ask) -> Prompt:
    pid = ask.players[0]
    reversed_ = set(ask.options.get("reversed", ()))
    side = {
        s: _("Turn {scoreboard} back to its front")
        if s in reversed_
        else _("Turn {scoreboard} to its reversed side (the fewest score first)")
        for s in ask.options["scoreboards"]
    }
    choices = [
        Choice(
            side[s].format(scoreboard=_(SCOREBOARD_WORDS[s]) if s in SCOREBOARD_WORDS else s),
            {"type": "scoreboard_turned", "player": pid, "scoreboard": s},
            style="primary",
        )
        for s in ask.options["scoreboards"]
    ]
    return Prompt(
        builder.title(ask, _("{who} turns a mobile scoreboard").format(who=builder.name(pid))),
        _("{card}: which scoreboard is turned over?").format(card=builder.card(ask.card)),
        actor=pid,
        choices=choices,
    )


def bridge_crossing(builder: KIPromptBuilder, ask: Ask) -> Prompt:
    """Bridge Construction: before the owner's turn, Caballeros of theirs cross freely."""
    pid = ask.players[0]
    first, second = ask.options["regions"]
    counts = ask.options["counts"]
    choices = [
        Choice(
            _("{n} from {source} to {target}").format(n=n, source=builder.area(src), target=builder.area(dst)),
            {"type": "caballeros_moved", "player": pid, "owner": pid, "source": src, "target": dst, "count": n},
        )
        for src, dst in ((first, second), (second, first))
        for n in range(1, counts.get(src, 0) + 1)
    ]
    choices.append(Choice(_("No crossing: go on"), {"type": "special_action_finished", "player": pid}, style="primary"))
    return Prompt(
        builder.title(ask, _("{who} may cross the bridge").format(who=builder.name(pid))),
        _(
            "{who}'s bridge joins {first} and {second}: move Caballeros of yours across before the turn, or go on."
        ).format(who=builder.name(pid), first=builder.area(first), second=builder.area(second)),
        actor=pid,
        choices=choices,
        columns=2,
    )


def spy_move(builder: KIPromptBuilder, ask: Ask) -> Prompt:
    """Espionage: before a scoring, the spy on the card may join a region."""
    pid = ask.players[0]
    return Prompt(
        builder.title(ask, _("{who}'s spy").format(who=builder.name(pid))),
        _(
            "{who}: tap the region the spy on Espionage joins before the scoring (not the "
            "Castillo nor the King's region), or keep it on the card."
        ).format(who=builder.name(pid)),
        actor=pid,
        map_mode="pick",
        areas=list(ask.options["regions"]),
        on_area=lambda r: {"type": "region_chosen", "player": pid, "region": r},
        choices=[
            Choice(_("The spy stays on the card"), {"type": "special_action_skipped", "player": pid}, style="quiet")
        ],
    )


def remove_token(builder: KIPromptBuilder, ask: Ask) -> Prompt:
    pid = ask.players[0]
    choices = [
        Choice(
            _("Remove {token}").format(token=card_words.tokens().get(t, t.replace("_", " "))),
            {"type": "token_removed", "player": pid, "token": t},
            style="primary",
        )
        for t in ask.options["tokens"]
    ]
    return Prompt(
        builder.title(ask, _("{who} removes a token").format(who=builder.name(pid))),
        _("{card}: which token goes?").format(card=builder.card(ask.card)),
        actor=pid,
        choices=choices,
    )


def choose_region(builder: KIPromptBuilder, ask: Ask) -> Prompt:
    prompt = special.choose_region(builder, ask)
    purpose = ask.options.get("purpose", "")  # Civil War: King and Intrigue's card, a region, not a disc
    if purpose in PURPOSES:
        card = builder.card(ask.card)
        words = _(PURPOSES[purpose]).removeprefix(_("{card}: {text}").format(card=card, text=""))  # named once
        prompt.hint = _("{card}: tap {purpose}.").format(card=card, purpose=words)
    return prompt


def power_cards_kept_pick(builder: KIPromptBuilder, ask: Ask, pid: str) -> PrivatePick | None:
    """The 13 Power cards `pid` keeps for the game, chosen in private."""
    if pid not in ask.players:
        return None  # chosen: the rest have left the game unseen
    o = ask.options
    keep, leave = o["keep"], len(o["cards"]) - o["keep"]
    options = [(str(v), builder.power_label(v)) for v in o["cards"]]
    if leave > keep:  # the modules' cards too: tapping the kept is fewer taps
        return KIPrivatePick(
            pid,
            HAND_KIND,
            _("Keep {n} Power cards").format(n=keep),
            _("Tap the {n} Power cards you KEEP for the game; the other {left} leave it unseen.").format(
                n=keep, left=leave
            ),
            options,
            count=keep,
            keeps=True,
        )
    return KIPrivatePick(
        pid,
        HAND_KIND,
        _("Keep {n} Power cards").format(n=keep),
        _(
            "Tap the {left} Power cards you leave OUT of the game (they leave unseen); you play with the other {n}."
        ).format(n=keep, left=leave),
        options,
        count=leave,
    )


KI_PROMPTS = {
    **PROMPTS,
    "choose_power_cards": choose_power_cards,
    "play_power_card": play_power_card,
    "replenish": replenish,
    "turn_action": turn_action,
    "choose_region": choose_region,
    "turn_scoreboard": turn_scoreboard,
    "bridge_crossing": bridge_crossing,
    "spy_move": spy_move,
    "remove_token": remove_token,
}
KI_PRIVATE_PICKS = {**PRIVATE_PICKS, HAND_KIND: power_cards_kept_pick}


class KIPromptBuilder(PromptBuilder):
    """The tablet's prompts for a King and Intrigue game (see the module's docstring)."""

    prompts = KI_PROMPTS
    private_picks = KI_PRIVATE_PICKS
    PURPOSES = {**PromptBuilder.PURPOSES, **PURPOSES}
    PUBLIC_PURPOSES = {**PromptBuilder.PUBLIC_PURPOSES, **PUBLIC_PURPOSES}
    _modules_hint: tuple = ()

    def title(self, ask: Ask, doing: str) -> str:
        stage = STAGE_WORDS.get(ask.stage)
        if stage is None:
            return super().title(ask, doing)
        return _("Round {round} - {stage} - {doing}").format(round=ask.round, stage=_(stage), doing=doing)

    def placing_card(self, ask: Ask) -> str:
        """The Action card held by rank places the Caballeros ("the King's Card"), not the Power card."""
        holds = _held(ask)
        return _("the {card}").format(card=holds) if holds else super().placing_card(ask)

    def modules_in_play(self) -> tuple:
        return tuple(self.public_view().get("modules") or self._modules_hint)

    def power_label(self, value: int) -> str:
        """ "60 Scores all "4" regions": the scoring cards by which scoring the table's set says."""
        card = self.board.ki_cards.by_value(self.modules_in_play()).get(value)
        if card is None:
            return str(value)
        if card.name == "Special scoring":
            for effect, params, words in SCORINGS:
                if effect == card.effect and all(card.params.get(k) == v for k, v in params.items()):
                    return _("{value} Scores {what}").format(value=value, what=_(words))
        return _("{value} {card}").format(value=value, card=names.card(card.name))


def _held(ask: Ask) -> str:
    """The Action card the player holds by rank ("King's Card"), in the table's words; "" if none."""
    name = ACTION_NAMES.get(ask.options.get("action_card", ""), "")
    return _(name) if name else ""
