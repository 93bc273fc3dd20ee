"""A QR code of BG Stats' push link: a phone that scans it opens BG Stats with the play filled in.

Drawn with the `qrcode` package (as the phones panel draws its join codes), error correction L
(a screen is not a worn sticker: L leaves the most room for the link), the smallest version that
holds the link; a QR code holds at most version 40 (2953 bytes at L). A link longer than that (a
game of very long names) has no code: None, and the screen says to use the file instead."""

from __future__ import annotations

import io

import qrcode
from qrcode.exceptions import DataOverflowError

MAX_VERSION = 40


def qr_code(link: str, box_size: int = 6, border: int = 2) -> qrcode.QRCode | None:
    """The code made for `link` (its `version` says how large), None when no QR code holds it."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, box_size=box_size, border=border)
    code.add_data(link)
    try:
        code.make(fit=True)
    except (DataOverflowError, ValueError):  # ValueError: qrcode's own "Invalid version" past 40
        return None
    return code if code.version <= MAX_VERSION else None


def qr_png(link: str, box_size: int = 6) -> bytes | None:
    """The code as a PNG (black on white, as scanners read best), None when none holds the link."""
    code = qr_code(link, box_size)
    if code is None:
        return None
    out = io.BytesIO()
    code.make_image().save(out)  # PNG with Pillow and with pypng alike (pypng refuses a format argument)
    return out.getvalue()


def qr_texture(link: str, box_size: int = 6):
    """The code as a Kivy texture, None when no QR code holds the link."""
    data = qr_png(link, box_size)
    if data is None:
        return None
    from kivy.core.image import Image as CoreImage

    return CoreImage(io.BytesIO(data), ext="png").texture
