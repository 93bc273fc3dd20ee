"""Framing of hardware/PROTOCOL.md section 1: one line `<compact JSON>*<CRC16>`.

Bytes in, checked JSON objects out. Nothing here raises on bad input: every
rejected line is counted with the fault code the device would use for it
(bad_frame, bad_checksum, line_too_long) and a reason a person can read.
"""

from __future__ import annotations

import binascii
import json
from collections import Counter
from dataclasses import dataclass, field

MAX_FRAME = 512  # body + "*" + CRC, newline excluded


class FrameError(Exception):
    """A line that is not a valid frame; `code` is a PROTOCOL.md fault code."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


def crc16(body: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as the firmware computes it."""
    return binascii.crc_hqx(body, 0xFFFF)


def _ordered(value):
    # The device spells a frame one way: "t" first, other keys sorted, at every level.
    if isinstance(value, dict):
        keys = sorted(value)
        if "t" in value:
            keys.remove("t")
            keys.insert(0, "t")
        return {k: _ordered(value[k]) for k in keys}
    if isinstance(value, (list, tuple)):
        return [_ordered(v) for v in value]
    if isinstance(value, float):
        raise ValueError("floats are not used on the wire; scale to an int")
    return value


def dumps(msg: dict) -> bytes:
    """The device's spelling of msg. For what this side makes (commands, the
    simulated tower): it raises on a float, so never call it on received data."""
    return json.dumps(_ordered(msg), separators=(",", ":"), ensure_ascii=True).encode("ascii")


def encode(msg: dict) -> bytes:
    """The frame for msg, without the newline (MQTT payload; add b"\\n" for serial)."""
    body = dumps(msg)
    return body + b"*%04X" % crc16(body)


def decode(line: bytes | str) -> dict:
    """Checks one line (no newline; a trailing \\r is tolerated) and returns its object."""
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogateescape")
    elif not isinstance(line, bytes):
        line = bytes(line)  # bytearray, memoryview
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_FRAME:
        raise FrameError("line_too_long", f"frame of {len(line)} bytes, the limit is {MAX_FRAME}")
    star = line.rfind(b"*")
    if not line.startswith(b"{") or star < 0 or len(line) - star != 5:
        raise FrameError("bad_frame", "not of the form {json}*XXXX")
    body, check = line[:star], line[star + 1 :]
    try:
        expected = int(check, 16)
    except ValueError:
        raise FrameError("bad_frame", f"checksum {check!r} is not 4 hex digits") from None
    if not all(c in b"0123456789abcdefABCDEF" for c in check):  # int() also takes "+1_f", " 1f "
        raise FrameError("bad_frame", f"checksum {check!r} is not 4 hex digits")
    actual = crc16(body)
    if actual != expected:
        raise FrameError("bad_checksum", f"checksum {check.decode('ascii')}, computed {actual:04X}")
    try:
        obj = json.loads(body)
    except (ValueError, RecursionError):
        raise FrameError("bad_frame", "body is not valid JSON") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("t"), str):
        raise FrameError("bad_frame", "body is not an object with a string field t")
    return obj


@dataclass
class Rejected:
    code: str
    reason: str
    line: bytes  # the start of the offending line, for the log


@dataclass
class LineSplitter:
    """Serial bytes in, frames out. Copes with frames split over reads, several
    frames in one read, garbage between them, and over-long lines (discarded up
    to their newline, reported once, so one bad line never swallows the next)."""

    max_line: int = MAX_FRAME
    rejected: Counter = field(default_factory=Counter)
    _buf: bytearray = field(default_factory=bytearray)
    _discarding: bool = False

    def lines(self, data: bytes) -> list[bytes | None]:
        """Complete lines (without "\n"); None stands for an over-long line discarded."""
        out: list[bytes | None] = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            chunk = data[start:] if nl < 0 else data[start:nl]
            if not self._discarding:
                self._buf += chunk
                if len(self._buf) > self.max_line + 1:  # +1: a trailing "\r" is allowed
                    out.append(None)
                    self._buf.clear()
                    self._discarding = True
            if nl < 0:
                return out
            if self._discarding:
                self._discarding = False
            else:
                out.append(bytes(self._buf))
            self._buf.clear()
            start = nl + 1

    def feed(self, data: bytes) -> list[dict | Rejected]:
        out: list[dict | Rejected] = []
        for line in self.lines(data):
            if line is None:
                self._reject(out, FrameError("line_too_long", f"line over {self.max_line} bytes discarded"), b"")
            else:
                self._line(line, out)
        return out

    def _line(self, line: bytes, out: list) -> None:
        if not line.strip():
            return  # blank lines are keep-alives
        try:
            out.append(decode(line))
        except FrameError as e:
            self._reject(out, e, line[:64])

    def _reject(self, out: list, error: FrameError, line: bytes) -> None:
        self.rejected[error.code] += 1
        out.append(Rejected(error.code, error.reason, line))

    def reset(self) -> None:
        """Forget a partial line (after a reconnect its start belongs to nobody)."""
        self._buf.clear()
        self._discarding = False
