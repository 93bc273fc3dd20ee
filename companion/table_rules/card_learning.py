"""Learning a 2023 box as it turns up (no Kivy).

The 2023 rule book names most of its cards but prints neither their stacks nor their copies
(engine/data/action_cards_2023.json), so a first game from the shipped data turns up cards the
table's set cannot place. At the reveal each stack offers, by name, the listed cards it could
hold (`candidates`): one tap records the card's stack (`learn_entry`), sent with the reveal as
one CardSetCompleted input. Its copies are left out: nobody can count a face-down stack, and the
engine lets such a card turn up while its stack has room (engine/card_entry.py). A card the
book never names is entered by its name, effect and printed numbers (companion.ui AddCard).

A listed card whose numbers nobody entered (Civil War's outcome, Stand-in's swap, a ♠ card's
Caballeros) is played as it is read: the turn offers its missing facts (`card_facts`) and only
those, and the special action goes on. Every entry is kept in Your cards for the next games.

What a card does in a few words (`does`, for its button: the rule text is too long) is in the
cards' words, companion.prompts.card_words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.prompts.card_words import does
from companion.words import _, names
from companion.words.effects import choice_word, meaning_words
from engine.board.effect_specs import EFFECT_SPECS
from engine.card_entry import stack_room

KINGS_STACK = 5


@dataclass(frozen=True)
class Candidate:
    card: str  # a listed card whose stack nobody entered
    stack: int  # the stack printed on it (four stacks: table stack 2 holds the 2s and 3s)
    name: str
    does: str

    @property
    def label(self) -> str:
        return _("{card}: {text}").format(card=names.card(self.name), text=self.does)


def _printed_stacks(state, table_stack: int) -> list[int]:
    if table_stack == KINGS_STACK:
        return [KINGS_STACK] if state.rules.new_regency else []
    return [p for p in (1, 2, 3, 4) if state.rules.table_stack(p) == table_stack]


def candidates(state, table_stack: int) -> list[Candidate]:
    """The listed cards this stack could hold, by name: their stack is not known and the printed
    stack has room for one more (New Regency's ♠ stack takes a base card as a ♠ card). Asked at
    the reveal, and for the cards left once the game is over (`stacks_left`)."""
    if state is None or state.rules.id != "2023":
        return []
    out = []
    for card in sorted(state.board.cards.values(), key=lambda c: c.name):
        if card.stack is not None or card.module not in (None, "new-regency"):
            continue
        for printed in _printed_stacks(state, table_stack):
            module = "new-regency" if printed == KINGS_STACK else None
            if card.module not in (None, module):
                continue
            room = stack_room(state, module, printed)
            if room is None or room >= 1:
                out.append(Candidate(card.id, printed, card.name, does(card.effect, card.params)))
    return out


def learn_entry(state, candidate: Candidate) -> dict:
    """The card-file entry that says where the card turned up (its copies left unknown)."""
    entry: dict[str, Any] = {"id": candidate.card, "stack": candidate.stack, "source": "turned up at the table"}
    if candidate.stack == KINGS_STACK and state.board.cards[candidate.card].module is None:
        entry["module"] = "new-regency"  # a ♠ card: its Caballeros are printed on it, asked when played
    return entry


# ---- the cards left in each stack, named when the game is over ----------------------------------
# A 9-round game turns up 9 of a stack's 10 cards, so the next game may meet the one it never
# showed. Once the game is over the table may turn the rest over and name them (a card-file update
# only: the finished game's log is not touched, and the engine takes no input once it is over).
# Then every card of a printed stack has been seen: its copies are known and go into Your cards,
# and the next game deals that stack face down like any card set that lists it whole.


@dataclass(frozen=True)
class StackLeft:
    stack: int  # the table stack (four stacks: 2 holds the printed 2s and 3s)
    left: int  # its cards still face down
    to_name: int  # of those, the ones the set cannot place
    known: tuple  # (card id, name): cards of the set placed here whose copies nobody knows
    candidates: tuple  # Candidate: the listed cards whose stack nobody entered it could hold


def _in_play(state, card) -> bool:
    return card.module is None or card.module in state.rules.modules


def _table_stack(state, card) -> int | None:
    if card.stack is None or not _in_play(state, card):
        return None
    if card.module == "new-regency":
        return KINGS_STACK
    return state.rules.table_stack(card.stack) if card.stack in (1, 2, 3, 4) else None


def _face_down(state, cid: str, stack: int) -> int:
    if stack == KINGS_STACK:
        return state.regency_undrawn.get(cid, 0)
    return state.stacks_undrawn[stack - 1].get(cid, 0)


def _out(state, card, stack: int) -> int:
    """Copies of a card no longer in its stack: turned up (its copies unknown), or not face down."""
    if card.copies is None:
        return state.copies_seen.get(card.id, 0)
    return card.copies - _face_down(state, card.id, stack)


def _held(state, stack: int) -> int | None:
    board = state.board
    if stack == KINGS_STACK:
        return board.module_stack_sizes.get("new-regency", {}).get(KINGS_STACK)
    sizes = [board.stack_sizes.get(p) for p in (1, 2, 3, 4) if state.rules.table_stack(p) == stack]
    return None if None in sizes else sum(sizes)


def stacks_left(state) -> list[StackLeft]:
    """When a 2023 game is over: the stacks whose cards left face down the set cannot all place.
    [] for another rule system, a game not over, or Old Hands (its cards swapped in and out of
    the stacks at setup are not kept in the game)."""
    if state is None or state.rules.id != "2023" or state.stage != "over" or "old-hands" in state.rules.modules:
        return []
    stacks = list(state.rules.stacks) + ([KINGS_STACK] if state.rules.new_regency else [])
    out = []
    for stack in stacks:
        held = _held(state, stack)
        mine = [c for c in state.board.cards.values() if _table_stack(state, c) == stack]
        if held is None:
            continue
        left = held - sum(_out(state, c, stack) for c in mine)
        to_name = left - sum(_face_down(state, c.id, stack) for c in mine if c.copies is not None)
        if to_name <= 0:
            continue
        known = tuple((c.id, c.name) for c in sorted(mine, key=lambda c: c.name) if c.copies is None)
        out.append(StackLeft(stack, left, to_name, known, tuple(candidates(state, stack))))
    return out


def facts_left(state, also=()) -> dict[str, list]:
    """Cards of the box (placed on a stack, or named now: `also`) whose numbers nobody read,
    because nobody played them (card_facts): read off them while they lie on the table, so a
    later game need not stop for them."""
    if state is None or state.rules.id != "2023":
        return {}
    out = {}
    for c in state.board.cards.values():
        if (_table_stack(state, c) is not None or c.id in also) and (facts := card_facts(state.board, c.id)):
            out[c.id] = facts
    return out


def end_entries(state, named: dict[int, list], facts: dict | None = None) -> list[dict]:
    """The card-file entries for the cards left, as named (stack -> [a card id of the set, a
    Candidate, or a new card's entry]), and for the numbers read off cards nobody played
    (`facts`: card id -> {fact key: value}): the stacks learned, the cards added, the numbers,
    and then the copies
    of every card of each printed stack all of whose cards have now been seen (each printed stack
    counted whole, and every card the set places on it seen at least once; else its copies stay
    unknown, as before)."""
    entries: list[dict] = []
    counts: dict[str, int] = {}
    printed_of: dict[str, tuple] = {}  # card id -> (module, printed stack), the new ones too
    for _stack, picks in sorted(named.items()):
        for pick in picks:
            if isinstance(pick, Candidate):
                entry = learn_entry(state, pick)
                cid, module, printed = pick.card, entry.get("module", state.board.cards[pick.card].module), pick.stack
            elif isinstance(pick, dict):
                entry, cid, module, printed = pick, pick["id"], pick.get("module"), pick["stack"]
            else:
                entry, cid = None, pick
                card = state.board.cards[cid]
                module, printed = card.module, card.stack
            if entry is not None and not any(e["id"] == cid for e in entries):
                entries.append(entry)
            counts[cid] = counts.get(cid, 0) + 1
            printed_of[cid] = (module, printed)
    entries += [facts_entry(cid, values) for cid, values in (facts or {}).items() if values]
    fully_named = {s.stack for s in stacks_left(state) if len(named.get(s.stack, [])) == s.to_name}
    for c in state.board.cards.values():
        stack = _table_stack(state, c)
        if stack is None:
            continue
        counts[c.id] = (
            counts.get(c.id, 0)
            + _out(state, c, stack)
            + (_face_down(state, c.id, stack) if c.copies is not None else 0)
        )
        printed_of.setdefault(c.id, (c.module, c.stack))
    left_before = {s.stack for s in stacks_left(state)}
    for (module, printed), ids in _by_printed_stack(printed_of).items():
        table_stack = KINGS_STACK if module == "new-regency" else state.rules.table_stack(printed)
        if table_stack in left_before and table_stack not in fully_named:
            continue
        size = (state.board.module_stack_sizes.get(module, {}) if module else state.board.stack_sizes).get(printed)
        if size is None or sum(counts.get(i, 0) for i in ids) != size or min(counts.get(i, 0) for i in ids) < 1:
            continue
        for cid in ids:
            known = state.board.cards.get(cid)
            if known is None or known.copies is None:
                entries.append({"id": cid, "copies": counts[cid], "source": "counted at the end of a game"})
    return entries


def _by_printed_stack(printed_of: dict) -> dict:
    out: dict = {}
    for cid, (module, printed) in printed_of.items():
        if printed is not None and (module is None or module == "new-regency"):
            out.setdefault((module, printed), []).append(cid)
    return out


# ---- a card the rule book does not name ------------------------------------------------------


def offered_params(effect: str) -> dict[str, Any]:
    """The numbers the compact entry starts from: each required one at its first value."""
    out: dict[str, Any] = {}
    spec = EFFECT_SPECS.get(effect)
    for name, p in spec.params.items() if spec else ():
        if not p.required:
            continue
        if p.type == "int":
            out[name] = p.min if p.min is not None else 1
        elif p.type == "bool":
            out[name] = False
        elif p.type == "list":
            out[name] = list(p.values or [])
        else:
            out[name] = (p.values or [""])[0]
    return out


@dataclass(frozen=True)
class PrintedNumber:
    """A number the compact entry taps off a card: one row of values. An optional one (Decay's
    "2 each") offers first what the card means when it prints none (`unprinted`: "all of them")."""

    key: str  # the effect's parameter ("count")
    words: str  # what it counts, in the effect's words
    options: tuple  # the values to tap; None: none printed
    unprinted: str = ""  # None's words

    def label(self, value: Any) -> str:
        return self.unprinted if value is None else str(value)


def _unprinted_words(meaning: str) -> str:
    """ "... (left out: all of them)" -> "all of them": what the effect does when the card prints none."""
    _head, found, rest = meaning.partition("left out: ")
    words = rest.split(")")[0].split(";")[0].strip() if found else ""
    return meaning_words(words) if words else _("none printed")


def printed_numbers(effect: str) -> list[PrintedNumber]:
    """The numbers of a card of `effect` its compact entry offers, required or not: a card that
    prints "2 each" is entered as printed, one that prints none as the effect's rule for none."""
    spec = EFFECT_SPECS.get(effect)
    out = []
    for name, p in spec.params.items() if spec else ():
        if p.type != "int":
            continue
        low = p.min if p.min is not None else 0
        values = tuple(range(low, min(p.max if p.max is not None else 10, low + 10) + 1))
        meaning = p.meaning or name.replace("_", " ")
        if p.required:
            out.append(PrintedNumber(name, meaning_words(meaning.split(". ")[0]), values))
        else:
            words = meaning.split(" (left out")[0].split(". ")[0]
            out.append(PrintedNumber(name, meaning_words(words), (None,) + values, _unprinted_words(meaning)))
    return out


def unenterable(effect: str, params: dict) -> list[str]:
    """The numbers of `params` the compact entry cannot tap for a card of `effect` (a value off
    its rows, or an option it does not offer), as "count 40": [] when every one can be entered."""
    spec = EFFECT_SPECS.get(effect)
    rows = {n.key: n for n in printed_numbers(effect)}
    out = []
    for name, value in params.items():
        param = spec.params.get(name) if spec else None
        if param is None:
            out.append(f"{name} {value}")
        elif name in rows:
            if value not in rows[name].options:
                out.append(f"{name.replace('_', ' ')} {value}")
        elif param.type == "str" and value not in (param.values or ()):
            out.append(f"{name.replace('_', ' ')} {value}")
        elif param.type == "list" and list(value) != list(param.values or []):
            out.append(f"{name.replace('_', ' ')} {value}")
    return out


def card_id(name: str, taken) -> str:
    """A card file id from the name the table gave ("Mercenaries" -> "mercenaries"), unique."""
    base = "".join(ch if ch.isalnum() and ch.isascii() else "_" for ch in name.lower()).strip("_")
    base = "_".join(filter(None, base.split("_"))) or "card"
    ident, n = base, 2
    while ident in taken:
        ident, n = f"{base}_{n}", n + 1
    return ident


def new_card_entry(
    board, name: str, effect: str, stack: int, params: dict, placement: int | None = None
) -> tuple[dict, int]:
    """A card found in the box, as the compact entry sends it (its copies left out: nobody counts a
    face-down stack), and how many of its numbers differ from those offered (a tap each; a ♠ card's
    Caballeros are always tapped)."""
    start = offered_params(effect)
    taps = sum(1 for k, v in params.items() if start.get(k) != v) + (placement is not None)
    words = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in params.items() if not isinstance(v, list))
    text = does(effect, params) or effect.replace("_", " ") + (f" ({words})" if words else "")
    entry: dict[str, Any] = {
        "id": card_id(name, board.cards),
        "name": name.strip(),
        "stack": stack,
        "effect": effect,
        "params": dict(params),
        "source": "added at the table",
        "text": text[:1].upper() + text[1:],
    }
    if stack == KINGS_STACK:
        entry["module"] = "new-regency"
        if placement is not None:
            entry["placement"] = placement
    return entry, taps


# ---- a card played with numbers nobody entered --------------------------------------------------


@dataclass(frozen=True)
class CardFact:
    key: str  # "params.outcome" or "placement"
    words: str  # what to read off the card
    options: tuple  # the values to tap


def card_facts(board, cid: str | None) -> list[CardFact]:
    """The facts of a listed card nobody entered that playing it needs: its parameters the
    effect requires and, for a ♠ card, how many Caballeros it places."""
    if cid is None or cid not in board.cards:
        return []
    card = board.cards[cid]
    spec = EFFECT_SPECS.get(card.effect)
    prefix = f"cards.{cid}."
    out = []
    for key in board.missing:
        if not key.startswith(prefix):
            continue
        field = key[len(prefix) :]
        if field == "placement":
            question = _("How many Caballeros does {card} place?").format(card=names.card(card.name))
            out.append(CardFact("placement", question, tuple(range(0, 6))))
        elif field.startswith("params.") and spec is not None:
            param = spec.params.get(field[7:])
            if param is None or not param.required:
                continue
            words = _("{card}: {text}").format(
                card=names.card(card.name), text=meaning_words((param.meaning or field[7:]).split(". ")[0])
            )
            if param.type == "str":
                out.append(CardFact(field, words, tuple(param.values or ())))
            elif param.type == "int":
                low, high = param.min or 0, min(param.max or 10, (param.min or 0) + 10)
                out.append(CardFact(field, words, tuple(range(low, high + 1))))
    return out


def facts_entry(cid: str, values: dict[str, Any]) -> dict:
    """The card-file entry for the facts read off the card."""
    entry: dict[str, Any] = {"id": cid, "source": "read off the card at the table"}
    params = {k[7:]: v for k, v in values.items() if k.startswith("params.")}
    if params:
        entry["params"] = params
    if "placement" in values:
        entry["placement"] = values["placement"]
    return entry


def option_words(value: Any) -> str:
    return choice_word(value)
