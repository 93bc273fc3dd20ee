"""Stand-ins for usb4a.usb and usbserial4a.serial4a that behave as those libraries do
(read from their sources, usbserial4a 0.4.0 / usb4a 0.3.0), with the USB wire replaced
by a real pty that a SimulatedTower talks on:

- usb.get_usb_device(name) -> a device or None; get_usb_device_list(); has_usb_permission;
  request_usb_permission(device) only asks (Android answers later, here `grant()`).
- serial4a.get_serial_port(name, baud, 8, 'N', 1, timeout=..., write_timeout=...): opens at
  once; without permission it asks and returns a port that is NOT open (no exception);
  raises usb.USBError when the device does not exist.
- port.read(size): loops over 50 ms bulk reads until `size` bytes or the timeout, returns
  what it has; in_waiting does one bulk read (CdcAcmSerial); reading a closed port raises
  PortNotOpenError (an IOError); write on a closed port returns None; no cancel_read.
- unplugged (CDC-ACM): bulk reads return nothing, no error; the device leaves the list.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty


class USBError(IOError):
    pass


class PortNotOpenError(IOError):
    def __init__(self):
        super().__init__("Attempting to use a port that is not open")


class FakeDevice:
    def __init__(self, name: str, vid: int, pid: int):
        self.name, self.vid, self.pid = name, vid, pid

    def getDeviceName(self):
        return self.name

    def getVendorId(self):
        return self.vid

    def getProductId(self):
        return self.pid

    def getManufacturerName(self):
        return "Raspberry Pi"

    def getProductName(self):
        return "Board in FS mode"

    def getSerialNumber(self):
        return "E6614C311B"


class FakeUsb:
    """usb4a.usb: one USB bus with devices that can be plugged, pulled and allowed."""

    USBError = USBError

    def __init__(self):
        self.devices: dict[str, FakeDevice] = {}
        self.allowed: set[str] = set()
        self.requests: list[str] = []
        self.lock = threading.Lock()

    def plug(self, name: str, vid: int = 0x2E8A, pid: int = 0x0005, allowed: bool = True) -> FakeDevice:
        with self.lock:
            self.devices[name] = FakeDevice(name, vid, pid)
            if allowed:
                self.allowed.add(name)
        return self.devices[name]

    def pull(self, name: str) -> None:
        with self.lock:
            self.devices.pop(name, None)

    def grant(self, name: str) -> None:
        with self.lock:
            self.allowed.add(name)

    def get_usb_device_list(self):
        with self.lock:
            return list(self.devices.values())

    def get_usb_device(self, name):
        with self.lock:
            return self.devices.get(name)

    def has_usb_permission(self, device):
        with self.lock:
            return device.getDeviceName() in self.allowed

    def request_usb_permission(self, device):
        self.requests.append(device.getDeviceName())


class FakeSerial4a:
    """usbserial4a.serial4a: get_serial_port over the pty the device name maps to."""

    def __init__(self, usb: FakeUsb, wires: dict[str, str]):
        self.usb, self.wires = usb, wires
        self.opened: list[FakeUsbSerial] = []

    def get_serial_port(self, device_name, *args, **kwargs):
        if not self.usb.get_usb_device(device_name):
            raise USBError("Device does not exist!")
        port = FakeUsbSerial(self.usb, device_name, self.wires[device_name], *args, **kwargs)
        self.opened.append(port)
        return port


class FakeUsbSerial:
    USB_READ_TIMEOUT = 0.05

    def __init__(
        self,
        usb,
        device_name,
        path,
        baudrate=9600,
        bytesize=8,
        parity="N",
        stopbits=1,
        timeout=None,
        write_timeout=None,
    ):
        self.usb, self.portstr, self.path = usb, device_name, path
        self.baudrate, self.timeout, self.write_timeout = baudrate, timeout, write_timeout
        self.is_open = False
        self._fd = None
        self._read_buffer = bytearray()
        self.open()

    def open(self):
        self.close()
        device = self.usb.get_usb_device(self.portstr)
        if not device:
            raise OSError(f"Device not present {self.portstr}")
        if not self.usb.has_usb_permission(device):
            self.usb.request_usb_permission(device)
            return
        self._fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self._fd)
        self.is_open = True

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
        self._fd = None
        self.is_open = False

    def _read(self) -> bytes:
        if not self.is_open:
            raise PortNotOpenError()
        if not self.usb.get_usb_device(self.portstr):  # unplugged: the bulk transfer times out
            time.sleep(self.USB_READ_TIMEOUT)
            return b""
        ready, _, _ = select.select([self._fd], [], [], self.USB_READ_TIMEOUT)
        if not ready:
            return b""
        try:
            return os.read(self._fd, 1024)
        except BlockingIOError:
            return b""

    @property
    def in_waiting(self):
        self._read_buffer.extend(self._read())
        return len(self._read_buffer)

    def read(self, size=1):
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        if len(self._read_buffer) < size:
            while self.in_waiting < size:
                if deadline is not None and time.monotonic() >= deadline:
                    break
        data = self._read_buffer[:size]
        self._read_buffer = self._read_buffer[size:]
        return bytes(data)

    def write(self, data):
        if not self.is_open:
            return None
        if not self.usb.get_usb_device(self.portstr):
            raise OSError(f"Failed to write {data!r}: -1")
        return os.write(self._fd, data)
