"""A large event: two mosquittos (TLS, passwords, the shipped club ACL) joined by the shipped
bridge.conf; a table on the hall broker is seen by the board on the main one, its Last Will too,
and a table on the hall still cannot write another table's topic."""
from __future__ import annotations

import json

from companion import scripted
from companion.club.board import ClubBoard
from companion.club.publisher import ClubPublisher
from companion.club.topics import state_topic
from companion.club.tournament import Tournament
from companion.table import Table

from .conftest import CLUB, SHIPPED, TOKEN, USERS, ClubBroker, Listener, club_config
from .test_publisher import until

BRIDGE_PASSWORD = "bridge-secret"


def test_a_table_on_a_bridged_hall_broker_reaches_the_board(tmp_path, certs):
    (tmp_path / "main").mkdir()
    (tmp_path / "hall").mkdir()
    main = ClubBroker(tmp_path / "main", certs, {**USERS, "hall-bridge": BRIDGE_PASSWORD}).start()
    bridge = (SHIPPED / "bridge.conf").read_text()
    for old, new in [("MAIN_BROKER_HOST:8883", f"127.0.0.1:{main.port}"),
                     ("/etc/mosquitto/elgrande-club/certs/", f"{tmp_path / 'hall' / 'elgrande-club' / 'certs'}/"),
                     ("HALL_BRIDGE_PASSWORD", BRIDGE_PASSWORD)]:
        assert old in bridge, f"the shipped bridge.conf changed: no {old!r}"
        bridge = bridge.replace(old, new)
    hall = ClubBroker(tmp_path / "hall", certs, extra=bridge).start()
    board = ClubBoard(main.url, CLUB, Tournament(), TOKEN, username="club-board", password=USERS["club-board"],
                      ca_file=main.ca).start()
    table = Table(scripted.scripted_setup())
    table.nonce = "bridged"
    pub = ClubPublisher(table, club_config(hall, "table-1"), heartbeat=30).start()
    forger = Listener(hall, user="table-2", topic="nothing/here")
    try:
        for _ in range(20):
            scripted.step(table, 9)
        until(lambda: board.snapshot() and board.snapshot()[0].get("version") == len(table.records),
              "the hall table's latest state on the main board", timeout=20)
        assert board.snapshot()[0]["status"] == "live" and board.snapshot()[0]["game"] == "bridged"
        forged = {**board.snapshot()[0], "version": 10**6}
        forger.client.publish(state_topic(CLUB, "table-1"), json.dumps(forged), qos=1).wait_for_publish(5)
        scripted.step(table, 9)
        until(lambda: board.snapshot()[0].get("version") == len(table.records), "the next state")
        pub.client.loop_stop()                    # the hall table's link dies: its will crosses the bridge
        pub.client.socket().close()
        pub._stop.set()
        until(lambda: board.snapshot()[0]["status"] == "offline", "offline through the bridge", timeout=20)
    finally:
        forger.close()
        board.stop()
        hall.stop()
        main.stop()
