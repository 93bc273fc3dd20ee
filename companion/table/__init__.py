"""The table: the authority every input goes through (`Table`, authority.py) and its parts: the
game in its mode (modes), the log written and replayed (log) with what an input brings about
(consequences), the Castillo's drops and hidden tallies (castillo), what is asked and the private
picks (private_picks), undo's words (undo, undo_words), who is told of a change (observers), the
setup (setup), what a reveal asks of the players' hands (outcomes) and a saved game as the home
screen lists it (game_check)."""

from companion.table.authority import Table

__all__ = ["Table"]
