"""Moved to engine/rules/king_intrigue/cards.py; this name is kept for older imports."""

import sys

from .king_intrigue import cards as _moved

sys.modules[__name__] = _moved
