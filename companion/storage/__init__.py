"""Where a game is kept: the game's log on disk, written all or nothing, and the data folder."""
