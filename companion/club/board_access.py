"""Who may act on the club board: the organiser's token, checked on every organiser request
(constant-time), wrong tries throttled per address (`TokenThrottle`), and the board's HTTPS.

After `TokenThrottle.tries` wrong or missing tokens from one address, that address is refused (429)
for a lockout that doubles with each further wrong try (30 s up to 15 min)."""

from __future__ import annotations

import asyncio
import contextvars
import hmac
import json
import logging
import math
import ssl
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

from companion.club.tournament import TournamentError
from companion.web.guard import Limits, RateLimitedLog, one_line
from companion.web.server import json_error
from companion.words import _

Action = Callable[[dict], dict]  # an organiser action: the request's JSON object -> the answer


class TokenThrottle:
    """Wrong organiser tokens, counted per address: after `tries` wrong or missing ones, that
    address is locked out for `first` seconds, doubled by each further wrong try (at most
    `longest`). Requests during a lockout are refused unread (the right token too: no oracle) and
    do not lengthen it. A right token outside a lockout forgets the address; so does `window`
    seconds with no wrong try (counted from the end of its lockout). Loop thread only."""

    def __init__(
        self,
        tries: int = 5,
        first: float = 30.0,
        longest: float = 900.0,
        window: float = 900.0,
        clock: Callable[[], float] = time.monotonic,
        max_addresses: int = 4096,
    ):
        self.tries, self.first, self.longest, self.window = tries, first, longest, window
        self.max_addresses = max_addresses
        self._clock = clock
        # address -> [wrong tries, lockouts so far, locked until, last wrong try]; least recent first
        self._wrong: OrderedDict[str, list] = OrderedDict()

    def locked_for(self, address: str) -> float:
        """Seconds this address is still locked out (0: it may try)."""
        entry = self._entry(address)
        return max(0.0, entry[2] - self._clock()) if entry else 0.0

    def wrong(self, address: str) -> float:
        """Count a wrong or missing token; returns the lockout it starts (0: none yet)."""
        now = self._clock()
        entry = self._entry(address)
        if entry is None:
            if len(self._wrong) >= self.max_addresses:
                self._wrong.popitem(last=False)  # bounded memory; the least recent goes
            entry = self._wrong[address] = [0, 0, 0.0, now]
        self._wrong.move_to_end(address)
        entry[0] += 1
        entry[3] = now
        if entry[0] < self.tries:
            return 0.0
        lockout = min(self.longest, self.first * 2 ** entry[1])
        entry[1] += 1
        entry[2] = now + lockout
        return lockout

    def right(self, address: str) -> None:
        self._wrong.pop(address, None)

    def _entry(self, address: str) -> list | None:
        entry = self._wrong.get(address)
        if entry is not None and self._clock() - max(entry[2], entry[3]) > self.window:
            del self._wrong[address]  # quiet long enough: a fresh start
            return None
        return entry


def board_tls(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """The board served over HTTPS (the organiser's token never crosses the Wi-Fi in clear), with
    the certificate and key given (make-certs.sh's server.crt and server.key serve). None: HTTP."""
    if not certfile:
        if keyfile:
            raise ValueError(_("--keyfile without --certfile: give the board's certificate too"))
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(certfile, keyfile)
    except FileNotFoundError as exc:
        words = _("the board's certificate: no file {file}")
        raise ValueError(words.format(file=exc.filename or certfile)) from None
    except PermissionError as exc:
        words = _(
            "the board's certificate: cannot read {file} (permission denied: copy it where this user can read it)"
        )
        raise ValueError(words.format(file=exc.filename or keyfile or certfile)) from None
    except ssl.SSLError as exc:
        if not keyfile:
            words = _(
                "the board's certificate {file}: no private key in it (give --keyfile, "
                "make-certs.sh's server.key) or not a PEM certificate ({reason})"
            )
            raise ValueError(words.format(file=certfile, reason=exc.reason or exc)) from None
        words = _("the board's certificate {file} and key {key}: not a PEM certificate with its private key ({reason})")
        raise ValueError(words.format(file=certfile, key=keyfile, reason=exc.reason or exc)) from None
    return ctx


class OrganiserGate:
    """Wraps an organiser action as a route: the token checked first (a lockout refuses unread),
    then the JSON body read within the limits, then the action run off the loop; `done` is called
    after each action that succeeded (the pages are pushed the new standings)."""

    def __init__(
        self,
        token: bytes,
        throttle: TokenThrottle,
        limits: Limits,
        log: RateLimitedLog,
        max_body: int,
        headers: Callable[[web.Response], web.Response],
        done: Callable[[], None],
    ):
        self._token, self.throttle, self.limits, self._log = token, throttle, limits, log
        self._max_body, self._headers, self._done = max_body, headers, done

    def __call__(self, handler: Action) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def checked(request: web.Request) -> web.Response:
            address = request.remote or "?"
            locked = math.ceil(self.throttle.locked_for(address))
            if locked:  # refused unread: even the right token, so a lockout tells a guesser nothing
                words = _("too many wrong organiser tokens from this address: try again in {seconds} s")
                response = json_error(429, words.format(seconds=locked))
                response.headers["Retry-After"] = str(locked)
                return response
            given = request.headers.get("Authorization", "")
            if not given.startswith("Bearer "):
                words = _("organiser actions need the organiser's token (Authorization: Bearer TOKEN)")
                return self._wrong_token(address, 401, words)
            if not hmac.compare_digest(given[7:].strip().encode("utf-8", "replace"), self._token):
                return self._wrong_token(address, 403, _("wrong organiser token"))
            self.throttle.right(address)
            max_body = self._max_body
            if request.content_length is not None and request.content_length > max_body:
                return json_error(413, _("request too large (at most {n} bytes)").format(n=max_body))
            try:
                body = await asyncio.wait_for(request.read(), self.limits.body_timeout)
                data = json.loads(body or b"{}")
                if not isinstance(data, dict):
                    raise ValueError
            except TimeoutError:
                words = _("the request body did not arrive within {seconds} s")
                response = json_error(408, words.format(seconds=f"{self.limits.body_timeout:g}"))
                response.force_close()
                return response
            except web.HTTPRequestEntityTooLarge:
                return json_error(413, _("request too large (at most {n} bytes)").format(n=max_body))
            except ValueError:
                return json_error(400, _("the request body must be one JSON object"))
            try:
                # in the request's context: its words in the language of the page that asked
                run = contextvars.copy_context().run
                out = await asyncio.get_running_loop().run_in_executor(None, run, handler, data)
            except TournamentError as exc:  # its words made here: in the language of the page that asked
                return json_error(409, str(exc))
            except OSError as exc:
                words = _("the tournament journal could not be written ({reason})")
                return json_error(500, words.format(reason=exc.strerror or exc))
            self._done()
            return self._headers(web.json_response(out))

        return checked

    def _wrong_token(self, address: str, status: int, message: str) -> web.Response:
        """Counted against the address; the try that starts a lockout logs one line (never the token)."""
        lockout = self.throttle.wrong(address)
        if lockout:
            self._log(
                "organiser lockouts",
                logging.WARNING,
                f"club board: {self.throttle.tries} or more wrong organiser tokens from "
                f"{one_line(address, 60)}: its organiser actions are refused for {lockout:g} s",
            )
            more = _("(too many from this address: try again in {seconds} s)").format(seconds=math.ceil(lockout))
            message = f"{message} {more}"
        return json_error(status, message)
