"""`elgrande club` and `elgrande club-sim` (`club-setup`: test_halls.py): a mistake is one line on
stderr and exit status 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest


def elgrande(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "ELGRANDE_CLUB_TOKEN": "", **(env or {})},
    )


@pytest.mark.parametrize(
    "args, env, words",
    [
        (["club", "--broker", "mqtt://127.0.0.1:1"], {}, "give the organiser's token: the environment variable"),
        (["club", "--broker", "ftp://x"], {"ELGRANDE_CLUB_TOKEN": "long-enough"}, "unknown scheme ftp://"),
        (["club", "--broker", "mqtt://h", "--club", "a/b"], {"ELGRANDE_CLUB_TOKEN": "long-enough"}, "club name 'a/b'"),
        (["club", "--broker", "mqtt://h"], {"ELGRANDE_CLUB_TOKEN": "short"}, "at least 8 characters"),
        (["club", "--broker", "mqtt://h", "--port", "70000"], {"ELGRANDE_CLUB_TOKEN": "long-enough"}, "--port 70000"),
        (
            ["club", "--broker", "mqtts://h", "--cafile", "/nonexistent"],
            {"ELGRANDE_CLUB_TOKEN": "long-enough"},
            "CA file /nonexistent: no such file",
        ),
        (
            ["club", "--broker", "mqtt://h", "--halls", "/nonexistent.json"],
            {"ELGRANDE_CLUB_TOKEN": "long-enough"},
            "hall plan /nonexistent.json: No such file or directory",
        ),
        (["club-sim", "--broker", "mqtt://h"], {}, "needs its table id"),
        (["club-sim", "--broker", "mqtt://h", "--table-id", "t1", "--names", "a,b"], {}, "--names: give 4 names"),
    ],
)
def test_mistakes_are_one_line(args, env, words, tmp_path):
    run = (
        elgrande(*args, "--data", str(tmp_path / "t.jsonl"), env=env) if args[0] == "club" else elgrande(*args, env=env)
    )
    assert run.returncode == 2 and words in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_a_busy_port_is_one_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        run = elgrande(
            "club",
            "--broker",
            "mqtt://127.0.0.1:1",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data",
            str(tmp_path / "t.jsonl"),
            env={"ELGRANDE_CLUB_TOKEN": "long-enough"},
        )
    assert run.returncode == 2 and f"cannot serve the board on 127.0.0.1:{port}" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_a_damaged_journal_is_one_line(tmp_path):
    (tmp_path / "t.jsonl").write_text("garbage\n{}\n")
    run = elgrande(
        "club",
        "--broker",
        "mqtt://127.0.0.1:1",
        "--data",
        str(tmp_path / "t.jsonl"),
        env={"ELGRANDE_CLUB_TOKEN": "long-enough"},
    )
    assert run.returncode == 2 and "line 1 is not a tournament record" in run.stderr, run.stderr


def test_an_open_club_broker_is_warned_about_in_the_clubs_words():
    from companion.words.catalogue import speaking
    from companion.words.link_words import security_words

    said = security_words(False, False, "club")
    assert "forge the tables' states" in said and "the tables' topics" in said and "tower" not in said
    assert security_words(True, True, "club") == ""
    with speaking("de"):
        german = security_words(False, False, "club")
        assert german and german != said and "mqtts://" in german and "Turm" not in german
