"""The tablet app, under Xvfb, with the new-game screen's club field: the table publishes its
public state to the club broker (TLS, its own user, the shipped ACL) and says so."""
import json
import os
import subprocess
import sys

from companion.club.topics import StateMessage, online_topic, state_topic

from ..ui.test_app import HERE, ROOT, XVFB, _looks_like_a_screen
from .conftest import CLUB, USERS, Listener


def test_new_game_with_a_club_broker(tmp_path, club_broker):
    shots = tmp_path / "shots"
    shots.mkdir()
    result, out = tmp_path / "result.json", tmp_path / "club.json"
    url = club_broker.url.replace("mqtts://", "mqtts://table-4@")
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT),
           "ELGRANDE_PHONE_PORT": "0", "ELGRANDE_TEST_CLUB_OUT": str(out),
           "ELGRANDE_TEST_CLUB": json.dumps({"url": url, "password": USERS["table-4"], "ca": club_broker.ca,
                                             "club": CLUB})}
    listener = Listener(club_broker, topic="elgrande/club/#")   # the club named on the new-game screen
    try:
        run = subprocess.run(XVFB + [sys.executable, str(HERE / "app_driver.py"),
                                     "tests.companion.club.app_scenarios:club_table", str(shots), str(result)],
                             env=env, capture_output=True, text=True, timeout=240)
        assert result.exists(), f"the app did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
        outcome = json.loads(result.read_text())
        assert outcome["status"] == "ok", outcome.get("trace") or outcome
        seen = json.loads(out.read_text())
        nonce = seen["nonce"]
        # the table bar says the club link is live; tapped, it gives the whole status line
        assert seen["bar"] == "Club: live" and seen["said"].startswith("club: publishing table table-4"), seen
        listener.wait(lambda m: any(t == online_topic(CLUB, "table-4") and p == b"0" for t, p, _ in m),
                      what="offline when the app closed")
    finally:
        listener.close()
    got = [StateMessage.model_validate_json(p) for t, p, _ in listener.messages if t == state_topic(CLUB, "table-4")]
    assert got and got[-1].game == nonce and got[-1].mode == "scoring" and got[-1].round >= 1
    assert [p.name for p in got[-1].players] == ["Red", "Yellow", "Green", "Blue"]
    _looks_like_a_screen(shots / "setup_club.png")
    _looks_like_a_screen(shots / "table_club_live.png")
