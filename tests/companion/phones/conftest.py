"""Shared helpers for the phone server tests: a table, a running server, plain HTTP."""

from __future__ import annotations

import http.client as httpclient
import inspect
import json
import os
import random
import time

import pytest

from companion.phones import PhoneServer
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine.events import GameSetup
from engine.freeplay import RoundFinished
from engine.playout import random_event

PLAYERS = ["red", "yellow", "green", "blue"]
# Names that are not region ids nor parts of region names, so a search for a region finds only regions.
NAMES = {"red": "Ana", "yellow": "Bruno", "green": "Carmen", "blue": "Dora"}
SETUP = GameSetup(
    players=PLAYERS,
    names=NAMES,
    variant="short",
    king="cataluna",
    homes={"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia"},
    start_player="red",
)
# Distinctive picks, none of them the King's region.
PICKS = {"red": "sevilla", "yellow": "granada", "green": "pais_vasco", "blue": "castilla_la_nueva"}
PICK_NAMES = {
    "sevilla": "Sevilla",
    "granada": "Granada",
    "pais_vasco": "País Vasco",
    "castilla_la_nueva": "Castilla la Nueva",
    "aragon": "Aragón",
    "valencia": "Valencia",
}


@pytest.fixture(scope="session", autouse=True)
def data_dir(tmp_path_factory):
    old = os.environ.get("ELGRANDE_DATA_DIR")
    os.environ["ELGRANDE_DATA_DIR"] = str(tmp_path_factory.mktemp("elgrande-data"))
    yield
    if old is None:
        os.environ.pop("ELGRANDE_DATA_DIR", None)
    else:
        os.environ["ELGRANDE_DATA_DIR"] = old


def make_table(mode: str = "scoring") -> Table:
    return Table.new(TableSetup(game=SETUP, mode=mode))


def to_general_scoring(table: Table, seed: int = 3) -> None:
    """Drive the table until a general scoring asks for the secret discs (nobody chosen yet)."""
    if table.mode == "scoring":
        while table.asked().kind != "secret_disc":
            table.submit(RoundFinished())
        return
    rng = random.Random(seed)
    while True:
        ask = table.asked()
        if ask.kind == "secret_disc" and ask.options["purpose"] == "castillo_destination" and not ask.options["chosen"]:
            return
        assert ask.kind != "game_over"
        table.submit(random_event(rng, ask))


def to_special_disc(purposes=("special_scoring", "send_back", "eviction_destination")) -> tuple[Table, str]:
    """Tracking: seeded random games until an action card asks for secret discs."""
    for seed in range(100):
        table, rng = make_table("tracking"), random.Random(seed)
        while (ask := table.asked()).kind != "game_over":
            if ask.kind == "secret_disc" and ask.options["purpose"] in purposes and not ask.options["chosen"]:
                return table, ask.options["purpose"]
            table.submit(random_event(rng, ask))
        table.close()
    raise AssertionError("no action card asked for secret discs")


@pytest.fixture
def start_server():
    servers = []

    def start(table: Table) -> PhoneServer:
        server = PhoneServer(table, host="127.0.0.1").start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def http(server: PhoneServer, method: str, path: str, body=None, headers=None, timeout: float = 5):
    """(status, headers dict, raw body bytes)."""
    conn = httpclient.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        conn.request(method, path, body=data, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def code_of(server: PhoneServer, pid: str) -> str:
    return server.seat_url(pid).rsplit("/", 1)[1]


def join(server: PhoneServer, pid: str, confirm: bool = True) -> str:
    """A phone joins the seat (and, unless told otherwise, the tablet taps Yes)."""
    status, _, body = http(server, "POST", "/api/join", {"code": code_of(server, pid)})
    assert status == 200, body
    if confirm:
        assert server.confirm(pid, server.seats_status()[pid]["awaiting"])
    return json.loads(body)["credential"]


def seat_state(server: PhoneServer, pid: str) -> dict:
    """Whether the seat's phone is joined (confirmed) and connected."""
    state = server.seats_status()[pid]
    return {"joined": state["joined"], "connected": state["connected"]}


def wait_for(predicate, timeout: float = 20.0, what: str = ""):
    """predicate()'s first true value, polled until `timeout` (generous: a loaded machine; a
    passing wait returns at once); the failure names what was awaited and the last value seen."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= end:
            raise AssertionError(f"waited {timeout:g} s for {what or awaited(predicate)}; the last value: {value!r}")
        time.sleep(0.01)


def awaited(predicate) -> str:
    """The predicate's source line, for a wait that was not told what it waits for."""
    try:
        return inspect.getsource(predicate).strip()
    except (OSError, TypeError):
        return repr(predicate)


def status_of(server: PhoneServer) -> dict:
    status, _, body = http(server, "GET", "/api/status")
    assert status == 200
    return json.loads(body)
