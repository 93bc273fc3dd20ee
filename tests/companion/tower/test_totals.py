"""The tower's own totals reconciled with the table's (issue 11, item 9).

A totals snapshot counts, per colour, the drops since the tower's last emptying
up to its sequence number. The table compares it with the drops it received
since the same emptying (what the tower said of each, not what a person later
answered), never overwrites its count with it, and turns a disagreement into a
durable "tower_totals" record and a public fault with no figure in it, settled
by the hand count at the next Castillo opening. The bridge hands a snapshot over
only once every drop it counts has arrived. Tested on the table alone, then end
to end over a real pty with the simulated tower (restarts of the app and of the
tower included), and with a twin-table property: nothing public tells a tally.
"""

from __future__ import annotations

import random
import re
import threading
import time

import pytest

from companion.input_errors import NeedsConfirmation
from companion.table.authority import Table
from companion.table.setup import TableSetup, TowerConfig
from companion.tower.connection import TOTALS_MISMATCH, TowerConnection, totals_lines
from engine.events import CastilloCounted, GameSetup, SecretDiscSet, SecretDiscsRevealed
from engine.freeplay import RoundFinished
from firmware_bridge.adapter import TowerDrop
from firmware_bridge.messages import Totals
from firmware_bridge.sim import PtyPort, SimulatedTower

PLAYERS = ["red", "yellow", "green", "blue"]
BOOT = "0000b001"
NAMES = {"red": "Ana", "yellow": "Bruno", "green": "Carmen", "blue": "Dora"}
GAME = GameSetup(
    players=PLAYERS,
    names=NAMES,
    variant="short",
    king="cataluna",
    homes={"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia"},
    start_player="red",
)


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


def new_table(tower: TowerConfig | None = None) -> Table:
    return Table.new(TableSetup(game=GAME, mode="scoring", tower=tower or TowerConfig(kind="none")))


def drop(table: Table, seq: int, colour: str | None, boot: str = BOOT, multi: bool = False) -> None:
    table.tower_drop(
        TowerDrop(
            tower="t1",
            boot=boot,
            seq=seq,
            colour=colour,
            uncertain=colour is None,
            best="red" if colour is None else None,
            multi=multi,
            est=2 if multi else 1,
        )
    )


def totals(counts: dict, drops: int, seq: int, token: str, boot: str = BOOT, unc: int = 0, multi: int = 0):
    return Totals(
        t="totals", boot=boot, seq=seq, counts=counts, unc=unc, multi=multi, drops=drops, epoch=1, token=token
    )


def kinds(table: Table) -> list[str]:
    return [r["t"] for r in table.records]


def wait_for(predicate, timeout: float = 20.0, what: str = "condition"):
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= end:
            raise AssertionError(f"waited {timeout:g} s for {what}; the last value: {value!r}")
        time.sleep(0.02)


# ---- the table alone -------------------------------------------------------------------------------


def test_a_new_game_starts_the_towers_count_from_its_own_emptying():
    table = new_table()
    token = table.start_tower_count()
    assert token == f"g{table.nonce}-s" and kinds(table) == ["emptied"]
    assert table.start_tower_count() == token and kinds(table) == ["emptied"]  # once
    older = new_table()
    drop(older, 1, "red")  # a game that has drops already (a log of an earlier version)
    assert older.start_tower_count() is None and kinds(older) == ["drop"]


def test_agreeing_totals_leave_no_trace_and_person_answers_are_no_fault():
    table = new_table()
    token = table.start_tower_count()
    drop(table, 1, "red")
    drop(table, 2, "red")
    drop(table, 3, None)  # uncertain: a person says it was Bruno's
    drop(table, 4, None, multi=True)  # two cubes at once
    drop(table, 5, "black")  # a colour nobody plays: flagged, a person says "not a Caballero"
    table.assign_drop(f"{BOOT}:3", "yellow")
    table.assign_drop(f"{BOOT}:4", "green", 2)
    table.dismiss_drop(f"{BOOT}:5")
    # The tower counts what it saw: 2 red, 1 black sure, 1 uncertain, 1 multiple.
    snap = totals({"red": 2, "black": 1, "blue": 0}, drops=5, seq=5, token=token, unc=1, multi=1)
    assert table.tower_totals("t1", snap) == "agree"
    assert "tower_totals" not in kinds(table) and not table.public().totals_mismatch
    assert table.totals_check()["seen"]["state"] == "agree"
    # A snapshot taken before the last two drops counts only up to its seq.
    older = totals({"red": 2}, drops=3, seq=3, token=token, unc=1)
    assert table.tower_totals("t1", older) == "agree"
    # Another tower's drops are not in this tower's totals.
    table.tower_drop(TowerDrop(tower="t2", boot=BOOT, seq=1, colour="blue", uncertain=False))
    assert table.tower_totals("t1", snap) == "agree"


def test_a_disagreement_is_logged_shown_without_figures_and_settled_by_the_hand_count(tmp_path):
    table = new_table()
    token = table.start_tower_count()
    for seq, colour in enumerate(["red", "red", "blue", "yellow"], 1):
        drop(table, seq, colour)
    # The tower counted a red drop that never reached the table (seq 5): it says 3 red, 5 drops.
    snap = totals({"red": 3, "blue": 1, "yellow": 1}, drops=5, seq=5, token=token)
    assert table.tower_totals("t1", snap) == "differ"
    record = table.records[-1]
    assert record["t"] == "tower_totals" and record["seq"] == 5 and record["token"] == token
    assert record["tower_count"] == {"counts": {"blue": 1, "red": 3, "yellow": 1}, "drops": 5}
    assert record["table_count"] == {"counts": {"blue": 1, "red": 2, "yellow": 1}, "drops": 4}
    assert table.hidden_tallies()["red"] == 2  # never overwritten
    assert table.public().totals_mismatch
    check = table.totals_check()
    assert check["fault"] and check["counts"] is None  # the Castillo is closed: no figure
    words = " ".join(totals_lines(check, table.names))
    assert "disagree" in words and not re.search(r"\d", re.sub(r"\d\d:\d\d", "", words))
    assert not re.search(r"\d", TOTALS_MISMATCH)
    # The same snapshot again (a resync, a restart): no second record.
    assert table.tower_totals("t1", snap) == "differ" and kinds(table).count("tower_totals") == 1
    # After a restart the fault is still there, from the log.
    path = table.path
    table.close()
    table = Table.resume(path)
    assert table.public().totals_mismatch and table.totals_check()["fault"]
    assert table.tower_totals("t1", snap) == "differ" and kinds(table).count("tower_totals") == 1
    # The general scoring: the Castillo is lifted; now both counts may be shown.
    while table.asked().kind != "secret_disc":
        table.submit(RoundFinished())
    for pid, region in zip(PLAYERS, ["aragon", "sevilla", "granada", "galicia"]):
        table.submit(SecretDiscSet(player=pid, region=region), player=pid)
    assert table.open_castillo() == {"red": 2, "yellow": 1, "green": 0, "blue": 1}
    check = table.totals_check()
    assert check["counts"] == {"tower": record["tower_count"], "table": record["table_count"]}
    words = " ".join(totals_lines(check, table.names))
    assert "Ana 3" in words and "Ana 2" in words and "hand" in words
    table.submit(CastilloCounted(counts={"red": 3, "yellow": 1, "green": 0, "blue": 1}))  # the hand count
    assert not table.public().totals_mismatch
    assert "settled by the hand count" in " ".join(totals_lines(table.totals_check(), table.names))
    with pytest.raises(NeedsConfirmation):
        table.undo()
    table.undo(confirm=True)  # the count taken back: the fault is open again
    assert table.public().totals_mismatch
    table.submit(CastilloCounted(counts={"red": 3, "yellow": 1, "green": 0, "blue": 1}))
    table.submit(SecretDiscsRevealed())  # the Castillo is emptied: a new count begins
    assert kinds(table)[-1] == "emptied" and not table.public().totals_mismatch
    fresh = table.empty_token
    assert table.tower_totals("t1", totals({}, drops=0, seq=5, token=fresh)) == "agree"


def test_a_tower_counting_since_another_emptying_is_not_compared():
    table = new_table()
    token = table.start_tower_count()
    drop(table, 1, "red")
    assert table.tower_totals("t1", totals({"red": 9}, drops=9, seq=1, token="old")) == "other_emptying"
    assert "tower_totals" not in kinds(table) and not table.public().totals_mismatch
    assert "sent to it again" in totals_lines(table.totals_check(), table.names)[0]
    older = new_table()
    drop(older, 1, "red")
    assert older.tower_totals("t1", totals({"red": 1}, drops=1, seq=1, token="")) == "other_emptying"
    assert "next general scoring" in totals_lines(older.totals_check(), older.names)[0]
    assert token


def test_a_damaged_totals_record_is_damage_not_a_crash(tmp_path):
    from companion.table.log import check_record as _check_record

    with pytest.raises(ValueError, match="tower_count"):
        _check_record(
            {
                "t": "tower_totals",
                "tower_count": {"counts": {"red": "3"}, "drops": 3},
                "table_count": {"counts": {}, "drops": 0},
            },
            tuple(PLAYERS),
        )
    with pytest.raises(ValueError, match="table_count"):
        _check_record(
            {"t": "tower_totals", "tower_count": {"counts": {}, "drops": 0}, "table_count": [1]}, tuple(PLAYERS)
        )


def test_nothing_public_tells_a_tally():
    """Twin tables differ only in whose the Castillo's Caballeros are (the colours of the same
    drops permuted), with the same drops lost on the way. Everything public, and what the tower
    panel says while the Castillo is closed, must be the same for both twins."""
    rng = random.Random(11)
    compared = faults = 0
    for case in range(150):
        n = rng.randint(1, 25)
        colours = [rng.choice(PLAYERS + [None]) for _ in range(n)]
        lost = {i for i in range(n) if rng.random() < 0.15}
        extra = rng.choice(PLAYERS) if rng.random() < 0.2 else None  # the table got one the tower lost
        perm = dict(zip(PLAYERS, rng.sample(PLAYERS, 4)))
        views = []
        for twin, more in ((colours, extra), ([perm.get(c) if c else None for c in colours], perm.get(extra))):
            table = Table(TableSetup(game=GAME, mode="scoring", tower=TowerConfig(kind="none")))  # no log: fast
            token = table.start_tower_count()
            counted: dict[str, int] = {}
            for i, colour in enumerate(twin):
                if i not in lost:
                    drop(table, i + 1, colour)
                if colour:
                    counted[colour] = counted.get(colour, 0) + 1
            unc = sum(1 for c in twin if c is None)
            if more:
                drop(table, n + 1, more)
            table.tower_totals("t1", totals(counted, drops=n, seq=n + 1, token=token, unc=unc))
            check = table.totals_check()
            check["seen"].pop("at", None)
            check["fault_at"] = None
            words = [re.sub(r"\d\d:\d\d", "HH:MM", w) for w in totals_lines(check, table.names)]
            views.append((table.public().model_dump(mode="json"), check, words))
            faults += check["fault"]
        assert views[0] == views[1], (case, colours, lost, perm)
        compared += 1
    assert compared == 150 and 20 < faults < 300


# ---- end to end: a simulated tower over a real pty ---------------------------------------------------


def agreed_after(table: Table, action) -> None:
    """action() makes the tower send a fresh snapshot; wait until the table compared it: agree."""
    start = time.time()
    action()
    seen = wait_for(
        lambda: (lambda s: s if s.get("at", 0) >= start else None)(table.totals_check()["seen"]),
        what="a fresh comparison",
    )
    assert seen["state"] == "agree", seen


class Tower:
    """The simulated tower on a pty of its own, kept across app restarts (as a USB tower stays on)."""

    def __init__(self):
        self.sim = SimulatedTower("castillo-7077aa", seed=7)
        self.port = PtyPort(self.sim, baud=0)

    def reconnect(self) -> None:
        """The app quit: a new pty, as the next app start opens the port anew."""
        self.port.close()
        self.port = PtyPort(self.sim, baud=0)

    def config(self) -> TowerConfig:
        return TowerConfig(kind="serial", port=self.port.path)

    def close(self) -> None:
        self.port.close()


def test_over_a_pty_drops_in_flight_restarts_and_a_lost_drop(tmp_path):
    tower = Tower()
    table = Table.new(TableSetup(game=GAME, mode="scoring", tower=tower.config()))
    link = TowerConnection(table, table.setup.tower).start()
    try:
        # The new game's emptying reaches the tower (resent when the tower still had another token).
        wait_for(lambda: tower.sim.totals["token"] == table.empty_token, what="the tower emptied for the game")
        wait_for(lambda: table.totals_check()["seen"].get("state") == "agree", what="a first agreeing count")
        for colour in ["red", "red", "blue"]:
            tower.sim.drop(colour)
        wait_for(lambda: len(table.drops) == 3, what="three drops")
        # The app quits; meanwhile three more cubes go in (the tower keeps them for replay).
        link.stop()
        path = table.path
        table.close()
        tower.reconnect()
        for colour in ["green", "uncertain", "red"]:
            tower.sim.drop(colour)
        # The app starts again: the tower's snapshot (seq 6) arrives before the replayed drops 4..6;
        # it is compared once they are in, so it agrees.
        table = Table.resume(path)
        table.setup.tower.port = tower.port.path
        link = TowerConnection(table, table.setup.tower).start()
        wait_for(lambda: len(table.drops) == 6, what="the replayed drops")
        wait_for(lambda: table.totals_check()["seen"].get("state") == "agree", what="agreement after replay")
        assert not table.public().totals_mismatch and "tower_totals" not in kinds(table)
        # A drop the tower counted never reaches the table (overwritten in its ring before anyone
        # acknowledged it, say). The tower then reboots: the link asks for its totals.
        tower.sim.totals["counts"]["yellow"] += 1
        tower.sim.totals["drops"] += 1
        tower.sim.reboot()
        wait_for(lambda: table.public().totals_mismatch, what="the disagreement")
        record = [r for r in table.records if r["t"] == "tower_totals"][-1]
        assert record["tower_count"] == {"counts": {"blue": 1, "green": 1, "red": 3, "yellow": 1}, "drops": 7}
        assert record["table_count"] == {"counts": {"blue": 1, "green": 1, "red": 3}, "drops": 6}
        assert table.hidden_tallies()["yellow"] == 0  # the table's count is not overwritten
        # Another restart: the same snapshot again, no second record; the fault stays open.
        link.stop()
        table.close()
        tower.reconnect()
        table = Table.resume(path)
        table.setup.tower.port = tower.port.path
        link = TowerConnection(table, table.setup.tower).start()
        wait_for(lambda: link.status and link.status.state == "connected", what="connected again")
        wait_for(lambda: table.totals_check()["seen"].get("state") == "differ", what="compared again")
        assert kinds(table).count("tower_totals") == 1 and table.public().totals_mismatch
        # The general scoring: counted by hand, revealed, the tower emptied with the scoring's token.
        while table.asked().kind != "secret_disc":
            table.submit(RoundFinished())
        for pid, region in zip(PLAYERS, ["aragon", "sevilla", "granada", "galicia"]):
            table.submit(SecretDiscSet(player=pid, region=region), player=pid)
        table.open_castillo()
        table.submit(CastilloCounted(counts={"red": 3, "yellow": 1, "green": 1, "blue": 1}))
        table.submit(SecretDiscsRevealed())
        assert not table.public().totals_mismatch
        wait_for(lambda: tower.sim.totals["token"] == table.empty_token, what="the tower emptied")
        tower.sim.drop("blue")
        wait_for(lambda: table.hidden_tallies()["blue"] == 1, what="a drop after the scoring")
        agreed_after(table, tower.sim.reboot)  # a fresh snapshot since the scoring's emptying
        assert not table.public().totals_mismatch
    finally:
        link.stop()
        table.close()
        tower.close()


def test_the_next_game_on_a_tower_that_stayed_on_gets_none_of_the_last_games_drops(tmp_path):
    tower = Tower()
    first = Table.new(TableSetup(game=GAME, mode="scoring", tower=tower.config()))
    link = TowerConnection(first, first.setup.tower).start()
    try:
        wait_for(lambda: first.totals_check()["seen"].get("state") == "agree", what="game 1 connected")
        for colour in ["red", "blue", "blue"]:
            tower.sim.drop(colour)
        wait_for(lambda: len(first.drops) == 3, what="game 1's drops")
        after = first.tower_position()
        link.stop()
        first.close()
        tower.reconnect()
        second = Table.new(TableSetup(game=GAME, mode="scoring", tower=tower.config()))
        link = TowerConnection(second, second.setup.tower, after=after).start()
        wait_for(lambda: tower.sim.totals["token"] == second.empty_token, what="emptied for game 2")
        tower.sim.drop("green")
        wait_for(lambda: len(second.drops) == 1, what="game 2's first drop")
        agreed_after(second, tower.sim.reboot)
        assert [d.colour for d in second.drops.values()] == ["green"]
        assert not second.public().totals_mismatch
    finally:
        link.stop()
        tower.close()


def test_asking_for_an_emptying_never_waits_for_the_link(tmp_path):
    """The table asks for an emptying while holding its own lock; the bridge's thread holds the
    link's lock while it hands a drop or a snapshot to the table. Were the emptying sent from the
    table's thread, the two would wait for each other for ever."""
    tower = Tower()
    table = Table.new(TableSetup(game=GAME, mode="scoring", tower=tower.config()))
    link = TowerConnection(table, table.setup.tower).start()
    try:
        wait_for(lambda: table.totals_check()["seen"].get("state") == "agree", what="connected")
        held, release = threading.Event(), threading.Event()

        def bridge_busy():  # the bridge's thread, in the middle of handing something to the table
            with link.bridge.link._lock:
                held.set()
                release.wait(5)

        busy = threading.Thread(target=bridge_busy)
        busy.start()
        held.wait(5)
        epoch = tower.sim.totals["epoch"]
        start = time.monotonic()
        with table.lock:
            table.on_tower_empty("g-test-e1")
        assert time.monotonic() - start < 2.0  # not the 5 s the link's lock is held (room for a loaded machine)
        release.set()
        busy.join(5)
        # Sent once the link was free (the table then puts its own emptying back: "g-test-e1" is not its).
        wait_for(lambda: tower.sim.totals["epoch"] > epoch, what="the emptying sent once the link was free")
    finally:
        link.stop()
        table.close()
        tower.close()
