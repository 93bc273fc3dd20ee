"""Finished and past games: records, replay, exports and the `elgrande games` command."""
