"""What a choice of the table screen opens (its `action`, "name:argument"): a sheet, a dialog,
a step within the prompt, another screen. One function per action, found through ACTIONS (the
screen's `act`), so grepping an action's name finds its code. Views only: what is offered comes
from the model's prompt builder, what is sent goes through the model. `screen` is the table screen
(typed as a Screen: this module is imported by it)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock
from kivy.uix.screenmanager import Screen

from companion.ui.dialogs.add_card import AddCard
from companion.ui.dialogs.board_facts import BoardFacts
from companion.ui.dialogs.card_facts import CardFacts
from companion.ui.dialogs.choice_list import ChoiceList
from companion.ui.dialogs.private_note import PrivateNote
from companion.ui.dialogs.private_pick import PrivatePick
from companion.ui.dialogs.private_question import PrivateQuestion
from companion.ui.dialogs.reveal_cards import RevealCards
from companion.ui.dialogs.secret_pick import SecretPick
from companion.ui.screens.table_board_edit import edit_board
from companion.words import _


def reveal_cards(screen: Screen, _arg: str) -> None:
    sheet = screen.reveal_sheet
    if sheet is not None and sheet.parent is not None:
        return  # already open (the prompt and the screen's entry both ask for it)
    if sheet is None:  # one sheet for the app's life, its card buttons kept (see RevealCards)
        sheet = screen.reveal_sheet = RevealCards()
    ask = screen.model.ask()
    if ask.kind != "reveal_action_cards":
        return  # entered meanwhile (a phone, another input before this frame): nothing to turn up
    sheet.on_add = lambda: add_card(screen, "")
    sheet.offer(screen.model, screen.model.builder.reveal_choices(ask)).open()


def secret(screen: Screen, pid: str) -> None:
    ask = screen.model.ask()
    builder = screen.model.builder
    SecretPick(
        screen.model,
        pid,
        builder.secret_purpose(ask),
        builder.secret_options(ask, pid),
        lambda region: {"type": "secret_disc_set", "player": pid, "region": region},
    ).open()


def replenish_custom(screen: Screen, _arg: str) -> None:
    screen.sub_prompt = screen.model.builder.replenish_custom(screen.model.ask())
    screen.entry = dict(screen.sub_prompt.prefill)
    screen.show()


def powerback(screen: Screen, pid: str) -> None:
    ask = screen.model.ask()
    choices = [(str(c.event["card"]), str(c.event["card"])) for c in screen.model.builder.power_back_choices(ask)]
    PrivatePick(
        screen.model, pid, choices, lambda card: {"type": "power_card_taken_back", "player": pid, "card": int(card)}
    ).open()


def sub(screen: Screen, key: str) -> None:
    """A step within the prompt (a Modifier card played with the Power card, who goes with
    the King); "sub:" goes back to the prompt itself."""
    screen.sub_prompt = screen.model.builder.sub_prompt(screen.model.ask(), key) if key else None
    screen.entry, screen.move_source, screen.move_owner = {}, "", ""
    screen.message = ""  # a line of the step left behind ("That is all: ...") goes with it
    screen.show()
    screen.to_top()  # a Modifier card tapped low in the list: its totals are at the top


def private(screen: Screen, pid: str) -> None:
    """One player's secret choice on the tablet (Modifier cards dealt or passed, a card taken
    back): only they look; nothing of it stays on screen."""
    from companion.input_errors import InputError

    try:
        pick = screen.model.table.private_question(pid)
    except InputError as exc:
        screen.message = str(exc)
        return
    if pick is None:
        screen.message = _("Nothing is asked of {who} in private now").format(who=screen.model.name(pid))
        return
    dialog = PrivateQuestion(screen.model, pick)
    if screen.prompt is not None and screen.prompt.opens_private:
        screen.private_dialog = dialog
        dialog.bind(on_dismiss=screen.private_closed)
    dialog.open()


def private_note(screen: Screen, pid: str) -> None:
    """Why the table refused a player's card, for their eyes only (a card not in a secret
    hand): the public line says no more than that it was refused."""
    table = screen.model.table
    words = table.private_notes.get(pid) if table is not None else None
    if not words:
        screen.message = _("Nothing was refused of {who} at this step").format(who=screen.model.name(pid))
        return
    PrivateNote(screen.model, pid, words).open()


def board_facts(screen: Screen, _arg: str) -> None:
    """A board fact nobody published, needed now: entered from the table's board, right here."""
    from companion.entry.facts import FactsEntry

    entry = FactsEntry.for_table(screen.model.table)
    if entry is None:
        screen.message = _("Nothing is missing from your board for this step")
        return
    screen.facts_dialog = BoardFacts(screen.model, entry, on_done=screen.model._refresh)
    screen.facts_dialog.open()


def card_facts(screen: Screen, cid: str) -> None:
    """A card played whose numbers nobody entered: read off the card, and the turn goes on."""
    if cid not in screen.model.board.cards:
        screen.message = _("That card is not in the card set")
        return
    CardFacts(screen.model, cid, on_done=screen.model._refresh).open()


def add_card(screen: Screen, _arg: str) -> None:
    """A card the set does not list: added from the box, then the cards are turned up (the
    reveal's prompt reads the same, so the sheet is opened again here)."""
    AddCard(screen.model, on_added=lambda: Clock.schedule_once(screen.open_reveal_sheet, 0)).open()


def mobile(screen: Screen, sid: str) -> None:
    screen.sub_prompt = screen.model.builder.mobile_prompt(screen.model.ask(), sid)
    screen.show()


def count_castillo(screen: Screen, _arg: str) -> None:
    """The Castillo scoring card: lifted and counted like at a general scoring, then scored."""
    screen.sub_prompt = screen.model.builder.count_castillo_prompt(screen.model.ask())
    screen.show()


def open_castillo(screen: Screen, _arg: str) -> None:
    screen.manager.get_screen("scoring").open_castillo()
    screen.manager.current = "scoring"


def special_scoring(screen: Screen, _arg: str) -> None:
    choices = screen.model.builder.special_scoring_choices(screen.model.ask())
    ChoiceList(screen.model, _("Which special scoring?"), choices).open()


def standings(screen: Screen, _arg: str) -> None:
    screen.manager.current = "end"


def enter_board(screen: Screen, _arg: str) -> None:
    """Scoring only: the board entered as it lies, on the map and the side panel."""
    edit_board(screen)


ACTIONS: dict[str, Callable[[Screen, str], None]] = {
    "reveal_cards": reveal_cards,
    "secret": secret,
    "replenish_custom": replenish_custom,
    "powerback": powerback,
    "sub": sub,
    "private": private,
    "private_note": private_note,
    "board_facts": board_facts,
    "card_facts": card_facts,
    "add_card": add_card,
    "mobile": mobile,
    "count_castillo": count_castillo,
    "open_castillo": open_castillo,
    "special_scoring": special_scoring,
    "standings": standings,
    "enter_board": enter_board,
}
