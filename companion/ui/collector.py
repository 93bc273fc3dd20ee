"""Python's cycle collector and the tablet's loop (issue 11: no loop iteration over 150 ms).

Every widget Kivy lets go of leaves a few hundred objects in reference cycles, which only the
cycle collector frees. Its full passes walk every object the process tracks: with Kivy, the
screens and the modules loaded, over 200,000 before any game, about 100-200 ms on the UI
thread each time (one every minute or so of play), which was most of the loop iterations over
150 ms. What exists once the app has started lives as long as the app: moved out of the
collector's sight (`gc.freeze`), a full pass walks only what the game made since.

Startup objects that later become cyclic garbage are never freed: a one-time cost, bounded by
what the app made before its first frame (which is nearly all alive)."""
from __future__ import annotations

import gc


def freeze_startup_objects() -> int:
    """Collect the young generations, then freeze everything still tracked; returns how many."""
    gc.collect(1)  # the young garbage of startup (cheap); the old generation holds hardly any
    gc.freeze()
    return gc.get_freeze_count()
