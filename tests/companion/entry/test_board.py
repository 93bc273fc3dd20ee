"""Scoring only: the board as the table enters it, tap by tap (companion/entry/board.py, no Kivy)."""

from companion.entry.board import BoardEntry


def test_scoring_only_entry_still_builds_a_board_entered_event():
    game = {"players": [{"id": "red"}, {"id": "blue", "grande": "aragon"}], "king": "galicia", "regions": {}}
    e = BoardEntry(game, {"red": "Ana"})
    e.tap("sevilla")
    e.tap("sevilla")
    e.tap("castillo")  # never from the board entry
    e.tool = "king"
    e.tap("valencia")
    assert e.event()["regions"] == {"sevilla": {"red": 2}} and e.event()["king"] == "valencia"
    e.tool = "add"
    assert "castillo" not in e.tappable()  # so a tap on it is said why, not ignored
    assert e.why_not("castillo").startswith(
        "The Castillo's Caballeros are not entered on the board: they come from the tower's count"
    )
