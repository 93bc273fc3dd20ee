"""The tablet's shape: the window size to open with, and a scale that keeps the screens
the same on a bigger window.

Every size in the app is in dp/sp, laid out for a 1280 x 800 dp landscape tablet (or
800 x 1280 dp in portrait). A window bigger than that in both directions (a 1920 x 1200
screen at density 1) scales dp and sp up with it, so text and buttons grow instead of
floating small in a big window. A device that reports its own density (Android) already
measures in dp: the scale is worked out in dp, so it is 1 there.

Nothing here imports Kivy's window at module level: app.py reads `window_size` before
Kivy's Config is applied."""

from __future__ import annotations

import logging
import re

DEFAULT_SIZE = (1280, 800)
REFERENCE = (1280, 800)  # dp the layouts are made for (landscape; portrait swaps them)
MAX_SCALE = 2.0
WINDOW_ENV = "ELGRANDE_WINDOW"  # e.g. 800x1280 for a portrait tablet

log = logging.getLogger("companion.ui")


def window_size(value: str | None) -> tuple[int, int]:
    """`ELGRANDE_WINDOW` ("800x1280") as (width, height); a bad value is said once and the
    default is used (a setting never stops the app)."""
    if not value:
        return DEFAULT_SIZE
    match = re.fullmatch(r"\s*(\d{3,5})\s*[xX]\s*(\d{3,5})\s*", value)
    if not match:
        log.warning("%s=%r is not WIDTHxHEIGHT (e.g. 800x1280): using %dx%d", WINDOW_ENV, value, *DEFAULT_SIZE)
        return DEFAULT_SIZE
    width, height = int(match.group(1)), int(match.group(2))
    if not (320 <= width <= 7680 and 320 <= height <= 7680):
        log.warning("%s=%r is outside 320..7680 pixels a side: using %dx%d", WINDOW_ENV, value, *DEFAULT_SIZE)
        return DEFAULT_SIZE
    return width, height


def ui_scale(width_dp: float, height_dp: float) -> float:
    """How much bigger than the reference tablet the window is (1 when it is not)."""
    long_side, short_side = max(width_dp, height_dp), min(width_dp, height_dp)
    scale = min(long_side / REFERENCE[0], short_side / REFERENCE[1])
    return max(1.0, min(MAX_SCALE, scale))


def scale_with_window(window) -> float:
    """Set Kivy's density so the layouts fill a bigger window; call before any widget is made.
    Returns the scale applied."""
    from kivy.metrics import Metrics

    base = Metrics.density
    width, height = window.system_size
    scale = ui_scale(width / base, height / base)
    if scale != 1.0:
        Metrics.density = base * scale
    return scale


def portrait(widget) -> bool:
    return widget.height > widget.width


def dialog_size(landscape: tuple, portrait: tuple | None = None) -> tuple:
    """A dialog's size_hint for the window's shape: as given in landscape; in portrait nearly
    the window's width and (unless said otherwise) less of its height, which is long there."""
    from kivy.core.window import Window

    if Window.width >= Window.height:
        return landscape
    if portrait is not None:
        return portrait
    height = landscape[1]
    return 0.94, None if height is None else min(0.92, height * 0.8)
