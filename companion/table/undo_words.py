"""What Undo says, in the words of the step a person saw (never an event's internal name).

`step_words` names one input as the table saw it ("Ana's Power card", "the Action cards'
reveal"); `scoring_words` names a scoring as its page was headed ("the Castillo scoring");
`again_words` says what a player must choose again when their private choice is undone,
never what they had chosen. Pure Python: the table (companion.table.authority) builds its undo
question from these.
"""

from __future__ import annotations

import re

from companion.entry.correction_reasons import reason_words
from companion.history.scoring_words import scoring_what
from companion.words import N_, _, names
from companion.words.colours import player_name

# Event type -> the step, "{who}" the player who made it. Unlisted types read "{who}'s <type>".
STEP_WORDS = {
    "action_cards_revealed": N_("the Action cards' reveal"),
    "power_card_played": N_("{who}'s Power card"),
    "court_replenished": N_("{who}'s Caballeros to the court"),
    "action_card_chosen": N_("{who}'s Action card"),
    "caballeros_placed": N_("{who}'s Caballeros placed"),
    "special_action_started": N_("{who}'s special action"),
    "special_action_skipped": N_("{who}'s skipped special action"),
    "special_action_finished": N_("the end of {who}'s special action"),
    "caballeros_moved": N_("{who}'s move of a Caballero"),
    "extra_caballeros_placed": N_("{who}'s extra Caballeros placed"),
    "caballeros_sent_back": N_("{who}'s Caballeros sent back"),
    "secret_discs_revealed": N_("the secret discs' reveal"),
    "castillo_counted": N_("the Castillo's count"),
    "region_chosen": N_("{who}'s region"),
    "mobile_scoreboard_placed": N_("{who}'s mobile scoreboard"),
    "power_card_taken_back": N_("{who}'s card taken back"),
    "grande_moved": N_("{who}'s Grande moved"),
    "king_moved": N_("the King's move"),
    "veto_used": N_("{who}'s Veto"),
    "veto_waived": N_("{who} letting the special action pass, without a Veto"),
    "dummy_region_cards_drawn": N_("the dummy's Region cards"),
    "dummy_power_card_revealed": N_("the dummy's Power card"),
    "dummy_action_card_taken": N_("the dummy's Action card"),
    "modifiers_dealt": N_("{who}'s Modifier cards"),
    "modifier_passed": N_("{who}'s Modifier card to pass"),
    "modifier_ability_used": N_("{who}'s Modifier ability"),
    "modifier_ability_skipped": N_("{who}'s skipped Modifier ability"),
    "modifier_taken_back": N_("{who}'s card taken back"),
    "power_cards_chosen": N_("{who}'s kept Power cards"),
    "scoreboard_turned": N_("{who}'s scoreboard turned"),
    "scoring_tile_placed": N_("{who}'s Scoring tile"),
    "entourage_moved": N_("the King's move with his entourage"),
    "pieces_swapped": N_("{who}'s swap"),
    "card_set_completed": N_("the card set completed"),
    "board_facts_entered": N_("the board facts entered"),
    "token_removed": N_("{who}'s token removed"),
    # scoring only
    "board_entered": N_("the board entered"),
    "special_scored": N_("the special scoring"),
    "round_finished": N_("the round finished"),
}
# A secret disc by what it is for: K&I's setup disc is its own step at the table.
DISC_WORDS = {"setup_caballero": N_("setup disc")}

# Choices one player makes in private (phone or private screen): what they must do again.
AGAIN_WORDS = {
    "secret_disc_set": N_("{who} will have to set their {disc} again"),
    "power_cards_chosen": N_("{who} will have to choose their {kept} kept Power cards again"),
    "modifiers_dealt": N_("{who} will have to enter the Modifier cards they were dealt again"),
    "modifier_passed": N_("{who} will have to choose the Modifier card they pass again"),
    "power_card_taken_back": N_("{who} will have to choose the card they take back again"),
    "modifier_taken_back": N_("{who} will have to choose the card they take back again"),
}
PRIVATE_CHOICES = tuple(AGAIN_WORDS)

_GENERAL = re.compile(r"^General scoring after round (?P<round>\d+)$")
_SPECIAL = re.compile(r"^(?P<card>.+?) \((?P<what>.+)\), played by (?P<who>.+)$")


def _name(names: dict[str, str], pid: str) -> str:
    return player_name(names, pid)


def step_words(event: dict, names: dict[str, str], purpose: str | None = None, board=None) -> str:
    """One input (an event as logged) as the step the table saw; `purpose`: a secret disc's;
    `board`: the game's (a correction's reason names its areas as its edition prints them)."""
    kind = event["type"]
    who = _name(names, event.get("player", "")) if event.get("player") else ""
    if kind == "secret_disc_set":  # never which region
        if purpose in DISC_WORDS:
            return _("{who}'s setup disc").format(who=who)
        return _("{who}'s secret disc").format(who=who)
    if kind == "secret_discs_revealed" and purpose in DISC_WORDS:
        return _("the setup discs' reveal")
    if kind == "table_corrected":
        why = reason_words(event.get("reason") or "", names, board)
        return _("the table's correction ({why})").format(why=why) if why else _("the table's correction")
    if kind == "caballeros_moved" and (event.get("count") or 1) > 1:
        return _("{who}'s move of {n} Caballeros").format(who=who, n=event["count"])
    words = STEP_WORDS.get(kind)
    if words is None:  # an input no step words name: its id, spaced
        return _("{who}'s {step}").format(who=who, step=kind.replace("_", " ")) if who else kind.replace("_", " ")
    return _(words).format(who=who)


def scoring_words(title: str) -> str:
    """A scoring as its page is headed, as a step: "Special Scoring (the Castillo), played by Ana"
    is "the Castillo scoring (Ana's Special Scoring)"; "General scoring after round 3" is
    "the general scoring after round 3"."""
    match = _SPECIAL.match(title)
    if match is None and title.startswith("Special scoring: "):  # scoring only
        return _scoring_of(title.split(": ", 1)[1])
    if match is None:
        general = _GENERAL.match(title)
        if general:
            return _("the general scoring after round {round}").format(round=general["round"])
        return _("the {scoring}").format(scoring=title[:1].lower() + title[1:])
    # Translators: "the Castillo scoring (Ana's Special Scoring)"
    return _("{scoring} ({who}'s {card})").format(
        scoring=_scoring_of(match["what"].split(";")[0]), who=match["who"], card=names.card(match["card"])
    )


def _scoring_of(what: str) -> str:
    """ "the Castillo" -> "the Castillo scoring"; "Galicia" -> "the scoring of Galicia" (what was
    scored in the table's words: companion/history/scoring_words.py)."""
    if what.startswith("the "):
        return _("{what} scoring").format(what=scoring_what(what))
    return _("the scoring of {what}").format(what=scoring_what(what))


def again_words(event: dict, names: dict[str, str], purpose: str | None = None) -> str | None:
    """For a private choice: "Blue will have to choose their 13 kept Power cards again" (how
    many by the rules, never which); None for any other input."""
    words = AGAIN_WORDS.get(event["type"])
    if words is None:
        return None
    disc = _(DISC_WORDS.get(purpose or "", N_("secret disc")))
    kept = len(event.get("cards") or ())
    return _(words).format(who=_name(names, event["player"]), disc=disc, kept=kept)
