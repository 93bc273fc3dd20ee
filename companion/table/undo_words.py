"""What Undo says, in the words of the step a person saw (never an event's internal name).

`step_words` names one input as the table saw it ("Ana's Power card", "the Action cards'
reveal"); `scoring_words` names a scoring as its page was headed ("the Castillo scoring");
`again_words` says what a player must choose again when their private choice is undone,
never what they had chosen. Pure Python: the table (companion.table.authority) builds its undo
question from these.
"""

from __future__ import annotations

import re

# Event type -> the step, "{who}" the player who made it. Unlisted types read "{who}'s <type>".
STEP_WORDS = {
    "action_cards_revealed": "the Action cards' reveal",
    "power_card_played": "{who}'s Power card",
    "court_replenished": "{who}'s Caballeros to the court",
    "action_card_chosen": "{who}'s Action card",
    "caballeros_placed": "{who}'s Caballeros placed",
    "special_action_started": "{who}'s special action",
    "special_action_skipped": "{who}'s skipped special action",
    "special_action_finished": "the end of {who}'s special action",
    "caballeros_moved": "{who}'s move of a Caballero",
    "extra_caballeros_placed": "{who}'s extra Caballeros placed",
    "caballeros_sent_back": "{who}'s Caballeros sent back",
    "secret_discs_revealed": "the secret discs' reveal",
    "castillo_counted": "the Castillo's count",
    "region_chosen": "{who}'s region",
    "mobile_scoreboard_placed": "{who}'s mobile scoreboard",
    "power_card_taken_back": "{who}'s card taken back",
    "grande_moved": "{who}'s Grande moved",
    "king_moved": "the King's move",
    "veto_used": "{who}'s Veto",
    "veto_waived": "{who} letting the special action pass, without a Veto",
    "dummy_region_cards_drawn": "the dummy's Region cards",
    "dummy_power_card_revealed": "the dummy's Power card",
    "dummy_action_card_taken": "the dummy's Action card",
    "modifiers_dealt": "{who}'s Modifier cards",
    "modifier_passed": "{who}'s Modifier card to pass",
    "modifier_ability_used": "{who}'s Modifier ability",
    "modifier_ability_skipped": "{who}'s skipped Modifier ability",
    "modifier_taken_back": "{who}'s card taken back",
    "power_cards_chosen": "{who}'s kept Power cards",
    "scoreboard_turned": "{who}'s scoreboard turned",
    "scoring_tile_placed": "{who}'s Scoring tile",
    "entourage_moved": "the King's move with his entourage",
    "pieces_swapped": "{who}'s swap",
    "card_set_completed": "the card set completed",
    "board_facts_entered": "the board facts entered",
    "token_removed": "{who}'s token removed",
    # scoring only
    "board_entered": "the board entered",
    "special_scored": "the special scoring",
    "round_finished": "the round finished",
}
# A secret disc by what it is for: K&I's setup disc is its own step at the table.
DISC_WORDS = {"setup_caballero": "setup disc"}

# Choices one player makes in private (phone or private screen): what they must do again.
AGAIN_WORDS = {
    "secret_disc_set": "set their {disc} again",
    "power_cards_chosen": "choose their {kept} kept Power cards again",
    "modifiers_dealt": "enter the Modifier cards they were dealt again",
    "modifier_passed": "choose the Modifier card they pass again",
    "power_card_taken_back": "choose the card they take back again",
    "modifier_taken_back": "choose the card they take back again",
}
PRIVATE_CHOICES = tuple(AGAIN_WORDS)

_SPECIAL = re.compile(r"^(?P<card>.+?) \((?P<what>.+)\), played by (?P<who>.+)$")


def _name(names: dict[str, str], pid: str) -> str:
    return names.get(pid) or pid.title()


def step_words(event: dict, names: dict[str, str], purpose: str | None = None) -> str:
    """One input (an event as logged) as the step the table saw; `purpose`: a secret disc's."""
    kind = event["type"]
    who = _name(names, event.get("player", "")) if event.get("player") else ""
    if kind == "secret_disc_set":
        return f"{who}'s {DISC_WORDS.get(purpose or '', 'secret disc')}"  # never which region
    if kind == "secret_discs_revealed" and purpose in DISC_WORDS:
        return f"the {DISC_WORDS[purpose]}s' reveal"
    if kind == "table_corrected":
        why = event.get("reason") or ""
        return "the table's correction" + (f" ({why})" if why else "")
    if kind == "caballeros_moved" and (event.get("count") or 1) > 1:
        return f"{who}'s move of {event['count']} Caballeros"
    words = STEP_WORDS.get(kind)
    if words is None:
        words = "{who}'s " + kind.replace("_", " ") if who else kind.replace("_", " ")
    return words.format(who=who)


def scoring_words(title: str) -> str:
    """A scoring as its page is headed, as a step: "Special Scoring (the Castillo), played by Ana"
    is "the Castillo scoring (Ana's Special Scoring)"; "General scoring after round 3" is
    "the general scoring after round 3"."""
    match = _SPECIAL.match(title)
    if match is None and title.startswith("Special scoring: "):  # scoring only
        what = title.split(": ", 1)[1]
        return f"{what} scoring" if what.startswith("the ") else f"the scoring of {what}"
    if match is None:
        return "the " + title[:1].lower() + title[1:]
    what = match["what"].split(";")[0]
    step = f"{what} scoring" if what.startswith("the ") else f"the scoring of {what}"
    return f"{step} ({match['who']}'s {match['card']})"


def again_words(event: dict, names: dict[str, str], purpose: str | None = None) -> str | None:
    """For a private choice: "Blue will have to choose their 13 kept Power cards again" (how
    many by the rules, never which); None for any other input."""
    words = AGAIN_WORDS.get(event["type"])
    if words is None:
        return None
    disc = DISC_WORDS.get(purpose or "", "secret disc")
    kept = len(event.get("cards") or ())
    return f"{_name(names, event['player'])} will have to " + words.format(disc=disc, kept=kept)
