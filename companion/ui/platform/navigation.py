"""What the Back key does on each screen, and its words (no Kivy: the app only carries it out).

Android's Back key (Escape on a desktop keyboard, keycode 27 in both) goes back one
screen. It never quits in the middle of a game: from a game's screens it asks whether
to leave the game (it is saved with every input, and Home resumes it); on Home it asks
before quitting. An open dialog is the first thing Back closes, when the dialog may be
closed; a private screen (a secret disc being picked) is never closed by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.words import N_

BACK_KEYCODE = 27  # SDL maps Android's KEYCODE_BACK to Escape
# The words below are the catalogue's (marked here, translated where they are shown: app.back)

LEAVE_GAME_TITLE = N_("Leave the game?")
LEAVE_GAME_QUESTION = N_("Leave the game? It is saved; resume it from Home.")
LEAVE_GAME_NO, LEAVE_GAME_YES = N_("Stay in the game"), N_("Leave: go to Home")
# the table's Home button, said on Home
GAME_KEPT = N_("The game is kept (it is saved after every input): resume it with the button above.")
QUIT_TITLE = N_("Quit?")
QUIT_QUESTION = N_("Quit El Grande Companion? Your saved games stay on this tablet.")
QUIT_NO, QUIT_YES = N_("Stay"), N_("Quit")

GAME_SCREENS = frozenset({"table", "scoring"})  # a game in progress is on the table
OWN_BACK = {"board": "back", "cards": "back", "ki_cards": "back", "position": "cancel"}  # they know their way


@dataclass(frozen=True)
class BackStep:
    """kind: "go" (to `screen`), "call" (the screen's own `method`, which may ask first),
    "ask" (`title`/`question`, then `screen`, or quit when `screen` is None), "stay"."""

    kind: str
    screen: str | None = None
    method: str | None = None
    title: str = ""
    question: str = ""
    no: str = ""
    yes: str = ""


def back_step(current: str, game_over: bool = False) -> BackStep:
    """What Back does on screen `current` (game_over: the open game has ended)."""
    if current == "home":
        return BackStep("ask", None, title=QUIT_TITLE, question=QUIT_QUESTION, no=QUIT_NO, yes=QUIT_YES)
    if current in OWN_BACK:
        return BackStep("call", method=OWN_BACK[current])
    if current == "end" or (current in GAME_SCREENS and game_over):
        return BackStep("go", "home")
    if current in GAME_SCREENS:
        return BackStep(
            "ask", "home", title=LEAVE_GAME_TITLE, question=LEAVE_GAME_QUESTION, no=LEAVE_GAME_NO, yes=LEAVE_GAME_YES
        )
    if current == "setup":
        return BackStep("go", "home")
    return BackStep("go", "home")  # any screen added later: Home is always safe


def keeps_screen_on(current: str, game_open: bool) -> bool:
    """The screen stays on while a game is open on one of its screens (the table, a scoring,
    a board correction, the end of the game); elsewhere the tablet may sleep as usual."""
    return game_open and current in GAME_SCREENS | {"position", "end"}
