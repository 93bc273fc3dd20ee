"""Scoring-only mode's board entry on the table screen: the board entered as it lies (each
player's Caballeros, the King, the Grandes, the scoreboards and King and Intrigue's markers),
then saved as one input. The entry itself is companion.entry.board.BoardEntry; this gives it the
screen's map and side panel while `screen.board_edit` is set (`screen`: the table screen, typed as
a Screen: this module is imported by it)."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.screenmanager import Screen

from companion.entry.board import BoardEntry
from companion.look.players import PLAYER_RGB
from companion.words import _


def edit_board(screen: Screen) -> None:
    """The board entered from the public game, the map and the side panel given to it."""
    # The game's board: 2023 names, the King by the Castillo or in France/Portugal, Scoring tiles
    screen.board_edit = BoardEntry(screen.model.public["game"], dict(screen.model.table.names), screen.model.board)
    show_board_edit(screen)


def show_board_edit(screen: Screen) -> None:
    """The board as entered so far on the map; the tools, the players' Caballeros, Save and Cancel
    on the side panel (the screen's own pooled buttons)."""
    edit = screen.board_edit
    screen.prompt_title = _("Enter the board as it lies")
    screen.prompt_hint = edit.hint()
    screen.actor_rgb = list(PLAYER_RGB.get(edit.colour, (0.5, 0.45, 0.4)))
    m = screen.ids.map
    m.public = {**edit.preview(), "mobile_scoreboards": dict(edit.mobile)}  # a tile placed shows at once
    m.pending = {}
    m.tappable = edit.tappable()
    m.selected = ""
    screen.message = edit.message
    box = screen.clear_actions()
    screen.entry_text = _("Tool: {tool}").format(tool=edit.tool_words())
    adds = [
        screen.choice_button(
            _("{who}: add").format(who=screen.model.name(pid)),
            lambda p=pid: _tool(screen, "add", p),
            "primary" if edit.tool == "add" and edit.colour == pid else "normal",
            height=dp(40),
        )
        for pid in edit.players
    ]  # the 2-player dummy's Caballeros are on the board too
    tools = [
        screen.choice_button(
            words,
            lambda t=tool: _tool(screen, t, edit.colour),
            "primary" if edit.tool == tool else "quiet",
            height=dp(40),
        )
        for tool, words in edit.tool_buttons()
    ]
    tools += [
        screen.choice_button(words, lambda k=key: _board_choice(screen, k), "primary" if on else "quiet")
        for key, words, on in edit.ki_choices()
    ]  # King and Intrigue: a scoreboard's side, ...
    save = screen.choice_button(_("Save the board"), lambda: _save_board(screen), "primary")
    cancel = screen.choice_button(_("Cancel"), lambda: _cancel_board(screen), "quiet", height=dp(40))
    if edit.king_intrigue:  # its many markers: two to a row, Save first (the rest may scroll)
        screen.choice_grid.cols = 2
        for button in (save, cancel, *adds, *tools):
            screen.choice_grid.add_widget(button)
        box.add_widget(screen.choice_grid)
        return
    for button in (*adds, *tools, save, cancel):
        box.add_widget(button)


def _board_choice(screen: Screen, key: str) -> None:
    screen.board_edit.choose(key)
    show_board_edit(screen)


def _tool(screen: Screen, tool: str, colour: str) -> None:
    screen.board_edit.tool, screen.board_edit.colour = tool, colour
    show_board_edit(screen)


def _save_board(screen: Screen) -> None:
    if screen.model.submit(screen.board_edit.event()):
        screen.end_board_edit()
    else:
        show_board_edit(screen)


def _cancel_board(screen: Screen) -> None:
    screen.end_board_edit()
