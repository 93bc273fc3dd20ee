"""The phone server's two pages, in the language of the browser that asks: the phone page (its
words for every language written in, companion/web/words.py; the page picks its own) and the page
a spent or expired join code answers with (made in the browser's language)."""

from __future__ import annotations

import html
from collections.abc import Callable
from importlib import resources

from aiohttp import web

from companion.look.css import with_tokens
from companion.look.players import with_looks
from companion.phones.seats import REFUSALS
from companion.web.words import accepted_language, for_reader, with_words
from companion.words import _, language
from companion.words.catalogue import speaking


class PhonePages:
    def __init__(self) -> None:
        static = resources.files("companion.phones").joinpath("static")
        self.page = with_words(with_tokens(with_looks(static.joinpath("phone.html").read_bytes())))
        self.gone_page = with_tokens(static.joinpath("gone.html").read_bytes()).decode("utf-8")

    def phone(self, request: web.Request) -> web.Response:
        page = for_reader(self.page, accepted_language(request.headers.get("Accept-Language")))
        return web.Response(body=page, content_type="text/html", charset="utf-8")

    def gone(self, refusal: str) -> web.Response:
        """Why a join code no longer works, in the language spoken now (the browser's)."""
        words = {
            "lang": language(),
            "title": _(REFUSALS[refusal][0]),
            "text": _(REFUSALS[refusal][1]),
            "more": _(
                "Each seat's QR code works once, for a few minutes. If this phone already joined, open your seat below."
            ),
            "open": _("Open my seat"),
        }
        page = self.gone_page
        for key, value in words.items():
            page = page.replace("{" + key + "}", html.escape(value))
        return web.Response(status=410, text=page, content_type="text/html", charset="utf-8")


def spoken(code: str, fn: Callable, *args):
    """fn(*args) speaking `code` (on the executor's thread: a context of its own)."""
    with speaking(code):
        return fn(*args)
