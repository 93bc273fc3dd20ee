"""What a new game takes from the table's rule files, and what the table must do first (no Kivy).

Every 2023 GameSetup gets the side's board file (companion.table_rules.board_file) and the card
file (companion.table_rules.card_file); a King and Intrigue game gets its card set
(companion.table_rules.ki_cards). `game_files` never raises: a damaged saved file is named in
its `problem`. Also here: the engine's check of a setup before the board is shown, the note on
colours the tower does not count, and the cards Old Hands sends back to the box.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.table_rules.board_file import BoardDraft
from companion.table_rules.card_file import CardSetDraft
from companion.table_rules.rules_choice import RulesChoice
from companion.table_rules.storage import RuleFileError
from companion.words import _, names, ngettext
from companion.words.colours import colour_word
from engine.board.errors import DataFileError
from engine.board.load import load_cards, side_for
from engine.rules import rule_set


@dataclass
class GameFiles:
    """What a new 2023 game takes from the table's files, and what is still to do first."""

    board_file: dict | None = None
    cards_file: dict | None = None
    side: str = "classic"
    confirm_board: bool = False  # the side's board is shown first (not confirmed yet)
    needs_modifiers: bool = False  # Power Shift without Modifier cards nor the stand-in set chosen
    notes: list[str] = field(default_factory=list)  # said on the new-game screen
    problem: str = ""  # a saved file the companion cannot use (named)


def game_files(choice: RulesChoice, players: int) -> GameFiles:
    """The board and card files a new game of `players` under `choice` gets, and what the table
    must do first. Never raises: a damaged saved file is named in `problem`."""
    if choice.rules == "king-intrigue":  # the classic board; the card set is companion/table_rules/ki_cards.py's
        from companion.table_rules.ki_cards import ki_game_files

        ki = ki_game_files(players, choice.modules_for(players))
        return GameFiles(cards_file=ki.cards_file, side="classic", notes=ki.notes, problem=ki.problem)
    if choice.rules != "2023" or not 2 <= players <= 5:
        return GameFiles(side=choice.side(players))
    side = side_for("2023", players)
    modules = choice.modules_for(players)
    out = GameFiles(side=side)
    try:
        board = BoardDraft.load(side)
    except RuleFileError as exc:
        out.problem = _("Your board ({side} side) cannot be used: {why}. Reopen Your board to reset it.").format(
            side=side, why=exc
        )
        return out
    out.board_file = board.file if board.saved else None
    # Shown once per side; a fact still missing is asked when the game first needs it.
    out.confirm_board = not board.confirmed
    try:
        cards = CardSetDraft.load()
    except RuleFileError as exc:
        out.problem = _("Your cards cannot be used: {why}. Reopen Your cards to import or fix them.").format(why=exc)
        return out
    if cards.file.get("cards") or cards.file.get("modifiers"):
        out.cards_file = cards.file
    power_shift = "power-shift" in modules
    out.needs_modifiers = power_shift and not cards.has_modifiers and not choice.stand_in_modifiers
    out.notes = _notes(board, cards, side, modules, choice, power_shift)
    return out


def _notes(board: BoardDraft, cards: CardSetDraft, side: str, modules, choice, power_shift) -> list[str]:
    notes = []
    if not board.confirmed:
        notes.append(_("Your board's {side} side is shown to check once when the game starts.").format(side=side))
    elif board.needed(modules):
        notes.append(
            _(
                "Your board: {facts} not entered yet: "
                "asked when the game first needs them (or enter them now in Your board)."
            ).format(facts=", ".join(f.label for f in board.needed(modules)))
        )
    unknown = [r for r in cards.rows() if "stack" in r.unknown or "copies" in r.unknown]
    if unknown:
        notes.append(
            _(
                "Your cards: {n} cards' stack or copies not entered yet (Your cards; "
                "in a tracked game a card turned up can be added then)."
            ).format(n=len(unknown))
        )
    if power_shift and not cards.has_modifiers:
        notes.append(
            _("Power Shift: the stand-in Modifier cards (labelled: not the printed cards) are used.")
            if choice.stand_in_modifiers
            else _(
                "Power Shift: enter your 16 Modifier cards (Your cards: import a card file), or choose "
                "the labelled stand-in set below."
            )
        )
    return notes


def check_game_setup(game, cards_played: bool = True) -> None:
    """RuleFileError with the engine's words when a GameSetup cannot start (checked before the
    table's board is shown, so nobody confirms a board for a game that cannot start). Scoring
    only (`cards_played=False`) needs no King and Intrigue card set."""
    from companion.words.refusals import refusal_words
    from engine.errors import RuleViolation
    from engine.game import board_for, start_state

    try:
        start_state(game, board_for(game), cards_played)
    except RuleViolation as exc:
        raise RuleFileError(refusal_words(exc)) from None
    except ValueError as exc:
        raise RuleFileError(str(exc)) from None


def tower_note(seats: list[str], tower_kind: str) -> list[str]:
    """What the table is told about colours the tower does not count (their throws by hand)."""
    from firmware_bridge.messages import COLOURS

    if tower_kind == "none":
        return []
    unknown = [c for c in seats if c not in COLOURS]
    if not unknown:
        return []
    words = [colour_word(c) for c in unknown]
    listed = (
        words[0] if len(words) == 1 else _("{places} and {last}").format(places=", ".join(words[:-1]), last=words[-1])
    )
    if len(words) < 3:
        listed = _(" and ").join(words)
    return [
        ngettext(
            "The tower does not know {colours}: its throws into the Castillo are entered by hand "
            "(tap the Castillo when placing).",
            "The tower does not know {colours}: their throws into the Castillo are entered by hand "
            "(tap the Castillo when placing).",
            len(unknown),
        ).format(colours=listed)
    ]


@dataclass(frozen=True)
class ReturnedStack:
    """Old Hands: "for each ♣ card you are adding, return 1 random card from the corresponding
    stack back to the box". The table draws them; the setup names them."""

    stack: int  # the stack as it lies at this table (four stacks: 3 is 2)
    count: int  # cards to return from it
    cards: tuple[tuple[str, str], ...]  # (id, name) of the base cards the set knows in it


def old_hands_returns(choice: RulesChoice, players: int, cards_file: dict | None) -> list[ReturnedStack]:
    """What the table names when Old Hands is played: per stack, how many cards go back to the
    box and which cards may be among them. RuleFileError when no Old Hands card is known."""
    modules = choice.modules_for(players)
    if "old-hands" not in modules:
        return []
    try:
        cards = load_cards("2023", cards_file).cards
    except DataFileError as exc:
        raise RuleFileError(str(exc)) from None
    rules = rule_set("2023", modules, players)
    clubs = [c for c in cards.values() if c.module == "old-hands"]
    if not clubs:
        raise RuleFileError(
            _(
                "Old Hands: no Old Hands card is in your card set yet: add your four cards in Your cards "
                "(module Old Hands)"
            )
        )
    unplaced = [c.name for c in clubs if c.stack is None]
    if unplaced:
        raise RuleFileError(
            _("Old Hands: the stack of {cards} is not entered (Your cards)").format(
                cards=", ".join(names.card(n) for n in unplaced)
            )
        )
    need: dict[int, int] = {}
    for c in clubs:
        need[rules.table_stack(c.stack)] = need.get(rules.table_stack(c.stack), 0) + 1
    out = []
    for stack, count in sorted(need.items()):
        known = tuple(
            (c.id, c.name)
            for c in sorted(cards.values(), key=lambda c: c.name)
            if c.module is None and c.stack is not None and rules.table_stack(c.stack) == stack
        )
        out.append(ReturnedStack(stack, count, known))
    return out
