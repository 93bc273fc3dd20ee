"""Finding the tower on USB: serial ports listed by vendor and product id.
On Android (no /dev/tty nodes for USB adapters) the USB devices come from usb4a and
are named `usb-android:<device>`, which the serial bridge opens through usbserial4a."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from . import usb_android

# USB ids of the boards and USB-UART bridges the build guide names.
TOWER_USB_IDS: dict[tuple[int, int], str] = {
    (0x2E8A, 0x0005): "Raspberry Pi Pico W (MicroPython)",
    (0x303A, 0x4001): "ESP32-S2/S3 (MicroPython, native USB)",
    (0x303A, 0x1001): "ESP32-S3/C3 (USB serial/JTAG)",
    (0x10C4, 0xEA60): "ESP32 board with a CP210x USB-UART",
    (0x1A86, 0x7523): "ESP32 board with a CH340 USB-UART",
    (0x1A86, 0x55D4): "ESP32 board with a CH9102 USB-UART",
    (0x0403, 0x6001): "a board with an FTDI FT232R USB-UART",
    (0x0403, 0x6015): "a board with an FTDI FT230X USB-UART",
    (0x067B, 0x2303): "a board with a Prolific PL2303 USB-UART",
}


class PortInfo(BaseModel):
    device: str
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    description: str = ""
    kind: str | None = None  # what TOWER_USB_IDS calls it, None when not a known tower board


def list_ports(ids: Iterable[tuple[int, int]] | None = None, *, ports: list | None = None) -> list[PortInfo]:
    """USB serial ports whose (vid, pid) is in ids (default TOWER_USB_IDS); ids=() lists all."""
    wanted = set(TOWER_USB_IDS if ids is None else ids)
    found = []
    if ports is None:
        ports = _android_ports() if usb_android.on_android() else _comports()
    for p in ports:
        key = (p.vid, p.pid)
        if wanted and key not in wanted:
            continue
        found.append(
            PortInfo(
                device=p.device,
                vid=p.vid,
                pid=p.pid,
                serial_number=p.serial_number,
                description=p.description or "",
                kind=TOWER_USB_IDS.get(key),
            )
        )
    return sorted(found, key=lambda p: p.device)


def find_tower(ports: list | None = None) -> str | None:
    """The device path of the first port that looks like a tower, or None."""
    found = list_ports(ports=ports)
    return found[0].device if found else None


def _comports() -> list:
    # Imported here: pyserial's port listing raises ImportError on import where it does not
    # know the platform (sys.platform "android"), and Android lists through usb4a anyway.
    from serial.tools import list_ports

    return list_ports.comports()


class _AndroidPort:
    """A usb4a device in the shape comports() gives."""

    def __init__(self, device, vid, pid, serial_number, description):
        self.device, self.vid, self.pid = device, vid, pid
        self.serial_number, self.description = serial_number, description


def _android_ports(usb=None) -> list:
    try:
        return [_AndroidPort(*row) for row in usb_android.list_usb_ports(usb)]
    except Exception:  # no USB manager (yet): an empty list, the setup screen says none found
        return []
