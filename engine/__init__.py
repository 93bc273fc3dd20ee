"""The El Grande rules engine: pure (no I/O, threads or UI).

Importing the package wires it together: every rule system registers its round, its parts'
stages and hooks, its card effects and its card-set loaders (engine/rules/systems.py), and
the flow tells the refusals what the game waits for. No module below imports one above it.
"""

from . import flow  # noqa: F401
from .rules import systems  # noqa: F401
