"""King and Intrigue's box table on Your cards: each card fact a cell, entered by taps (no Kivy).

Each Power card is a row (`KICardRow`: what is known and what is still to enter) and each fact
a `BoxCell`: chips (one tap each) or a stepper, a value typed on a keypad; the Action cards'
numbers are a row of chips per player count. `taps_to` counts the taps a fact takes (the
tablet driver's goals). The cells are entered through companion.table_rules.ki_cards.KICardsDraft,
which checks and saves each one; the screen (companion/ui/screens/ki_cards.py) shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from companion.words import N_, _, names
from engine.rules.king_intrigue.cards import EITHER_MODULE, KI_EFFECT_PARAMS, MODULE_IDS

MODULE_WORDS = {
    "players-edition": "Player's Edition",  # a module's name: names.module where shown
    "special-cards": "Special cards",
    EITHER_MODULE: N_("Player's Edition or Special cards: the symbol on each card says which"),
}
COURT_CHOICES = tuple(range(0, 9))  # Caballeros a Power card brings to the court, one tap each
MOST_PLACED = 10
# The Action cards held by rank, by id; the English messages, translated where shown (_(name)).
ACTION_NAMES = {"intrigue": N_("Intrigue card"), "caballero": N_("Caballero card"), "kings_card": N_("King's Card")}

# "The 60, 100, 110, 120, 150, and 170 cards trigger a special scoring and are identical to
# those Action cards found in the base game": which one each is, chosen from the base game's.
SCORINGS = (
    ("score_group", {"group": "4"}, N_('all "4" regions')),
    ("score_group", {"group": "5"}, N_('all "5" regions')),
    ("score_group", {"group": "6-7"}, N_('all "6-7" regions')),
    ("score_castillo", {}, N_("the Castillo")),
    ("score_chosen_region", {}, N_("a region of your choice")),
    ("score_first_only", {}, N_("1st place only, all regions")),
    ("score_most", {}, N_("the region(s) with the most Caballeros")),
    ("score_least", {}, N_("the region(s) with the fewest Caballeros")),
    ("disc_scoring", {}, N_("the regions picked on secret discs")),
)
# The 30 card: "This does not affect you. It only affects your opponents." The base game's
# cards that act on the opponents only, one of which the table reads off its card.
OPPONENT_EFFECTS = (
    ("decay", N_("Decay: opponents send Caballeros from their courts back")),
    ("king_is_angry", N_("The King is angry: opponents each send Caballeros back")),
    ("disc_send_back", N_("Secret disc: opponents send back from the region on their disc")),
    ("one_of_each_back", N_("One of each: 1 Caballero of each opponent back")),
    ("eviction", N_("Eviction: opponents leave a region you choose")),
)
# A word parameter's choices on Your cards (engine KI_EFFECT_PARAMS), in the card's terms
WORD_LABELS = {
    "send_back": N_("back to the province"),
    "to_court": N_("to their court"),
    "round": N_("until the end of the round"),
    "general_scoring": N_("until the next general scoring"),
}


def param_spec(effect: str | None, name: str) -> tuple:
    """("choice", words) or ("int", least, most) for a King and Intrigue card's parameter."""
    low, high, _given = KI_EFFECT_PARAMS.get(effect or "", {}).get(name, (1, 10, True))
    if isinstance(low, tuple):
        return ("choice", low)
    return ("int", low, high)


COUNTED = {"decay": 3, "king_is_angry": 3, "disc_send_back": 3}  # an effect's count, started at 3

# The box table's chips: one tap a fact. Short words (the row's label then says it in full).
SCORING_CHIPS = (
    '"4"',
    '"5"',
    '"6-7"',
    "Castillo",
    N_("Your choice"),
    N_("1st only"),
    N_("Most"),
    N_("Fewest"),
    N_("Discs"),
)
OPPONENT_CHIPS = {
    "decay": N_("Decay"),
    "king_is_angry": N_("King angry"),
    "disc_send_back": N_("Disc: back"),
    "one_of_each_back": N_("One of each"),
    "eviction": N_("Eviction"),
}
PLACE_CHOICES = tuple(range(0, MOST_PLACED + 1))  # Caballeros an Action card places, one tap each
MOST_CHIPS = 11  # a number parameter with at most this many values: chips


@dataclass(frozen=True)
class BoxCell:
    """One fact of the box table and how it is tapped: chips (one tap each) or a stepper.

    `field`: "court", "module", "scoring" (chip value: index in SCORINGS), "opponents" (an effect),
    "param:<name>", "value" (typed: its digits, then Set), "place:<players>:<index>".
    `now` is what is entered (None: not yet); a stepper's first tap gives `low`."""

    card: str
    field: str
    caption: str
    chips: tuple = ()  # ((value, label), ...); empty: a stepper
    now: Any = None
    low: int = 0
    high: int = 0

    @property
    def key(self) -> str:
        """What the screen's buttons are known by (tests find them): "court:ki_10", "param:ki_140:foreign"."""
        if not self.card:
            return self.field
        what, _sep, name = self.field.partition(":")
        return f"{'effect' if what == 'opponents' else what}:{self.card}" + (f":{name}" if name else "")


def card_cells(row: KICardRow) -> list[BoxCell]:
    """A Power card's row in the box table: its Caballeros to the court, then what it still asks."""
    out = [BoxCell(row.id, "court", _("to the court"), tuple((n, str(n)) for n in COURT_CHOICES), row.court)]
    if row.ask_module:  # the text does not say: the symbol on the table's card does
        chosen = row.module if row.module in MODULE_IDS else None
        modules = tuple((m, names.module(MODULE_WORDS[m])) for m in MODULE_IDS)
        out.append(BoxCell(row.id, "module", _("its module"), modules, chosen))
    if row.ask_value:  # typed on a keypad: its digits, then Set
        out.append(BoxCell(row.id, "value", _("its value"), (), row.value, 1, 999))
    if row.ask_effect == "scoring":
        chosen = next(
            (
                i
                for i, (e, p, _words) in enumerate(SCORINGS)
                if e == row.effect and all(row.params.get(k) == v for k, v in p.items())
            ),
            None,
        )
        chips = tuple((i, _(w)) for i, w in enumerate(SCORING_CHIPS))
        out.append(BoxCell(row.id, "scoring", _("scores"), chips, chosen))
    elif row.ask_effect == "opponents":
        effect = row.effect if row.effect in OPPONENT_CHIPS else None
        chips = tuple((e, _(w)) for e, w in OPPONENT_CHIPS.items())
        out.append(BoxCell(row.id, "opponents", _("its action"), chips, effect))
        if row.effect in COUNTED:
            out.append(BoxCell(row.id, "param:count", _("how many"), (), row.params.get("count"), 1, 30))
    for name in row.ask_params:
        spec, value = param_spec(row.effect, name), row.params.get(name)
        caption = _(PARAM_CAPTIONS[name]) if name in PARAM_CAPTIONS else name
        if spec[0] == "choice":
            chips = tuple((w, _(WORD_LABELS[w]) if w in WORD_LABELS else w.replace("_", " ")) for w in spec[1])
            out.append(BoxCell(row.id, f"param:{name}", caption, chips, value))
        elif spec[2] - spec[1] < MOST_CHIPS:
            chips = tuple((n, str(n)) for n in range(spec[1], spec[2] + 1))
            out.append(BoxCell(row.id, f"param:{name}", caption, chips, value))
        else:
            out.append(BoxCell(row.id, f"param:{name}", caption, (), value, spec[1], spec[2]))
    return out


PARAM_CAPTIONS = {
    "foreign": N_("foreign moved"),
    "outcome": N_("Caballeros go"),
    "place": N_("placed"),
    "until": N_("stays"),
    "seats": N_("seats"),
}


class Placements(Protocol):
    """What the placement row is read from (companion.table_rules.ki_cards.KICardsDraft)."""

    def placements(self, players: int) -> list[int | None]: ...


def placement_cells(draft: Placements, players: int) -> list[BoxCell]:
    """What each Action card places with `players` players, left to right: one chip row each."""
    row = draft.placements(players)
    cards = action_card_names(players)
    return [
        BoxCell(
            "",
            f"place:{players}:{i}",
            _("{players} players: {card}").format(players=players, card=cards[i]),
            tuple((n, str(n)) for n in PLACE_CHOICES),
            row[i],
        )
        for i in range(players)
    ]


def action_card_names(players: int) -> list[str]:
    """The Action cards of a game, left to right: the Intrigue card, the Caballero cards, the King's Card."""
    caballero = _(ACTION_NAMES["caballero"])
    middle = [f"{caballero} {i + 1}" if players > 3 else caballero for i in range(players - 2)]
    return [_(ACTION_NAMES["intrigue"]), *middle, _(ACTION_NAMES["kings_card"])]


def stepped(cell: BoxCell, delta: int):
    """A stepper cell's value after one tap of `delta` (as the screen steps it)."""
    if cell.now is None:
        return cell.low
    return max(cell.low, min(cell.high, cell.now + delta))


def typed(digits: str, key: str) -> str:
    """A value's keypad: the digits typed so far after one more key ("clear" starts again; a
    4th digit is not taken: values are 1..999)."""
    if key == "clear":
        return ""
    return digits if len(digits) >= 3 or (not digits and key == "0") else digits + key


def taps_to(cell: BoxCell, target) -> int:
    """Taps that enter `target` in this cell: a chip 1 (0 if it is on); a value its digits and
    Set; a stepper its steps."""
    if cell.now == target:
        return 0
    if cell.chips:
        if target not in {v for v, _ in cell.chips}:
            raise ValueError(f"{cell.card or cell.field}: {target!r} is not one of its chips")
        return 1
    if not cell.low <= target <= cell.high:
        raise ValueError(f"{cell.card or cell.field}: {target!r} is outside {cell.low}..{cell.high}")
    if cell.field == "value":
        return len(str(target)) + 1
    return 1 + abs(target - cell.low) if cell.now is None else abs(target - cell.now)


@dataclass(frozen=True)
class KICardRow:
    """One Power card as Your cards shows it: what is known and what is still to enter."""

    id: str
    name: str
    value: int | None
    module: str | None
    court: int | None
    effect: str | None
    params: dict
    text: str
    source: str
    left_out: bool  # a module card this engine does not play: in the box
    ask_value: bool  # the value is not published: a stepper
    ask_effect: str  # "" | "scoring" | "opponents": the card's action is chosen
    ask_params: tuple[str, ...]  # parameters still to give (the 140 card's foreign count)
    unknown: tuple[str, ...] = ()  # fields not entered yet
    ask_module: bool = False  # the text does not say its module: two taps, the card's symbol

    @property
    def group(self) -> str | None:
        """Where Your cards lists it: its module, or with the cards whose module the table gives."""
        return EITHER_MODULE if self.ask_module else self.module

    @property
    def label(self) -> str:
        value = "?" if self.value is None else str(self.value)
        return _("{value} {card}").format(value=value, card=names.card(self.name))

    @property
    def effect_words(self) -> str:
        for effect, params, words in SCORINGS:
            if effect == self.effect and all(self.params.get(k) == v for k, v in params.items()):
                return _("Special scoring: {what}").format(what=_(words))
        for effect, words in OPPONENT_EFFECTS:
            if effect == self.effect:
                count = self.params.get("count")
                return _("{action} ({n})").format(action=_(words), n=count) if count else _(words)
        return ""
