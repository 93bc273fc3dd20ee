"""Two Kivy 2.3 behaviours that wear a long game night down, corrected at start-up (app.py).

- The interrupt clock spins instead of sleeping before each timed callback, and never sleeps
  while a callback is due every frame (`sleep_until_due`).
- A ScrollView binds its bar colour again on every scroll update but unbinds it only once per
  half second, so bindings pile up on every scroll view whose content changes (the table's side
  panel: about 120 a game); and each update then fades the bar with a per-frame Animation
  (`scroll_views_bind_once`).

Both are checked by tests/companion/ui/test_perf_loop.py.
"""

from __future__ import annotations

from kivy.clock import Clock


def sleep_until_due(clock=Clock) -> bool:
    """Make Kivy's interrupt clock sleep whenever it has nothing to do.

    As shipped (Kivy 2.3) it stops sleeping 1.8 clock resolutions before a timed callback is
    due but runs the callback only within 1 resolution of its time: in between the loop spins
    (about 9 ms before every timed callback at 30 frames a second: each step of a pulse, Kivy's
    cache purge each second). And a callback due every frame (a Kivy Animation's steps) keeps it
    from sleeping at all: 60,000 loop iterations a second. Here the clock sleeps until the
    frame cap or until the next callback is within its resolution, whichever comes first; work
    handed over from another thread (a tower drop, a phone) still wakes it at once.
    Returns False (nothing changed) for any other kind of clock."""
    from kivy.clock import ClockBaseInterrupt

    if clock.__class__ is not ClockBaseInterrupt or clock.interupt_next_only:  # (Clock is a proxy)
        return False

    def check_ready(fps, min_sleep, undershoot, event):
        if event.is_set():
            return True, 0
        now = clock.time()
        frame_in = 1 / fps - (now - clock._last_tick) - undershoot  # Kivy's own frame pacing
        if frame_in <= min_sleep:
            return True, 0
        due = clock.get_min_timeout()  # when the next timed callback is due; 0: every frame
        if due <= 0:
            return False, frame_in
        due_in = due - now - clock.get_resolution() + 0.0005  # a callback runs within its resolution
        if due_in <= 0:
            return True, 0
        return False, min(frame_in, due_in)

    clock._check_ready = check_ready
    return True


def scroll_views_bind_once() -> None:
    """ScrollView keeps one bar-colour binding at a time, and dims its bar in one step (no
    per-frame fade after every change of its content). Call before any ScrollView is made."""
    from kivy.uix.scrollview import ScrollView

    if getattr(ScrollView, "_binds_once", False):
        return
    update = ScrollView.update_from_scroll

    def update_from_scroll(self, *args):
        self.funbind("bar_color", self._change_bar_color)  # Kivy binds it again on every call
        return update(self, *args)

    def _bind_inactive_bar_color(self, *args):  # (named as Kivy's: its clock calls it by name)
        self.funbind("bar_color", self._change_bar_color)
        self.funbind("bar_inactive_color", self._change_bar_color)
        self.fbind("bar_inactive_color", self._change_bar_color)
        self._bar_color = self.bar_inactive_color

    ScrollView.update_from_scroll = update_from_scroll
    ScrollView._bind_inactive_bar_color = _bind_inactive_bar_color
    ScrollView._binds_once = True
