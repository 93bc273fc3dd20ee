"""Python's cycle collector and the tablet's loop (issue 11: no loop iteration over 150 ms).

Every widget Kivy lets go of leaves a few hundred objects in reference cycles, which only the
cycle collector frees. Its full passes walk every object the process tracks: with Kivy, the
screens and the modules loaded, over 200,000 before any game, about 100-200 ms on the UI
thread each time (one every minute or so of play), which was most of the loop iterations over
150 ms. What exists once the app has started lives as long as the app: moved out of the
collector's sight (`gc.freeze`), a full pass walks only what the game made since.

Startup objects that later become cyclic garbage are never freed: a one-time cost, bounded by
what the app made before its first frame (which is nearly all alive).

The young generation is also collected ten times less often than Python's default (every
7,000 new tracked objects, not 700): a screen's rows and dialogs make thousands of Kivy
objects at once, and the default ran the collector several times while building each one,
about an eighth of the app's CPU through the screen catalogue (the app tests, measured with
py-spy). Memory is no concern: 7,000 young objects are a few megabytes at most."""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 7_000  # new tracked objects between two young collections (Python's default: 700)


def freeze_startup_objects() -> int:
    """Collect the young generations, then freeze everything still tracked; returns how many."""
    gc.collect(1)  # the young garbage of startup (cheap); the old generation holds hardly any
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    return gc.get_freeze_count()
