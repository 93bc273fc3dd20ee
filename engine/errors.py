"""Typed errors. A refused input raises RuleViolation naming the rule it breaks; the state is
left exactly as it was.

The engine speaks no language. A refusal is a rule id (a key of RULES) and a sentence in no
language yet (`Said`): an English template with named placeholders, and the named values that
fill it. The companion renders it in the table's language (companion/words/refusals.py: the
template and each RULES reading are catalogue messages, domain "refusals"); everything that reads
`.detail` or `str(exc)` gets the English sentence, exactly as before.

    raise RuleViolation("grande", "the Grande already stands in {region}", region=Place(name))

Values, and how the companion shows each kind:
- `Place` (a region, the Castillo, France, Portugal: its English name, the engine's id of
  meaning) and `Card` (a card's English name): str subclasses, shown as the table's edition
  prints them (companion.words.names.place / card); `CardText`, what a card says (names.card_text). `area_name` and `card_name` in
  engine/primitives.py hand them out.
- a `Said` (a phrase of the engine's own, marked N_ where it is written): translated in turn and
  put in place (a reason, a thing being done: "move Caballeros out of").
- lists, tuples and sets: each item shown by its kind, joined with ", " in English.
- numbers: as numbers; any other str (an id, a player's name, a colour id): as it is.
A count that changes the words is a `plural("...{n} Caballero...", "...{n} Caballeros...", "n")`
template: the language's plural rule picks the form by the value named "n".

`N_` marks an English message for the catalogue where it is written (the RULES readings, a
phrase passed on to a check); it changes nothing. companion/words/tool.py's KEYWORDS find the
templates of RuleViolation(...), Said(...) and plural(...) calls."""

from __future__ import annotations

from typing import Any, NamedTuple


def N_(message: str) -> str:
    """Marks an English message for the catalogue (domain "refusals"); translated where shown."""
    return message


class Place(str):
    """The English name of a region, the Castillo, France or Portugal, as a refusal's value."""


class Card(str):
    """The English name of a card, as a refusal's value."""


class CardText(str):
    """What a card says, in English (its data file's words), as a refusal's value."""


class Plural(NamedTuple):
    """A template whose words follow a count: the value named `count` picks the form."""

    singular: str
    plural: str
    key: str = "n"


def plural(singular: str, plural_: str, key: str = "n") -> Plural:
    """A template whose words follow the count `values[key]` (the language's plural rule)."""
    return Plural(singular, plural_, key)


Template = str | Plural


def english_value(value: Any) -> Any:
    """A value as the English sentence shows it (lists joined with ", ")."""
    if isinstance(value, (list, tuple, set, frozenset)) and not isinstance(value, Plural):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return ", ".join(str(english_value(v)) for v in items)
    return value


def pick(template: Template, values: dict[str, Any]) -> str:
    """The English form of a template: a plural's form by English's rule (1: singular)."""
    if isinstance(template, Plural):
        return template.singular if values[template.key] == 1 else template.plural
    return template


class Said(str):
    """A sentence (or a phrase) in no language yet: `template` and its named `values`. As a str
    it is the English sentence, so code and tests that read it as text read English."""

    template: Template
    values: dict[str, Any]

    def __new__(cls, template: Template, **values: Any) -> Said:
        if isinstance(template, Said) and not values:  # said already
            return template
        text = pick(template, values).format(**{k: english_value(v) for k, v in values.items()})
        said = super().__new__(cls, text)
        said.template, said.values = template, values
        return said

    def __reduce__(self) -> tuple:
        return (_said, (self.template, self.values))


def _said(template: Template, values: dict[str, Any]) -> Said:
    return Said(template, **values)


# Short citations of the rules the engine enforces, keyed by a stable id.
RULES: dict[str, str] = {
    "phase-order": N_("each phase happens in its order; only the asked input is accepted now"),
    "turn-order": N_("the player asked now acts; others wait their turn"),
    "setup": N_("setup: 2 to 5 players, distinct colours and home regions, the King not in a home region"),
    "reveal": N_("Reveal: one card is turned up from each of stacks 1-4 (the King's card is always up)"),
    "power-card-in-hand": N_("Power cards: each card is played once per game, from your hand"),
    "power-card-distinct": N_("Power cards: a value already played this round may not be played"),
    "replenish-limit": N_("Replenishment: up to the number on your Power card moves from the provinces to the court"),
    "replenish-from-board": N_(
        "Replenishment: Caballeros come from the board only when the provinces run short, never from the Castillo"
    ),
    "action-card-available": N_("Action cards: choose one of the face-up cards still on the table"),
    "placement-limit": N_("Placement: up to the number on the Action card, only from your court"),
    "placement-area": N_("Placement: only into regions adjacent to the King's region, or into the Castillo"),
    "kings-region-taboo": N_("The King's region is taboo: nothing moves into or out of it except the King"),
    "castillo-no-removal": N_("Caballeros are never taken out of the Castillo (until a general scoring)"),
    "either-order": N_("Placement and special action are done in either order, each completed before the other"),
    "special-action": N_("Special action: do as much of it as the card says, exactly as stated"),
    "veto": N_("Veto: once, in the round taken or the next, stop all or the rest of another player's special action"),
    "secret-disc": N_("Secret disc: each player picks a region the card allows; all are revealed together"),
    "mobile-scoreboard": N_(
        "Mobile scoreboards: one per area, never onto each other, never into or out of the King's region"
    ),
    "grande": N_("Grande: may move to any region but the King's region and the Castillo"),
    "king-move": N_("The King moves only by the King's card (anywhere) or the Royal Advisor (to an adjacent region)"),
    "castillo-count": N_(
        "General scoring: the Castillo is lifted and what is inside is counted; nobody owns more than 30 Caballeros"
    ),
    "correction": N_(
        "A table correction: each player owns 30 Caballeros; a correction is made between steps, never midway through a special action or a scoring"
    ),
    "game-over": N_("The game has ended after the last general scoring"),
    "unknown-id": N_("ids must name a player, region or card of this game"),
    "card-set": N_("The card set is completed from the table's own box, in the card-file vocabulary, between steps"),
    # 2023 edition (engine/effects/, engine/queries.py)
    "not-a-region": N_(
        "France and Portugal are not regions: no Caballero, Grande or Scoring tile goes there, only the King (Exile)"
    ),
    "board-fact-missing": N_(
        "A fact the rule book does not publish is entered by the table from its own board before it is needed"
    ),
    "card-fact-missing": N_(
        "What a card does that the rule book does not say is entered by the table from its own card"
    ),
    "king-move-2023": N_(
        "The King moves only as a card says: Your Majesty to any region, Exile to France or Portugal, "
        "Rebellion next to the Castillo, Chalet to the region with the fewest Caballeros, Entourage and Stand-in as stated"
    ),
    "militia": N_("Militia: the card's Caballeros from your court to any region(s) but the King's, never the Castillo"),
    "entourage": N_(
        "Entourage: the King moves and the card's number of Caballeros of his region go with him, as many as there are"
    ),
    "grande-castillo": N_("Competition: only this card throws a Grande into the Castillo; Adopted Home never does"),
    "stand-in": N_("Stand-in: two pieces swap only if both stand in regions (not France, Portugal or the Castillo)"),
    "scoring-tile": N_(
        "Scoring tiles: one per Scoring board, placed or moved only by Enactment, never into or out of the King's region"
    ),
    # 2023 rule modules (engine/rules/)
    "dummy-region-cards": N_(
        "2 players, the dummy: each round 2 Region cards from the draw pile, none once all 30 of its Caballeros are out; all reshuffled after each general scoring"
    ),
    "dummy-power-card": N_("2 players, the dummy: its shuffled Power cards are turned up one a round, each once"),
    "dummy-action-card": N_("2 players, the dummy: it takes the remaining Action card with the most Caballeros"),
    "power-shift": N_(
        "Power Shift: three Modifier cards dealt to each player, one passed left; at most one played with a Power card"
    ),
    # King and Intrigue (engine/rules/king_intrigue/round.py)
    "card-set-incomplete": N_(
        "King and Intrigue: a game starts only when every card it uses is complete (values, Caballeros "
        "to the court, actions, what each Action card places), entered once from the table's own box"
    ),
    "power-cards-chosen": N_(
        "King and Intrigue setup: each player secretly keeps 13 different Power cards of their set; the "
        "rest leave the game unseen"
    ),
    "bridge": N_(
        "Bridge Construction: directly before your turn in following rounds, your own Caballeros move freely "
        "between the bridge's two regions"
    ),
    "board-entry": N_(
        "Scoring only: the board is entered as it lies, every piece and marker where the rules let it be"
    ),
    "castillo-collapse": N_(
        "Risk of Collapse: while the tile lies on the Castillo nothing more goes in; what is inside stays and is scored"
    ),
}


# A refusal with the rule it cites: `str(RuleViolation)`, in English; in the table's language
# through companion/words/refusals.py.
CITED = N_("{detail} (rule: {rule})")


class EngineError(Exception):
    """Base class of the engine's errors."""


class RuleViolation(EngineError):
    """An input the rules refuse. `rule` is a key of RULES; `template` and the named `values`
    say why (see the module's docstring); `detail` is that sentence in English (a `Said`) and
    `str()` names it and the rule. `private`: (a player's id, a `Said` for that player alone)
    when the reason is their secret (a hand kept hidden): the public words then say nothing a
    secret would tell."""

    def __init__(
        self, rule: str, template: Template | Said, private: tuple[str, Said] | None = None, **values: Any
    ) -> None:
        if isinstance(template, Said):  # a sentence said elsewhere (a check's own words)
            values = {**template.values, **values}
            template = template.template
        self.rule = rule
        self.template: Template = template
        self.values = values
        self.detail = Said(template, **values)
        self.private = private
        super().__init__(CITED.format(detail=self.detail, rule=RULES[rule]))

    def __reduce__(self) -> tuple:
        return (_violation, (self.rule, self.template, self.private, self.values))


def _violation(
    rule: str, template: Template, private: tuple[str, Said] | None, values: dict[str, Any]
) -> RuleViolation:
    return RuleViolation(rule, template, private, **values)


def fact_refusal(rule: str, given: str | None, template: Template, **values: Any) -> RuleViolation:
    """A fact the rules need and nobody has entered: refused in the data file's own words when it
    has some (`given`, its "missing" note: English, the data files' language, shown as written),
    else in the engine's `template`."""
    if given:
        return RuleViolation(rule, given.replace("{", "{{").replace("}", "}}"))
    return RuleViolation(rule, template, **values)


# Refusals said together in one line (the reasons each of a card's options cannot start).
JOINED = N_("{said}; {more}")


def cited(error: RuleViolation) -> Said:
    """A refusal and the rule it cites as a sentence in no language yet: as a str exactly
    `str(error)` (English), JSON-safe where an ask's options are sent; the companion says it in
    the table's language (companion/words/refusals.py's said_words)."""
    return Said(CITED, detail=error.detail, rule=Said(RULES[error.rule]))


def joined(errors: list[RuleViolation]) -> Said | str:
    """Refusals cited one after another ("; " between them); "" when there are none."""
    said: Said | str = ""
    for error in errors:
        said = cited(error) if not said else Said(JOINED, said=said, more=cited(error))
    return said
