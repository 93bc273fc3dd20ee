"""What the table refuses: below every module that submits to it (companion.table.authority re-exports both)."""


class InputError(Exception):
    """An input the table refuses; the message names what and which rule or limit."""


class NeedsConfirmation(InputError):
    """Undo of something that revealed information: repeat with confirm=True."""


class StorageRefused(InputError):
    """The input is refused because the tablet's storage could not keep it (full, read-only):
    nothing of it was kept, and the same input may succeed once space returns. The tower link
    keeps offering a drop refused so (`keep_offering`) instead of skipping it after a few tries."""

    keep_offering = True
