"""Serial transport: pyserial's serial_for_url, so a real port (/dev/ttyACM0,
COM3), a pty, `loop://` and `socket://host:port` all work. A reader thread
feeds the link; a cut port is reopened for ever, with backoff."""
from __future__ import annotations

import logging
import threading
from typing import Callable, Optional

import serial

from . import framing
from .adapter import TowerDrop
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
        self._thread = threading.Thread(target=self._run, name=f"bridge-serial-{url}", daemon=True)

    def start(self) -> "SerialBridge":
        self.link.transport_connecting(f"serial {self.url}")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._cancel_read()
        self._thread.join(timeout=5)

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
            with self._write_lock:
                self._ser = ser
            self.link.transport_up(f"serial {self.url}")
            reason = self._read_until_cut(ser)
            with self._write_lock:
                self._ser = None
            try:
                ser.close()
            except Exception:
                pass
            if not self._stop.is_set():
                self.link.transport_down(reason)
                self._stop.wait(self.backoff_min)

    def _read_until_cut(self, ser) -> str:
        link = self.link
        try:
            while not self._stop.is_set():
                if self._cut.is_set():
                    self._cut.clear()
                    return "serial link cut"
                data = ser.read(ser.in_waiting or 1)
                if data:
                    link.feed_bytes(data)
                link.tick()
            return "stopped"
        except (serial.SerialException, OSError, TypeError, AttributeError) as e:
            # TypeError / AttributeError: pyserial on a port closed underneath it
            return f"serial link lost: {e}"
