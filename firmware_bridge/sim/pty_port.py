"""The simulated tower on a virtual serial port (os.openpty), optionally paced to a baud rate."""

from __future__ import annotations

import os
import select
import threading
import time
import tty

from firmware_bridge import framing
from firmware_bridge.sim.commands import handle_line
from firmware_bridge.sim.tower import SimPort, SimulatedTower


class PtyPort(SimPort):
    """A virtual serial port: the host opens `path` (the pty's slave side) with
    pyserial like a USB serial device. `baud` paces the output like a UART
    (0: as fast as the pty takes it). Frames nobody reads stay in the ring."""

    name = "serial"

    def __init__(self, tower: SimulatedTower, baud: int = 115200) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: bytes as they are
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self.baud = baud
        self.written_at: dict[int, float] = {}  # seq -> perf_counter when its last byte was written
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._stop = False
        self._splitter = framing.LineSplitter()
        super().__init__(tower)
        self._thread = threading.Thread(target=self._run, name=f"sim-pty-{self.path}", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except (BlockingIOError, OSError):
            pass  # already awake

    def _run(self) -> None:
        out = bytearray()
        seqs: list[tuple[int, int]] = []  # (end offset in out, seq) of drops in out
        next_at = 0.0
        while not self._stop:
            if not out:
                with self.tower.lock:
                    while len(out) < 1024:
                        item = self.next_frame()
                        if item is None:
                            break
                        out += item[1] + b"\n"
                        if item[0] == "drop":
                            seqs.append((len(out), _seq_of(item[1])))
            now = time.perf_counter()
            pace = max(0.0, next_at - now) if self.baud else 0.0
            want_write = bool(out) and pace == 0.0
            timeout = pace if out and pace else (None if not out else 0.5)
            try:
                r, w, _ = select.select(
                    [self.master, self._wake_r],
                    [self.master] if want_write else [],
                    [],
                    min(timeout, 0.5) if timeout is not None else 0.5,
                )
            except (OSError, ValueError):
                return
            if self._wake_r in r:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
            if self.master in r:
                self._read()
            if w:
                chunk = bytes(out[:64]) if self.baud else bytes(out)
                try:
                    n = os.write(self.master, chunk)
                except BlockingIOError:
                    n = 0
                except OSError:
                    return
                if n:
                    del out[:n]
                    done = time.perf_counter()
                    if self.baud:
                        next_at = max(next_at, done) + n * 10 / self.baud
                    seqs = [(end - n, s) for end, s in seqs]
                    while seqs and seqs[0][0] <= 0:
                        self.written_at[seqs.pop(0)[1]] = done

    def _read(self) -> None:
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return
        for line in self._splitter.lines(data):
            if line is None:
                self.tower.too_long(self)
            elif line.strip():
                handle_line(self.tower, line, self)

    def close(self) -> None:
        super().close()
        self._stop = True
        self.wake()
        self._thread.join(timeout=5)
        for fd in (self.master, self._slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass


def _seq_of(frame: bytes) -> int:
    i = frame.find(b'"seq":')
    j = i + 6
    while j < len(frame) and frame[j : j + 1].isdigit():
        j += 1
    return int(frame[i + 6 : j])
