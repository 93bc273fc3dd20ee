"""Plays go where players keep them, and the games move with the tablet (issue 35): the BG Stats
play (its file and its push link, a QR code of the link), BoardGameGeek's play fields, the
tablet's owner and location, and one backup file that moves everything to another tablet."""
