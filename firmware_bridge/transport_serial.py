"""Serial transport: pyserial's serial_for_url, so a real port (/dev/ttyACM0,
COM3), a pty, `loop://` and `socket://host:port` all work. A reader thread
feeds the link; a cut port is reopened for ever, with backoff. The reader is
a guard.Worker: should it raise anyway, the port is closed, the fault is shown
as a link status change (counters `faults`, `worker_restarts`) and the reader
starts again.

The bridge needs only a small part of a port (`Port` below). On Android there are
no /dev/tty nodes for USB adapters: a `usb-android:<device>` URL opens the tower
through usbserial4a instead (firmware_bridge/usb_android.py), behind the same
`Port`, and the link above it does not know the difference."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

import serial

from . import framing
from .adapter import TowerDrop
from .guard import Worker
from .link import Link, LinkStatus

log = logging.getLogger("firmware_bridge.serial")

BAUD = 115200  # nominal on native USB, real on a USB-UART bridge


class Port(Protocol):
    """What the bridge uses of an open port (a pyserial port has it all).
    read(size): up to size bytes, b"" after the read timeout; raises when the port is gone.
    in_waiting: bytes ready now. write(data): all of it, or raises. close(): may raise.
    cancel_read() is optional: without it the read timeout ends the wait."""

    in_waiting: int

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


def check_url(url: str) -> None:
    """Raises ValueError for a URL the bridge cannot handle at all (unknown scheme)."""
    from . import usb_android

    if usb_android.is_usb_url(url):
        usb_android.device_of(url)
        return
    serial.serial_for_url(url, do_not_open=True)


def pyserial_opener(url: str, baudrate: int, read_timeout: float) -> Callable[[], Port]:
    def open_port() -> Port:
        return serial.serial_for_url(url, baudrate=baudrate, timeout=read_timeout, write_timeout=1.0)

    return open_port


def default_opener(url: str, baudrate: int, read_timeout: float) -> Callable[[], Port]:
    """usbserial4a for a `usb-android:` URL, pyserial for everything else."""
    from . import usb_android

    if usb_android.is_usb_url(url):
        return usb_android.UsbOpener(usb_android.device_of(url), baudrate=baudrate, read_timeout=read_timeout)
    return pyserial_opener(url, baudrate, read_timeout)


class SerialBridge:
    def __init__(
        self,
        url: str,
        on_drop: Callable[[TowerDrop], None],
        on_status: Callable[[LinkStatus], None] | None = None,
        *,
        baudrate: int = BAUD,
        backoff_min: float = 0.1,
        backoff_max: float = 5.0,
        read_timeout: float = 0.05,
        opener: Callable[[], Port] | None = None,
        **link_options: Any,
    ) -> None:
        """opener: makes an open Port (or raises OSError / ValueError saying why not);
        default: from the URL (default_opener)."""
        if opener is None:
            check_url(url)
        self.url = url
        self.baudrate = baudrate
        self.backoff_min = backoff_min
        self.backoff_max = backoff_max
        self.read_timeout = read_timeout
        self._opener = opener or default_opener(url, baudrate, read_timeout)
        link_options.setdefault("silence_timeout", 15.0)  # 3 missed heartbeats
        self.link = Link(self._send, on_drop, on_status, **link_options)
        self._ser: Port | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._cut = threading.Event()
        self.opened = 0  # successful opens, for tests and status
        self._worker = Worker(
            self._run,
            f"bridge-serial-{url}",
            self._crashed,
            stop=self._stop,
            backoff_min=backoff_min,
            backoff_max=backoff_max,
        )

    def start(self) -> SerialBridge:
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
        if ser is not None and hasattr(ser, "cancel_read"):
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

    def _open(self) -> Port | Exception:
        try:
            return self._opener()
        except (serial.SerialException, OSError, ValueError) as e:
            return e

    def _run(self) -> None:
        delay = self.backoff_min
        reported = None
        while not self._stop.is_set():
            ser = self._open()
            if isinstance(ser, Exception):
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
