"""MQTT link with a fake umqtt client and broker: topics, retained state,
Last Will, reconnect with backoff, and counting that never waits on it."""

import towersim
import tracegen

BASE = "elgrande/tower/castillo-test/"


def run(tb):
    return towersim.run_builder(tb, timeout=60)


def test_topic_layout_retained_state_and_last_will(micropython):
    tb = tracegen.TraceBuilder(seed=31, flicker=0, glitches=0, mqtt={"up": True})
    tracegen.calibrate(tb)
    tb.wait(500000)
    tb.drop("blue")
    tb.wait(500000)
    tb.cmd({"t": "totals_req", "id": 4}, mqtt=True)
    tb.cmd({"t": "identify", "id": 5}, mqtt=True)
    tb.wait(6000000)
    tb.mqtt(False)  # the connection breaks: the broker publishes the will
    tb.wait(100000)
    r, _ = run(tb)
    first = r.pubs[0]
    assert first[1:] == (BASE + "status", "online", True, 1)
    topics = {p[1] for p in r.pubs}
    for leaf in ("status", "hello", "totals", "drop", "hb", "cal", "reply"):
        assert BASE + leaf in topics
    for _, topic, payload, retain, qos in r.pubs:
        leaf = topic[len(BASE) :]
        assert retain == (leaf in ("status", "hello", "totals"))
        assert qos == (0 if leaf == "hb" else 1)
        if leaf != "status":
            frame = towersim.decode_frame(payload)  # the same frames as on serial
            assert frame["t"] == {"reply": "ok"}.get(leaf, leaf)
    drops = [towersim.decode_frame(p[2]) for p in r.pubs if p[1] == BASE + "drop"]
    assert [(d["seq"], d["col"]) for d in drops] == [(1, "blue")]
    replies = [towersim.decode_frame(p[2]) for p in r.pubs if p[1] == BASE + "totals"]
    assert replies[-1]["counts"]["blue"] == 1
    assert r.pubs[-1][1:] == (BASE + "status", "offline", True, 1)  # Last Will, retained


def test_backoff_doubles_and_sensing_goes_on_while_the_broker_is_down(micropython):
    tb = tracegen.TraceBuilder(seed=32, flicker=0, glitches=0, mqtt={"up": False})
    tracegen.calibrate(tb)
    for i in range(40):  # cubes keep falling while the link is down
        tb.wait(1500000)
        tb.drop(tracegen.COLOURS[i % 5])
    tb.wait(1000000)
    tb.mqtt(True)
    tb.wait(70000000)
    r, truth = run(tb)
    attempts = [t for t, ok in r.connects]
    gaps = [(b - a) / 1e6 for a, b in zip(attempts, attempts[1:])]
    # 1, 2, 4, 8, 16, 32, then the 60 s ceiling (each a little later: quiet gate, loop step)
    assert [round(g) for g in gaps[:6]] == [1, 2, 4, 8, 16, 32]
    assert all(59.5 <= g <= 61 for g in gaps[6:-1])
    # counting never waited: every cube counted with its colour while the link was down
    s = towersim.score(r, truth)
    assert s["exact"] == 40 and s["colour_right"] == 1.0
    # never tried to connect while a cube was in the beam or its colour pending
    for t in attempts:
        for d in truth:
            assert not (d["t_enter"] - 1000 <= t <= d["t_exit"] + 25000)
    # once the broker is back: retained hello and totals, then every unacknowledged drop
    ok = [t for t, good in r.connects if good]
    assert len(ok) == 1
    after = [p for p in r.pubs if p[0] >= ok[0]]
    assert [p[1][len(BASE) :] for p in after[:3]] == ["status", "hello", "totals"]
    seqs = [towersim.decode_frame(p[2])["seq"] for p in after if p[1] == BASE + "drop"]
    assert seqs == list(range(1, 41))


def test_commands_over_mqtt_and_acks_limit_what_a_reconnect_resends(micropython):
    tb = tracegen.TraceBuilder(seed=33, flicker=0, glitches=0, mqtt={"up": True})
    tracegen.calibrate(tb)
    for _ in range(5):
        tb.wait(300000)
        tb.drop("red")
    tb.wait(500000)
    tb.cmd({"t": "ack", "boot": "$boot", "seq": 3}, mqtt=True)
    tb.wait(500000)
    tb.mqtt(False)
    tb.wait(500000)
    tb.mqtt(True)
    tb.wait(5000000)
    r, _ = run(tb)
    reconnect = [t for t, ok in r.connects if ok][1]
    seqs = [towersim.decode_frame(p[2])["seq"] for p in r.pubs if p[0] >= reconnect and p[1] == BASE + "drop"]
    assert seqs == [4, 5]  # the host had acknowledged up to 3


def test_a_blocking_connect_loses_no_cube(micropython):
    # umqtt.simple's connect() blocks the loop (here 800 ms, a cube falls in the
    # middle of it); pin interrupts still timestamp the beam, so the cube is
    # counted with its exact transit, even if its colour reading is lost.
    tb = tracegen.TraceBuilder(seed=34, flicker=0, glitches=0, mqtt={"up": False, "connect_ms": 800})
    tb.wait(300000)
    tb.drop("yellow", transit=6400)
    tb.wait(3000000)
    r, truth = run(tb)
    first_attempt_done = r.connects[0][0]
    assert first_attempt_done >= 800000 > truth[0]["t_exit"]  # the cube fell during the attempt
    [drop] = r.unique_drops()
    assert drop["tr"] == 6400 and not drop["multi"]
    assert abs(drop["ms"] - 300) <= 1
