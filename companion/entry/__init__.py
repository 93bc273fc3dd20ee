"""The board and the position as the table enters them, and the table's corrections (no Kivy).

board           scoring only: the board tap by tap, for one BoardEntered event
ki_markers      King and Intrigue's markers and choices on that entry
position        tracking: the whole position, for one TableCorrected event
position_words  a position's changes in words (Confirm, the history)
corrections     the corrections in the game's history
correction_reasons  a correction's logged reason, said again in the table's language
facts           a board fact nobody published, asked when a game first needs it
"""
