"""Serial transport: pyserial's serial_for_url, so a real port (/dev/ttyACM0,
COM3), a pty, `loop://` and `socket://host:port` all work. A reader thread
feeds the link; a cut port is reopened for ever, with backoff. The reader is
a guard.Worker: should it raise anyway, the port is closed, the fault is shown
as a link status change (counters `faults`, `worker_restarts`) and the reader
starts again."""
from __future__ import annotations

import logging
import threading
from typing import Callable, Optional

import serial

from . import framing
from .adapter import TowerDrop
from .guard import Worker
from .link import Link, LinkStatus

log = logging.getLogger("firmware_bridge.serial")

BAUD = 115200  # nominal on native USB, real on a USB-UART bridge


def check_url(url: str) -> None:
    """Raises ValueError for a URL pyserial cannot handle at all (unknown scheme)."""
    serial.serial_for_url(url, do_not_open=True)


class SerialBridge:
    def __init__(self, url: str, on_drop: Callable[[TowerDrop], None],
                 on_status: Optional[Callable[[LinkStatus], None]] = None, *, baudrate: int = BAUD,
                 backoff_min: float = 0.1, backoff_max: float = 5.0, read_timeout: float = 0.05, **link_options):
        check_url(url)
        self.url = url
        self.baudrate = baudrate
        self.backoff_min = backoff_min
        self.backoff_max = backoff_max
        self.read_timeout = read_timeout
        link_options.setdefault("silence_timeout", 15.0)  # 3 missed heartbeats
        self.link = Link(self._send, on_drop, on_status, **link_options)
        self._ser: Optional[serial.SerialBase] = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._cut = threading.Event()
        self.opened = 0  # successful opens, for tests and status
        self._worker = Worker(self._run, f"bridge-serial-{url}", self._crashed, stop=self._stop,
                              backoff_min=backoff_min, backoff_max=backoff_max)

    def start(self) -> "SerialBridge":
        self.link.transport_connecting(f"serial {self.url}")
        self._worker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._cancel_read()
        self._worker.join(timeout=5)

    @property
    def restarts(self) -> int:
        """How many times the reader failed and was started again."""
        return self._worker.restarts

    def _crashed(self, where: str, error: BaseException) -> None:
        self.link.report_fault("the serial reader", error, restarted=True)

    def cut(self) -> None:
        """Close the port as an unplugged cable would; the reader reopens it."""
        self._cut.set()
        self._cancel_read()

    def _cancel_read(self) -> None:
        ser = self._ser
        if ser is not None:
            try:
                ser.cancel_read()
            except Exception:  # not every URL handler can; the read timeout ends the wait
                pass

    def _send(self, msg: dict) -> None:
        frame = framing.encode(msg) + b"\n"
        with self._write_lock:
            ser = self._ser
            if ser is None:
                raise OSError("serial port not open")
            ser.write(frame)

    def _open(self) -> Optional[serial.SerialBase]:
        try:
            return serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=self.read_timeout,
                                         write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as e:
            return e

    def _run(self) -> None:
        delay = self.backoff_min
        reported = None
        while not self._stop.is_set():
            ser = self._open()
            if not isinstance(ser, serial.SerialBase):
                text = f"cannot open {self.url}: {ser}"
                if text != reported:  # say it once, keep trying quietly
                    self.link.transport_down(text)
                    reported = text
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff_max)
                continue
            delay, reported = self.backoff_min, None
            self.opened += 1
            try:
                with self._write_lock:
                    self._ser = ser
                self.link.transport_up(f"serial {self.url}")
                reason = self._read_until_cut(ser)
            finally:  # also when the reader crashes: the next run opens the port afresh
                self._close(ser)
            if not self._stop.is_set():
                self.link.transport_down(reason)
                self._stop.wait(self.backoff_min)

    def _close(self, ser) -> None:
        with self._write_lock:
            self._ser = None
        try:
            ser.close()
        except Exception:  # already gone with the cable
            pass

    def _read_until_cut(self, ser) -> str:
        link = self.link
        while not self._stop.is_set():
            if self._cut.is_set():
                self._cut.clear()
                return "serial link cut"
            try:
                data = ser.read(ser.in_waiting or 1)
            except Exception as e:
                # SerialException, OSError, termios.error; TypeError / AttributeError:
                # pyserial on a port closed underneath it. The port is gone: reopen it.
                return f"serial link lost: {e}"
            if data:
                link.feed_bytes(data)
            link.tick()
        return "stopped"
