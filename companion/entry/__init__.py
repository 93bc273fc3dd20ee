"""Entering the board by hand: positions, a rule set's board facts, the table's corrections."""
