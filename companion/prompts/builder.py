"""What the tablet offers now, as plain data: the phase bar's words, the legal
choices as buttons, and how taps on the map become an event.

Built from the engine's `asked()` only, so no rule lives in a widget: the UI
draws a Prompt and sends back what it builds. Pure Python, tested without Kivy.

Map modes:
  None        the map only shows the board
  "pick"      tapping one of `areas` submits `on_area(area)`
  "count"     taps add Caballeros to `areas` (up to `limit` in all); Confirm
              submits `on_counts(counts)`
  "move"      tap a source, then a target: `on_move(source, target)` (one Caballero)
  "board"     scoring-only board entry: tap adds the selected colour's Caballero

Actions (Choice.action) a view carries out itself, beside the classic ones:
  "sub:<key>"       show `builder.sub_prompt(ask, key)` in the prompt's place ("sub:" goes back)
  "private:<pid>"   pass the tablet to <pid>: `builder.private_pick(ask, pid)` (or the table's
                    `private_question(pid)`) says what they choose, behind a private screen
  "add_card"        open the card-set editor: the table turned up a card its set does not list
                    (`effect_choices(rules)` lists what a card may do; `Table.complete_card_set`)
Prompt.per_area caps the taps on one area (count mode); Prompt.auto_confirm submits a count
entry by itself once `limit` taps are in (the dummy's Region cards, Militia, a turn's placement
once the special action is done or skipped: the turn's last step); `entered_words` says what
went in, for the table to read (and undo).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Union

from companion.entry.facts import facts_needed, needed_words
from companion.table_rules.card_learning import card_facts, does
from engine.board.build import classic_board
from engine.board.effect_specs import EFFECT_SPECS
from engine.board.model import CASTILLO, Board
from engine.primitives import Ask

STAGE_WORDS = {
    "reveal": "action cards",
    "power": "power cards",
    "replenish": "replenish the court",
    "choose_card": "action cards",
    "turn": "turn",
    "veto_window": "veto",
    "special": "special action",
    "scoring_discs": "general scoring",
    "over": "game over",
    "play": "play the round",
    # 2023 rule sets
    "dummy_regions": "the dummy's Region cards",
    "dummy_power": "the dummy's Power card",
    "dummy_card": "the dummy's Action card",
    "modifiers_deal": "Modifier cards",
    "modifiers_pass": "Modifier cards",
    "modifier_ability": "Modifier ability",
}


@dataclass
class Choice:
    label: str
    event: dict | None = None  # submitted as it is
    events: list | None = None  # several inputs one tap stands for, all or none
    action: str | None = None  # a UI step instead: "secret:<pid>", "open_castillo", "enter_board" ...
    style: str = "normal"  # normal | primary | quiet
    enabled: bool = True  # shown but not tappable (a value already played, say)
    why_not: str = ""  # when not enabled: why, in one line, for a tap on it
    places_first: bool = False  # Caballeros entered on the map are placed before this


@dataclass
class Prompt:
    title: str  # "Round 4 - power cards - Yellow plays next"
    hint: str = ""
    actor: str | None = None  # whose colour the bar shows
    choices: list[Choice] = field(default_factory=list)
    map_mode: str | None = None
    areas: list[str] = field(default_factory=list)
    limit: int = 0
    prefill: dict[str, int] = field(default_factory=dict)
    on_area: Callable[[str], dict] | None = None
    on_counts: Callable[[dict[str, int]], dict] | None = None
    on_move: Callable[[str, str], dict] | None = None
    sources: dict[str, dict[str, int]] = field(default_factory=dict)  # move: area -> owner -> movable
    private_for: str | None = None  # the choice is secret: pass the tablet to this player
    steppers: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # key -> (label, min, max)
    columns: int = 1  # how the choices are laid out (power cards: a grid)
    confirm_empty: str = ""  # Confirm with nothing entered asks this first ("" : no question)
    notes: list[str] = field(default_factory=list)  # read-only lines under the choices
    per_area: int = 0  # count mode: at most this many taps per area (0: no cap)
    auto_confirm: bool = False  # count mode: submitted by itself once `limit` taps are in
    full: str = ""  # count mode: the limit by its card and rule, for a tap past it
    opens_private: bool = False  # private sheets open by themselves, seat by seat (K&I's 13 kept)


@dataclass
class PrivatePick:
    """A choice one player makes in private (on their phone, or the tablet's private screen):
    what it is for, the options, how many to pick. Built for that player only: never drawn
    on the public screen."""

    player: str
    kind: str  # the engine's ask kind
    title: str
    hint: str
    options: list[tuple[str, str]]  # (value, label)
    count: int = 1  # how many options make one answer

    def event(self, values: list[str]) -> dict:
        """The input the pick stands for. Values not offered, or not `count` of them, are
        refused with a message (ValueError); the engine checks the rest."""
        values = list(values)
        offered = {v for v, _ in self.options}
        if len(values) != self.count or len(set(values)) != len(values):
            raise ValueError(f"pick {self.count} different option{'s' * (self.count != 1)}, not {len(values)}")
        wrong = [v for v in values if v not in offered]
        if wrong:
            raise ValueError(f"{wrong[0]!r} is not one of the options offered")
        pid, first = self.player, values[0]
        if self.kind == "secret_disc":
            return {"type": "secret_disc_set", "player": pid, "region": first}
        if self.kind == "deal_modifiers":
            return {"type": "modifiers_dealt", "player": pid, "modifiers": values}
        if self.kind == "pass_modifier":
            return {"type": "modifier_passed", "player": pid, "modifier": first}
        if first.startswith(MODIFIER_PREFIX):
            return {"type": "modifier_taken_back", "player": pid, "modifier": first[len(MODIFIER_PREFIX) :]}
        return {"type": "power_card_taken_back", "player": pid, "card": int(first)}


MODIFIER_PREFIX = "modifier:"
# Asks that several players answer at the same time, each in private.
PRIVATE_KINDS = ("secret_disc", "deal_modifiers", "pass_modifier", "choose_power_cards")  # the last: K&I


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
                spec.name.replace("_", " ").capitalize(),
                " ".join(f"({t.book}) {t.text}" for t in texts),
                {n: p.model_dump(exclude_none=True) for n, p in spec.params.items()},
                spec.notes,
            )
        )
    return out


def _first_sentence(text: str) -> str:
    """One line: a message's first sentence (a rule's reason is in its first)."""
    line = " ".join(text.split())
    cut = line.find(". ")
    return line[:cut] if cut > 0 else line.rstrip(".")


def _placed_nothing(pid: str) -> dict:
    return {"type": "caballeros_placed", "player": pid, "placements": {}}


def _caballeros(n: int) -> str:
    return f"{n} Caballero{'' if n == 1 else 's'}"


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}"


BoardSource = Union[Board, Callable[[], Board], None]


class PromptBuilder:
    """`board` may be a function giving the board now: a 2023 table completes its card set
    during a game, and the next prompt reads the new cards. `castillo_by_tower`: True (the
    tower counts every colour), False (no tower), or the colours the tower counts (or a
    function giving them now): a player whose colour it does not know taps their Castillo
    share by hand. `modifiers`: Power
    Shift's Modifier cards (id -> card), public facts; `public`: a function giving the public
    view (what everyone may see), for what a prompt must not take from a private ask."""

    def __init__(
        self,
        names: dict[str, str],
        board: BoardSource = None,
        castillo_by_tower=False,
        modifiers: Mapping | None = None,
        public: Callable[[], dict] | None = None,
        played_in: Callable[[str, int], int | None] | None = None,
        refused: Callable[[], tuple] | None = None,
    ):
        self.names = names
        self.played_in = played_in  # (player, Power card) -> the round they laid it down, if known
        self._board = board if board is not None else classic_board()
        # With a tower, the Castillo's share of a placement is what it counted: tapping the
        # Castillo as well would count one cube twice, so it is not tappable then.
        self.castillo_by_tower = castillo_by_tower
        self.modifiers = modifiers or {}
        self.public = public
        # Who had an input refused for a reason only they may read (a card not in a secret hand):
        # who, never why (Table.private_notes)
        self.refused = refused
        self._twins_of: tuple[int, set] = (0, set())

    @property
    def board(self) -> Board:
        return self._board() if callable(self._board) else self._board

    @property
    def _twins(self) -> set:
        """Cards that read the same (the chosen-region scoring on stacks 2 and 3), told apart."""
        board = self.board
        if self._twins_of[0] != id(board):
            seen: dict[tuple[str, str], int] = {}
            for c in board.cards.values():
                seen[(c.name, c.text)] = seen.get((c.name, c.text), 0) + 1
            self._twins_of = (id(board), {key for key, n in seen.items() if n > 1})
        return self._twins_of[1]

    def _tower_counts(self, pid: str | None) -> bool:
        by_tower = self.castillo_by_tower
        if callable(by_tower):  # the table's colours now: a calibration may add one mid-game
            by_tower = by_tower()
        if isinstance(by_tower, bool):
            return by_tower
        return pid in by_tower

    def _placeable(self, areas, pid: str | None = None) -> list[str]:
        return [a for a in areas if not (a == CASTILLO and self._tower_counts(pid))]

    def _public(self) -> dict:
        """The public view, or {} when the builder was given none."""
        if self.public is None:
            return {}
        try:
            return self.public() or {}
        except Exception:  # a nicety for labels: never let it stop a prompt
            return {}

    # ---- words --------------------------------------------------------------------

    def name(self, pid: str) -> str:
        return self.names.get(pid, pid)

    def area(self, aid: str) -> str:
        return self.board.area_name(self.board.area_index[aid])

    def card(self, cid: str | None) -> str:
        if cid is None:
            return ""
        if cid == "veto":
            return "Veto"
        card = self.board.cards.get(cid)
        return card.name if card else cid

    def card_label(self, cid: str) -> str:
        """Name and text: several cards share a name (nine are called Intrigue)."""
        card = self.board.cards.get(cid)
        if card is None:
            return self.card(cid)
        short = does(card.effect, card.params) if self.board.rules == "2023" else ""
        if short:  # 2023: the book's texts explain rather than say what the card does
            twin = f" (stack {card.stack}, places {card.placement})" if (card.name, card.text) in self._twins else ""
            return f"{card.name}: {short}{twin}"
        text = card.text.removeprefix("You may ").rstrip(".")
        if len(text) > 90:  # cut at a word, never mid-word; buttons wrap onto two lines
            text = text[:88].rsplit(" ", 1)[0].rstrip(",;:") + "…"
        twin = f" (stack {card.stack}, places {card.placement})" if (card.name, card.text) in self._twins else ""
        return f"{card.name}: {text}{twin}"

    def entered_words(self, prompt: Prompt, counts: Mapping[str, int]) -> str:
        """What a count entry that confirmed itself sent, for the table to read: nothing goes in
        unseen ("Entered for Red: Castilla 2, the Castillo 1. Undo takes it back.")."""
        parts = [
            f"{'the Castillo' if a == CASTILLO else self.area(a)} {c}"
            for a, c in counts.items()
            if c and not a.startswith("__") and (a == CASTILLO or a in self.board.area_index)
        ]
        who = f" for {self.name(prompt.actor)}" if prompt.actor else ""
        return f"Entered{who}: {', '.join(parts) or 'nothing'}. Undo takes it back."

    def title(self, ask: Ask, doing: str) -> str:
        return f"Round {ask.round} - {STAGE_WORDS.get(ask.stage, ask.stage)} - {doing}"

    @staticmethod
    def full_words(prompt: Prompt) -> str:
        """A tap past a count entry's limit, refused naming the card and the limit ("That is all:
        Armada places up to 2 Caballeros")."""
        limit = prompt.full or f"up to {prompt.limit} here"
        return f"That is all: {limit} (Confirm, or take one back)"

    @staticmethod
    def _nothing_placeable(ask: Ask) -> bool:
        """A turn whose placement can place nothing (an empty court, a card that places none)."""
        place = ask.options.get("place")
        return bool(place) and not place.get("refused") and place["max"] == 0

    @staticmethod
    def nothing_placed_first(choices: list[Choice], pid: str) -> list[Choice]:
        """Nothing to place, the special action to come: each way to start it places nothing in
        the same tap (the turn ends with it), and a quiet twin leaves the placing for after it (a
        special action may bring Caballeros to the court)."""
        out, later = [], []
        for c in choices:
            if (c.event or {}).get("type") == "special_action_started":
                out.append(
                    dataclasses.replace(c, event=None, events=[_placed_nothing(pid), c.event], places_first=False)
                )
                later.append(dataclasses.replace(c, label=f"{c.label}, then place", style="quiet", places_first=False))
            else:
                out.append(c)
        if not later:  # nothing starts it by an input of its own (skipped, or the Castillo counted first)
            later.append(Choice("Skip placing first", _placed_nothing(pid), style="quiet"))
        return out + later

    def placing_card(self, ask: Ask) -> str:
        """The card whose number of Caballeros a turn places: the Action card played."""
        return self.card(ask.card)

    def _nothing_to_place(self, ask: Ask) -> str:
        if ask.options["place"].get("card_allows") == 0:
            return f"{self.placing_card(ask)} places no Caballeros: skip placing"
        return "no Caballeros in the court: skip placing"

    def _placement_full(self, ask: Ask) -> str:
        pid, place, card = ask.players[0], ask.options["place"], self.placing_card(ask)
        most, allows = place["max"], place.get("card_allows")
        if allows is not None and most < allows:  # the court holds fewer than the card allows
            return f"{self.name(pid)} has {_caballeros(most)} in the court ({card} places up to {allows})"
        return f"{card} places up to {_caballeros(most)}"

    # ---- a tap on what cannot be chosen -------------------------------------------------

    def why_not_area(
        self,
        prompt: Prompt,
        area: str,
        refusal: Callable[[dict], str | None],
        entry: Mapping[str, int] | None = None,
        source: str = "",
        owner: str = "",
    ) -> str:
        """Why a tap on `area` chooses nothing at `prompt`, in one line. The engine's refusal of
        the input the tap would make (`refusal(event)`: its words and rule, None if it would
        accept it) when it refuses; else what the prompt holds back (the Castillo, when the
        tower counts it); else what the step asks for instead."""
        name = "The Castillo" if area == CASTILLO else self.area(area)
        doing = _first_sentence(prompt.hint) or "see the choices"
        if not prompt.map_mode:
            return f"{name}: nothing is chosen on the map at this step ({doing})"
        event = self._tap_event(prompt, area, dict(entry or {}), source, owner)
        why = refusal(event) if event is not None else None
        if why and area == CASTILLO and any(ch.isdigit() for ch in why):
            why = None  # what lies in the Castillo is secret: no refusal that holds a figure of it
        if why:
            return _first_sentence(why[:1].upper() + why[1:])
        if area == CASTILLO and prompt.map_mode == "count" and self._tower_counts(prompt.actor):
            return "The Castillo: the tower counts the Caballeros thrown in, so it is not tapped here"
        return f"{name} cannot be chosen now ({doing})"

    @staticmethod
    def _tap_event(prompt: Prompt, area: str, entry: dict, source: str, owner: str) -> dict | None:
        """The input a tap on `area` would make at `prompt` (a move: from it, to anywhere offered)."""
        try:
            if prompt.map_mode == "pick" and prompt.on_area:
                return prompt.on_area(area)
            if prompt.map_mode == "count" and prompt.on_counts:
                return prompt.on_counts({**entry, area: entry.get(area, 0) + 1})
            if prompt.map_mode == "move" and prompt.on_move:
                if source:
                    return prompt.on_move(source, area, owner or next(iter(prompt.sources.get(source, {})), None))
                target = next((a for a in prompt.areas if a != area), None)
                return prompt.on_move(area, target, prompt.actor) if target else None
        except (KeyError, ValueError, TypeError):  # a tap the prompt cannot turn into an input at all
            return None
        return None

    # ---- the prompt for an ask --------------------------------------------------------

    def build(self, ask: Ask, prefill_castillo: int = 0) -> Prompt:
        maker = getattr(self, f"_{ask.kind}", None)
        if maker is None:
            return Prompt(self.title(ask, ask.kind.replace("_", " ")))
        prompt = maker(ask, prefill_castillo) if ask.kind in ("turn_action", "place_extra") else maker(ask)
        facts = facts_needed(self.board, ask)
        if facts:
            self._ask_for_facts(prompt, ask, facts)
        if ask.vetoes and ask.kind != "veto":
            prompt.choices += [
                Choice(f"{self.name(p)}: Veto!", {"type": "veto_used", "player": p}, style="quiet") for p in ask.vetoes
            ]
        return prompt

    def _ask_for_facts(self, prompt: Prompt, ask: Ask, facts) -> None:
        """A fact the rule book does not print, needed by this step: entered right here from the
        table's board (companion.entry.facts), then the step goes on; kept for the next games."""
        words = needed_words(facts, self.board.side)
        prompt.choices.insert(0, Choice(f"Enter {words} from your board", action="board_facts", style="primary"))
        if ask.kind == "turn_action":
            prompt.notes = [n for n in prompt.notes if not n.startswith("Skip it now; enter the fact")]
            prompt.notes.append(
                f"Enter {words} now and the special action can be done (your next games keep them), or skip it."
            )
            return
        for choice in prompt.choices[1:]:
            if choice.action == "open_castillo" or choice.event == {"type": "secret_discs_revealed"}:
                choice.enabled = False  # the scoring would be refused, naming the fact
                choice.why_not = f'This general scoring needs {words} first: tap "Enter {words} from your board"'
        prompt.notes.insert(
            0,
            f"This general scoring needs {words}, which the rule book does not print: "
            "enter them from your board first (your next games keep them).",
        )

    def _reveal_action_cards(self, ask: Ask) -> Prompt:
        prompt = Prompt(
            self.title(ask, "turn up one card on each stack"),
            "Pick the card showing on each stack, then Reveal.",
            actor=None,
            choices=[Choice("Turn up the cards", action="reveal_cards", style="primary")],
        )
        if self.board.rules != "classic":
            # The 2023 card set is not all published: a card the set does not list is added
            # once, from the box, and the game goes on (engine/card_entry.py).
            prompt.choices.append(
                Choice("A card turned up is not in the list: add it to your card set", action="add_card", style="quiet")
            )
        return prompt

    def reveal_choices(self, ask: Ask) -> dict[int, list[tuple[str, str]]]:
        """Stack -> (card id, card name) the table may have turned up."""
        return {
            int(s): [(cid, self.card_label(cid)) for cid in sorted(cards)] for s, cards in ask.options["stacks"].items()
        }

    def _play_power_card(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        # The hand is private: only what everyone knows is greyed out (values played this
        # round, and this player's earlier ones); the engine refuses any other card not held.
        gone = set(ask.options.get("unavailable", ()))
        choices = [
            Choice(
                str(v),
                {"type": "power_card_played", "player": pid, "card": v},
                enabled=v not in gone,
                why_not=self.power_gone_words(pid, v) if v in gone else "",
            )
            for v in range(1, 14)
        ]
        stacks = ask.options.get("stacks", {})
        notes = ["Face up now:"] + [
            self.card_label(cid) for _, cid in sorted(stacks.items(), key=lambda kv: int(kv[0]))
        ]
        why = self.why_in_private(pid)
        prompt = Prompt(
            self.title(ask, f"{self.name(pid)} plays next"),
            f"{self.name(pid)}: tap the Power card you laid down.",
            actor=pid,
            choices=choices + ([why] if why else []),
            columns=4,
            notes=notes if stacks else [],
        )
        if "modifiers" in ask.options and self.modifiers:
            # Power Shift. The hand of Modifier cards is secret: every card of the set is offered
            # but those played face up this round (the engine refuses one not held).
            # Twins (the same print) are one button: nobody can tell their copies apart, and the
            # table takes a twin for the copy the player holds.
            played = self._modifiers_played()
            for twins in self._modifier_twins():
                left = [mid for mid in twins if mid not in played]
                label = self.modifier_label(twins[0], numbered=False)
                # the side panel heads these "Played with a Modifier card?": the card's name alone
                prompt.choices.append(
                    Choice(
                        label,
                        action=f"sub:modifier:{(left or twins)[0]}",
                        style="quiet",
                        enabled=bool(left),
                        why_not="" if left else self._modifier_gone_words(label, twins),
                    )
                )
            prompt.hint = (
                f"{self.name(pid)}: tap the Power card you laid down; played with a Modifier card, "
                "tap the Modifier card first."
            )
        return prompt

    # ---- Power Shift's Modifier cards -------------------------------------------------------

    def _modifier_order(self) -> list[str]:
        return sorted(self.modifiers, key=lambda mid: (self.modifiers[mid].value, mid))

    def _modifier_print(self, mid: str) -> tuple:
        """What is printed on a Modifier card: twins print the same."""
        m = self.modifiers[mid]
        return m.name, m.value, m.effect, repr(sorted(m.params.items())), m.text

    def _modifier_twins(self) -> list[list[str]]:
        """The Modifier cards grouped by print, in value order."""
        groups: dict[tuple, list[str]] = {}
        for mid in self._modifier_order():
            groups.setdefault(self._modifier_print(mid), []).append(mid)
        return list(groups.values())

    def modifier_label(self, mid: str, numbered: bool = True) -> str:
        """ "Stand-in +1 (+1)"; cards of one name and value with other abilities say theirs
        ("Stand-in −1 · militia"); twins are numbered where each copy is a button of its own."""
        m = self.modifiers.get(mid)
        if m is None:
            return mid
        value = signed(m.value)
        label = m.name if value in m.name else f"{m.name} ({value})"
        mine = self._modifier_print(mid)
        namesakes = {
            self._modifier_print(k)
            for k in self.modifiers
            if self.modifiers[k].name == m.name and self.modifiers[k].value == m.value
        }
        if len(namesakes) > 1:
            label += " · " + self._ability_words(mid, namesakes)
        twins = [k for k in self._modifier_order() if self._modifier_print(k) == mine]
        if numbered and len(twins) > 1:
            label += f" #{twins.index(mid) + 1}"
        return label

    def _ability_words(self, mid: str, namesakes: set) -> str:
        """A short tag telling a card from its namesakes: its ability's effect ("court"), and
        the numbers that differ when two namesakes share the effect ("move 1 foreign")."""
        m = self.modifiers[mid]
        if m.effect is None:
            return "no ability"
        words = m.effect.replace("_", " ")
        others = [
            self.modifiers[k].params
            for k in self.modifiers
            if self._modifier_print(k) in namesakes
            and self.modifiers[k].effect == m.effect
            and self.modifiers[k].params != m.params
        ]
        differ = [k for k, v in m.params.items() if v and any(o.get(k) != v for o in others)]
        return " ".join([words] + [f"{m.params[k]} {k.replace('_', ' ')}" for k in differ])

    def why_in_private(self, pid: str) -> Choice | None:
        """ "Ana: why it was refused (only Ana looks)": the reason of a refused card, behind the
        private screen, for a player whose reason is their secret; None for anyone else."""
        try:
            refused = self.refused() if self.refused else ()
        except Exception:  # a nicety: never let it stop a prompt
            refused = ()
        if pid not in refused:
            return None
        who = self.name(pid)
        return Choice(f"{who}: why it was refused (only {who} looks)", action=f"private_note:{pid}", style="quiet")

    def power_gone_words(self, pid: str, value: int) -> str:
        """Why `pid` cannot play Power card `value`, from what everyone knows (never the hand):
        "Power card 5 was played by Ana this round", "Bo played Power card 5 in round 2"."""
        for p in self._public().get("players", []):
            card, total = p.get("power_card_played"), p.get("power_total")
            if (card if total is None else total) != value:  # Power Shift: the totals count
                continue
            who = p.get("name") or self.name(p["id"])
            if card == value:
                return f"Power card {value} was played by {who} this round (each value once a round)"
            return f"{who} played a total of {value} this round ({card} with a Modifier card; each value once a round)"
        rnd = self.played_in(pid, value) if self.played_in else None
        when = f"in round {rnd}" if rnd else "in an earlier round"
        return f"{self.name(pid)} played Power card {value} {when}: it is no longer in their hand"

    def _total_gone_words(self, total: int) -> str:
        who = [
            p.get("name") or self.name(p["id"])
            for p in self._public().get("players", [])
            if p.get("power_total") == total
        ]
        return f"A total of {total} was played by {', '.join(who) or 'another player'} this round (each total once)"

    def _modifier_gone_words(self, label: str, twins: list[str]) -> str:
        who = [
            p.get("name") or self.name(p["id"])
            for p in self._public().get("players", [])
            if p.get("modifier_played") in twins
        ]
        return f"{label} was played by {', '.join(who) or 'another player'} this round"

    def _modifiers_played(self) -> set[str]:
        return {p.get("modifier_played") for p in self._public().get("players", []) if p.get("modifier_played")}

    def _totals_played(self) -> set[int]:
        return {p["power_total"] for p in self._public().get("players", []) if p.get("power_total") is not None}

    def modifier_power_prompt(self, ask: Ask, mid: str) -> Prompt:
        """The Power card played with Modifier card `mid`: each value with the total it makes.
        Greyed out only what everyone knows cannot be played: a total already played, or a
        value this player laid down before."""
        pid = ask.players[0]
        m = self.modifiers[mid]
        totals = self._totals_played()
        gone = set(ask.options.get("unavailable", ()))
        spent = gone - totals  # surely laid down earlier: not a total anyone played this round
        choices = [
            Choice(
                f"{v} {signed(m.value)} = {v + m.value}",
                {"type": "power_card_played", "player": pid, "card": v, "modifier": mid},
                enabled=v not in spent and v + m.value not in totals,
                why_not=self.power_gone_words(pid, v)
                if v in spent
                else self._total_gone_words(v + m.value)
                if v + m.value in totals
                else "",
            )
            for v in range(1, 14)
        ]
        choices.append(Choice("Without a Modifier card", action="sub:", style="quiet"))
        return Prompt(
            self.title(ask, f"{self.name(pid)} plays next"),
            f"{self.name(pid)} plays {self.modifier_label(mid)}: tap the Power card; the total decides the turn order.",
            actor=pid,
            choices=choices,
            columns=4,
        )

    def _played_ability(self, pid: str):
        """The Modifier card `pid` played this round, if it has an ability (public: face up)."""
        for p in self._public().get("players", []):
            if p.get("id") == pid and p.get("modifier_played"):
                m = self.modifiers.get(p["modifier_played"])
                return m if m is not None and m.effect else None
        return None

    def _deal_modifiers(self, ask: Ask) -> Prompt:
        return self._private_round(ask, "enter the three Modifier cards dealt to you", "Modifier cards dealt")

    def _pass_modifier(self, ask: Ask) -> Prompt:
        return self._private_round(
            ask, "choose the Modifier card you pass face down to your left", "Modifier cards to pass"
        )

    def _private_round(self, ask: Ask, what: str, title: str) -> Prompt:
        """Several players answer at once, each in private: on their phone, or here behind the
        private screen. Only who is still to answer is shown."""
        choices = [Choice(f"{self.name(p)}: in private", action=f"private:{p}") for p in ask.players]
        chosen = ask.options.get("chosen", [])
        done = f" Done: {', '.join(self.name(p) for p in chosen)}." if chosen else ""
        return Prompt(
            self.title(ask, title),
            f"{', '.join(self.name(p) for p in ask.players)}: {what}, on your "
            f"phone or here behind a private screen.{done}",
            choices=choices,
        )

    def _modifier_ability(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        o = ask.options
        prompt = Prompt(self.title(ask, f"{self.name(pid)} may use {o['name']}'s ability"), actor=pid)
        skip = Choice("Skip the ability", {"type": "modifier_ability_skipped", "player": pid}, style="quiet")
        if o.get("refused"):
            prompt.hint = f"{o['text']} Not possible now: {o['refused']}"
            prompt.choices = [Choice("Skip the ability", skip.event, style="primary")]
            return prompt
        prompt.hint = f"{self.name(pid)}: before taking an Action card, you may: {o['text'] or o['effect']}"
        prompt.choices = [
            Choice(
                f"Use it: {o['text'] or o['effect'].replace('_', ' ')}",
                {"type": "modifier_ability_used", "player": pid},
                style="primary",
            ),
            skip,
        ]
        return prompt

    # ---- the 2-player dummy: the table enters only what chance decided --------------------------

    def _dummy_region_cards(self, ask: Ask) -> Prompt:
        o = ask.options
        dummy = self.name(o["dummy"])
        n = o["draw"]
        cards = "two Region cards" if n == 2 else "one Region card"
        notes = []
        if o.get("kings_region") in o["pile"]:
            notes.append(f"A card showing the King's region ({self.area(o['kings_region'])}) places nothing.")
        if o.get("last_caballeros"):
            notes.append(
                "Its last Caballeros go to the first card outside the King's region: then no second card is drawn."
            )
        prompt = Prompt(
            self.title(ask, f"draw {cards} for {dummy}: which regions?"),
            f"Draw {cards} for {dummy} and tap the region{'s' * (n > 1)} shown, in the order drawn.",
            map_mode="count",
            areas=list(o["pile"]),
            limit=n,
            per_area=1,
            full=f"{dummy} draws {cards} this round",
            auto_confirm=not o.get("last_caballeros"),
            notes=notes,
            on_counts=lambda counts: {
                "type": "dummy_region_cards_drawn",
                "regions": [a for a, c in counts.items() for _ in range(c)],
            },
        )
        return prompt

    def _dummy_power_card(self, ask: Ask) -> Prompt:
        dummy = self.name(ask.options["dummy"])
        cards = ask.options["cards"]
        choices = [Choice(str(v), {"type": "dummy_power_card_revealed", "card": v}) for v in cards]
        return Prompt(
            self.title(ask, f"turn up {dummy}'s next Power card: which value?"),
            f"Turn up the top card of {dummy}'s Power cards and tap its value. No one plays that value this round.",
            choices=choices,
            columns=4,
        )

    def _dummy_action_card(self, ask: Ask) -> Prompt:
        o = ask.options
        dummy = self.name(o["dummy"])
        choices = [
            Choice(self.card_label(cid), {"type": "dummy_action_card_taken", "stack": int(s)})
            for s, cid in sorted(o["stacks"].items(), key=lambda kv: int(kv[0]))
        ]
        return Prompt(
            self.title(ask, f"which card does {dummy} take?"),
            f"{dummy[0].upper()}{dummy[1:]} takes the remaining Action card with the most Caballeros: {o['why']}",
            choices=choices,
        )

    def _replenish(self, ask: Ask) -> Prompt:
        """At a turn's start one tap takes the full replenishment and the action card (the
        usual case); anything else goes through `replenish_custom`."""
        pid = ask.players[0]
        most = ask.options.get("max", 0)
        stacks = ask.options.get("stacks")
        if not stacks:  # The Court card
            return self.replenish_custom(ask)
        who = self.name(pid)
        full = {"type": "court_replenished", "player": pid, "from_provinces": most, "from_regions": {}}
        ability = self._played_ability(pid)
        # Power Shift: the played Modifier card's ability comes between the court and the card;
        # taking a card straight away passes it up.
        skip = [{"type": "modifier_ability_skipped", "player": pid}] if ability else []
        choices = [
            Choice(
                self.card_label(cid),
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
        choices.append(
            Choice("Other replenishment: fewer, or from the board", action="replenish_custom", style="quiet")
        )
        moved = f"{most} Caballero{'s' if most != 1 else ''} from the provinces to the court, then " if most else ""
        return Prompt(
            self.title(ask, f"{who} replenishes and takes an action card"),
            f"{who}: {moved}tap the action card taken."
            + (f" Taking a card passes up {ability.name}'s ability." if ability else ""),
            actor=pid,
            choices=choices,
        )

    def replenish_custom(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        most = ask.options.get("max", 0)
        return Prompt(
            self.title(ask, f"{self.name(pid)} replenishes"),
            f"Up to {most} from the provinces to the court. When the provinces run short, "
            "tap regions to take them from the board.",
            actor=pid,
            map_mode="count",
            areas=list(ask.options.get("regions", {})),
            limit=most,
            full=f"up to {_caballeros(most)} to {self.name(pid)}'s court this turn",
            steppers={"__provinces__": ("from the provinces", 0, most)},
            prefill={"__provinces__": most},
            confirm_empty=f"Move no Caballeros to {self.name(pid)}'s court?",
            on_counts=lambda counts: {
                "type": "court_replenished",
                "player": pid,
                "from_provinces": counts.pop("__provinces__", 0),
                "from_regions": counts,
            },
        )

    def _choose_action_card(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        choices = [
            Choice(self.card_label(cid), {"type": "action_card_chosen", "player": pid, "stack": int(s)})
            for s, cid in sorted(ask.options["stacks"].items(), key=lambda kv: int(kv[0]))
        ]
        return Prompt(
            self.title(ask, f"{self.name(pid)} takes an action card"),
            f"{self.name(pid)}: which card did you take?",
            actor=pid,
            choices=choices,
        )

    def _turn_action(self, ask: Ask, prefill_castillo: int = 0) -> Prompt:
        pid = ask.players[0]
        place, special = ask.options["place"], ask.options["special"]
        card = self.card(ask.card)
        prompt = Prompt(self.title(ask, f"{self.name(pid)} plays {card}"), actor=pid)
        hints = []
        # Nothing to place (an empty court, a card that places none): said, nothing highlighted
        empty = self._nothing_placeable(ask)
        if empty:
            hints.append(self._nothing_to_place(ask))
        elif place:
            where = " (the tower counts the Castillo)" if self._tower_counts(pid) else ""
            hints.append(
                "read the card's number of Caballeros off it to place them"
                if place.get("refused")
                else f"tap regions to place up to {place['max']} Caballero{'' if place['max'] == 1 else 's'}{where}"
            )
            prompt.map_mode, prompt.areas, prompt.limit = "count", self._placeable(place["areas"], pid), place["max"]
            prompt.full = self._placement_full(ask)
            prompt.prefill = {CASTILLO: prefill_castillo} if prefill_castillo else {}
            prompt.on_counts = lambda counts: {
                "type": "caballeros_placed",
                "player": pid,
                "placements": {a: c for a, c in counts.items() if c},
            }
        facts = (
            card_facts(self.board, ask.card)
            if self.board.rules == "2023"
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
            hints.append(special["text"])
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
            prompt.choices = self.nothing_placed_first(prompt.choices, pid)
            prompt.notes.append(
                "Nothing to place: the special action ends the turn. Should it bring Caballeros "
                'to the court, tap its "..., then place" instead.'
            )
        elif empty:  # the placement is all that is left of the turn: one tap, no question
            prompt.choices.append(Choice("Skip placing: the turn ends", _placed_nothing(pid), style="primary"))
        prompt.hint = f"{self.name(pid)}: " + ("; " if empty else "; or ").join(hints)
        if ask.options.get("special_first"):  # e.g. the Hurricane: its disc before any placement
            prompt.hint += f". Place Caballeros after it ({card}: {ask.options['special_first']})"
        if place and not special and not empty:
            # The placement is all that is left of the turn: the tap that fills it places them
            # (as "Do"/"Skip the special action" does when placing first); fewer take Confirm.
            prompt.auto_confirm = True
            prompt.hint += ": the last one places them (fewer: Confirm)"
        if place and not empty:
            prompt.confirm_empty = (
                f"Place no Caballeros and end {self.name(pid)}'s turn?"
                if not special
                else f"Place no Caballeros? {self.name(pid)} then does the special action."
            )
        return prompt

    def _veto(self, ask: Ask) -> Prompt:
        against = ask.options["against"]
        choices = []
        for p in ask.players:
            choices.append(Choice(f"{self.name(p)}: Veto!", {"type": "veto_used", "player": p}, style="primary"))
            choices.append(Choice(f"{self.name(p)}: no veto", {"type": "veto_waived", "player": p}))
        # Which action: several cards share a name (the classic "Special Scoring" cards).
        hint = (
            f"{self.name(against)} announces {self.card_label(ask.card)}. "
            f"{', '.join(self.name(p) for p in ask.players)} may veto it before anything of it is done."
        )
        if self._veto_2023():
            hint = (
                f"{self.name(against)} announces {self.card(ask.card)}. "
                f"{', '.join(self.name(p) for p in ask.players)}: decide now; a Veto prevents the whole special "
                "action, and none can stop it once it has begun."
            )
        return Prompt(
            self.title(ask, f"may anyone stop {self.name(against)}?"), hint, actor=ask.players[0], choices=choices
        )

    def _veto_2023(self) -> bool:
        return any(c.effect == "veto_2023" for c in self.board.cards.values())

    def _move_caballeros(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        o = ask.options
        prompt = Prompt(
            self.title(ask, f"{self.name(pid)} moves Caballeros"),
            f"{self.card(ask.card)}: tap a region to take from, then where it goes ({o['left']} left).",
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

    def _place_extra(self, ask: Ask, prefill_castillo: int = 0) -> Prompt:
        pid = ask.players[0]
        most = ask.options["max"]
        return Prompt(
            self.title(ask, f"{self.name(pid)} places extra Caballeros"),
            f"Tap any regions (not the King's) to place up to {most}, then Confirm.",
            actor=pid,
            map_mode="count",
            areas=self._placeable(ask.options["areas"], pid),
            limit=most,
            full=f"{self.card(ask.card) or 'The card'} places up to {_caballeros(most)} more",
            prefill={CASTILLO: prefill_castillo} if prefill_castillo else {},
            on_counts=lambda counts: {
                "type": "extra_caballeros_placed",
                "player": pid,
                "placements": {a: c for a, c in counts.items() if c},
            },
        )

    def _send_back(self, ask: Ask) -> Prompt:
        chooser = ask.players[0]
        owner, opts = next(iter(ask.options["owners"].items()))
        count = opts["count"]
        where = " or the court" if opts["court"] else ""
        # The King is Angry: each sends back their own; a name said once, however long
        whose = "their own" if owner == chooser else f"{self.name(owner)}'s"
        return Prompt(
            self.title(ask, f"{self.name(chooser)} sends {whose} Caballeros back"),
            f"Tap {count} of {whose} Caballeros to send to the provinces (from regions{where}), then Confirm.",
            actor=chooser,
            map_mode="count",
            areas=list(opts["regions"]),
            limit=count,
            full=f"{self.card(ask.card) or 'The card'}: {count} of {whose} Caballeros go back",
            steppers={"__court__": ("from the court", 0, opts["court"])} if opts["court"] else {},
            on_counts=lambda counts: {
                "type": "caballeros_sent_back",
                "player": chooser,
                "owner": owner,
                "from_court": counts.pop("__court__", 0),
                "from_regions": {a: c for a, c in counts.items() if c},
            },
        )

    PURPOSES = {
        "castillo_destination": "the region your Caballeros in the Castillo go to at this general scoring "
        "(the King's region sends them to your court)",
        "send_back": "the region you send Caballeros back to the provinces from",
        "eviction_destination": "where your Caballeros leave the evicted region to (the King's region or the "
        "same region: back to your court)",
        "special_scoring": "the region you want scored: it is scored only if nobody else picks it",
        "civil_war": "the region where you lose your Caballeros to Civil War (a region where you have at least one)",
    }
    # Said on the public screen: what the discs are for, never anyone's pick.
    PUBLIC_PURPOSES = {"civil_war": "Civil War: which region each loses"}

    def secret_purpose(self, ask: Ask, pid: str | None = None) -> str:
        """What a secret disc is for, in words, for the private pick screen (`pid`: its player)."""
        purpose = ask.options.get("purpose", "")
        words = self.PURPOSES.get(purpose, purpose.replace("_", " "))
        card = self.board.cards.get(ask.card) if ask.card else None
        if purpose == "civil_war" and card is not None:
            count = card.params.get("count")
            lost = f"{count} of your Caballeros" if count else "all your Caballeros"
            where = "to your court" if card.params.get("outcome") == "to_court" else "back to the provinces"
            words = f"the region where {lost} there go {where} (Civil War: a region where you have at least one)"
        if purpose == "eviction_destination" and card is not None and card.effect == "eviction":
            words = f"{card.name}: " + words
        if purpose == "castillo_destination" and pid is not None and self._grande_in_castillo(pid):
            words += "; your Grande leaves the Castillo with them (never to the King's region)"
        return words

    def _grande_in_castillo(self, pid: str) -> bool:
        return any(p.get("id") == pid and p.get("grande") == CASTILLO for p in self._public().get("players", []))

    def _secret_disc(self, ask: Ask) -> Prompt:
        purpose = self.PUBLIC_PURPOSES.get(ask.options["purpose"], ask.options["purpose"].replace("_", " "))
        choices = [Choice(f"{self.name(p)}: secret disc", action=f"secret:{p}") for p in ask.players]
        chosen = ask.options.get("chosen", [])
        done = f" Chosen: {', '.join(self.name(p) for p in chosen)}." if chosen else ""
        return Prompt(
            self.title(ask, f"secret discs ({purpose})"),
            f"Waiting for {', '.join(self.name(p) for p in ask.players)} to set their disc, on their "
            f"phone or here behind a private screen.{done}",
            choices=choices,
        )

    def secret_options(self, ask: Ask, pid: str) -> list[tuple[str, str]]:
        """(region id, name) a player may set the disc to: for the private screen only."""
        return [(r, self.area(r)) for r in ask.options["regions"][pid]]

    def _reveal_secret_discs(self, ask: Ask) -> Prompt:
        if ask.options.get("castillo_stays"):
            # Rebellion: the King stands by the Castillo; it is scored, nothing leaves it, no disc.
            return Prompt(
                self.title(ask, "the King stands by the Castillo"),
                "Nobody sets a disc: lift the Castillo, count and score it, then throw every Caballero back in.",
                choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
            )
        if ask.options["purpose"] == "castillo_destination":
            return Prompt(
                self.title(ask, "everyone has chosen"),
                "Lift the Castillo: open it and check the count.",
                choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
            )
        return Prompt(
            self.title(ask, "everyone has chosen"),
            "All discs are turned up together.",
            choices=[Choice("Reveal the discs", {"type": "secret_discs_revealed"}, style="primary")],
        )

    def count_castillo_prompt(self, ask: Ask) -> Prompt:
        """The Castillo scoring card's first step: lift the Castillo and count, then it is scored."""
        pid = ask.players[0]
        return Prompt(
            self.title(ask, f"{self.name(pid)} scores the Castillo"),
            "Lift the Castillo: open it and check the count; then it is scored (a Veto may still stop it).",
            actor=pid,
            choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
        )

    def _lift_castillo(self, ask: Ask) -> Prompt:
        """The Castillo scoring card, announced and let pass by every Veto holder: only now is the
        Castillo lifted and counted (the tower's count, checked), then scored."""
        pid = ask.players[0]
        return Prompt(
            self.title(ask, f"{self.name(pid)} scores the Castillo"),
            f"{self.card(ask.card)}: nobody stops it. Lift the Castillo: open it and check the count; "
            "then it is scored.",
            actor=pid,
            choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
        )

    def _count_castillo(self, ask: Ask) -> Prompt:
        return Prompt(
            self.title(ask, "everyone has chosen"),
            "Lift the Castillo: open it and check the count.",
            choices=[Choice("Open the Castillo", action="open_castillo", style="primary")],
        )

    def _choose_region(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        purpose = ask.options["purpose"].replace("_", " ")
        return Prompt(
            self.title(ask, f"{self.name(pid)} chooses a region"),
            f"{self.card(ask.card)}: tap the region ({purpose}).",
            actor=pid,
            map_mode="pick",
            areas=list(ask.options["regions"]),
            on_area=lambda a: {"type": "region_chosen", "player": pid, "region": a},
        )

    def _place_mobile_scoreboard(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        moves = ask.options["moves"]
        prompt = Prompt(
            self.title(ask, f"{self.name(pid)} places a mobile scoreboard"),
            "Choose the scoreboard, then tap where it goes.",
            actor=pid,
        )
        prompt.choices = [Choice(f"Scoreboard {sid}", action=f"mobile:{sid}") for sid in moves]
        return prompt

    def mobile_prompt(self, ask: Ask, sid: str) -> Prompt:
        pid = ask.players[0]
        if ask.kind == "place_scoring_tile":
            return Prompt(
                self.title(ask, f"{self.name(pid)} places {self.piece(sid)}"),
                "Tap the Scoring board it goes on (a region or the Castillo, not the King's).",
                actor=pid,
                map_mode="pick",
                areas=list(ask.options["moves"][sid]),
                on_area=lambda a: {"type": "scoring_tile_placed", "player": pid, "tile": sid, "area": a},
            )
        return Prompt(
            self.title(ask, f"{self.name(pid)} places scoreboard {sid}"),
            "Tap where it goes.",
            actor=pid,
            map_mode="pick",
            areas=list(ask.options["moves"][sid]),
            on_area=lambda a: {"type": "mobile_scoreboard_placed", "player": pid, "scoreboard": sid, "area": a},
        )

    def piece(self, sid: str) -> str:
        """A mobile scoreboard ("the 8-4-0 scoreboard") or a 2023 Scoring tile ("Scoring tile A, 8·4·0")."""
        tiles = getattr(self.board, "scoring_tiles", {})
        if sid in tiles:
            letter = sid.removeprefix("tile_").upper()
            values = tiles[sid]
            return f"Scoring tile {letter}" + (f" ({'·'.join(map(str, values))})" if values else "")
        return f"the {sid} scoreboard"

    def _place_scoring_tile(self, ask: Ask) -> Prompt:
        """Enactment: one of the two Scoring tiles onto a free Scoring board (or moved)."""
        pid = ask.players[0]
        moves = ask.options["moves"]
        if len(moves) == 1:
            return self.mobile_prompt(ask, next(iter(moves)))
        prompt = Prompt(
            self.title(ask, f"{self.name(pid)} places a Scoring tile"),
            "Choose the Scoring tile, then tap the Scoring board it goes on.",
            actor=pid,
        )
        prompt.choices = [
            Choice(self.piece(tid)[0].upper() + self.piece(tid)[1:], action=f"mobile:{tid}") for tid in moves
        ]
        return prompt

    def _place_anywhere(self, ask: Ask) -> Prompt:
        """Militia: exactly `count` Caballeros from the court to any regions but the King's."""
        pid = ask.players[0]
        n = ask.options["count"]
        return Prompt(
            self.title(ask, f"{self.name(pid)} places {self.card(ask.card)}"),
            f"{self.card(ask.card)}: tap regions (any but the King's; not the Castillo) to place "
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

    def _move_king_with_entourage(self, ask: Ask) -> Prompt:
        """Entourage: the King and `count` Caballeros of his region move in one step. When who
        goes with him leaves no choice, one tap on the new region; else choose the group first."""
        pid = ask.players[0]
        splits = self._entourage_splits(ask)
        if len(splits) <= 1:
            return self.entourage_prompt(ask, splits[0] if splits else {})
        prompt = Prompt(
            self.title(ask, f"{self.name(pid)} moves the King with his entourage"),
            f"{self.card(ask.card)}: {ask.options['count']} Caballeros of {self.area(ask.options['from'])} "
            "go with the King. Whose? Then tap the King's new region.",
            actor=pid,
        )
        prompt.choices = [
            Choice(self._split_words(split), action="sub:entourage:" + _split_key(split)) for split in splits
        ]
        return prompt

    def _entourage_splits(self, ask: Ask) -> list[dict[str, int]]:
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

    def _split_words(self, split: dict[str, int]) -> str:
        return " and ".join(f"{c} of {self.name(p)}'s" for p, c in split.items()) or "nobody"

    def _going_words(self, split: dict[str, int]) -> str:
        """Whose Caballeros go with the King, as a sentence's subject and verb."""
        parts = [f"{c} of {self.name(p)}'s" for p, c in split.items() if c]
        if not parts:
            return "no Caballero goes"
        return " and ".join(parts) + (" Caballero goes" if sum(split.values()) == 1 else " Caballeros go")

    def entourage_prompt(self, ask: Ask, split: dict[str, int]) -> Prompt:
        pid = ask.players[0]
        going = self._going_words(split)
        return Prompt(
            self.title(ask, f"{self.name(pid)} moves the King with his entourage"),
            f"{self.card(ask.card)}: tap the King's new region; {going} with him from "
            f"{self.area(ask.options['from'])}.",
            actor=pid,
            map_mode="pick",
            areas=list(ask.options["regions"]),
            on_area=lambda a: {"type": "entourage_moved", "player": pid, "region": a, "caballeros": dict(split)},
        )

    def _swap_pieces(self, ask: Ask) -> Prompt:
        """Stand-in: one button per swap the card allows now."""
        pid = ask.players[0]
        choices = []
        for pair in ask.options["pairs"]:
            pieces = (["the King"] if pair["king"] else []) + [f"{self.name(q)}'s Grande" for q in pair["grandes"]]
            label = "Swap " + " and ".join(pieces)
            choices.append(
                Choice(
                    label[0].upper() + label[1:],
                    {"type": "pieces_swapped", "player": pid, "king": pair["king"], "grandes": pair["grandes"]},
                )
            )
        return Prompt(
            self.title(ask, f"{self.name(pid)} swaps two pieces"),
            f"{self.card(ask.card)}: which two pieces change places?",
            actor=pid,
            choices=choices,
        )

    # ---- steps within a prompt, and private picks ------------------------------------------------

    def sub_prompt(self, ask: Ask, key: str) -> Prompt:
        """The prompt a "sub:<key>" choice shows in place of the current one ("" : the current one)."""
        kind, _, arg = key.partition(":")
        if kind == "modifier" and arg in self.modifiers:
            return self.modifier_power_prompt(ask, arg)
        if kind == "entourage":
            return self.entourage_prompt(ask, _split_from_key(arg))
        return self.build(ask)

    def private_pick(self, ask: Ask, pid: str) -> PrivatePick | None:
        """What `pid` chooses in private now, or None. For their phone or the private screen only."""
        o = ask.options
        if pid not in ask.players:
            chosen_again = ask.kind in PRIVATE_KINDS and pid in o.get("chosen", ())
            if not chosen_again or ask.kind == "deal_modifiers":
                return None  # a disc or a pass may be changed until everyone has chosen
        if ask.kind == "secret_disc":
            regions = (o.get("regions") or {}).get(pid)
            if regions is None:
                return None
            return PrivatePick(
                pid,
                ask.kind,
                "Your secret disc",
                "Set your disc to " + self.secret_purpose(ask, pid) + ".",
                [(r, self.area(r)) for r in regions],
            )
        if ask.kind == "deal_modifiers":
            return PrivatePick(
                pid,
                ask.kind,
                "Your Modifier cards",
                "Tap the three Modifier cards you were dealt. Nobody else sees them.",
                [(m, self.modifier_label(m)) for m in self._modifier_order() if m in o["modifiers"]],
                count=o.get("count", 3),
            )
        if ask.kind == "pass_modifier":
            hand = (o.get("hands") or {}).get(pid)
            if hand is None:
                return None
            to = self.name((o.get("to") or {}).get(pid, ""))
            return PrivatePick(
                pid,
                ask.kind,
                "Pass a Modifier card",
                f"Choose the Modifier card you pass face down to {to}. It can be changed until everyone has chosen.",
                [(m, self.modifier_label(m)) for m in hand],
            )
        if ask.kind == "take_back_power_card":
            options = [(str(c), f"Power card {c}") for c in o["cards"]]
            options += [(MODIFIER_PREFIX + m, self.modifier_label(m)) for m in o.get("modifiers", ())]
            return PrivatePick(pid, ask.kind, "Take a card back", "It goes back to your hand unseen.", options)
        return None

    def _take_back_power_card(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        # Power Shift: a played Modifier card may come back instead (the private pick offers both).
        action = f"private:{pid}" if self.modifiers else f"powerback:{pid}"
        return Prompt(
            self.title(ask, f"{self.name(pid)} takes back a Power card"),
            "Secret: the card goes back to the hand unseen.",
            actor=pid,
            choices=[Choice(f"{self.name(pid)} picks here", action=action)],
            private_for=pid,
        )

    def power_back_choices(self, ask: Ask) -> list[Choice]:
        pid = ask.players[0]
        return [
            Choice(str(c), {"type": "power_card_taken_back", "player": pid, "card": c}) for c in ask.options["cards"]
        ]

    def _move_grande(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        areas = list(ask.options["regions"])
        make = lambda a: {"type": "grande_moved", "player": pid, "region": a}  # noqa: E731
        prompt = Prompt(
            self.title(ask, f"{self.name(pid)} moves their Grande"),
            "Tap the Grande's new region.",
            actor=pid,
            map_mode="pick",
            areas=areas,
            on_area=make,
        )
        if areas == [CASTILLO]:  # Competition
            prompt.hint = f"{self.card(ask.card)}: {self.name(pid)} throws their Grande into the Castillo."
            prompt.choices = [
                Choice(f"Throw {self.name(pid)}'s Grande into the Castillo", make(CASTILLO), style="primary")
            ]
        return prompt

    def _move_king(self, ask: Ask) -> Prompt:
        pid = ask.players[0]
        areas = list(ask.options["regions"])
        make = lambda a: {"type": "king_moved", "player": pid, "region": a}  # noqa: E731
        prompt = Prompt(
            self.title(ask, f"{self.name(pid)} moves the King"),
            "Tap the King's new region.",
            actor=pid,
            map_mode="pick",
            areas=areas,
            on_area=make,
        )
        # Places that are not regions (Rebellion: beside the Castillo; Exile: France, Portugal)
        # are buttons too, whatever the map draws.
        others = [a for a in areas if a not in self.board.region_ids]
        for a in others:
            label = "The King stands beside the Castillo" if a == CASTILLO else f"The King goes to {self.area(a)}"
            prompt.choices.append(Choice(label, make(a), style="primary"))
        if others and len(others) == len(areas):
            prompt.hint = (
                f"{self.card(ask.card)}: the King stands beside the Castillo, which becomes his region."
                if others == [CASTILLO]
                else f"{self.card(ask.card)}: the King goes to " + " or ".join(self.area(a) for a in others) + "."
            )
        return prompt

    def _play_round(self, ask: Ask) -> Prompt:
        last = ask.options.get("general_scoring_next")
        return Prompt(
            self.title(ask, "the table plays"),
            "Play the round on the board. Enter the board before a scoring; "
            + ("a general scoring follows this round." if last else "then finish the round."),
            choices=[
                Choice("Enter the board", action="enter_board"),
                Choice("Special scoring", action="special_scoring"),
                Choice("Round finished", {"type": "round_finished"}, style="primary"),
            ],
        )

    def _game_over(self, ask: Ask) -> Prompt:
        winners = ask.options.get("winners", [])
        return Prompt(
            f"Game over - El Grande: {' and '.join(self.name(p) for p in winners)}",
            choices=[Choice("Final standings", action="standings", style="primary")],
        )

    def special_scoring_choices(self, ask: Ask) -> list[Choice]:
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
        out += [Choice(self.area(r), {"type": "special_scored", "kind": f"region:{r}"}) for r in self.board.region_ids]
        return out


def _split_key(split: dict[str, int]) -> str:
    return ",".join(f"{p}={c}" for p, c in split.items())


def _split_from_key(key: str) -> dict[str, int]:
    out = {}
    for part in filter(None, key.split(",")):
        owner, _, count = part.partition("=")
        if count.isdigit():
            out[owner] = int(count)
    return out
