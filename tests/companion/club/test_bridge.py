"""A large event as `elgrande club-setup` writes it: the club broker and two hall brokers (TLS, the
generated passwords and ACLs, the shipped mosquitto.conf) joined by each hall's generated
bridge.conf, and the board given the hall plan.

- A table on a hall broker is seen by the board on the club broker, its Last Will too, and a table
  on the hall still cannot write another table's topic.
- Hall A's bridge user cannot post a result of hall B's table-3, neither through its bridge (an
  impostor tablet on hall A's broker) nor logged in to the club broker itself: the club broker
  refuses every such publish, the board never sees it, and table-3's real game then counts.
"""

from __future__ import annotations

import json
import shutil
import time
from types import SimpleNamespace

import pytest
from paho.mqtt import client as mqtt

from companion import cli, scripted
from companion.club.board import ClubBoard
from companion.club.config import ClubConfig
from companion.club.halls import HallPlan, mosquitto_hash
from companion.club.publisher import ClubPublisher
from companion.club.topics import PlayerState, Seated, StateMessage, hall_topic, online_topic, standings_of, state_topic
from companion.club.tournament import Tournament
from companion.table.authority import Table
from tests.companion.club.conftest import CLUB, TOKEN, ClubBroker, Listener
from tests.companion.club.test_publisher import until
from tests.firmware_bridge.bridge_helpers import free_port

HALLS = {"hall-a": ["table-1", "table-2"], "hall-b": ["table-3", "table-4"]}
NOT_AUTHORIZED = 135  # MQTT v5 PUBACK reason codes: the broker refused the publish,
NO_SUBSCRIBERS = 16  # or took it with nobody subscribed (a retained one is still kept)
TAKEN = 0
IMPOSTOR = "impostor-secret"


def read_passwords(path) -> dict[str, str]:
    return dict(line.split() for line in path.read_text().splitlines() if line and not line.startswith("#"))


@pytest.fixture(scope="module")
def event(tmp_path_factory, certs):
    """The brokers and the board, from `elgrande club-setup`'s files. Hall A's broker also holds an
    impostor: a tablet calling itself table-3 (a hall's admin could add one)."""
    tmp = tmp_path_factory.mktemp("event")
    port = free_port()
    out = tmp / "setup"
    argv = ["club-setup", "--club", CLUB, "--club-broker", f"127.0.0.1:{port}", "--out", str(out)]
    for hall, tables in HALLS.items():
        argv += ["--hall", f"{hall}={','.join(tables)}"]
    assert cli.main(argv) == 0
    passwords = read_passwords(out / "passwords.txt")
    shutil.copytree(out / "hall-a", tmp / "hall-a-files")
    with open(tmp / "hall-a-files" / "passwd", "a") as f:
        f.write(f"table-3:{mosquitto_hash(IMPOSTOR)}\n")
    brokers = {}
    for name, files in (("main", out / "club-broker"), ("hall-a", tmp / "hall-a-files"), ("hall-b", out / "hall-b")):
        (tmp / name).mkdir()
        bridge = ""
        if name != "main":
            bridge = (out / name / "bridge.conf").read_text()
            certs_path = "/etc/mosquitto/elgrande-club/certs/"
            assert certs_path in bridge, f"the generated bridge.conf changed: no {certs_path!r}"
            bridge = bridge.replace(certs_path, f"{tmp / name / 'elgrande-club' / 'certs'}/")
        brokers[name] = ClubBroker(
            tmp / name, certs, files=files, extra=bridge, port=port if name == "main" else None
        ).start()
    main = brokers["main"]
    board = ClubBoard(
        main.url,
        CLUB,
        Tournament(),
        TOKEN,
        username="club-board",
        password=passwords["club-board"],
        ca_file=main.ca,
        halls=HallPlan.load(out / "halls.json"),
    ).start()
    watcher = Listener(main, password=passwords["club-board"], topic="elgrande/#")
    watcher.wait(lambda m: watcher.connack is not None, what="the watcher on the club broker")
    assert board.connected.wait(20), board.status
    yield SimpleNamespace(
        board=board, passwords=passwords, watcher=watcher, **{name.replace("-", "_"): b for name, b in brokers.items()}
    )
    watcher.close()
    board.stop()
    for b in brokers.values():
        b.stop()


def config(broker, table, password):
    return ClubConfig(broker=broker.url, club=CLUB, username=table, password=password, ca_file=broker.ca)


def v5_client(broker, user, password):
    """A paho MQTT v5 client: the broker's PUBACK then says whether it took each publish."""
    acks: dict[int, int] = {}
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    c.tls_set(ca_certs=broker.ca)
    c.username_pw_set(user, password)
    c.on_publish = lambda cl, userdata, mid, reason_code, properties: acks.__setitem__(mid, reason_code.value)
    c.connect("127.0.0.1", broker.port, keepalive=10)
    c.loop_start()
    c.acks = acks
    return c


def publish(c, topic, payload, retain=True) -> int:
    """The broker's answer to one QoS 1 publish: TAKEN (whether anyone listens) or its refusal."""
    info = c.publish(topic, payload, qos=1, retain=retain)
    info.wait_for_publish(10)
    until(lambda: info.mid in c.acks, f"the broker's answer to the publish on {topic}", timeout=10)
    code = c.acks[info.mid]
    return TAKEN if code in (0, NO_SUBSCRIBERS) else code


def test_a_table_on_a_bridged_hall_broker_reaches_the_board(event):
    board = event.board
    table = Table(scripted.scripted_setup())
    table.nonce = "bridged"
    pub = ClubPublisher(table, config(event.hall_a, "table-1", event.passwords["table-1"]), heartbeat=30).start()
    forger = Listener(event.hall_a, user="table-2", password=event.passwords["table-2"], topic="nothing/here")
    try:
        for _ in range(20):
            scripted.step(table, 9)
        shown = lambda: next((t for t in board.snapshot() if t["table"] == "table-1"), {})
        until(lambda: shown().get("version") == len(table.records), "the hall table's latest state on the board")
        assert shown()["status"] == "live" and shown()["game"] == "bridged"
        forged = {**shown(), "version": 10**6}
        forger.client.publish(state_topic(CLUB, "table-1"), json.dumps(forged), qos=1).wait_for_publish(5)
        scripted.step(table, 9)
        until(lambda: shown().get("version") == len(table.records), "the next state")
        pub.client.loop_stop()  # the hall table's link dies: its will crosses the bridge
        pub.client.socket().close()
        pub._stop.set()
        until(lambda: shown()["status"] == "offline", "offline through the bridge")
    finally:
        forger.close()
        pub.stop(say_offline=False)


def forged_result(board, round_id: str, names: list[str]) -> bytes:
    """Table-3's game as a forger would post it: the round's seating and players, a made-up 999."""
    players = [PlayerState(id=f"p{i}", name=n, score=999 if i == 0 else 10) for i, n in enumerate(names)]
    return StateMessage(
        table="table-3",
        game="made-up",
        version=999,
        ts=time.time(),
        heartbeat=30,
        rules="classic",
        mode="tracking",
        round=9,
        rounds=9,
        phase="game over",
        players=players,
        over=True,
        standings=standings_of(players),
        seated=Seated(event=board.tournament.event, round=1, round_id=round_id),
    ).model_dump_json()


def test_a_halls_bridge_cannot_post_another_halls_table(event):
    board, tournament, watcher = event.board, event.board.tournament, event.watcher
    for name in ("Ann", "Bob", "Cid"):
        tournament.register(name)
    rnd = tournament.seat_round(["table-3"], seed=1)
    board.publish_seating()
    names = rnd["tables"]["table-3"]
    forged = forged_result(board, rnd["id"], names)
    topic = state_topic(CLUB, "table-3")

    # Through hall A's bridge: an impostor table-3 on hall A's broker, then hall A's real table-1.
    impostor = v5_client(event.hall_a, "table-3", IMPOSTOR)
    sentinel = v5_client(event.hall_a, "table-1", event.passwords["table-1"])
    # Hall A's bridge user on the club broker itself, on every topic that would carry table-3.
    bridge_user = v5_client(event.main, "hall-a", event.passwords["hall-a"])
    try:
        assert publish(impostor, topic, forged) == TAKEN  # hall A's broker takes it: table-3's topic there
        assert publish(sentinel, online_topic(CLUB, "table-1"), b"1", retain=False) == TAKEN
        carried = hall_topic("hall-a", online_topic(CLUB, "table-1"))
        watcher.wait(lambda m: any(t == carried for t, _, _ in m), what="hall A's next message, through its bridge")
        for where in (topic, hall_topic("hall-a", topic), hall_topic("hall-b", topic)):
            assert publish(bridge_user, where, forged) == NOT_AUTHORIZED, where
        assert publish(bridge_user, carried, b"1", retain=False) == TAKEN  # its own table's topic: taken
        watcher.wait(lambda m: sum(t == carried for t, _, _ in m) >= 2, what="hall A's own message")
    finally:
        for c in (impostor, sentinel, bridge_user):
            c.loop_stop()
            c.disconnect()
    assert not [t for t, _, _ in watcher.messages if "table-3" in t]  # the club broker delivered none of them
    assert not tournament.results and not tournament.refused and board.counters["misrouted"] == 0

    # Table-3's real game, on hall B's broker.
    setup = scripted.scripted_setup(players=3)
    setup.game.names.update(dict(zip(setup.game.players, names)))
    table = Table(setup)
    table.nonce = "real"
    pub = ClubPublisher(table, config(event.hall_b, "table-3", event.passwords["table-3"]), heartbeat=30).start()
    try:
        until(lambda: pub.seated is not None and pub.seated.round_id == rnd["id"], "the seating through hall B")
        scripted.play(table, 3)
        until(lambda: tournament.results, "table-3's real result counted")
    finally:
        pub.stop()
    (result,) = tournament.results.values()
    final = {p["name"]: p["score"] for p in table.public().game["players"]}
    assert result["table"] == "table-3" and result["game"] == "real"
    assert {s["name"]: s["score"] for s in result["standings"]} == final and max(final.values()) < 999
    assert not tournament.refused and not tournament.waiting_tables()


def test_clear_old_tables_clears_a_halls_table_where_its_bridge_put_it(event):
    """Last night's finished state of table-4, retained on the club broker under hall B: listed as
    another event's, and "clear old tables" empties it there (the board's user may write it)."""
    board = event.board
    old = StateMessage(
        table="table-4",
        game="last-night",
        version=5,
        ts=time.time(),
        heartbeat=30,
        rules="classic",
        mode="tracking",
        round=9,
        rounds=9,
        phase="game over",
        players=[],
        over=True,
        seated=Seated(event="last-night", round=1, round_id="r1"),
    ).model_dump_json()
    topic = hall_topic("hall-b", state_topic(CLUB, "table-4"))
    bridge_user = v5_client(event.main, "hall-b", event.passwords["hall-b"])
    try:
        assert publish(bridge_user, topic, old) == TAKEN
    finally:
        bridge_user.loop_stop()
        bridge_user.disconnect()
    until(lambda: "table-4" in board.old_tables, "table-4 listed as another event's")
    assert board._clear_old({}) == {"cleared": ["table-4"]}
    event.watcher.wait(
        lambda m: (topic, b"", False) in m or any(t == topic and not p for t, p, _ in m),
        what="the empty retained message over it",
    )
    late = Listener(event.main, password=event.passwords["club-board"], topic=topic)
    try:
        late.wait(lambda m: late.connack is not None, what="the late subscriber connected")
        # a retained message comes with the subscription, before anything published after it
        late.client.publish(topic, b"", qos=1).wait_for_publish(5)
        late.wait(lambda m: any(not retained for _, _, retained in m), what="its own message after subscribing")
        assert [(p, retained) for _, p, retained in late.messages] == [(b"", False)]
    finally:
        late.close()
