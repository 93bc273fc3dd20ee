"""What the table refuses: below every module that submits to it (companion.table re-exports both)."""


class InputError(Exception):
    """An input the table refuses; the message names what and which rule or limit."""


class NeedsConfirmation(InputError):
    """Undo of something that revealed information: repeat with confirm=True."""
