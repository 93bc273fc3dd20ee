"""Random full games through the engine, checking invariants after every event."""

from __future__ import annotations

from engine.playout import selfplay


def test_200_random_games_keep_every_invariant():
    stats = selfplay(games=200, n_players=5, seed=2024, check=True)
    assert stats.games == 200
    assert stats.scorings >= 200 * 3  # three general scorings at least
    # every classic card was used across the games, and Vetoes were played
    assert len(stats.cards_used) == 33 and stats.vetoes_used > 0


def test_every_player_count_and_the_short_game():
    for n in (2, 3, 4):
        assert selfplay(games=15, n_players=n, seed=n).games == 15
    assert selfplay(games=15, n_players=5, seed=9, variant="short").games == 15


def test_same_seed_same_games():
    a, b = selfplay(20, 4, seed=5), selfplay(20, 4, seed=5)
    assert (a.events, a.win_scores, a.cards_used) == (b.events, b.win_scores, b.cards_used)
    assert selfplay(20, 4, seed=6).win_scores != a.win_scores


# --- 2023 self-play with the table's own files: stand-ins fill only what the files leave unknown ---


def test_a_partial_2023_board_file_plays_with_stand_ins_for_the_rest_only():
    from engine.playout import self_play_files, standin_files

    mine = {"rules": "2023", "side": "4-5", "spaces": [{"id": "france", "neighbours": ["navarra", "aragon"]}]}
    board_file, cards_file, filled = self_play_files("2023", 4, mine, None)
    france = next(s for s in board_file["spaces"] if s["id"] == "france")
    assert france["neighbours"] == ["navarra", "aragon"]  # the table's fact kept
    portugal = next(s for s in board_file["spaces"] if s["id"] == "portugal")
    assert (
        portugal["neighbours"]
        == next(s for s in standin_files("2023", 4)[0]["spaces"] if s["id"] == "portugal")["neighbours"]
    )
    assert "spaces.portugal.neighbours" in filled and "spaces.france.neighbours" not in filled
    stats = selfplay(3, 4, seed=1, rules="2023", board_file=mine)
    assert stats.games == 3 and stats.standins and stats.standins_filled == filled


def test_a_partial_2023_card_file_keeps_its_copies_and_fills_the_stack_around_them():
    from engine.board.load import load_board
    from engine.playout import self_play_files

    mine = {"rules": "2023", "cards": [{"id": "outposts", "stack": 3, "copies": 2}]}
    board_file, cards_file, filled = self_play_files("2023", 4, None, mine)
    board = load_board("2023", 4, board_file, cards_file)
    assert board.cards["outposts"].copies == 2 and board.cards["outposts"].stack == 3
    assert sum(c.copies for c in board.cards.values() if c.stack == 3 and c.module is None) == 10
    assert not board.missing and "cards.outposts.copies" not in filled and "cards.veto.stack" in filled
    assert selfplay(2, 4, seed=3, rules="2023", cards_file=mine, modules=("new-regency", "old-hands")).games == 2


def test_files_that_leave_a_stack_short_the_stand_ins_cannot_fill_are_refused_naming_it():
    import pytest

    from engine.playout import StandInsShort, self_play_files

    moved = {"rules": "2023", "cards": [{"id": "veto", "stack": 3, "copies": 1}]}  # stack 2 has no stand-in card
    with pytest.raises(StandInsShort, match=r"stacks\.2: Stack 2 holds 10 cards; the card set accounts for 9"):
        self_play_files("2023", 4, None, moved)


def test_power_shift_without_the_tables_modifiers_uses_the_stand_in_set_and_says_so():
    from engine.playout import self_play_files, standins_used_note

    mine = {"rules": "2023", "cards": [{"id": "outposts", "stack": 3, "copies": 2}]}
    _, _, filled = self_play_files("2023", 4, None, mine, ("power-shift",))
    assert filled[-1] == "modifiers" and "Modifier cards" in standins_used_note("2023", filled)
    assert selfplay(2, 4, seed=4, rules="2023", cards_file=mine, modules=("power-shift",)).games == 2
