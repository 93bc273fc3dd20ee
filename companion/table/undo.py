"""What undo takes back, in the words of the step people saw, and why it asks first.

Undo asks (companion.input_errors.NeedsConfirmation) when what it takes back was seen by
everyone (a scoring, a reveal, the Castillo's counts) or was a private choice its player must
make again. The words come from companion.table.undo_words; the tables read here are
companion.table.authority.Table objects (the live one, and `trial`: a log-less replay without the input).
"""

from __future__ import annotations

from companion.table.outcome_titles import TitleWords
from companion.table.outcomes import OutcomeWords
from companion.table.undo_words import again_words, scoring_words, step_words
from companion.words import _
from companion.words import names as printed
from companion.words.colours import player_name

# Events after which everyone has seen something: undoing them asks first.
REVEALING = (
    "secret_discs_revealed",
    "castillo_counted",
    "action_cards_revealed",
    "special_scored",
    "dummy_region_cards_drawn",
    "dummy_power_card_revealed",
)


def describe(record: dict, names: dict[str, str], purpose: str | None = None, board=None) -> str:
    """A record in words, as the step people saw (companion.table.undo_words): for the undo button
    and its question. `purpose`: a secret disc's (K&I's setup disc is named so)."""
    kind = record["t"]
    if kind == "event":
        return step_words(record["e"], names, purpose, board)
    if kind == "assign":
        pid = record["player"]
        return _("drop given to {who}").format(who=player_name(names, pid) if names.get(pid) else pid)
    if kind == "dismiss":
        return _("drop dismissed")
    if kind == "keep":
        return _("flagged drop kept")
    if kind == "opened":
        return _("the Castillo opened")
    return kind


def reveals(record: dict) -> bool:
    return record["t"] == "event" and record["e"].get("type") in REVEALING


def disc_purpose(record: dict, table) -> str | None:
    """What a secret disc (or their reveal) was for: its question's purpose, else None.
    `table`: the table before the record (a reveal's purpose is gone after it)."""
    if record["t"] != "event" or record["e"].get("type") not in ("secret_disc_set", "secret_discs_revealed"):
        return None
    return table.asked().options.get("purpose")


def undo_question(table, trial, last: dict) -> tuple[str, list[str]]:
    """The step undo takes back, as people saw it, and why it asks first ([]: it need not).
    The step is what people saw: a scoring the input brought about (a Veto let pass that
    started the Castillo scoring) is named, not the input."""
    words = describe(last, table.names, disc_purpose(last, trial), table.board)
    (scorings, outcomes), (kept_scorings, kept_outcomes) = table.game.shown(), trial.game.shown()
    gone_scorings, gone_outcomes = scorings[len(kept_scorings) :], outcomes[len(kept_outcomes) :]
    step, why = words, []
    if gone_scorings:
        step = _(" and ").join(dict.fromkeys(scoring_words(t) for t in gone_scorings))
        why.append(_("everyone has already seen what it scored; its points and moves are taken back"))
    elif gone_outcomes and not reveals(last):
        titles = OutcomeWords(table.names, table.board).titles
        step = _(" and ").join(dict.fromkeys(_outcome_words(t, titles) for t in gone_outcomes))
        why.append(_("everyone has already seen what it revealed; what it moved is taken back"))
    elif reveals(last) or gone_outcomes:
        why.append(_("everyone has already seen what it revealed"))
    if step != words:
        why.append(_("undone with it: {step}").format(step=words))
    if last["t"] == "event":
        again = again_words(last["e"], table.names, disc_purpose(last, trial))
        if again:
            why.append(_("{again}, in private (on their phone, or here behind the private screen)").format(again=again))
    if table.log.opened_since(last):
        # A secret choice re-made after the Castillo's counts were seen is not a secret one.
        disc = last["t"] == "event" and last["e"]["type"] == "secret_disc_set"
        why.append(
            _("everyone has already seen the Castillo's counts; a secret disc chosen again now is chosen knowing them")
            if disc
            else _("everyone has already seen the Castillo's counts")
        )
    return step, why


def _outcome_words(title: str, titles: TitleWords) -> str:
    """An outcome as a step, in the table's language: "Round 2: the dummy's Region cards: ..." is
    "the dummy's Region cards", "Eviction, played by Ana" as it is (the engine's English title
    read back, companion.table.outcome_titles)."""
    if title.startswith("Round "):
        title = title.split(": ", 1)[-1]
    part = title.split(": ", 1)[0]
    shown = titles.told(part)
    return printed.card(part) if shown == part else shown


def undo_asks(step: str, why: list[str]) -> str:
    """The undo question: "Undo the Castillo scoring? Everyone has already seen what it scored."."""
    reasons = " ".join(w[:1].upper() + w[1:] + "." for w in why)
    return _("Undo {step}? {why}").format(step=step, why=reasons).rstrip()
