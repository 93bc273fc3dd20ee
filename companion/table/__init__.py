"""The table: the authority every input goes through (`Table`), its log, modes, setup, undo,
the Castillo's hidden tally, the private picks and what a reveal asks of the players' hands."""

from companion.table.authority import Table

__all__ = ["Table"]
