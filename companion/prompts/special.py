"""The special actions' prompts: Caballeros moved or sent back, a region chosen, the King and the
Grandes moved, the mobile scoreboards and Scoring tiles placed, a Power card taken back, and the
special scorings of a scoring-only table. Functions of the prompt builder (a PromptContext),
registered by ask kind in companion.prompts.registry."""

from __future__ import annotations

from companion.prompts import card_words, modules_2023
from companion.prompts.context import PromptContext
from companion.prompts.prompt import MODIFIER_PREFIX, Choice, PrivatePick, Prompt
from engine.board.model import CASTILLO
from engine.primitives import Ask


def move_caballeros(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    o = ask.options
    prompt = Prompt(
        builder.title(ask, f"{builder.name(pid)} moves Caballeros"),
        f"{builder.card(ask.card)}: tap a region to take from, then where it goes ({o['left']} left).",
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
        prompt.choices.append(Choice("Finished moving", {"type": "special_action_finished", "player": pid}))
    return prompt


def send_back(builder: PromptContext, ask: Ask) -> Prompt:
    chooser = ask.players[0]
    owner, opts = next(iter(ask.options["owners"].items()))
    count = opts["count"]
    where = " or the court" if opts["court"] else ""
    # The King is Angry: each sends back their own; a name said once, however long
    whose = "their own" if owner == chooser else f"{builder.name(owner)}'s"
    return Prompt(
        builder.title(ask, f"{builder.name(chooser)} sends {whose} Caballeros back"),
        f"Tap {count} of {whose} Caballeros to send to the provinces (from regions{where}), then Confirm.",
        actor=chooser,
        map_mode="count",
        areas=list(opts["regions"]),
        limit=count,
        full=f"{builder.card(ask.card) or 'The card'}: {count} of {whose} Caballeros go back",
        steppers={"__court__": ("from the court", 0, opts["court"])} if opts["court"] else {},
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
        builder.title(ask, f"{builder.name(pid)} chooses a region"),
        f"{builder.card(ask.card)}: tap the region ({purpose}).",
        actor=pid,
        map_mode="pick",
        areas=list(ask.options["regions"]),
        on_area=lambda a: {"type": "region_chosen", "player": pid, "region": a},
    )


def place_mobile_scoreboard(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    moves = ask.options["moves"]
    prompt = Prompt(
        builder.title(ask, f"{builder.name(pid)} places a mobile scoreboard"),
        "Choose the scoreboard, then tap where it goes.",
        actor=pid,
    )
    prompt.choices = [Choice(f"Scoreboard {sid}", action=f"mobile:{sid}") for sid in moves]
    return prompt


def mobile_prompt(builder: PromptContext, ask: Ask, sid: str) -> Prompt:
    pid = ask.players[0]
    if ask.kind == "place_scoring_tile":
        return Prompt(
            builder.title(ask, f"{builder.name(pid)} places {builder.piece(sid)}"),
            "Tap the Scoring board it goes on (a region or the Castillo, not the King's).",
            actor=pid,
            map_mode="pick",
            areas=list(ask.options["moves"][sid]),
            on_area=lambda a: {"type": "scoring_tile_placed", "player": pid, "tile": sid, "area": a},
        )
    return Prompt(
        builder.title(ask, f"{builder.name(pid)} places scoreboard {sid}"),
        "Tap where it goes.",
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
        builder.title(ask, f"{builder.name(pid)} places a Scoring tile"),
        "Choose the Scoring tile, then tap the Scoring board it goes on.",
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
        builder.title(ask, f"{builder.name(pid)} places {builder.card(ask.card)}"),
        f"{builder.card(ask.card)}: tap regions (any but the King's; not the Castillo) to place "
        f"{n} Caballero{'s' * (n != 1)} from the court.",
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
        builder.title(ask, f"{builder.name(pid)} moves the King with his entourage"),
        f"{builder.card(ask.card)}: {ask.options['count']} Caballeros of {builder.area(ask.options['from'])} "
        "go with the King. Whose? Then tap the King's new region.",
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
    return " and ".join(f"{c} of {builder.name(p)}'s" for p, c in split.items()) or "nobody"


def _going_words(builder: PromptContext, split: dict[str, int]) -> str:
    """Whose Caballeros go with the King, as a sentence's subject and verb."""
    parts = [f"{c} of {builder.name(p)}'s" for p, c in split.items() if c]
    if not parts:
        return "no Caballero goes"
    return " and ".join(parts) + (" Caballero goes" if sum(split.values()) == 1 else " Caballeros go")


def entourage_prompt(builder: PromptContext, ask: Ask, split: dict[str, int]) -> Prompt:
    pid = ask.players[0]
    going = _going_words(builder, split)
    return Prompt(
        builder.title(ask, f"{builder.name(pid)} moves the King with his entourage"),
        f"{builder.card(ask.card)}: tap the King's new region; {going} with him from "
        f"{builder.area(ask.options['from'])}.",
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
        pieces = (["the King"] if pair["king"] else []) + [f"{builder.name(q)}'s Grande" for q in pair["grandes"]]
        label = "Swap " + " and ".join(pieces)
        choices.append(
            Choice(
                label[0].upper() + label[1:],
                {"type": "pieces_swapped", "player": pid, "king": pair["king"], "grandes": pair["grandes"]},
            )
        )
    return Prompt(
        builder.title(ask, f"{builder.name(pid)} swaps two pieces"),
        f"{builder.card(ask.card)}: which two pieces change places?",
        actor=pid,
        choices=choices,
    )


def take_back_power_card(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    # Power Shift: a played Modifier card may come back instead (the private pick offers both).
    action = f"private:{pid}" if builder.modifiers else f"powerback:{pid}"
    return Prompt(
        builder.title(ask, f"{builder.name(pid)} takes back a Power card"),
        "Secret: the card goes back to the hand unseen.",
        actor=pid,
        choices=[Choice(f"{builder.name(pid)} picks here", action=action)],
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
        builder.title(ask, f"{builder.name(pid)} moves their Grande"),
        "Tap the Grande's new region.",
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
        prompt.hint = words.hints["move_grande"].format(**fill)
        prompt.choices = [Choice(words.buttons["move_grande"].format(**fill), make(CASTILLO), style="primary")]
    return prompt


def move_king(builder: PromptContext, ask: Ask) -> Prompt:
    pid = ask.players[0]
    areas = list(ask.options["regions"])
    make = lambda a: {"type": "king_moved", "player": pid, "region": a}
    prompt = Prompt(
        builder.title(ask, f"{builder.name(pid)} moves the King"),
        "Tap the King's new region.",
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
            rebellion.buttons["move_king"]
            if a == CASTILLO
            else exile.buttons["move_king"].format(place=builder.area(a))
        )
        prompt.choices.append(Choice(label, make(a), style="primary"))
    if others and len(others) == len(areas):
        card = builder.card(ask.card)
        prompt.hint = (
            rebellion.hints["move_king"].format(card=card)
            if others == [CASTILLO]
            else exile.hints["move_king"].format(card=card, places=" or ".join(builder.area(a) for a in others))
        )
    return prompt


def special_scoring_choices(builder: PromptContext, ask: Ask) -> list[Choice]:
    kinds = [k for k in ask.options["special_kinds"] if k != "region:ID"]
    words = {
        "4": 'all "4" regions',
        "5": 'all "5" regions',
        "6-7": 'all "6-7" regions',
        "castillo": "the Castillo",
        "first-only": "every region, 1st place only",
        "most": "regions with the most Caballeros",
        "least": "regions with the fewest",
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
    options = [(str(c), f"Power card {c}") for c in ask.options["cards"]]
    options += [
        (MODIFIER_PREFIX + m, modules_2023.modifier_label(builder, m)) for m in ask.options.get("modifiers", ())
    ]
    return PrivatePick(pid, ask.kind, "Take a card back", "It goes back to your hand unseen.", options)


def _split_key(split: dict[str, int]) -> str:
    return ",".join(f"{p}={c}" for p, c in split.items())


def split_from_key(key: str) -> dict[str, int]:
    """The Caballeros going with the King, from a "sub:entourage:<key>" choice."""
    out = {}
    for part in filter(None, key.split(",")):
        owner, _, count = part.partition("=")
        if count.isdigit():
            out[owner] = int(count)
    return out
