"""What the tournament refuses an organiser, in the words of whoever reads it."""

from __future__ import annotations

from companion.words import N_, _


class TournamentError(Exception):
    """An organiser's request the tournament refuses; the message says what and why. It is a
    catalogue message (marked N_ where raised) with its values named, made into words when shown:
    in the organiser's page's language, or the command line's."""

    def __init__(self, message: str, **values):
        super().__init__(message)
        self.message, self.values = message, values

    def __str__(self) -> str:
        return _(self.message).format(**self.values)


def not_seated(table: str, n: int, seated: list[str], missing: list[str], strangers: list[str]) -> TournamentError:
    """A correction that does not name exactly the players seated at that table in that round."""
    if missing and strangers:
        words = N_(
            "a correction gives the final score of every player seated at {table} in round {n} ({seated}): "
            "missing {missing}; not seated there: {strangers}"
        )
    elif missing:
        words = N_(
            "a correction gives the final score of every player seated at {table} in round {n} ({seated}): "
            "missing {missing}"
        )
    else:
        words = N_(
            "a correction gives the final score of every player seated at {table} in round {n} ({seated}): "
            "not seated there: {strangers}"
        )
    names = {"seated": ", ".join(seated), "missing": ", ".join(missing), "strangers": ", ".join(strangers)}
    return TournamentError(words, table=table, n=n, **names)
