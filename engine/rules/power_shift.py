"""Moved to engine/rules/edition_2023/power_shift.py; this name is kept for older imports."""

import sys

from .edition_2023 import power_shift as _moved

sys.modules[__name__] = _moved
