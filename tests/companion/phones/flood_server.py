"""A phone server in its own process, held to a low open-file limit, for the starvation test.

    python flood_server.py FD_LIMIT

Sets RLIMIT_NOFILE to (FD_LIMIT, FD_LIMIT) (so the server cannot raise it), starts a table at a
general scoring and its phone server on 127.0.0.1, prints one JSON line {"port", "urls", "fd_limit",
"budget"}, then answers commands on stdin, one JSON line each:
  confirm PID   the tablet's Yes for the phone awaiting on that seat (waits up to 5 s for one)
  stats         open descriptors, the guard's counters, the seats' picks, and whether 200 files open
  quit
"""

from __future__ import annotations

import json
import logging
import os
import resource
import sys
import threading
import time

limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

from companion.phones import PhoneServer  # noqa: E402
from companion.table.authority import Table  # noqa: E402
from companion.table.setup import TableSetup  # noqa: E402
from engine.freeplay import RoundFinished  # noqa: E402
from tests.companion.phones.conftest import SETUP  # noqa: E402

logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s %(levelname)s %(message)s")


def open_files(n: int) -> bool:
    """Can this process still open files (what the app needs for its game logs)?"""
    files = []
    try:
        for _ in range(n):
            files.append(open(os.devnull, "rb"))
        return True
    except OSError:
        return False
    finally:
        for f in files:
            f.close()


class FdSampler(threading.Thread):
    """The most descriptors this process had open, sampled every 5 ms."""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak = 0

    def run(self) -> None:
        while True:
            self.peak = max(self.peak, len(os.listdir("/proc/self/fd")))
            time.sleep(0.005)


def main() -> None:
    table = Table.new(TableSetup(game=SETUP, mode="scoring"))
    while table.asked().kind != "secret_disc":
        table.submit(RoundFinished())
    server = PhoneServer(table, host="127.0.0.1").start()
    print(
        json.dumps(
            {
                "port": server.port,
                "urls": {p: server.seat_url(p) for p in table.players},
                "fd_limit": resource.getrlimit(resource.RLIMIT_NOFILE),
                "budget": server.guard.budget,
            }
        ),
        flush=True,
    )
    sampler = FdSampler()
    sampler.start()
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "confirm":
            end, ok = time.monotonic() + 5, False
            while not ok and time.monotonic() < end:
                serial = server.seats_status()[words[1]]["awaiting"]
                ok = bool(serial) and server.confirm(words[1], serial)
                time.sleep(0 if ok else 0.005)
            print(json.dumps({"ok": ok}), flush=True)
        elif words[0] == "stats":
            guard = server.guard
            print(
                json.dumps(
                    {
                        "fds": len(os.listdir("/proc/self/fd")),
                        "peak_fds": sampler.peak,
                        "open": len(guard),
                        "guard_peak": guard.peak,
                        "refused": guard.refused,
                        "evicted": guard.evicted,
                        "idle_closed": guard.idle_closed,
                        "picks": {p: table.private(p)["secret_disc"] for p in table.players},
                        "files_ok": open_files(200),
                    }
                ),
                flush=True,
            )
    server.stop()
    table.close()


if __name__ == "__main__":
    main()
