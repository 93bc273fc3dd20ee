"""`elgrande tower-sim` and `elgrande listen` as a new user runs them: real subprocesses."""

import json
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

CLI = [sys.executable, "-m", "companion.cli"]


class Proc:
    """A subprocess whose stdout lines can be awaited with a deadline."""

    def __init__(self, *args, stdin=subprocess.DEVNULL, preexec_fn=None):
        self.p = subprocess.Popen(
            [*CLI, *args], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def line(self, timeout=20.0) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no output within {timeout} s") from None
        if line is None:
            raise AssertionError(f"exited: {self.p.wait(5)} {self.p.stderr.read()}")
        return line

    def stop(self) -> int:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGINT)
            try:
                return self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                return self.p.wait(10)
        return self.p.returncode


def run(*args, timeout=60, stdin=None):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, input=stdin)


def test_tower_sim_pty_and_listen_serial_end_to_end(tmp_path):
    script = tmp_path / "drops.txt"
    script.write_text("# a short game\n100 red\n50 blue\n50 uncertain\n0 multi\n20 black\n")
    sim = Proc("tower-sim", "--pty", "--script", str(script), "--seed", "7")
    try:
        first = sim.line()
        assert first.startswith("PORT /dev/")
        path = first.split(" ", 1)[1]
        listen = run("listen", "--serial", path, "--json", "--count", "5", timeout=60)
        assert listen.returncode == 0, listen.stderr
        objs = [json.loads(line) for line in listen.stdout.splitlines()]
        drops = [o for o in objs if "seq" in o]
        assert [(d["seq"], d["colour"], d["uncertain"]) for d in drops] == [
            (1, "red", False),
            (2, "blue", False),
            (3, None, True),
            (4, None, True),
            (5, "black", False),
        ]
        assert set(drops[0]) == {"tower", "boot", "seq", "colour", "uncertain"}
        states = [o["status"] for o in objs if "status" in o]
        assert "connected" in states and states[0] == "connecting"
        assert sim.p.poll() is None  # stays up until interrupted
    finally:
        assert sim.stop() == 0


def test_readable_listen_and_drops_from_stdin():
    sim = Proc("tower-sim", "--pty", stdin=subprocess.PIPE)
    try:
        path = sim.line().split(" ", 1)[1]
        listen = Proc("listen", "--serial", path, "--count", "2")
        try:
            line = listen.line()
            while "connected" not in line:
                line = listen.line()
            sim.p.stdin.write("green\n10 yellow\n")
            sim.p.stdin.flush()
            lines = [listen.line(), listen.line()]
            assert "#1" in lines[0] and "green" in lines[0] and "#2" in lines[1] and "yellow" in lines[1]
            assert listen.p.wait(20) == 0
        finally:
            listen.stop()
    finally:
        sim.stop()


def test_tower_sim_mqtt_and_listen_mqtt(broker):
    sim = Proc(
        "tower-sim",
        "--mqtt",
        broker.url,
        "--tower-id",
        "castillo-c0ffee",
        "--random",
        "20",
        "--rate",
        "200",
        "--seed",
        "3",
    )
    try:
        assert sim.line().startswith("MQTT 127.0.0.1:")
        listen = run("listen", "--mqtt", broker.url, "--tower-id", "castillo-c0ffee", "--json", "--count", "20")
        assert listen.returncode == 0, listen.stderr
        drops = [json.loads(x) for x in listen.stdout.splitlines() if '"seq"' in x]
        assert [d["seq"] for d in drops] == list(range(1, 21))
        assert {d["tower"] for d in drops} == {"castillo-c0ffee"}
    finally:
        assert sim.stop() == 0


@pytest.mark.parametrize(
    "args,needle",
    [
        (["listen", "--mqtt", "mqtt://127.0.0.1:1"], "--tower-id"),
        (["listen", "--mqtt", "mqtts://h", "--tower-id", "x", "--cafile", "/nonexistent/ca.crt"], "no such file"),
        (["listen", "--mqtt", "mqtt://h", "--tower-id", "x", "--cafile", "/etc/hostname"], "use mqtts://"),
        (["listen", "--mqtt", "mqtt://h", "--tower-id", "a/b"], "tower id"),
        (["listen", "--mqtt", "ftp://h", "--tower-id", "x"], "unknown scheme"),
        (["tower-sim", "--mqtt", "mqtts://h", "--tower-id", "x", "--cafile", "/etc/hostname"], "not a PEM"),
        (["tower-sim", "--pty", "--cafile", "/etc/hostname"], "for --mqtt"),
        (["listen", "--serial", "nonsense://x"], "nonsense"),
        (["listen", "--serial", "/dev/x", "--count", "0"], "--count"),
        (["tower-sim", "--mqtt", "mqtt://h"], "--tower-id"),
        (["tower-sim", "--pty", "--script", "/nonexistent/script"], "cannot read"),
        (["tower-sim", "--pty", "--random", "5", "--rate", "0"], "--rate"),
    ],
)
def test_user_mistakes_are_one_line_and_exit_2(args, needle):
    out = run(*args, timeout=30)
    assert out.returncode == 2, out
    assert needle in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_bad_script_line_is_named(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("100 red\n100 pink\n")  # purple is a colour since the 2023 box: pink is not
    out = run("tower-sim", "--pty", "--script", str(script))
    assert out.returncode == 2 and "s.txt:2" in out.stderr and "pink" in out.stderr


def test_ctrl_c_stops_tower_sim_started_from_a_shell_that_ignores_it():
    """A non-interactive shell starts background jobs with SIGINT ignored, and the ignore is
    inherited: tower-sim still stops on SIGINT (Ctrl-C), cleanly."""
    sim = Proc("tower-sim", "--pty", preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert sim.line().startswith("PORT /dev/")
    time.sleep(0.5)  # up and waiting (a Ctrl-C within its first instant is not what is tested)
    assert sim.stop() == 0
