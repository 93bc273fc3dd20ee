"""What the table asks, and of whom: the prompt builder every prompt is built with (the tablet's
and the phones'), and each player's private pick (a secret disc, their Modifier cards dealt,
the one they pass, a card taken back), answered on their phone or behind the private screen.

Functions of a companion.table.authority.Table; the table holds the lock and submits the answer.
"""

from __future__ import annotations

from companion.input_errors import InputError
from companion.prompts.builder import PromptBuilder
from companion.prompts.king_intrigue import KIPromptBuilder
from companion.prompts.prompt import PRIVATE_KINDS
from companion.words import _
from companion.words.refusals import private_words
from engine.errors import RuleViolation


def prompt_builder(table):
    """The prompt builder for this game: its board (followed as the card set grows), the
    colours the tower counts, Power Shift's Modifier cards and the public view (what a
    public prompt may read)."""
    tower = table.setup.tower.kind != "none"

    def counted():  # read at each prompt: the tower may be calibrated for a colour mid-game
        return frozenset(p for p in table.players if p not in table.setup.by_hand())

    counted = counted if tower else False
    builder = KIPromptBuilder if table.setup.game.rules == "king-intrigue" else PromptBuilder
    return builder(
        table.names,
        lambda: table.board,
        castillo_by_tower=counted,
        modifiers=table.game.modifiers(),
        public=lambda: table.public().game,
        played_in=lambda pid, card: table.game.played_in(pid, card),  # the game after an undo
        refused=lambda: tuple(table.private_notes),
    )  # who may read why, never the why


def prompt(table):
    """The prompt for what is asked now (the tower's Castillo count prefilled)."""
    ask = table.asked()
    prefill = (
        table.castillo_prefill(ask.players[0]) if ask.kind in ("turn_action", "place_extra") and ask.players else 0
    )
    return table.prompt_builder().build(ask, prefill)


def private_question(table, player: str):
    """What `player` chooses in private now (companion.prompts.builder.PrivatePick), or None."""
    if player not in table.players:
        raise InputError(f"{player!r} is not playing (players: {', '.join(table.players)})")
    return table.prompt_builder().private_pick(table.asked(), player)


def private_waiting(table) -> list[str]:
    """Who is still to make a private choice now (public: never what)."""
    ask = table.asked()
    if ask.kind in PRIVATE_KINDS or ask.kind == "take_back_power_card":
        return [p for p in ask.players if p in table.players]
    return []


def chooses_again(table, player: str) -> bool:
    """Whether `player` is asked again for a private choice an undo took back."""
    if player not in table.log.again:
        return False
    ask = table.asked()
    return player in private_waiting(table) or (ask.kind == "secret_disc" and player in ask.players)


def private_event(table, player: str, values: list[str]):
    """`player`'s private answer (values of their PrivatePick's options) as the event to submit."""
    pick = private_question(table, player)
    if pick is None:
        raise InputError(_("no private choice is asked of {who} now").format(who=table.names.get(player, player)))
    try:
        return pick.event(values)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def question_id(table) -> str:
    """Names the question now asked; secret discs set meanwhile do not change it, anything else
    does. A phone sends it back with its pick, so a pick made against an old question is refused."""
    ask = table.asked()
    return f"{ask.round}-{ask.stage}-{ask.options.get('purpose', ask.kind)}-{table.log.questions_opened()}"


def where_in_game(table) -> str:
    """The phase bar's words for where the game stands ("Round 4 - power cards - Ana plays next")."""
    try:
        if table.setup.game.rules == "king-intrigue":  # its own setup stages and words
            return table.prompt_builder().build(table.asked()).title
        return PromptBuilder(table.names, table.board).build(table.asked()).title
    except Exception:  # a title is a nicety: never let it hide the game
        return _("round {round}").format(round=table.game.current.round)


def refused(table, exc: RuleViolation) -> InputError:
    """The engine's refusal in its public words. A reason only its player may read (a card not
    in a secret hand) is kept for their phone and private screen (Table.private), and they are told."""
    private = private_words(exc)
    if private:
        player, words = private
        table.private_notes = {player: words}
        table.observers.notify("private")
    return InputError.of_refusal(exc)
