"""The room board against a hostile Wi-Fi, on real sockets against the real board (and the real
club broker): idle, half-sent and dribbled connections closed, a connection flood capped while
the page still loads, capped /events streams that are never swept as idle, and organiser tokens
that cannot be guessed: after 5 wrong ones an address is locked out, the lockout doubling."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import time

import pytest

from companion.club.board import ClubBoard
from companion.club.board_access import TokenThrottle
from companion.club.tournament import Journal, Tournament
from companion.web.guard import Limits
from tests.companion.club.conftest import CLUB, TOKEN, USERS
from tests.companion.club.test_board_access import Clock
from tests.companion.club.test_publisher import until
from tests.companion.web.test_guard import LOADED_S, cut_off_while_dribbling

FAST = Limits(idle_timeout=0.5, body_timeout=0.5)
WRONG = "not-the-token-at-all"


@pytest.fixture
def start_board(club_broker, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    boards = []

    def start(limits: Limits = FAST, throttle=None) -> ClubBoard:
        board = ClubBoard(
            club_broker.url,
            CLUB,
            Tournament(Journal(tmp_path / f"t{len(boards)}.jsonl")),
            TOKEN,
            username="club-board",
            password=USERS["club-board"],
            ca_file=club_broker.ca,
            limits=limits,
            throttle=throttle,
        ).start()
        boards.append(board)
        return board

    yield start
    for board in boards:
        board.stop()
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not tracebacks, f"a traceback in the log: {tracebacks[0].getMessage()}"


def connect_from(address: str, port: int) -> socket.socket:
    """A TCP connection to the board from another loopback address (another "device")."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((address, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def closed_within(s: socket.socket, seconds: float) -> bool:
    """Did the board close (or reset) this connection within `seconds`? What it sent first is ignored."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        s.settimeout(left)
        try:
            if s.recv(4096) == b"":
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except TimeoutError:
            return False
    return False


def request(
    board: ClubBoard, method: str, path: str, body: bytes = b"", token=TOKEN, address: str = "127.0.0.1"
) -> tuple[int, dict, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10, source_address=(address, 0))
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    c.request(method, path, body=body or None, headers=headers)
    r = c.getresponse()
    out = r.status, dict(r.getheaders()), r.read()
    c.close()
    return out


def register(board: ClubBoard, name: str, token=TOKEN, address: str = "127.0.0.1") -> tuple[int, str]:
    status, _, body = request(board, "POST", "/api/players", json.dumps({"name": name}).encode(), token, address)
    answer = json.loads(body)
    return status, answer.get("error", answer.get("name"))


def events_from(address: str, board: ClubBoard) -> tuple[socket.socket, bytes]:
    """Open /events from `address`; returns the socket and what came first (head and first events)."""
    s = connect_from(address, board.port)
    s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    first = s.recv(65536)
    if first.startswith(b"HTTP/1.1 200") and b"event: tournament" not in first:
        first += s.recv(65536)
    return s, first


# ---- connections ---------------------------------------------------------------------------------


def test_idle_half_sent_and_dribbled_connections_are_closed(start_board):
    board = start_board()
    port = board.port
    idle = connect_from("127.0.0.1", port)  # connects, says nothing
    head = connect_from("127.0.0.1", port)
    head.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Half: ")  # a request head never finished
    body = connect_from("127.0.0.1", port)
    body.sendall(
        b"POST /api/players HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        + TOKEN.encode()
        + b'\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"name":'
    )
    kept = connect_from("127.0.0.1", port)  # one complete request, then idle
    kept.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n")
    assert kept.recv(4096).startswith(b"HTTP/1.1 200")
    drip = connect_from("127.0.0.1", port)  # a head sent a byte at a time
    assert cut_off_while_dribbling(drip, b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 400), (
        "a dribbled request head was not cut off"
    )
    assert closed_within(drip, LOADED_S)
    for s, what in ((idle, "an idle connection"), (head, "a half-sent head"), (kept, "an idle keep-alive")):
        assert closed_within(s, LOADED_S), f"{what} stayed open"
    body.settimeout(LOADED_S)
    answer = body.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive within 0.5 s" in answer, answer
    assert closed_within(body, LOADED_S)
    until(lambda: len(board.guard) == 0, "every connection counted out")
    assert board.tournament.players == []


def refused_with_400(s: socket.socket) -> bool:
    return s.recv(4096).split(b"\r\n")[0] in (b"HTTP/1.0 400 Bad Request", b"HTTP/1.1 400 Bad Request")


def test_oversized_heads_and_garbage_get_one_line_each(start_board, caplog):
    board = start_board()
    long_line = connect_from("127.0.0.1", board.port)
    long_line.sendall(b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert refused_with_400(long_line)
    big_header = connect_from("127.0.0.1", board.port)
    big_header.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n")
    assert refused_with_400(big_header)
    garbage = connect_from("127.0.0.1", board.port)
    garbage.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
    assert refused_with_400(garbage)
    odd = request(board, "POST", "/api/players", b'{"name": "Ann"}', token="caf\u00e9-token")  # not ASCII
    assert odd[0] == 403 and board.tournament.players == []
    until(
        lambda: sum("club board: bad request from" in r.getMessage() for r in caplog.records) >= 3,
        "one line per bad request",
    )
    assert request(board, "GET", "/")[0] == 200


def test_a_flood_is_capped_and_the_page_still_loads(start_board, caplog):
    board = start_board(Limits(idle_timeout=5, per_address=8, max_connections=16))
    flood = [connect_from("127.0.0.7", board.port) for _ in range(20)]
    closed: set[int] = set()
    end = time.monotonic() + LOADED_S
    while len(closed) < 12 and time.monotonic() < end:  # the twelve over the cap, however slow the machine
        closed |= {i for i, s in enumerate(flood) if i not in closed and closed_within(s, 0.05)}
    assert len(closed) == 12, f"the per-address cap (8) did not hold: {len(closed)} of 20 closed"
    assert not any(closed_within(s, 0.05) for i, s in enumerate(flood) if i not in closed)
    until(lambda: board.guard.open_from("127.0.0.7") == 8, "eight from the flooding address")
    second = [connect_from("127.0.0.9", board.port) for _ in range(8)]  # now the board is full (16)
    until(lambda: len(board.guard) == 16, "the board full")
    status, _, page = request(board, "GET", "/", address="127.0.0.8")  # a newcomer still gets the page
    assert status == 200 and b"<html" in page.lower()
    assert board.guard.evicted >= 1
    said = [r.getMessage() for r in caplog.records]
    assert "club board: refused a connection from 127.0.0.7: it already has 8 open (the limit per address)" in said
    assert any(m.startswith("club board: 16 connections open: closed the longest idle one") for m in said)
    for s in flood + second:
        s.close()
    until(lambda: board.guard.open_from("127.0.0.7") == 0, "the flood gone")
    assert request(board, "GET", "/", address="127.0.0.7")[0] == 200  # and the flooder is served again


def test_event_streams_are_capped_and_never_swept(start_board):
    board = start_board(Limits(idle_timeout=0.5, body_timeout=0.5, spectators=3, spectators_per_address=2))
    a1, first = events_from("127.0.0.7", board)
    assert first.startswith(b"HTTP/1.1 200") and b"event: tournament" in first
    a2, _ = events_from("127.0.0.7", board)
    _, third = events_from("127.0.0.7", board)
    assert third.startswith(b"HTTP/1.1 429") and b"already has 2 board pages open" in third
    b1, _ = events_from("127.0.0.8", board)
    _, full = events_from("127.0.0.9", board)
    assert full.startswith(b"HTTP/1.1 429") and b"too many board pages open (at most 3)" in full
    time.sleep(1.5)  # three idle timeouts
    assert register(board, "Ann") == (200, "Ann")
    for s in (a1, a2, b1):  # (a `board` event, the board's own link, may come first)
        s.settimeout(3)
        got = b""
        while b"Ann" not in got and (chunk := s.recv(65536)):
            got += chunk
        assert b"Ann" in got, "a quiet board page was cut off or missed the push"
    a1.close()
    until(lambda: board._watchers.places.count("127.0.0.7") == 1, "the closed page's place freed")
    c1, again = events_from("127.0.0.9", board)
    assert again.startswith(b"HTTP/1.1 200")
    for s in (a2, b1, c1):
        s.close()


# ---- organiser tokens ----------------------------------------------------------------------------


def test_wrong_tokens_lock_the_address_out(start_board, caplog):
    clock = Clock()
    board = start_board(throttle=TokenThrottle(clock=clock))
    tries = [register(board, "X", token=None)] + [register(board, "X", token=WRONG) for _ in range(4)]
    assert [t[0] for t in tries] == [401, 403, 403, 403, 403]
    assert "try again in 30 s" in tries[-1][1]
    status, headers, body = request(board, "POST", "/api/players", b'{"name": "X"}', token=WRONG)
    assert status == 429 and headers["Retry-After"] == "30"
    assert json.loads(body)["error"] == "too many wrong organiser tokens from this address: try again in 30 s"
    assert register(board, "Ann") == (429, "too many wrong organiser tokens from this address: try again in 30 s")
    assert register(board, "Bo", address="127.0.0.8") == (200, "Bo")  # another device is not affected
    clock.now += 20
    assert register(board, "Ann")[1].endswith("try again in 10 s")
    clock.now += 10.5
    assert register(board, "Ann") == (200, "Ann")  # the lockout is over
    assert board.tournament.players == ["Bo", "Ann"]
    lockouts = [r.getMessage() for r in caplog.records if "wrong organiser tokens from" in r.getMessage()]
    assert lockouts == [
        "club board: 5 or more wrong organiser tokens from 127.0.0.1: its organiser actions are refused for 30 s"
    ]
    assert TOKEN not in caplog.text and WRONG not in caplog.text


def test_a_right_token_before_the_lockout_resets_the_count_and_each_further_wrong_one_doubles(start_board):
    clock = Clock()
    board = start_board(throttle=TokenThrottle(clock=clock))
    for name in ("Ann", "Bo"):
        assert [register(board, "X", token=WRONG)[0] for _ in range(4)] == [403] * 4
        assert register(board, name) == (200, name)  # the fifth try is right: forgiven
    assert register(board, "X", token=WRONG)[0] == 403  # a ninth wrong one: still counted from 1
    for _ in range(4):
        register(board, "X", token=WRONG)
    assert register(board, "Cy")[1].endswith("try again in 30 s")
    clock.now += 31
    status, message = register(board, "X", token=WRONG)
    assert status == 403 and "try again in 60 s" in message  # one more wrong try: twice as long
    assert register(board, "Cy")[1].endswith("try again in 60 s")
    assert board.tournament.players == ["Ann", "Bo"]


def test_a_page_that_stops_reading_is_dropped(start_board, monkeypatch, caplog):
    monkeypatch.setattr("companion.club.board_watchers.WRITE_TIMEOUT", 0.5)
    board = start_board()
    stuck = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window, then never read again
    stuck.connect(("127.0.0.1", board.port))
    stuck.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    until(lambda: len(board._watchers.queues) == 1, "the page watching")
    organiser = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10)
    pushes = 0
    while len(board._watchers.places) and pushes < 1500:  # each player registered pushes the whole tournament
        organiser.request(
            "POST",
            "/api/players",
            body=json.dumps({"name": f"player {pushes:04d} " + "x" * 28}),
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        assert organiser.getresponse().read()
        pushes += 1
    organiser.close()
    assert not len(board._watchers.places), f"a page reading nothing still held its place after {pushes} pushes"
    assert any("dropped a board page at 127.0.0.1: it read nothing for 0.5 s" in r.getMessage() for r in caplog.records)
    assert closed_within(stuck, LOADED_S)
    until(lambda: len(board.guard) == 0, "its connection counted out")
    assert request(board, "GET", "/")[0] == 200


def test_a_board_page_refused_for_room_tries_again_and_goes_live(start_board, browser):
    """Chromium's EventSource gives up for good on an HTTP error (the 429 of a full board): the
    page tries again by itself and is live once a place is free."""
    from playwright.sync_api import expect

    board = start_board(Limits(idle_timeout=0.5, body_timeout=0.5, spectators=1, spectators_per_address=1))
    first, second = browser.new_page(), browser.new_page()
    try:
        first.goto(f"http://127.0.0.1:{board.port}/")
        expect(first.locator("#conn")).to_have_text("live", timeout=10_000)
        second.goto(f"http://127.0.0.1:{board.port}/")
        expect(second.locator("#conn")).to_have_text("reconnecting", timeout=10_000)
        first.close()
        expect(second.locator("#conn")).to_have_text("live", timeout=15_000)
    finally:
        second.close()
