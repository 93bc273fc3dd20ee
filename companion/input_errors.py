"""What the table refuses: below every module that submits to it (companion.table.authority re-exports both)."""

from __future__ import annotations


class InputError(Exception):
    """An input the table refuses; the message names what and which rule or limit. `refusal`:
    the engine's RuleViolation when the engine refused (the message is its words in the table's
    language; companion.words.refusals says it in another, a phone's)."""

    refusal = None

    @classmethod
    def of_refusal(cls, exc) -> InputError:
        """The engine's refusal, in the table's language (its public words only)."""
        from companion.words.refusals import refusal_words

        error = cls(refusal_words(exc))
        error.refusal = exc
        return error


class NeedsConfirmation(InputError):
    """Undo of something that revealed information: repeat with confirm=True."""


class StorageRefused(InputError):
    """The input is refused because the tablet's storage could not keep it (full, read-only):
    nothing of it was kept, and the same input may succeed once space returns. The tower link
    keeps offering a drop refused so (`keep_offering`) instead of skipping it after a few tries."""

    keep_offering = True
