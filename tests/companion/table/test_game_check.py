"""A saved game as the home screen lists it (companion.table.game_check): read and replayed
without opening it for writing, what it holds or what is wrong, and never a crash."""

import pytest

from companion.scripted import scripted_setup, step
from companion.table.authority import Table
from companion.table.game_check import check_game, check_games


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_check_game_says_where_a_game_stands_without_opening_it():
    table = Table.new(scripted_setup("tracking", "short", 3))
    for _ in range(30):
        step(table, 4)
    size = table.path.stat().st_size
    check = check_game(table.path)
    assert not check.damaged and not check.finished and check.records == len(table.records)
    assert check.names == ["Red", "Yellow", "Green"] and check.where.startswith(f"Round {table.asked().round} - ")
    assert check.choices() == [("Resume", "resume")] and check.message() == ""
    assert table.path.stat().st_size == size  # read only


def test_check_games_lists_every_log_damaged_or_not(data_dir):
    good = Table.new(scripted_setup("scoring", "short", 3))
    (data_dir / "games" / "junk.jsonl").write_bytes(b'"x"\n')
    checks = {c.path.name: c for c in check_games()}
    assert set(checks) == {good.path.name, "junk.jsonl"}
    assert checks["junk.jsonl"].choices() == [("Keep aside", "keep_aside")]
    assert "line 1 is not a game's header (it holds a string)" in checks["junk.jsonl"].message()


def test_a_bug_while_checking_a_log_still_lists_it(data_dir, monkeypatch):
    """The home screen's promise: whatever happens reading one log, the others are listed."""
    good = Table.new(scripted_setup("scoring", "short", 3))
    import companion.table.game_check as check_module

    def broken(path):
        raise TypeError("a bug")

    monkeypatch.setattr(check_module, "scan_log", broken)
    [check] = check_games()
    assert check.path == good.path and check.damaged and "could not be read (TypeError: a bug)" in check.message()
    assert check.choices() == [("Keep aside", "keep_aside")]
