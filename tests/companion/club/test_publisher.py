"""A table publishes its public state to the club broker (TLS, its own user, the shipped ACL):
retained, on every change, with a growing version; its Last Will marks it offline; a broker
restart is recovered; no broker problem stops the table. A table cannot write another's topic."""

from __future__ import annotations

import json
import time

from companion import scripted
from companion.club.errors import Reason
from companion.club.publisher import ClubPublisher
from companion.club.topics import StateMessage, online_topic, seating_topic, state_topic
from companion.table.authority import Table
from tests.companion.club.conftest import CLUB, Listener, club_config


def new_table(players=4, mode="tracking"):
    t = Table(scripted.scripted_setup(mode=mode, players=players))
    t.nonce = f"game-{time.monotonic_ns() % 10**8}"
    return t


def until(predicate, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}; the last value: {value!r}"
        time.sleep(0.02)  # a status string has no event to wait on


def states(listener, table_id):
    topic = state_topic(CLUB, table_id)
    return [StateMessage.model_validate_json(p) for t, p, _ in listener.messages if t == topic and p]


def test_a_table_publishes_every_change_retained_with_a_growing_version(club_broker):
    table = new_table()
    listener = Listener(club_broker)
    pub = ClubPublisher(table, club_config(club_broker, "table-1"), heartbeat=30).start()
    try:
        listener.wait(lambda m: any(t == online_topic(CLUB, "table-1") and p == b"1" for t, p, _ in m))
        for _ in range(5):  # one change at a time: each is published
            scripted.step(table, 5)
            listener.wait(
                lambda m: any(s.version == len(table.records) for s in states(listener, "table-1")),
                what=f"version {len(table.records)}",
            )
        for _ in range(30):  # a burst: changes made faster than they travel are coalesced, the last one is sent
            scripted.step(table, 5)
        listener.wait(
            lambda m: states(listener, "table-1") and states(listener, "table-1")[-1].version == len(table.records),
            what="the latest version",
        )
        got = states(listener, "table-1")
        versions = [s.version for s in got]
        assert versions == sorted(versions) and len(set(versions)) >= 7
        last = got[-1]
        assert last.table == "table-1" and last.game == table.nonce and last.rules == "classic"
        assert [p.score for p in last.players] == [p["score"] for p in table.public().game["players"]]
        # a newcomer gets the retained state at once
        late = Listener(club_broker)
        late.wait(lambda m: any(r and t == state_topic(CLUB, "table-1") for t, _, r in m), what="retained state")
        late.close()
    finally:
        pub.stop()
        listener.close()


def test_last_will_restart_and_a_broker_that_is_gone(club_broker):
    table = new_table()
    pub = ClubPublisher(table, club_config(club_broker, "table-2"), heartbeat=30, backoff=(0.1, 0.5)).start()
    listener = Listener(club_broker)
    try:
        listener.wait(lambda m: states(listener, "table-2"), what="a first state")
        club_broker.kill()  # the broker dies mid-game: the table plays on
        for _ in range(40):
            scripted.step(table, 6)
        until(lambda: "nothing listens" in pub.status, "the status to say the broker is gone")
        assert pub.status.startswith("club: nothing listens at 127.0.0.1:") and "the game goes on" in pub.status
        assert "Traceback" not in pub.status
        listener.close()
        club_broker.start()  # back: the table reconnects and republishes
        listener = Listener(club_broker)
        listener.wait(
            lambda m: any(s.version == len(table.records) for s in states(listener, "table-2")),
            timeout=15,
            what="the state republished after the restart",
        )
        assert pub.connects >= 2
    finally:
        pub.client.loop_stop()  # the link dies without a goodbye: the broker sends the will
        pub.client.socket().close() if pub.client.socket() else None
        pub._stop.set()
    listener.wait(
        lambda m: any(t == online_topic(CLUB, "table-2") and p == b"0" for t, p, _ in m),
        timeout=25,
        what="the Last Will",
    )
    listener.close()


def test_bad_settings_are_one_line_and_refusals_are_a_status(club_broker):
    import pytest

    from companion.club.config import ClubConfig

    with pytest.raises(ValueError, match="table id"):
        ClubConfig(broker=club_broker.url, club=CLUB, table_id="bad/id")
    with pytest.raises(ValueError, match="needs its table id"):
        ClubConfig(broker=club_broker.url)
    table = new_table()
    wrong = club_config(club_broker, "table-3").model_copy(update={"password": "wrong"})
    pub = ClubPublisher(table, wrong, heartbeat=30).start()
    try:
        until(lambda: "not authorised" in pub.status, "the refusal")
        assert "refused the connection: not authorised (user 'table-3'" in pub.status
        scripted.step(table, 1)  # the table goes on
    finally:
        pub.stop()


def test_a_table_cannot_write_another_tables_topic(club_broker):
    own = new_table()
    pub = ClubPublisher(own, club_config(club_broker, "table-1"), heartbeat=30).start()
    watcher = Listener(club_broker)
    forger = Listener(club_broker, user="table-2", topic="nothing/here")
    try:
        watcher.wait(lambda m: states(watcher, "table-1"), what="table-1's state")
        fake = json.loads(states(watcher, "table-1")[-1].model_dump_json())
        fake.update(version=10**6, over=True)
        forger.client.publish(state_topic(CLUB, "table-1"), json.dumps(fake), qos=1, retain=True).wait_for_publish(5)
        forger.client.publish(online_topic(CLUB, "table-1"), b"0", qos=1, retain=True).wait_for_publish(5)
        forger.client.publish(seating_topic(CLUB), b"{}", qos=1, retain=True).wait_for_publish(5)  # the board's
        forger.client.publish(state_topic(CLUB, "table-2"), b"{}", qos=1).wait_for_publish(5)  # its own: allowed
        watcher.wait(lambda m: any(t == state_topic(CLUB, "table-2") for t, _, _ in m), what="table-2's own write")
        assert all(s.version < 10**6 for s in states(watcher, "table-1"))
        assert not any(t == online_topic(CLUB, "table-1") and p == b"0" for t, p, _ in watcher.messages)
        assert not any(t == seating_topic(CLUB) for t, _, _ in watcher.messages)
        anonymous = Listener(club_broker, user="", password="")
        time.sleep(0.3)
        assert anonymous.connack is None or anonymous.connack.is_failure
        anonymous.close()
    finally:
        for c in (forger, watcher):
            c.close()
        pub.stop()


def test_the_table_bar_words_for_the_club_link():
    from companion.club.publisher import CLUB_LINK, club_bar, club_line
    from companion.words.catalogue import speaking

    assert club_bar("") == ("", True)  # no club: nothing shown
    assert club_bar(Reason(CLUB_LINK["up"], table="table-1", address="h:8883")) == ("Club: live", True)
    assert club_bar(Reason(CLUB_LINK["connecting"], address="h:8883")) == ("Club: connecting", True)
    lost = Reason(CLUB_LINK["lost"], reason=7)
    assert club_bar(lost) == ("Club: offline", False)
    assert lost == "club: lost the broker (7); the game goes on, retrying"  # the log's words
    with speaking("de"):  # its whole line in the table's language
        assert "(7)" in club_line(lost) and club_line(lost) != lost


def test_a_resume_after_android_stopped_the_club_link_publishes_again(club_broker):
    """Android may stop the app's threads and sockets while it is paused; on resume
    companion.ui.platform.lifecycle.restore_links starts the club publisher again (the Kivy model's
    _start_club, here on a plain object), and the state played meanwhile reaches the board."""
    from companion.club.publisher import publisher_for
    from companion.ui.platform import lifecycle

    class Model:  # what restore_links uses of companion.ui.model.AppModel
        tower_link = phones = None

        def __init__(self, table):
            self.table, self.club_link = table, None

        def _start_club(self, table):
            self.club_link = publisher_for(table)

    table = new_table()
    table.setup.club = club_config(club_broker, "table-4")
    model = Model(table)
    model._start_club(table)
    listener = Listener(club_broker)
    try:
        listener.wait(lambda m: states(listener, "table-4"), what="a first state")
        assert lifecycle.restore_links(model) == []  # all running: nothing restarted
        old = model.club_link
        old.client.loop_stop()  # paused: Android stopped the network loop
        assert not lifecycle.club_running(old)
        for _ in range(20):
            scripted.step(table, 6)
        assert lifecycle.restore_links(model) == ["club"]
        assert model.club_link is not old and lifecycle.club_running(model.club_link)
        listener.wait(
            lambda m: any(s.version == len(table.records) for s in states(listener, "table-4")),
            what="the state played during the pause, published after the resume",
        )
    finally:
        if model.club_link:
            model.club_link.stop()
        listener.close()


def test_a_game_carries_the_seating_it_was_started_under(club_broker):
    """The newest seating while the game has not begun, kept from its first input on; a game
    that learns its first seating after it began carries it marked late."""
    board = Listener(club_broker, topic="nothing/here")
    watcher = Listener(club_broker)

    def seat(n: int, round_id: str) -> None:
        seating = {
            "event": "ev1",
            "round": n,
            "round_id": round_id,
            "at": time.time(),
            "tables": {"table-1": ["Ann", "Bob", "Cid", "Dee"]},
        }
        board.client.publish(seating_topic(CLUB), json.dumps(seating), qos=1, retain=True).wait_for_publish(5)

    def carried():
        got = states(watcher, "table-1")
        return got[-1].seated if got else None

    table = new_table()
    pub = ClubPublisher(table, club_config(club_broker, "table-1"), heartbeat=30).start()
    try:
        seat(1, "r1")
        until(lambda: carried() and carried().round_id == "r1", "round 1's seating in the state")
        seat(2, "r2")  # not begun yet: the game follows the newest seating
        until(lambda: carried() and carried().round_id == "r2", "round 2's seating in the state")
        assert carried().event == "ev1" and carried().round == 2 and not carried().late
        scripted.step(table, 1)
        seat(3, "r3")  # begun: it keeps the seating it started under
        until(lambda: pub.seating is not None and pub.seating.round_id == "r3", "round 3 received")
        scripted.step(table, 1)
        until(lambda: states(watcher, "table-1")[-1].version == len(table.records), "the next state")
        assert carried().round_id == "r2"
        resumed = new_table()
        scripted.step(resumed, 1)
        pub.seating = None
        pub.switch_table(resumed)  # a game already begun, with no seating known yet
        seat(4, "r4")
        until(lambda: carried() and carried().round_id == "r4", "the late seating")
        assert carried().late
    finally:
        board.client.publish(seating_topic(CLUB), b"", qos=1, retain=True).wait_for_publish(5)
        for c in (board, watcher):
            c.close()
        pub.stop()


def test_a_resumed_game_still_carries_the_seating_it_started_under(club_broker, tmp_path):
    """The app restarts mid-game: the game, resumed from its log, carries its seating as saved at
    its start (not `late`), though a newer round was seated meanwhile."""
    board = Listener(club_broker, topic="nothing/here")
    watcher = Listener(club_broker)

    def seat(n: int, round_id: str) -> None:
        seating = {"event": "ev1", "round": n, "round_id": round_id, "at": time.time(), "tables": {}}
        board.client.publish(seating_topic(CLUB), json.dumps(seating), qos=1, retain=True).wait_for_publish(5)

    setup = scripted.scripted_setup().model_copy(update={"club": club_config(club_broker, "table-3")})
    table = Table.new(setup, folder=tmp_path)
    seat(1, "r1")
    pub = ClubPublisher(table, setup.club, heartbeat=30).start()
    try:
        until(lambda: pub.seated is not None and pub.seated.round_id == "r1", "round 1 taken")
        for _ in range(5):
            scripted.step(table, 2)
        pub.stop()
        table.close()
        seat(2, "r2")
        resumed = Table.resume(table.path)
        pub = ClubPublisher(resumed, setup.club, heartbeat=30).start()
        until(lambda: pub.seating is not None and pub.seating.round_id == "r2", "round 2 received")
        scripted.step(resumed, 2)
        until(
            lambda: states(watcher, "table-3") and states(watcher, "table-3")[-1].version == len(resumed.records),
            "the resumed game's state",
        )
        carried = states(watcher, "table-3")[-1].seated
        assert carried.round_id == "r1" and not carried.late
        resumed.close()
    finally:
        board.client.publish(seating_topic(CLUB), b"", qos=1, retain=True).wait_for_publish(5)
        for c in (board, watcher):
            c.close()
        pub.stop()
