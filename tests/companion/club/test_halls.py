"""The hall plan and `elgrande club-setup` (companion/club/halls.py), and the board's own check of
where a hall's message came from: should a club broker's ACL let a hall's bridge write more than
its tables (a hand-written wildcard), a result it posts for another hall's table is refused with
its reason on the organiser page (Chromium), never counted, and the table's real result still is.
The generated files on real brokers: test_bridge.py."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat

import pytest
from playwright import sync_api

from companion import cli, scripted
from companion.club.board import ClubBoard
from companion.club.halls import HallPlan, misrouted
from companion.club.topics import Seated, hall_topic, public_state, state_topic
from companion.club.tournament import Tournament, TournamentError
from companion.table.authority import Table
from tests.companion.club.conftest import CLUB, SHIPPED, TOKEN, USERS, ClubBroker, Listener
from tests.companion.club.test_bridge import forged_result, read_passwords
from tests.companion.club.test_publisher import until
from tests.firmware_bridge.locked_broker import make_passwords


def test_a_plan_puts_each_table_in_one_hall_and_names_halls_apart_from_tables():
    plan = HallPlan("club", {"hall-a": ["table-1", "table-2"], "hall-b": ["table-3"]})
    assert plan.hall_of("table-3") == "hall-b" and plan.hall_of("table-9") is None
    for halls, said in [
        ({"hall-a": ["table-1"], "hall-b": ["table-1"]}, "table-1 is in two halls (hall-a and hall-b)"),
        ({"table-1": ["table-1"]}, "hall name table-1: a hall's bridge logs in as its hall's name"),
        ({"club-board": ["table-1"]}, "hall name club-board"),
        ({"hall a": ["table-1"]}, "hall name 'hall a': give 1 to 64 letters"),
        ({"hall-a": []}, "hall hall-a: give its tables"),
        ({}, "a hall plan names at least one hall"),
    ]:
        with pytest.raises(ValueError, match=re.escape(said)):
            HallPlan("club", halls)


def test_why_a_halls_message_is_not_taken():
    plan = HallPlan("club", {"hall-a": ["table-1"], "hall-b": ["table-3"]})
    assert misrouted(plan, "hall-b", "table-3") == ""
    assert misrouted(plan, "hall-a", "table-3") == (
        "it came through hall-a's bridge, but table-3 plays in hall-b: "
        "only table-3 or its hall's bridge may post its result"
    )
    assert "puts table-9 in no hall" in misrouted(plan, "hall-a", "table-9")
    assert "hall-z, which is not a hall of the plan" in misrouted(plan, "hall-z", "table-1")
    assert "the board was given no hall plan (start it with --halls" in misrouted(None, "hall-a", "table-1")


def test_a_plan_file_that_is_not_one_is_refused_in_one_line(tmp_path):
    for text, said in [
        ("{", "not JSON"),
        ("[]", 'give {"club"'),
        ('{"club": "c", "halls": {"h": ["h"]}}', "hall name h"),
        ("x" * (300 * 1024), "larger than 256 KB"),
    ]:
        (tmp_path / "plan.json").write_text(text)
        with pytest.raises(ValueError, match=said) as caught:
            HallPlan.load(tmp_path / "plan.json")
        assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="No such file"):
        HallPlan.load(tmp_path / "missing.json")


def setup_args(out, *more):
    return [
        "club-setup",
        "--club",
        "night",
        "--club-broker",
        "laptop.local",
        "--out",
        str(out),
        "--hall",
        "hall-a=table-1,table-2",
        "--hall",
        "hall-b=table-3",
        *more,
    ]


def test_club_setup_writes_one_bridge_user_per_hall_writing_only_its_tables(tmp_path, capsys):
    out = tmp_path / "night"
    assert cli.main(setup_args(out, "--tables", "table-9")) == 0
    assert "elgrande club --halls" in capsys.readouterr().out
    passwords = read_passwords(out / "passwords.txt")
    assert set(passwords) == {"club-board", "hall-a", "hall-b", "table-1", "table-2", "table-3", "table-9"}
    assert len(set(passwords.values())) == len(passwords) and min(map(len, passwords.values())) >= 24
    acl = (out / "club-broker" / "acl").read_text()
    assert acl.startswith((SHIPPED / "acl").read_text().rstrip("\n"))
    blocks = {b.splitlines()[0]: b.splitlines()[1:] for b in acl.split("\n\n") if b.startswith("user ")}
    hall_a = blocks["user hall-a"]
    assert hall_a == [
        "topic write elgrande/halls/hall-a/club/night/tables/table-1/state",
        "topic write elgrande/halls/hall-a/club/night/tables/table-1/online",
        "topic write elgrande/halls/hall-a/club/night/tables/table-2/state",
        "topic write elgrande/halls/hall-a/club/night/tables/table-2/online",
        "topic read elgrande/club/night/seating",
    ]
    assert blocks["user hall-b"][:2] == [
        "topic write elgrande/halls/hall-b/club/night/tables/table-3/state",
        "topic write elgrande/halls/hall-b/club/night/tables/table-3/online",
    ]
    assert set(blocks) == {"user hall-a", "user hall-b"} and "hall-bridge" not in acl

    def users(path):  # each line verifies as mosquitto would: PBKDF2-SHA512 of the password given out
        found = {}
        for line in path.read_text().splitlines():
            user, _, hashed = line.partition(":")
            _, seven, rounds, salt, digest = hashed.split("$")
            assert seven == "7" and base64.b64decode(digest) == hashlib.pbkdf2_hmac(
                "sha512", passwords[user].encode(), base64.b64decode(salt), int(rounds)
            )
            found[user] = hashed
        return set(found)

    assert users(out / "club-broker" / "passwd") == {"club-board", "hall-a", "hall-b", "table-9"}
    assert users(out / "hall-a" / "passwd") == {"table-1", "table-2"}
    assert users(out / "hall-b" / "passwd") == {"table-3"}
    bridge = (out / "hall-b" / "bridge.conf").read_text()
    for line in [
        "address laptop.local:8883",
        "remote_username hall-b",
        f"remote_password {passwords['hall-b']}",
        "topic club/night/tables/# out 1 elgrande/ elgrande/halls/hall-b/",
        "topic elgrande/club/night/seating in 1",
    ]:
        assert f"\n{line}\n" in bridge
    assert (out / "hall-b" / "acl").read_text() == (SHIPPED / "acl").read_text()
    assert HallPlan.load(out / "halls.json").halls == {"hall-a": ["table-1", "table-2"], "hall-b": ["table-3"]}
    for secret in ("passwords.txt", "club-broker/passwd", "hall-b/passwd", "hall-b/bridge.conf"):
        assert stat.S_IMODE(os.stat(out / secret).st_mode) == 0o600, secret


@pytest.mark.parametrize(
    "change, said",
    [
        (["--tables", "table-3"], "table-3 is given twice"),
        (["--hall", "hall-a=table-5"], "--hall 'hall-a=table-5': give each hall once"),
        (["--hall", "hall-c=table-2"], "table-2 is in two halls"),
        (["--club-broker", "laptop:99999"], "--club-broker 'laptop:99999': give the club broker's HOST"),
    ],
)
def test_club_setup_refuses_a_plan_that_is_not_one_and_writes_nothing(tmp_path, capsys, change, said):
    out = tmp_path / "night"
    assert cli.main(setup_args(out, *change)) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists() and os.listdir(tmp_path) == []


def test_club_setup_never_overwrites_a_setup(tmp_path, capsys):
    out = tmp_path / "night"
    assert cli.main(setup_args(out)) == 0
    before = (out / "passwords.txt").read_text()
    assert cli.main(setup_args(out)) == 2
    assert "already holds files: give a new folder" in capsys.readouterr().err
    assert (out / "passwords.txt").read_text() == before and sorted(os.listdir(tmp_path)) == ["night"]


@pytest.fixture
def wide_broker(tmp_path, certs):
    """A club broker whose ACL was widened by hand: hall-a's user may write anything under its hall
    (what the shipped acl warns against), so only the board's own check stands."""
    files = tmp_path / "files"
    files.mkdir()
    (files / "acl").write_text(
        (SHIPPED / "acl").read_text() + "\nuser hall-a\ntopic write elgrande/halls/hall-a/#\n"
        "\nuser hall-b\ntopic write elgrande/halls/hall-b/#\n"
    )
    make_passwords(files / "passwd", {"club-board": USERS["club-board"], "hall-a": "a-secret", "hall-b": "b-secret"})
    (tmp_path / "broker").mkdir()
    broker = ClubBroker(tmp_path / "broker", certs, files=files).start()
    yield broker
    broker.stop()


def test_a_result_through_the_wrong_hall_is_refused_on_the_organiser_page(wide_broker, browser):
    plan = HallPlan(CLUB, {"hall-a": ["table-1"], "hall-b": ["table-3"]})
    board = ClubBoard(
        wide_broker.url,
        CLUB,
        Tournament(),
        TOKEN,
        username="club-board",
        password=USERS["club-board"],
        ca_file=wide_broker.ca,
        halls=plan,
    ).start()
    hall_a = Listener(wide_broker, user="hall-a", password="a-secret", topic="nothing/here")
    hall_b = Listener(wide_broker, user="hall-b", password="b-secret", topic="nothing/here")
    tournament = board.tournament
    try:
        for name in ("Ann", "Bob", "Cid"):
            tournament.register(name)
        rnd = tournament.seat_round(["table-3"], seed=1)
        names = rnd["tables"]["table-3"]
        topic = state_topic(CLUB, "table-3")
        hall_a.client.publish(
            hall_topic("hall-a", topic), forged_result(board, rnd["id"], names), qos=1, retain=True
        ).wait_for_publish(5)
        until(lambda: tournament.refused, "the forged result refused")
        (refused,) = tournament.refused.values()
        assert refused["reason"] == (
            "it came through hall-a's bridge, but table-3 plays in hall-b: only table-3 "
            "or its hall's bridge may post its result"
        )
        assert refused["via"] == "hall-a" and refused["standings"][0]["score"] == 999
        assert not tournament.results and board.snapshot() == [] and board.counters["misrouted"] == 1
        with pytest.raises(TournamentError, match="came through hall-a's bridge, which may not post table-3's"):
            tournament.correct("table-3", "made-up", {n: 50 for n in names})

        setup = scripted.scripted_setup(players=3)  # table-3's real game, through its own hall
        setup.game.names.update(dict(zip(setup.game.players, names)))
        table = Table(setup)
        table.nonce = "real"
        scripted.play(table, 3)
        real = public_state(
            table, "table-3", len(table.records), seated=Seated(event=tournament.event, round=1, round_id=rnd["id"])
        )
        hall_b.client.publish(hall_topic("hall-b", topic), real.model_dump_json(), qos=1, retain=True).wait_for_publish(
            5
        )
        until(lambda: tournament.results, "table-3's real result counted")
        (result,) = tournament.results.values()
        assert result["game"] == "real" and result["standings"] == [
            s.model_dump(exclude={"id"}) for s in real.standings
        ]
        assert [t["game"] for t in board.snapshot()] == ["real"]

        page = browser.new_page()
        page.set_default_timeout(8000)
        page.goto(board.url + "organiser")
        row = page.locator('tr.refused[data-table="table-3"]')
        sync_api.expect(row).to_contain_text("it came through hall-a's bridge, but table-3 plays in hall-b")
        sync_api.expect(row).to_contain_text("999")
        sync_api.expect(page.locator("#halls")).to_have_text("hall-a: table-1; hall-b: table-3")
        sync_api.expect(page.locator("#results")).to_contain_text("real")
    finally:
        hall_a.close()
        hall_b.close()
        board.stop()
