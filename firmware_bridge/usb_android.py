"""The tower over USB on Android: usbserial4a behind the serial bridge's `Port`.

Android gives apps no /dev/tty node for a USB adapter; usbserial4a (on usb4a and
pyjnius) drives FTDI, CDC-ACM (the Pico's and ESP32-S3's native USB), CP210x, CH34x
and PL2303 chips through Android's UsbManager. Its port looks like pyserial's but is
not a `serial.SerialBase`, and it differs where the bridge cares (read from its
sources, usbserial4a 0.4.0):
- `write` on a closed port returns None instead of raising;
- an unplugged CDC-ACM device reads as silence, not as an error (FTDI raises);
- opening a device the app has no permission for asks Android for it and returns a
  port that is not open, without raising;
- no `cancel_read`: a read ends at its timeout.
`UsbSerialPort` turns each into what the bridge expects (an OSError), and
`UsbOpener` asks for the permission once, without waiting for the answer: the
bridge's reader thread retries the open with backoff, so the UI never blocks and the
link comes up as soon as the person taps "Allow".

Ports are named `usb-android:<device name>` (Android's names look like
/dev/bus/usb/001/002). The libraries are imported only when a port is used or listed
on Android, so nothing here needs them elsewhere.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

SCHEME = "usb-android:"
PERMISSION_ASK_AGAIN = 30.0  # s: a dismissed permission dialog is shown again after this
PRESENCE_CHECK = 1.0  # s of silence before asking Android whether the device is still there


def on_android() -> bool:
    """True inside a python-for-android app (or any CPython built for Android)."""
    return hasattr(sys, "getandroidapilevel") or "ANDROID_ARGUMENT" in os.environ


def is_usb_url(url: str) -> bool:
    return url.startswith(SCHEME)


def device_of(url: str) -> str:
    """The Android device name in a `usb-android:` URL; ValueError naming what is wrong."""
    name = url[len(SCHEME) :] if is_usb_url(url) else ""
    if not name:
        raise ValueError(
            f"{url!r}: a USB port on Android is written {SCHEME}<device>, e.g. {SCHEME}/dev/bus/usb/001/002"
        )
    return name


def url_of(device_name: str) -> str:
    return SCHEME + device_name


def _libraries():
    """(usb4a.usb, usbserial4a.serial4a): only importable inside an Android app."""
    from usb4a import usb
    from usbserial4a import serial4a

    return usb, serial4a


class UsbSerialPort:
    """A usbserial4a port as the bridge's `Port`: every failure is an OSError."""

    def __init__(
        self, port: Any, still_attached: Callable[[], bool], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._port = port
        self._still_attached = still_attached
        self._clock = clock
        self._quiet_since: float | None = None

    @property
    def in_waiting(self) -> int:
        self._check_open()
        return self._port.in_waiting

    def read(self, size: int = 1) -> bytes:
        self._check_open()
        data = bytes(self._port.read(size) or b"")
        if data:
            self._quiet_since = None
            return data
        now = self._clock()
        if self._quiet_since is None:
            self._quiet_since = now
        elif now - self._quiet_since >= PRESENCE_CHECK:
            # A CDC-ACM device pulled out reads as silence: ask Android whether it is still there.
            self._quiet_since = now
            if not self._still_attached():
                raise OSError("the USB device was unplugged")
        return b""

    def write(self, data: bytes) -> int:
        self._check_open()
        wrote = self._port.write(data)
        if wrote is None or wrote < len(data):
            raise OSError(f"USB write failed ({wrote!r} of {len(data)} bytes written)")
        return wrote

    def close(self) -> None:
        self._port.close()

    def _check_open(self) -> None:
        if not getattr(self._port, "is_open", False):
            raise OSError("the USB port is closed")


class UsbOpener:
    """Opens `device_name` with usbserial4a for the bridge; raises OSError saying why not
    (not attached, waiting for the person to allow access, the driver failed)."""

    def __init__(
        self,
        device_name: str,
        *,
        baudrate: int,
        read_timeout: float,
        usb: Any = None,
        serial4a: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.device_name = device_name
        self.baudrate = baudrate
        self.read_timeout = read_timeout
        self._usb, self._serial4a = usb, serial4a
        self._clock = clock
        self._asked_at: float | None = None
        self.permission_requests = 0

    def _libs(self):
        if self._usb is None or self._serial4a is None:
            self._usb, self._serial4a = _libraries()
        return self._usb, self._serial4a

    def __call__(self) -> UsbSerialPort:
        try:
            usb, serial4a = self._libs()
        except ImportError as exc:
            raise OSError(f"USB serial needs usb4a and usbserial4a (Android only): {exc}") from None
        device = usb.get_usb_device(self.device_name)
        if not device:
            raise OSError(f"USB device {self.device_name} is not attached")
        if not usb.has_usb_permission(device):
            self._ask(usb, device)
            raise PermissionError("waiting for permission to use the USB device: tap Allow on the tablet's question")
        self._asked_at = None
        try:
            port = serial4a.get_serial_port(
                self.device_name, self.baudrate, 8, "N", 1, timeout=self.read_timeout, write_timeout=1.0
            )
        except OSError:
            raise
        except Exception as exc:  # the driver's own errors (pyjnius, a Java exception)
            raise OSError(f"USB serial driver failed: {exc}") from None
        if not port or not getattr(port, "is_open", False):
            raise OSError(f"USB device {self.device_name} could not be opened")
        name = self.device_name
        return UsbSerialPort(port, lambda: usb.get_usb_device(name) is not None)

    def _ask(self, usb, device) -> None:
        """Android shows its dialog and answers later: ask, never wait (the bridge retries)."""
        now = self._clock()
        if self._asked_at is not None and now - self._asked_at < PERMISSION_ASK_AGAIN:
            return
        self._asked_at = now
        self.permission_requests += 1
        usb.request_usb_permission(device)


def list_usb_ports(usb: Any = None) -> list[tuple[str, int, int, str, str]]:
    """(url, vid, pid, serial number, description) of every USB device Android sees."""
    if usb is None:
        usb, _ = _libraries()
    found = []
    for device in usb.get_usb_device_list() or []:
        if not device:
            continue
        try:
            serial_number = device.getSerialNumber()  # needs permission on Android 10+
        except Exception:
            serial_number = None
        parts = [device.getManufacturerName() or "", device.getProductName() or ""]
        found.append(
            (
                url_of(device.getDeviceName()),
                device.getVendorId(),
                device.getProductId(),
                serial_number,
                " ".join(p for p in parts if p),
            )
        )
    return found
