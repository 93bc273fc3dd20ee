"""The virtual display the app tests run on.

16 bits a pixel, not 24: Mesa's llvmpipe draws the same frames (same layout, same widgets, same
touches) with about 40 % less CPU there (a whole classic game by taps: 31 s -> 21 s on this
machine), and the app tests are most of the suite's time. Colours are 5-6-5 in the screenshots; no
test compares exact colours. The benchmarks (bench/) keep 24 bits, like their published figures.

Each launch gets a display of its own, race-free: Xvfb picks the number itself (`-displayfd`:
it takes the first free one by creating its lock file exclusively, then writes the number to
us once it accepts clients). `xvfb-run -a` instead looks for a free number first and starts
the server after, so two tests starting together (pytest -n 2) can pick the same one."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager

XVFB_DEPTH = 16
START_SECONDS = 60.0  # a loaded machine: Xvfb usually answers in well under a second


@contextmanager
def virtual_display(width: int, height: int, depth: int = XVFB_DEPTH):
    """An Xvfb screen of that size for the block; yields its DISPLAY (":N")."""
    assert shutil.which("Xvfb"), "Xvfb missing: run scripts/setup.sh as root (it installs xvfb)"
    read, write = os.pipe()
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x{depth}", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write,),
        stdout=log,
        stderr=log,
    )
    os.close(write)
    try:
        display = _display_number(read, server, log)
        yield f":{display}"
    finally:
        os.close(read)
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        log.close()


def _display_number(read: int, server: subprocess.Popen, log) -> str:
    """What Xvfb writes on -displayfd once it is ready: the number and a newline."""
    got, deadline = b"", time.monotonic() + START_SECONDS
    while not got.endswith(b"\n"):
        left = deadline - time.monotonic()
        ready, _, _ = select.select([read], [], [], max(0.0, left))
        chunk = os.read(read, 64) if ready else b""
        if not chunk:  # timed out, or Xvfb exited (end of file)
            log.seek(0)
            said = log.read().decode(errors="replace")[-2000:]
            state = (
                f"exited with {server.poll()}"
                if server.poll() is not None
                else f"still silent after {START_SECONDS:.0f} s"
            )
            raise AssertionError(f"Xvfb did not say its display number ({state}); it wrote: {said!r}")
        got += chunk
    return got.decode().strip()
