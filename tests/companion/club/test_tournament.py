"""Tournament seating, results and standings on hand-checked cases; the journal survives a restart."""

from __future__ import annotations

import copy

import pytest

from companion.club.tournament import (
    BYE_POINTS,
    MISFITS,
    POINTS,
    Journal,
    Tournament,
    TournamentError,
    ranked,
    table_sizes,
)
from companion.words.catalogue import speaking


def make(tmp_path, names=("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")):
    t = Tournament(Journal(tmp_path / "t.jsonl"))
    for n in names:
        t.register(n)
    return t


def result(*pairs):
    return [{"name": n, "score": s} for n, s in pairs]


def seated(t, n=None, **kw):
    """The seating a table's game carries when it was started under round n (default: the latest)."""
    rnd = t.rounds[(n or len(t.rounds)) - 1]
    return {"event": t.event, "round": rnd["n"], "round_id": rnd["id"], "late": False, **kw}


def take(t, table, game, standings, n=None):
    """True if counted now (a refusal's reason is kept in t.refused)."""
    before = len(t.results)
    t.take_result(table, game, standings, seated(t, n))
    return len(t.results) > before


@pytest.mark.parametrize(
    "n, sizes",
    [
        (3, [3]),
        (4, [4]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [5, 4][::-1]),
        (10, [5, 5]),
        (11, [4, 4, 3]),
        (13, [4, 4, 5]),
    ],
)
def test_tables_of_four_where_possible(n, sizes):
    assert sorted(table_sizes(n)) == sorted(sizes)
    assert sum(table_sizes(n)) == n


def test_too_few_players_is_said():
    with pytest.raises(TournamentError, match="at least 3"):
        table_sizes(2)


def test_equal_scores_share_the_better_rank():
    assert [(r["name"], r["rank"]) for r in ranked(result(("A", 50), ("B", 70), ("C", 50), ("D", 20)))] == [
        ("B", 1),
        ("A", 2),
        ("C", 2),
        ("D", 4),
    ]


def test_registration_refuses_duplicates_and_bad_names(tmp_path):
    t = make(tmp_path, ["Ann"])
    with pytest.raises(TournamentError, match="already registered"):
        t.register("  ann ")
    with pytest.raises(TournamentError, match="printable"):
        t.register("x" * 41)
    with pytest.raises(TournamentError, match="printable"):
        t.register(42)


def test_first_round_is_random_but_repeatable_by_seed(tmp_path):
    a = make(tmp_path / "a").seat_round(["t1", "t2"], seed=7)
    b = make(tmp_path / "b").seat_round(["t1", "t2"], seed=7)
    c = make(tmp_path / "c").seat_round(["t1", "t2"], seed=8)
    assert a["tables"] == b["tables"] != c["tables"]
    seated = sorted(p for names in a["tables"].values() for p in names)
    assert seated == sorted(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"])
    assert [len(v) for v in a["tables"].values()] == [4, 4]


def test_standings_points_then_score_then_first_places_then_name(tmp_path):
    t = make(tmp_path)
    t._commit(
        {
            "t": "round",
            "n": 1,
            "tables": {"t1": ["Ann", "Bob", "Cid", "Dee"], "t2": ["Eve", "Fay", "Gus", "Hal"]},
            "seed": 0,
        }
    )
    assert take(t, "t1", "g1", result(("Ann", 80), ("Bob", 70), ("Cid", 70), ("Dee", 40)))
    assert take(t, "t2", "g2", result(("Eve", 90), ("Fay", 75), ("Gus", 60), ("Hal", 55)))
    rows = {r["name"]: r for r in t.standings()}
    # t1: Ann 1st (6), Bob and Cid share 2nd (4 each), Dee 4th (1); t2: 6, 4, 2, 1
    assert {n: rows[n]["points"] for n in rows} == {
        "Ann": 6,
        "Bob": 4,
        "Cid": 4,
        "Dee": 1,
        "Eve": 6,
        "Fay": 4,
        "Gus": 2,
        "Hal": 1,
    }
    order = [r["name"] for r in t.standings()]
    # 6 points: Eve (90) before Ann (80); 4: Fay (75), then Bob and Cid (70, no first place: by name)
    assert order == ["Eve", "Ann", "Fay", "Bob", "Cid", "Gus", "Hal", "Dee"]
    assert t.csv().splitlines()[1] == "1,Eve,6,90,1,1,,0"


def test_second_round_by_standings_avoids_rematches(tmp_path):
    names = "Ann Bob Cid Dee Eve Fay Gus Hal Ivy Jon Kim Lou".split()
    t = make(tmp_path, names)
    t._commit({"t": "round", "n": 1, "tables": {"t1": names[0:4], "t2": names[4:8], "t3": names[8:12]}, "seed": 0})
    for table, scores in {"t1": [80, 70, 60, 50], "t2": [90, 85, 40, 30], "t3": [75, 74, 73, 20]}.items():
        take(t, table, "g" + table, result(*zip(t.rounds[0]["tables"][table], scores)))
    assert [r["name"] for r in t.standings()] == [
        "Eve",
        "Ann",
        "Ivy",
        "Fay",
        "Jon",
        "Bob",
        "Kim",
        "Cid",
        "Gus",
        "Dee",
        "Hal",
        "Lou",
    ]
    rnd = t.seat_round(["t1", "t2", "t3"])
    # By standings alone: [Eve Ann Ivy Fay] [Jon Bob Kim Cid] [Gus Dee Hal Lou]: 1 + 2 + 1 = 4 rematches.
    # Four players from three old tables make at least one rematch per table: 3 is the least possible.
    # Table 2 takes Jon, then Bob (new to Jon), skips Kim (met Jon) and Cid (met Bob) for Gus.
    assert rnd["tables"] == {
        "t1": ["Eve", "Ann", "Ivy", "Fay"],
        "t2": ["Jon", "Bob", "Gus", "Kim"],
        "t3": ["Cid", "Hal", "Lou", "Dee"],
    }
    assert t.rematches(rnd) == 3


def test_a_swap_between_tables_removes_a_rematch_seating_by_standings_left_in(tmp_path):
    old = {"t1": ["Ann", "Bob", "Cid", "Dee"], "t2": ["Eve", "Fay", "Gus", "Hal"], "t3": ["Ivy", "Jon", "Kim", "Lou"]}
    t = make(tmp_path, [n for names in old.values() for n in names])
    t._commit({"t": "round", "n": 1, "tables": old, "seed": 0})
    scores = {"t1": [96, 92, 88, 88], "t2": [97, 67, 61, 78], "t3": [93, 89, 64, 86]}
    for table, names in old.items():
        take(t, table, "g" + table, result(*zip(names, scores[table])))
    assert [r["name"] for r in t.standings()] == [
        "Eve",
        "Ann",
        "Ivy",
        "Bob",
        "Jon",
        "Hal",
        "Cid",
        "Dee",
        "Lou",
        "Fay",
        "Kim",
        "Gus",
    ]
    rnd = t.seat_round(["t1", "t2", "t3"])
    # By standings, then the next player new to the table: [Eve Ann Ivy Bob] [Jon Hal Cid Dee]
    # [Lou Fay Kim Gus]: rematches Ann-Bob, Cid-Dee, Lou-Kim and Fay-Gus, 4. Swapping Dee (t2) and
    # Lou (t3) gives [Jon Hal Cid Lou] (Jon-Lou) and [Dee Fay Kim Gus] (Fay-Gus): 3, the least
    # possible (four players from three old tables: one rematch per table at least).
    assert rnd["tables"] == {
        "t1": ["Eve", "Ann", "Ivy", "Bob"],
        "t2": ["Jon", "Hal", "Cid", "Lou"],
        "t3": ["Dee", "Fay", "Kim", "Gus"],
    }
    assert t.rematches(rnd) == 3


def test_a_withdrawn_player_keeps_their_games_and_is_not_seated_again(tmp_path):
    t = make(tmp_path, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"])
    first = t.seat_round(["t1", "t2"], seed=3)
    for table, names in first["tables"].items():
        take(t, table, "g" + table, result(*((n, 50 + i) for i, n in enumerate(names))))
    assert t.withdraw(" dee ") == {"name": "Dee", "withdrawn": True}  # as registered, case and spaces ignored
    with pytest.raises(TournamentError, match="Dee is already withdrawn"):
        t.withdraw("Dee")
    with pytest.raises(TournamentError, match="'Zed' is not registered"):
        t.withdraw("Zed")
    second = t.seat_round(["t1", "t2"])
    seated = [n for names in second["tables"].values() for n in names]
    assert sorted(seated) == ["Ann", "Bob", "Cid", "Eve", "Fay", "Gus"]  # six: two tables of 3
    assert sorted(len(names) for names in second["tables"].values()) == [3, 3]
    rows = {r["name"]: r for r in t.standings()}
    assert rows["Dee"]["withdrawn"] and rows["Dee"]["games"] == 1 and not rows["Ann"]["withdrawn"]
    assert [line.split(",")[-2] for line in t.csv().splitlines() if ",Dee," in line] == ["yes"]
    again = Tournament(Journal(tmp_path / "t.jsonl"))  # a restart reads the withdrawal back
    assert again.snapshot()["withdrawn"] == ["Dee"]
    for table, names in second["tables"].items():
        take(again, table, "h" + table, result(*((n, 60 + i) for i, n in enumerate(names))))
    again.withdraw("Dee", back=True)
    with pytest.raises(TournamentError, match="Dee is already playing"):
        again.withdraw("Dee", back=True)
    assert "Dee" in [n for names in again.seat_round(["t1", "t2"])["tables"].values() for n in names]


def test_withdrawals_below_three_players_are_said_when_seating(tmp_path):
    t = make(tmp_path, ["Ann", "Bob", "Cid"])
    t.withdraw("Cid")
    with pytest.raises(TournamentError, match="2 players: a table needs at least 3"):
        t.seat_round(["t1"])


def test_seating_needs_the_round_finished(tmp_path):
    t = make(tmp_path)
    with pytest.raises(TournamentError, match="a table id is given twice"):
        t.seat_round(["t1", "t1"])
    t.seat_round(["t1", "t2"], seed=1)
    with pytest.raises(TournamentError, match="round 1 is not finished: t1, t2 still playing"):
        t.seat_round(["t1", "t2"])


def test_a_result_counts_once_per_table_and_game(tmp_path):
    t = make(tmp_path)
    t._commit(
        {
            "t": "round",
            "n": 1,
            "tables": {"t1": ["Ann", "Bob", "Cid", "Dee"], "t2": ["Eve", "Fay", "Gus", "Hal"]},
            "seed": 0,
        }
    )
    r = result(("Ann", 80), ("Bob", 70), ("Cid", 60), ("Dee", 40))
    assert take(t, "t1", "g1", r) is True
    assert take(t, "t1", "g1", r) is False  # the retained state, again: not refused either
    assert "t1/g1" not in t.refused
    assert take(t, "t1", "g9", r) is False  # a second game at t1 in round 1: not counted
    assert t.refused["t1/g9"]["reason"] == "t1 already has its round 1 result (game g1)"
    assert take(t, "t9", "gx", r) is False  # a table the tournament did not seat
    assert t.refused["t9/gx"]["reason"] == "t9 is not seated in round 1"
    # what the organiser page is sent: the reason's message and its values, said in the page's language
    assert t.refused["t1/g9"]["why"] == {"words": MISFITS["done"], "values": {"table": "t1", "n": "1", "game": "g1"}}
    copied = copy.deepcopy(t.refused["t1/g9"]["reason"])  # a copy keeps its message and values
    assert copied == "t1 already has its round 1 result (game g1)" and copied.words == MISFITS["done"]
    with speaking("de"):
        german = t.refused["t9/gx"]["reason"].said()
        assert "t9" in german and german != "t9 is not seated in round 1"
    assert {row["name"]: row["games"] for row in t.standings()}["Ann"] == 1
    again = Tournament(Journal(tmp_path / "t.jsonl"))  # a restart reads the journal
    assert again.event == t.event
    assert take(again, "t1", "g1", r) is False
    assert again.standings() == t.standings()
    assert sum(1 for line in (tmp_path / "t.jsonl").read_text().splitlines() if '"result"' in line) == 1


def test_corrections_and_void(tmp_path):
    t = make(tmp_path)
    t._commit({"t": "round", "n": 1, "tables": {"t1": ["Ann", "Bob", "Cid", "Dee"]}, "seed": 0})
    take(t, "t1", "g1", result(("Ann", 80), ("Bob", 70), ("Cid", 60), ("Dee", 40)))
    t.correct("t1", "g1", {"Ann": 60, "Bob": 70, "Cid": 60, "Dee": 40})
    rows = {r["name"]: r["points"] for r in t.standings()}
    assert rows["Bob"] == POINTS[1] and rows["Ann"] == rows["Cid"] == POINTS[2]
    with pytest.raises(TournamentError, match="0 to 1000"):
        t.correct("t1", "g1", {"Ann": -5})
    with pytest.raises(
        TournamentError,
        match=r"every player seated at t1 in round 1 \(Ann, Bob, Cid, Dee\): "
        r"missing Cid, Dee; not seated there: Eve",
    ):
        t.correct("t1", "g1", {"Ann": 60, "bob": 70, "Eve": 10})  # Cid and Dee would lose the game
    assert {r["name"]: r["games"] for r in t.standings()}["Dee"] == 1
    with pytest.raises(TournamentError, match="no result of game 'g2'"):
        t.correct("t1", "g2", void=True)
    t.correct("t1", "g1", void=True)
    assert all(r["games"] == 0 for r in Tournament(Journal(tmp_path / "t.jsonl")).standings())


def test_a_torn_last_line_is_skipped_with_a_warning(tmp_path):
    make(tmp_path, ["Ann", "Bob", "Cid"])
    with open(tmp_path / "t.jsonl", "ab") as f:
        f.write(b'{"t":"register","na')
    j = Journal(tmp_path / "t.jsonl")
    again = Tournament(j)
    assert again.players == ["Ann", "Bob", "Cid"] and "cut by a crash" in j.warnings[0]
    again.register("Dee")  # appends on a clean line
    assert Tournament(Journal(tmp_path / "t.jsonl")).players == ["Ann", "Bob", "Cid", "Dee"]


def test_a_damaged_line_in_the_middle_is_refused(tmp_path):
    make(tmp_path, ["Ann", "Bob"])
    path = tmp_path / "t.jsonl"
    path.write_text("garbage\n" + path.read_text())
    with pytest.raises(TournamentError, match="line 1 is not a tournament record"):
        Tournament(Journal(path))


def test_csv_cells_cannot_start_a_formula(tmp_path):
    t = make(tmp_path, ["=HYPERLINK(1)", "Bob", "Cid"])
    assert "'=HYPERLINK(1)" in t.csv()


def test_a_result_whose_players_were_not_seated_there_is_refused_until_entered_by_hand(tmp_path):
    t = make(tmp_path, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"])
    t._commit({"t": "round", "n": 1, "tables": {"t1": ["Ann", "Bob", "Cid"], "t2": ["Dee", "Eve", "Fay"]}, "seed": 0})
    assert take(t, "t1", "g1", result(("Ann", 80), ("Robert", 70), ("cid", 60))) is False
    assert t.refused["t1/g1"]["reason"] == (
        "its players (Ann, Robert, cid) are not the ones seated at t1 in round 1 (Ann, Bob, Cid)"
    )
    # a table crediting another table's players: refused, nobody credited
    assert take(t, "t2", "g2", result(("Ann", 999), ("Bob", 999), ("Cid", 999))) is False
    assert "not the ones seated at t2" in t.refused["t2/g2"]["reason"]
    assert all(r["games"] == 0 for r in t.standings())
    with pytest.raises(TournamentError, match="missing Bob"):
        t.correct("t1", "g1", {"Ann": 80, "Robert": 70, "Cid": 60})
    t.correct("t1", "g1", {"Ann": 80, "Bob": 70, "Cid": 60})  # the organiser enters it by hand
    assert "t1/g1" not in t.refused and t.snapshot()["results"][0]["unregistered"] == []
    assert {r["name"]: r["points"] for r in t.standings()} == {
        "Ann": 6,
        "Bob": 4,
        "Cid": 2,
        "Dee": 0,
        "Eve": 0,
        "Fay": 0,
    }


@pytest.mark.parametrize(
    "change, words",
    [
        ({"event": "last-night"}, "no seating of this event"),
        ({"round": 0, "round_id": ""}, "before any round was seated"),
        ({"round_id": "forged"}, "names round 1 with a seating this tournament never made"),
        ({"late": True}, "had begun before the table learnt round 1's seating"),
    ],
)
def test_a_game_not_started_under_this_events_seating_is_refused(tmp_path, change, words):
    t = make(tmp_path, ["Ann", "Bob", "Cid"])
    t.seat_round(["t1"], seed=1)
    assert t.take_result("t1", "g1", result(("Ann", 80), ("Bob", 70), ("Cid", 60)), seated(t, **change))
    assert words in t.refused["t1/g1"]["reason"] and not t.results


def test_scores_out_of_bounds_or_untyped_are_refused(tmp_path):
    t = make(tmp_path, ["Ann", "Bob", "Cid"])
    t.seat_round(["t1"], seed=1)
    for i, bad in enumerate([10**15, -1, "80", None, True]):
        assert t.take_result("t1", f"g{i}", result(("Ann", bad), ("Bob", 70), ("Cid", 60)), seated(t))
    assert not t.results and len(t.refused) == 5


def test_a_new_file_is_a_new_event(tmp_path):
    first = Tournament(Journal(tmp_path / "a.jsonl"))
    second = Tournament(Journal(tmp_path / "b.jsonl"))
    assert first.event and second.event and first.event != second.event
    assert Tournament(Journal(tmp_path / "a.jsonl")).event == first.event


def test_players_the_tables_cannot_seat_get_byes_lowest_ranked_first_and_once_each_while_they_can(tmp_path):
    names = "Ann Bob Cid Dee Eve Fay Gus".split()  # 7 players, one table: 5 seated, 2 byes
    t = make(tmp_path, names)
    first = t.seat_round(["t1"], seed=2)
    order = first["tables"]["t1"] + first["byes"]
    assert len(first["tables"]["t1"]) == 5 and len(first["byes"]) == 2 and sorted(order) == sorted(names)
    scores = dict(zip(first["tables"]["t1"], [90, 80, 70, 60, 50]))
    assert take(t, "t1", "g1", result(*scores.items()))
    rows = {r["name"]: r for r in t.standings()}
    for p in first["byes"]:  # a bye: 2 points (3rd place's), no score, no game, no first place
        assert (rows[p]["points"], rows[p]["score"], rows[p]["games"], rows[p]["wins"], rows[p]["byes"]) == (
            BYE_POINTS,
            0,
            0,
            0,
            1,
        )
    second = t.seat_round(["t1"])
    # the lowest ranked who have had no bye: the two last of the table (1 and 0 points)
    last_two = sorted(scores, key=scores.get)[:2]
    assert sorted(second["byes"]) == sorted(last_two)
    assert t.csv().splitlines()[0].endswith(",withdrawn,byes")
    assert Tournament(Journal(tmp_path / "t.jsonl")).standings() == t.standings()


def test_every_player_seated_when_the_tables_can(tmp_path):
    t = make(tmp_path, [f"P{i}" for i in range(11)])
    rnd = t.seat_round(["t1", "t2", "t3"], seed=1)
    assert rnd["byes"] == [] and sorted(len(g) for g in rnd["tables"].values()) == [3, 4, 4]
    with pytest.raises(TournamentError, match="give at least one table"):
        make(tmp_path / "x", ["A", "B", "C"]).seat_round([])


def test_a_result_from_the_wrong_hall_is_listed_and_never_stands_in_the_way_of_the_tables_own(tmp_path):
    t = make(tmp_path, ("Ann", "Bob", "Cid"))
    t.seat_round(["t3"], seed=1)
    forged = result(("Ann", 999), ("Bob", 1), ("Cid", 1))
    why = "it came through hall-a's bridge, but t3 plays in hall-b"
    assert t.refuse("t3", "g1", why, forged, via="hall-a", round_no=1)
    assert not t.refuse("t3", "g1", why, forged, via="hall-a", round_no=1)  # again: listed once
    assert [(r["reason"], r["via"], r["standings"][0]["score"]) for r in t.refused.values()] == [(why, "hall-a", 999)]
    with pytest.raises(TournamentError, match="came through hall-a's bridge, which may not post t3's results"):
        t.correct("t3", "g1", {"Ann": 999, "Bob": 1, "Cid": 1})
    assert take(t, "t3", "g1", result(("Ann", 60), ("Bob", 70), ("Cid", 50)))  # the table's own game, same id
    assert t.standings()[0]["name"] == "Bob" and len(t.refused) == 1
    assert not Tournament(Journal(tmp_path / "t.jsonl")).refused  # never journalled: a listing, not a record
