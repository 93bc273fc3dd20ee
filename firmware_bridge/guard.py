"""Last-resort guards of the tower link: no frame, no broken callback and no bug
reached through them may stop a thread, a link or the app.

- `guarded(where, on_fault)`: wraps a callback (a paho callback, a reader
  step, a timer); whatever it raises is handed to `on_fault(where, error)` and
  swallowed, so the calling thread carries on.
- `entry_point(where)`: the same for a public method of a link; what it raises
  goes to the link's `report_fault(where, error)`.
- `Worker`: a daemon thread whose body is run again, after a backoff, when it
  raises; each crash is handed to `on_crash(where, error)`.
- `LogLimiter`: at most a few log lines per kind and window, then one summary
  line, so a flood of garbage cannot flood the log.
- `describe(error)`: one line naming the exception and where it was raised;
  `brief(obj)`: a repr short enough for a log line.

A link ties them together: `Link.guarded(where, fn)` reports to
`Link.report_fault`, which counts the fault, logs one line and shows it as a
status change (see firmware_bridge/README.md, "Robustness").
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar, cast

log = logging.getLogger("firmware_bridge.guard")

OnFault = Callable[[str, BaseException], None]
Method = TypeVar("Method", bound=Callable[..., Any])


def describe(error: BaseException, limit: int = 300) -> str:
    """`ValueError: bad thing (link.py:123 in _drop)`: one line, never raises."""
    try:
        text = f"{type(error).__name__}: {error}"
        frames = traceback.extract_tb(error.__traceback__) if error.__traceback__ else []
        if frames:
            last = frames[-1]
            text += f" ({os.path.basename(last.filename)}:{last.lineno} in {last.name})"
        text = " ".join(text.split())  # one line, whatever the message holds
        return text if len(text) <= limit else text[: limit - 3] + "..."
    except Exception:
        return type(error).__name__


def brief(obj: object, limit: int = 80) -> str:
    """repr(obj) cut to `limit` characters, for a log line; never raises."""
    try:
        text = repr(obj)
    except Exception:  # a pathological object; the reason is logged anyway
        text = "<unprintable>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def report(on_fault: OnFault, where: str, error: BaseException) -> None:
    """Hands error to on_fault; if that fails too, one log line and nothing more."""
    try:
        on_fault(where, error)
    except Exception as second:
        log.error("%s failed (%s) and reporting it failed too (%s)", where, describe(error), describe(second))


def guarded(where: str, on_fault: OnFault, fn: Callable | None = None) -> Callable:
    """`guarded(where, on_fault, fn)` or `@guarded(where, on_fault)`: fn's exceptions
    go to on_fault(where, error) instead of up the stack; the call returns None."""

    def wrap(func: Callable) -> Callable:
        @functools.wraps(func)
        def call(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except Exception as error:
                report(on_fault, where, error)
                return None

        return call

    return wrap(fn) if fn is not None else wrap


def entry_point(where: str) -> Callable[[Method], Method]:
    """Last-resort guard of a public entry point of an object with a `report_fault(where, error)`
    (a Link): whatever escapes the method becomes a counted fault and a status change, never an
    exception in the caller's thread (a serial reader, a paho callback, a timer)."""

    def wrap(method: Method) -> Method:
        @functools.wraps(method)
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except Exception as error:
                self.report_fault(where, error)
                return None

        return cast(Method, call)

    return wrap


class Worker:
    """A daemon thread running `body()` until `stop` is set. A body that raises
    is reported to `on_crash(name, error)` and run again after a backoff that
    doubles from backoff_min to backoff_max (back to backoff_min after a run
    that lasted a minute). A body that returns ends the worker."""

    def __init__(
        self,
        body: Callable[[], None],
        name: str,
        on_crash: OnFault,
        *,
        stop: threading.Event | None = None,
        backoff_min: float = 0.1,
        backoff_max: float = 5.0,
    ) -> None:
        self.body = body
        self.name = name
        self.on_crash = on_crash
        self.stop_event = stop or threading.Event()
        self.backoff_min = backoff_min
        self.backoff_max = backoff_max
        self.restarts = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> Worker:
        self._thread.start()
        return self

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout: float = 5.0) -> None:
        self.stop_event.set()
        self.join(timeout)

    def join(self, timeout: float = 5.0) -> None:
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        delay = self.backoff_min
        while not self.stop_event.is_set():
            started = time.monotonic()
            try:
                self.body()
                return
            except Exception as error:
                self.restarts += 1
                report(self.on_crash, self.name, error)
            if time.monotonic() - started > 60:
                delay = self.backoff_min  # it ran fine for a while: a fresh fault, not a crash loop
            self.stop_event.wait(delay)
            delay = min(delay * 2, self.backoff_max)


class LogLimiter:
    """Logs at most `burst` lines per key in each `window` seconds; what it holds
    back is counted and said in one summary line when the window ends (on the
    next call, or on `flush()` from a timer)."""

    def __init__(
        self, logger: logging.Logger, burst: int = 3, window: float = 10.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.logger = logger
        self.burst = burst
        self.window = window
        self._clock = clock
        self._start = clock()
        self._logged: Counter = Counter()
        self._held: Counter = Counter()
        self._held_level = logging.DEBUG

    def log(self, level: int, key: str, msg: str, *args: object) -> bool:
        """Logs msg % args unless key has had its burst this window; True if logged."""
        self.flush()
        if self._logged[key] < self.burst:
            self._logged[key] += 1
            self.logger.log(level, msg, *args)
            return True
        self._held[key] += 1
        self._held_level = max(self._held_level, level)
        return False

    def flush(self) -> None:
        now = self._clock()
        if now - self._start < self.window:
            return
        if self._held:
            kinds = ", ".join(f"{key} {n}" for key, n in self._held.most_common(8))
            self.logger.log(
                self._held_level,
                "%d more like the above in the last %.0f s, not logged one by one (%s)",
                sum(self._held.values()),
                now - self._start,
                kinds,
            )
        self._start = now
        self._logged.clear()
        self._held.clear()
        self._held_level = logging.DEBUG
