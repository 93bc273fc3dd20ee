"""The new game's club setting (TableSetup.club): saved with the game and read back, older
saves without it still open, and the publisher the setting asks for; a club broker that is
not there never stops the table."""

from __future__ import annotations

import time

import pytest

from companion import scripted
from companion.club.config import ClubConfig
from companion.club.publisher import publisher_for
from companion.club.topics import state_topic
from companion.table.authority import Table
from companion.table.setup import TableSetup
from tests.companion.club.conftest import CLUB, Listener, club_config
from tests.companion.club.test_publisher import until


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_the_club_setting_is_saved_with_the_game(data_dir, club_broker):
    setup = scripted.scripted_setup().model_copy(update={"club": club_config(club_broker, "table-1")})
    table = Table.new(setup)
    table.close()
    again = Table.resume(table.path)
    assert again.setup.club == setup.club and again.setup.club.table == "table-1"
    assert "secret" not in repr(again.setup.club)  # the password is not shown in logs
    old = TableSetup.model_validate({k: v for k, v in setup.model_dump(mode="json").items() if k != "club"})
    assert old.club is None  # a game saved before issue 15
    again.close()


def test_publisher_for_the_setup(club_broker):
    table = Table(scripted.scripted_setup().model_copy(update={"club": club_config(club_broker, "table-2")}))
    table.nonce = "g-setup"
    listener = Listener(club_broker)
    pub = publisher_for(table)
    try:
        listener.wait(lambda m: any(t == state_topic(CLUB, "table-2") for t, _, _ in m), what="the state")
    finally:
        pub.stop()
        listener.close()
    assert publisher_for(Table(scripted.scripted_setup())) is None
    said = []
    bad = club_config(club_broker, "table-2").model_copy(update={"ca_file": "/nonexistent/ca.crt"})
    assert publisher_for(Table(scripted.scripted_setup().model_copy(update={"club": bad})), said.append) is None
    assert said == ["club: not publishing (CA file /nonexistent/ca.crt: no such file)"]


def test_a_club_broker_that_is_not_there_never_stops_the_table():
    from tests.firmware_bridge.bridge_helpers import free_port

    config = ClubConfig(broker=f"mqtt://127.0.0.1:{free_port()}", club=CLUB, table_id="table-9")
    table = Table(scripted.scripted_setup())
    pub = publisher_for(table.__class__(table.setup.model_copy(update={"club": config})))
    pub.switch_table(table)
    try:
        started = time.monotonic()
        n = scripted.play(table, 4)
        assert table.over and n > 100 and time.monotonic() - started < 20
        until(lambda: "nothing listens" in pub.status, "the status line")
        assert "\n" not in pub.status and "Traceback" not in pub.status
    finally:
        pub.stop()
