"""The phone page on the local network: this machine's address, a phone's device in words, and
the headers every answer carries (the page talks to this server only)."""

from __future__ import annotations

import re
import socket

from aiohttp import web


def lan_address() -> str:
    """This machine's address on the local network (the one a phone can reach), else 127.0.0.1.

    Connecting a UDP socket sends nothing; it only makes the system pick the
    interface it would route through."""
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                addr = s.getsockname()[0]
            if addr and not addr.startswith(("127.", "0.")):
                return addr
        except OSError:
            continue
    return "127.0.0.1"


_BROWSERS = (
    ("SamsungBrowser", "Samsung Internet"),
    ("EdgA", "Edge"),
    ("EdgiOS", "Edge"),
    ("Edg/", "Edge"),
    ("FxiOS", "Firefox"),
    ("Firefox", "Firefox"),
    ("OPR", "Opera"),
    ("CriOS", "Chrome"),
    ("Chrome", "Chrome"),
    ("Safari", "Safari"),
)
_SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "Mac"),
    ("Linux", "Linux"),
)
_HOST = re.compile(r"^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")


def describe_device(user_agent: str) -> str:
    """ "Chrome on Android": enough for the table to tell whose phone it is, nothing more."""
    browser = next((name for key, name in _BROWSERS if key in user_agent), "a browser")
    system = next((name for key, name in _SYSTEMS if key in user_agent), "")
    return f"{browser} on {system}" if system else browser


def content_security_policy(host: str) -> str:
    """connect-src 'self': the page talks only to this server. CSP 3 lets 'self' cover ws: to the same
    host and port (Chromium, Firefox); Safari before 15.4 does not, so that one URL is also named."""
    same_ws = f" ws://{host}" if _HOST.match(host or "") else ""
    return (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
        f"connect-src 'self'{same_ws}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer: never cached, never framed, no referrer; the page gets its policy."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    if response.content_type == "text/html":
        response.headers["Content-Security-Policy"] = content_security_policy(request.host)
