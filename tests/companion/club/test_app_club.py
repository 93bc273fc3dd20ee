"""The tablet app, under Xvfb, with the new-game screen's club field: the table publishes its
public state to the club broker (TLS, its own user, the shipped ACL) and says so."""

import contextlib
import json
import os
import subprocess
import sys

from companion.club.topics import StateMessage, online_topic, state_topic
from tests.companion.club.conftest import CLUB, USERS, Listener
from tests.companion.ui.test_app import HERE, ROOT, _looks_like_a_screen
from tests.companion.ui.xvfb import XVFB_DEPTH


@contextlib.contextmanager
def own_display(screen: str = "1280x800"):
    """An Xvfb of this test's own: Xvfb picks a display number nobody holds and says which
    (-displayfd), where `xvfb-run -a` can pick the same number as another run starting at the
    same moment (two pytest-xdist workers, or two suites on one machine)."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{screen}x{XVFB_DEPTH}", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as said:
            number = said.readline().strip()  # written once the display is ready
        assert number.isdigit(), f"Xvfb did not start (exit {server.poll()})"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def test_new_game_with_a_club_broker(tmp_path, club_broker):
    shots = tmp_path / "shots"
    shots.mkdir()
    result, out = tmp_path / "result.json", tmp_path / "club.json"
    url = club_broker.url.replace("mqtts://", "mqtts://table-4@")
    env = {
        **os.environ,
        "ELGRANDE_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": str(ROOT),
        "ELGRANDE_PHONE_PORT": "0",
        "ELGRANDE_TEST_CLUB_OUT": str(out),
        "ELGRANDE_TEST_CLUB": json.dumps(
            {"url": url, "password": USERS["table-4"], "ca": club_broker.ca, "club": CLUB}
        ),
    }
    listener = Listener(club_broker, topic="elgrande/club/#")  # the club named on the new-game screen
    try:
        with own_display() as display:
            run = subprocess.run(
                [
                    sys.executable,
                    str(HERE / "app_driver.py"),
                    "tests.companion.club.app_scenarios:club_table",
                    str(shots),
                    str(result),
                ],
                env={**env, "DISPLAY": display},
                capture_output=True,
                text=True,
                timeout=240,
            )
        assert result.exists(), f"the app did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
        outcome = json.loads(result.read_text())
        assert outcome["status"] == "ok", outcome.get("trace") or outcome
        seen = json.loads(out.read_text())
        nonce = seen["nonce"]
        # the table bar says the club link is live; tapped, it gives the whole status line
        assert seen["bar"] == "Club: live" and seen["said"].startswith("club: publishing table table-4"), seen
        listener.wait(
            lambda m: any(t == online_topic(CLUB, "table-4") and p == b"0" for t, p, _ in m),
            what="offline when the app closed",
        )
    finally:
        listener.close()
    got = [StateMessage.model_validate_json(p) for t, p, _ in listener.messages if t == state_topic(CLUB, "table-4")]
    assert got and got[-1].game == nonce and got[-1].mode == "scoring" and got[-1].round >= 1
    assert [p.name for p in got[-1].players] == ["Red", "Yellow", "Green", "Blue"]
    _looks_like_a_screen(shots / "setup_club.png")
    _looks_like_a_screen(shots / "table_club_live.png")
