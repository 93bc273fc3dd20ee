"""What the phone server answers a phone it refuses: a status like HTTP's and words for the player.

The question modules (companion/phones/questions/) raise these too: a pick or a choice that does not
answer the question asked is refused with the reason, before the table is touched."""

from __future__ import annotations

from companion.input_errors import InputError
from companion.phones.ordering import Stale
from companion.words import N_, _
from companion.words.refusals import refusal_words

NOT_JOINED = N_(
    "This phone is not joined to a seat (or the tablet replaced it): scan your seat's QR code on the tablet."
)
NEW_GAME = N_("That choice is no longer open: a new game has started. Your screen now shows the new game.")
MOVED_ON = N_("That choice is no longer open: the game has moved on. Your screen now shows the current question.")


def refused_words(exc: InputError, lang: str | None = None) -> str:
    """The table's refusal for a phone: the engine's in `lang` (the phone's language), else as said."""
    if exc.refusal is not None:
        return refusal_words(exc.refusal, lang)
    return str(exc)


class Refused(Exception):
    """A request refused with an HTTP-like status and a message for the player (in the words of the
    phone it answers: made while speaking its language)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class StaleAnswer(Refused):
    """An answer older than (or as old as) the seat's last accepted one: nothing was changed."""

    def __init__(self, stale: Stale):
        super().__init__(409, stale.message)
        self.last = stale.last


class NotConfirmed(Refused):
    """A joined phone the tablet has not confirmed yet: refused, but its socket stays open."""

    def __init__(self, name: str):
        super().__init__(
            403,
            _(
                'The tablet has not confirmed this phone yet: someone taps Yes on "Is this {name}\'s phone?" '
                "there first."
            ).format(name=name),
        )
