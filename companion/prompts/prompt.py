"""The shapes every prompt is made of: what the tablet offers now, as plain data (the phase
bar's words, the legal choices as buttons, and how taps on the map become an event), and a
private pick (what one player chooses in secret).

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
                    (card_words.effect_choices(rules) lists what a card may do; `Table.complete_card_set`)
Prompt.per_area caps the taps on one area (count mode); Prompt.auto_confirm submits a count
entry by itself once `limit` taps are in (the dummy's Region cards, Militia, a turn's placement
once the special action is done or skipped: the turn's last step); `entered_words` says what
went in, for the table to read (and undo).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from companion.words import N_, _, ngettext

# The phase bar's stage words (translated where shown: _(STAGE_WORDS[stage])).
STAGE_WORDS = {
    "reveal": N_("action cards"),
    "power": N_("power cards"),
    "replenish": N_("replenish the court"),
    "choose_card": N_("action cards"),
    "turn": N_("turn"),
    "veto_window": N_("veto"),
    "special": N_("special action"),
    "scoring_discs": N_("general scoring"),
    "over": N_("game over"),
    "play": N_("play the round"),
    # 2023 rule sets
    "dummy_regions": N_("the dummy's Region cards"),
    "dummy_power": N_("the dummy's Power card"),
    "dummy_card": N_("the dummy's Action card"),
    "modifiers_deal": N_("Modifier cards"),
    "modifiers_pass": N_("Modifier cards"),
    "modifier_ability": N_("Modifier ability"),
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
            raise ValueError(
                ngettext(
                    "pick {n} different option, not {given}", "pick {n} different options, not {given}", self.count
                ).format(n=self.count, given=len(values))
            )
        wrong = [v for v in values if v not in offered]
        if wrong:
            raise ValueError(_("{value} is not one of the options offered").format(value=repr(wrong[0])))
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


def first_sentence(text: str) -> str:
    """One line: a message's first sentence (a rule's reason is in its first)."""
    line = " ".join(text.split())
    cut = line.find(". ")
    return line[:cut] if cut > 0 else line.rstrip(".")


def placed_nothing(pid: str) -> dict:
    """The input of a placement that places nothing (the turn goes on)."""
    return {"type": "caballeros_placed", "player": pid, "placements": {}}


def caballeros_words(n: int) -> str:
    """ "1 Caballero", "3 Caballeros"."""
    return ngettext("{n} Caballero", "{n} Caballeros", n).format(n=n)


def signed(value: int) -> str:
    """A Modifier card's value as printed: "+1", "−2"."""
    return f"+{value}" if value > 0 else f"−{-value}"


def answers_now(ask, pid: str, may_change: bool = False) -> bool:
    """Whether `pid` answers `ask` now; `may_change`: one who has chosen may change it until
    everyone has (a disc, a pass)."""
    return pid in ask.players or (may_change and pid in ask.options.get("chosen", ()))
