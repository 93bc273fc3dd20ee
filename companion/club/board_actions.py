"""The organiser's actions on the club board, each a request's JSON object in and the answer out;
a request the tournament cannot take raises TournamentError, told to the organiser (409). The
board runs them off its loop, once the organiser's token is checked (board_access.OrganiserGate)."""

from __future__ import annotations

from companion.club.topics import check_name
from companion.club.tournament import Tournament, TournamentError
from companion.words import N_


def register(tournament: Tournament, data: dict) -> dict:
    return {"name": tournament.register(data.get("name"))}


def seat_round(tournament: Tournament, data: dict) -> dict:
    """The next round seated at the tables given (the board then publishes the seating)."""
    tables = data.get("tables")
    if not isinstance(tables, list) or not all(isinstance(t, str) for t in tables):
        raise TournamentError(N_('give the tables to seat: {{"tables": ["table-1", ...]}}'))
    for t in tables:
        try:
            check_name(t, "table id")
        except ValueError as exc:  # said in the language of the page that asked (the action's own)
            raise TournamentError("{reason}", reason=str(exc)) from None
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise TournamentError(N_("seed: a whole number"))
    rnd = tournament.seat_round(tables, seed)
    return {"round": rnd, "rematches": tournament.rematches(rnd)}


def withdraw(tournament: Tournament, data: dict) -> dict:
    back = data.get("back", False)
    if not isinstance(back, bool):
        raise TournamentError(N_('"back": true seats a withdrawn player again; false (or left out) withdraws'))
    return tournament.withdraw(data.get("name"), back)


def correct(tournament: Tournament, data: dict) -> dict:
    table, game = data.get("table"), data.get("game")
    if not isinstance(table, str) or not isinstance(game, str):
        raise TournamentError(
            N_('name the result: {{"table": ..., "game": ..., "scores": {{name: score}}}} or "void": true')
        )
    return tournament.correct(table, game, data.get("scores"), bool(data.get("void")))
