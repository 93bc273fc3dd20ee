"""The special actions' prompts: Caballeros moved or sent back, a region chosen, the King and the
Grandes moved, the mobile scoreboards and Scoring tiles placed, a Power card taken back, and the
special scorings of a scoring-only table. Functions of the prompt builder (a PromptContext),
registered by ask kind in companion.prompts.registry."""

from __future__ import annotations

from companion.prompts import card_words, modules_2023
from companion.prompts.context import PromptContext
from companion.prompts.prompt import MODIFIER_PREFIX, Choice, PrivatePick, Prompt
from companion.words import _, ngettext
from engine.board.model import CASTILLO
from engine.primitives import Ask


def move_caballeros(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    o = ask.options
    prompt = Prompt(
        builder.title(ask, _("{who} moves Caballeros").format(who=builder.name(pid))),
        _("{card}: tap a region to take from, then where it goes ({n} left).").format(
            card=builder.card(ask.card), n=o["left"]
        ),
        actor=pid,
        map_mode="move",
        sources=o["sources"],
        areas=list(o["targets"]),
    )
    prompt.on_move = lambda source, target, owner=None: {
        "type": "caballeros_moved",
        "player": pid,
        "owner": owner or pid,
        "source": source,
        "target": target,
        "count": 1,
    }
    if o.get("can_finish"):
        prompt.choices.append(Choice(_("Finished moving"), {"type": "special_action_finished", "player": pid}))
    return prompt


def send_back(builder: PromptContext, ask: Ask) -> Prompt:
    chooser = ask.players[0]
    owner, opts = next(iter(ask.options["owners"].items()))
    count = opts["count"]
    # The King is Angry: each sends back their own; a name said once, however long
    own, who, card = owner == chooser, builder.name(owner), builder.card(ask.card) or _("The card")
    if own:
        title = _("{who} sends their own Caballeros back").format(who=builder.name(chooser))
        full = ngettext(
            "{card}: {n} of their own Caballeros go back", "{card}: {n} of their own Caballeros go back", count
        )
        hint = (
            ngettext(
                "Tap {n} of their own Caballeros to send to the provinces (from regions or the court), then Confirm.",
                "Tap {n} of their own Caballeros to send to the provinces (from regions or the court), then Confirm.",
                count,
            )
            if opts["court"]
            else ngettext(
                "Tap {n} of their own Caballeros to send to the provinces (from regions), then Confirm.",
                "Tap {n} of their own Caballeros to send to the provinces (from regions), then Confirm.",
                count,
            )
        )
    else:
        title = _("{chooser} sends {who}'s Caballeros back").format(chooser=builder.name(chooser), who=who)
        full = ngettext("{card}: {n} of {who}'s Caballeros go back", "{card}: {n} of {who}'s Caballeros go back", count)
        hint = (
            ngettext(
                "Tap {n} of {who}'s Caballeros to send to the provinces (from regions or the court), then Confirm.",
                "Tap {n} of {who}'s Caballeros to send to the provinces (from regions or the court), then Confirm.",
                count,
            )
            if opts["court"]
            else ngettext(
                "Tap {n} of {who}'s Caballeros to send to the provinces (from regions), then Confirm.",
                "Tap {n} of {who}'s Caballeros to send to the provinces (from regions), then Confirm.",
                count,
            )
        )
    return Prompt(
        builder.title(ask, title),
        hint.format(n=count, who=who),
        actor=chooser,
        map_mode="count",
        areas=list(opts["regions"]),
        limit=count,
        full=full.format(card=card, n=count, who=who),
        steppers={"__court__": (_("from the court"), 0, opts["court"])} if opts["court"] else {},
        on_counts=lambda counts: {
            "type": "caballeros_sent_back",
            "player": chooser,
            "owner": owner,
            "from_court": counts.pop("__court__", 0),
            "from_regions": {a: c for a, c in counts.items() if c},
        },
    )


def choose_region(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    purpose = ask.options["purpose"].replace("_", " ")
    return Prompt(
        builder.title(ask, _("{who} chooses a region").format(who=builder.name(pid))),
        _("{card}: tap the region ({purpose}).").format(card=builder.card(ask.card), purpose=purpose),
        actor=pid,
        map_mode="pick",
        areas=list(ask.options["regions"]),
        on_area=lambda a: {"type": "region_chosen", "player": pid, "region": a},
    )


def place_mobile_scoreboard(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    moves = ask.options["moves"]
    prompt = Prompt(
        builder.title(ask, _("{who} places a mobile scoreboard").format(who=builder.name(pid))),
        _("Choose the scoreboard, then tap where it goes."),
        actor=pid,
    )
    prompt.choices = [Choice(_("Scoreboard {values}").format(values=sid), action=f"mobile:{sid}") for sid in moves]
    return prompt


def mobile_prompt(builder: PromptContext, ask: Ask, sid: str) -> Prompt:
    pid = ask.players[0]
    if ask.kind == "place_scoring_tile":
        return Prompt(
            builder.title(ask, _("{who} places {piece}").format(who=builder.name(pid), piece=builder.piece(sid))),
            _("Tap the Scoring board it goes on (a region or the Castillo, not the King's)."),
            actor=pid,
            map_mode="pick",
            areas=list(ask.options["moves"][sid]),
            on_area=lambda a: {"type": "scoring_tile_placed", "player": pid, "tile": sid, "area": a},
        )
    return Prompt(
        builder.title(ask, _("{who} places scoreboard {values}").format(who=builder.name(pid), values=sid)),
        _("Tap where it goes."),
        actor=pid,
        map_mode="pick",
        areas=list(ask.options["moves"][sid]),
        on_area=lambda a: {"type": "mobile_scoreboard_placed", "player": pid, "scoreboard": sid, "area": a},
    )


def place_scoring_tile(builder: PromptContext, ask: Ask) -> Prompt:
    """Enactment: one of the two Scoring tiles onto a free Scoring board (or moved)."""
    pid = ask.players[0]
    moves = ask.options["moves"]
    if len(moves) == 1:
        return mobile_prompt(builder, ask, next(iter(moves)))
    prompt = Prompt(
        builder.title(ask, _("{who} places a Scoring tile").format(who=builder.name(pid))),
        _("Choose the Scoring tile, then tap the Scoring board it goes on."),
        actor=pid,
    )
    prompt.choices = [
        Choice(builder.piece(tid)[0].upper() + builder.piece(tid)[1:], action=f"mobile:{tid}") for tid in moves
    ]
    return prompt


def place_anywhere(builder: PromptContext, ask: Ask) -> Prompt:
    """Militia: exactly `count` Caballeros from the court to any regions but the King's."""
    pid = ask.players[0]
    n = ask.options["count"]
    return Prompt(
        builder.title(ask, _("{who} places {card}").format(who=builder.name(pid), card=builder.card(ask.card))),
        ngettext(
            "{card}: tap regions (any but the King's; not the Castillo) to place {n} Caballero from the court.",
            "{card}: tap regions (any but the King's; not the Castillo) to place {n} Caballeros from the court.",
            n,
        ).format(card=builder.card(ask.card), n=n),
        actor=pid,
        map_mode="count",
        areas=list(ask.options["areas"]),
        limit=n,
        auto_confirm=True,
        on_counts=lambda counts: {
            "type": "extra_caballeros_placed",
            "player": pid,
            "placements": {a: c for a, c in counts.items() if c},
        },
    )


def move_king_with_entourage(builder: PromptContext, ask: Ask) -> Prompt:
    """Entourage: the King and `count` Caballeros of his region move in one step. When who
    goes with him leaves no choice, one tap on the new region; else choose the group first."""
    pid = ask.players[0]
    splits = _entourage_splits(builder, ask)
    if len(splits) <= 1:
        return entourage_prompt(builder, ask, splits[0] if splits else {})
    prompt = Prompt(
        builder.title(ask, _("{who} moves the King with his entourage").format(who=builder.name(pid))),
        ngettext(
            "{card}: {n} Caballero of {region} goes with the King. Whose? Then tap the King's new region.",
            "{card}: {n} Caballeros of {region} go with the King. Whose? Then tap the King's new region.",
            ask.options["count"],
        ).format(card=builder.card(ask.card), n=ask.options["count"], region=builder.area(ask.options["from"])),
        actor=pid,
    )
    prompt.choices = [
        Choice(_split_words(builder, split), action="sub:entourage:" + _split_key(split)) for split in splits
    ]
    return prompt


def _entourage_splits(builder: PromptContext, ask: Ask) -> list[dict[str, int]]:
    """Every way `count` of the eligible Caballeros can go (owner -> how many)."""
    due, pools = ask.options["count"], list(ask.options["caballeros"].items())
    out: list[dict[str, int]] = []

    def walk(i: int, left: int, taken: dict[str, int]) -> None:
        if not left:
            out.append({k: v for k, v in taken.items() if v})
            return
        if i == len(pools):
            return
        owner, have = pools[i]
        for k in range(min(have, left), -1, -1):
            walk(i + 1, left - k, {**taken, owner: k})

    walk(0, due, {})
    return out


def _split_words(builder: PromptContext, split: dict[str, int]) -> str:
    # Translators: "2 of Ana's and 1 of Bo's" (Caballeros that go with the King)
    return _(" and ").join(_("{n} of {who}'s").format(n=c, who=builder.name(p)) for p, c in split.items()) or _(
        "nobody"
    )


def _going_words(builder: PromptContext, split: dict[str, int]) -> str:
    """Whose Caballeros go with the King, as a sentence's subject and verb."""
    parts = [_("{n} of {who}'s").format(n=c, who=builder.name(p)) for p, c in split.items() if c]
    if not parts:
        return _("no Caballero goes")
    total = sum(split.values())
    return ngettext("{whose} Caballero goes", "{whose} Caballeros go", total).format(whose=_(" and ").join(parts))


def entourage_prompt(builder: PromptContext, ask: Ask, split: dict[str, int]) -> Prompt:
    pid = ask.players[0]
    going = _going_words(builder, split)
    return Prompt(
        builder.title(ask, _("{who} moves the King with his entourage").format(who=builder.name(pid))),
        # Translators: {going} is "2 of Ana's and 1 of Bo's Caballeros go"
        _("{card}: tap the King's new region; {going} with him from {region}.").format(
            card=builder.card(ask.card), going=going, region=builder.area(ask.options["from"])
        ),
        actor=pid,
        map_mode="pick",
        areas=list(ask.options["regions"]),
        on_area=lambda a: {"type": "entourage_moved", "player": pid, "region": a, "caballeros": dict(split)},
    )


def swap_pieces(builder: PromptContext, ask: Ask) -> Prompt:
    """Stand-in: one button per swap the card allows now."""
    pid = ask.players[0]
    choices = []
    for pair in ask.options["pairs"]:
        pieces = ([_("the King")] if pair["king"] else []) + [
            _("{who}'s Grande").format(who=builder.name(q)) for q in pair["grandes"]
        ]
        label = (
            _("Swap {first} and {second}").format(first=pieces[0], second=pieces[1])
            if len(pieces) == 2
            else _("Swap {pieces}").format(pieces=_(" and ").join(pieces))
        )
        choices.append(
            Choice(
                label[0].upper() + label[1:],
                {"type": "pieces_swapped", "player": pid, "king": pair["king"], "grandes": pair["grandes"]},
            )
        )
    return Prompt(
        builder.title(ask, _("{who} swaps two pieces").format(who=builder.name(pid))),
        _("{card}: which two pieces change places?").format(card=builder.card(ask.card)),
        actor=pid,
        choices=choices,
    )


def take_back_power_card(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    # Power Shift: a played Modifier card may come back instead (the private pick offers both).
    action = f"private:{pid}" if builder.modifiers else f"powerback:{pid}"
    return Prompt(
        builder.title(ask, _("{who} takes back a Power card").format(who=builder.name(pid))),
        _("Secret: the card goes back to the hand unseen."),
        actor=pid,
        choices=[Choice(_("{who} picks here").format(who=builder.name(pid)), action=action)],
        private_for=pid,
    )


def power_back_choices(builder: PromptContext, ask: Ask) -> list[Choice]:
    pid = ask.players[0]
    return [Choice(str(c), {"type": "power_card_taken_back", "player": pid, "card": c}) for c in ask.options["cards"]]


def move_grande(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    areas = list(ask.options["regions"])
    make = lambda a: {"type": "grande_moved", "player": pid, "region": a}
    prompt = Prompt(
        builder.title(ask, _("{who} moves their Grande").format(who=builder.name(pid))),
        _("Tap the Grande's new region."),
        actor=pid,
        map_mode="pick",
        areas=areas,
        on_area=make,
    )
    if areas == [CASTILLO]:  # Competition: into the Castillo, the only place offered
        words, fill = (
            card_words.step_words("competition"),
            {"card": builder.card(ask.card), "player": builder.name(pid)},
        )
        prompt.hint = _(words.hints["move_grande"]).format(**fill)
        prompt.choices = [Choice(_(words.buttons["move_grande"]).format(**fill), make(CASTILLO), style="primary")]
    return prompt


def move_king(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    areas = list(ask.options["regions"])
    make = lambda a: {"type": "king_moved", "player": pid, "region": a}
    prompt = Prompt(
        builder.title(ask, _("{who} moves the King").format(who=builder.name(pid))),
        _("Tap the King's new region."),
        actor=pid,
        map_mode="pick",
        areas=areas,
        on_area=make,
    )
    # Places that are not regions (Rebellion: beside the Castillo; Exile: France, Portugal)
    # are buttons too, whatever the map draws.
    others = [a for a in areas if a not in builder.board.region_ids]
    rebellion, exile = card_words.step_words("rebellion"), card_words.step_words("exile")
    for a in others:
        label = (
            _(rebellion.buttons["move_king"])
            if a == CASTILLO
            else _(exile.buttons["move_king"]).format(place=builder.area(a))
        )
        prompt.choices.append(Choice(label, make(a), style="primary"))
    if others and len(others) == len(areas):
        card = builder.card(ask.card)
        prompt.hint = (
            _(rebellion.hints["move_king"]).format(card=card)
            if others == [CASTILLO]
            else _(exile.hints["move_king"]).format(card=card, places=_(" or ").join(builder.area(a) for a in others))
        )
    return prompt


def special_scoring_choices(builder: PromptContext, ask: Ask) -> list[Choice]:
    kinds = [k for k in ask.options["special_kinds"] if k != "region:ID"]
    words = {
        "4": _('all "4" regions'),
        "5": _('all "5" regions'),
        "6-7": _('all "6-7" regions'),
        "castillo": _("the Castillo"),
        "first-only": _("every region, 1st place only"),
        "most": _("regions with the most Caballeros"),
        "least": _("regions with the fewest"),
    }
    out = [Choice(words.get(k, k), {"type": "special_scored", "kind": k}) for k in kinds]
    out += [
        Choice(builder.area(r), {"type": "special_scored", "kind": f"region:{r}"}) for r in builder.board.region_ids
    ]
    return out


def power_card_back_pick(builder: PromptContext, ask: Ask, pid: str) -> PrivatePick | None:
    """Empowerment: the card taken back, in private (Power Shift: or a played Modifier card)."""
    if pid not in ask.players:
        return None
    options = [(str(c), _("Power card {value}").format(value=c)) for c in ask.options["cards"]]
    options += [
        (MODIFIER_PREFIX + m, modules_2023.modifier_label(builder, m)) for m in ask.options.get("modifiers", ())
    ]
    return PrivatePick(pid, ask.kind, _("Take a card back"), _("It goes back to your hand unseen."), options)


def _split_key(split: dict[str, int]) -> str:
    return ",".join(f"{p}={c}" for p, c in split.items())


def split_from_key(key: str) -> dict[str, int]:
    """The Caballeros going with the King, from a "sub:entourage:<key>" choice."""
    out = {}
    for part in filter(None, key.split(",")):
        owner, _sep, count = part.partition("=")
        if count.isdigit():
            out[owner] = int(count)
    return out
