"""What the tournament refuses an organiser, and why the board does not count a result, in the
words of whoever reads it."""

from __future__ import annotations

from companion.words import N_, _
from companion.words.catalogue import speaking
from companion.words.link_words import link_message


class Reason(str):
    """Why the board does not count a result: a catalogue message (marked N_ where made) with its
    values named. As a string it is the English sentence (the log's words, and what a plain reason
    compares with); formatted into other words, or `said()`, it reads the language in use, and the
    organiser page gets it as `as_json()` to say it in the page's own language."""

    words: str
    values: dict[str, str | Reason]  # a value may be a reason itself, said in the same language

    def __new__(cls, words: str = "", **values) -> Reason:
        values = {k: v if isinstance(v, Reason) else str(v) for k, v in values.items()}
        with speaking("en"):
            english = words.format(**values)
        reason = super().__new__(cls, english)
        reason.words, reason.values = words, values
        return reason

    @classmethod
    def of(cls, reason: str) -> Reason:
        """A reason given as plain words (a caller's own) kept as they are."""
        return reason if isinstance(reason, Reason) else cls("{reason}", reason=reason)

    @classmethod
    def of_link(cls, sentence: str) -> Reason:
        """A tower link's or broker's English sentence (firmware_bridge's) as the message it is."""
        words, values = link_message(sentence)
        return cls(words, **values)

    def __reduce__(self):  # copied or pickled as its message and values, not as its English
        return _reason, (self.words, self.values)

    def said(self) -> str:
        return _(self.words).format(**self.values) if self.words else ""

    def __format__(self, spec: str) -> str:
        return format(self.said(), spec)

    def as_json(self) -> dict:
        values = {k: v.as_json() if isinstance(v, Reason) else v for k, v in self.values.items()}
        return {"words": self.words, "values": values}


def _reason(words: str, values: dict) -> Reason:
    return Reason(words, **values)


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
