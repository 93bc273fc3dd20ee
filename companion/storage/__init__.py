"""Where a game is kept: the data folder and durable writes (files), the game's log on disk,
chained and written all or nothing (game_log), and the games folder's list of logs (games_folder)."""
