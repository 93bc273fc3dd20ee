"""The room board over HTTPS (`elgrande club --certfile --keyfile`): the organiser's token never
crosses the Wi-Fi in clear. Checked on real sockets with the club's own CA (make-certs.sh), in
Chromium, and at the command line (a bad certificate is one line; plain HTTP on the network warns)."""

from __future__ import annotations

import http.client
import json
import os
import socket
import ssl
import subprocess
import sys
import time

import pytest
from playwright.sync_api import expect

from companion.club.board import ClubBoard
from companion.club.tournament import Journal, Tournament
from companion.web.guard import Limits
from tests.companion.club.conftest import CLUB, TOKEN, USERS
from tests.companion.club.test_command import elgrande
from tests.companion.club.test_publisher import until

FAST = Limits(idle_timeout=0.5, body_timeout=0.5)


@pytest.fixture
def https_board(club_broker, certs, tmp_path):
    board = ClubBoard(
        club_broker.url,
        CLUB,
        Tournament(Journal(tmp_path / "t.jsonl")),
        TOKEN,
        username="club-board",
        password=USERS["club-board"],
        ca_file=club_broker.ca,
        limits=FAST,
        certfile=str(certs / "server.crt"),
        keyfile=str(certs / "server.key"),
    ).start()
    yield board
    board.stop()


def _https(board, certs) -> http.client.HTTPSConnection:
    ctx = ssl.create_default_context(cafile=str(certs / "ca.crt"))  # verifies the board's name too
    return http.client.HTTPSConnection("127.0.0.1", board.port, context=ctx, timeout=5)


def test_the_board_answers_over_verified_tls_and_the_organiser_acts(https_board, certs):
    assert https_board.url == f"https://127.0.0.1:{https_board.port}/"
    conn = _https(https_board, certs)
    conn.request("GET", "/")
    page = conn.getresponse()
    assert page.status == 200 and b"<html" in page.read()
    conn.request(
        "POST",
        "/api/players",
        body=json.dumps({"name": "Ann"}),
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    answer = conn.getresponse()
    assert answer.status == 200 and json.loads(answer.read()) == {"name": "Ann"}
    conn.close()
    assert https_board.tournament.players == ["Ann"]


def test_plain_http_to_the_https_board_gets_no_answer_and_changes_nothing(https_board):
    body = json.dumps({"name": "Eve"}).encode()
    with socket.create_connection(("127.0.0.1", https_board.port), timeout=5) as s:
        s.sendall(
            b"POST /api/players HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + TOKEN.encode()
            + b"\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        got = b""
        try:
            while chunk := s.recv(4096):
                got += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    assert b"HTTP/1.1 200" not in got and https_board.tournament.players == []


def test_a_handshake_never_finished_is_cut_after_the_idle_timeout(https_board):
    """The guard sees a TLS connection once its handshake is done: one left half done is cut by
    the handshake timeout (the idle timeout), not asyncio's default minute."""
    with socket.create_connection(("127.0.0.1", https_board.port), timeout=10) as s:
        s.sendall(b"\x16\x03\x01")  # the first bytes of a ClientHello, then nothing
        started = time.monotonic()
        try:
            closed = s.recv(1) == b""
        except ConnectionResetError:
            closed = True
        took = time.monotonic() - started
    assert closed and took < FAST.idle_timeout + 15, took  # not asyncio's minute (room for a loaded machine)


def test_half_done_handshakes_count_against_the_limits_from_the_accept(https_board):
    """A door per TLS connection holds its place in the guard from the accept: one address with
    many half-done handshakes gets its 16, the rest are refused at once, and all are cut after
    the idle timeout (before, the guard saw none of them and each held a descriptor)."""
    limit = https_board.limits.per_address
    sockets = []
    try:
        for _ in range(limit + 8):
            s = socket.create_connection(("127.0.0.1", https_board.port), timeout=5)
            s.sendall(b"\x16\x03\x01")
            sockets.append(s)
        until(lambda: https_board.guard.refused >= 8, what="the 8 past the limit refused")
        assert https_board.guard.open_from("127.0.0.1") == limit
        until(
            lambda: https_board.guard.open_from("127.0.0.1") == 0,
            timeout=FAST.idle_timeout + 5,
            what="the half-done handshakes cut after the idle timeout",
        )
    finally:
        for s in sockets:
            s.close()
    conn = socket.create_connection(("127.0.0.1", https_board.port), timeout=5)  # a good one gets in again
    conn.close()


def test_the_board_page_goes_live_over_https_in_chromium(https_board, browser):
    context = browser.new_context(ignore_https_errors=True)  # Chromium here has no way to add the club CA
    try:
        page = context.new_page()
        page.goto(https_board.url)
        expect(page.locator("#conn")).to_have_text("live", timeout=10_000)  # EventSource over TLS
    finally:
        context.close()


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--certfile", "/nonexistent.crt"], "the board's certificate: no file /nonexistent.crt"),
        (["--keyfile", "/some.key"], "--keyfile without --certfile"),
        (["--certfile", __file__], "no private key in it (give --keyfile"),
        (["--certfile", __file__, "--keyfile", __file__], "not a PEM certificate with its private key"),
    ],
)
def test_a_bad_certificate_is_one_line(extra, words, tmp_path):
    run = elgrande(
        "club",
        "--broker",
        "mqtt://127.0.0.1:1",
        "--data",
        str(tmp_path / "t.jsonl"),
        *extra,
        env={"ELGRANDE_CLUB_TOKEN": "long-enough"},
    )
    assert run.returncode == 2 and words in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


@pytest.mark.parametrize("tls", [False, True])
def test_plain_http_on_the_network_is_warned_about_https_is_not(tls, certs, tmp_path):
    extra = ["--certfile", str(certs / "server.crt"), "--keyfile", str(certs / "server.key")] if tls else []
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "club",
            "--broker",
            "mqtt://127.0.0.1:1",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--data",
            str(tmp_path / "t.jsonl"),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "ELGRANDE_CLUB_TOKEN": "long-enough"},
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("BOARD https://" if tls else "BOARD http://"), line
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    warned = "the board is plain HTTP on the network" in err
    assert warned != tls, err
