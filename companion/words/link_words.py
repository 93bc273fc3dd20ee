"""The tower link's and the broker's words, read back out of their English.

firmware_bridge speaks English only (it is the tower's program too, and its lines go to logs and
to the tower's own command line): a link status says "no frame from the tower for 15 s". Where a
table reads one (the tablet's tower panel, the club board's banner), `link_words` says it in the
table's language. Each shape below is one of firmware_bridge's sentences, its values captured by
name; a value that is itself the system's or the broker's words (an OS error, a TLS reason) stays
as they gave it. A sentence of no shape here is shown as it is."""

from __future__ import annotations

import re

from companion.words.catalogue import N_, _, ngettext

_SHAPES: tuple[tuple[str, str], ...] = (
    # firmware_bridge/link: the link's own states and notices
    (r"tower offline \(its Last Will on the broker\)", N_("tower offline (its Last Will on the broker)")),
    (r"not started", N_("not started")),
    (r"not started: (?P<reason>.+)", N_("not started: {reason}")),
    (r"opening (?P<what>.+)", N_("opening {what}")),
    (r"no frame from the tower for (?P<seconds>\S+) s", N_("no frame from the tower for {seconds} s")),
    (r"refused a frame from the tower: (?P<reason>.+)", N_("refused a frame from the tower: {reason}")),
    (
        r"tower (?P<tower>\S+) \(firmware (?P<fw>.+?)\) speaks protocol version (?P<theirs>\d+); "
        r"this companion speaks version (?P<ours>\d+): update the companion",
        N_(
            "tower {tower} (firmware {fw}) speaks protocol version {theirs}; this companion speaks "
            "version {ours}: update the companion"
        ),
    ),
    (
        r"tower (?P<tower>\S+) \(firmware (?P<fw>.+?)\) speaks protocol version (?P<theirs>\d+); "
        r"this companion speaks version (?P<ours>\d+): update the tower firmware",
        N_(
            "tower {tower} (firmware {fw}) speaks protocol version {theirs}; this companion speaks "
            "version {ours}: update the tower firmware"
        ),
    ),
    (r"tower (?P<tower>\S+) found", N_("tower {tower} found")),
    (r"tower rebooted \(boot (?P<old>\S+) -> (?P<new>\S+)\)", N_("tower rebooted (boot {old} -> {new})")),
    (
        r"(?P<where>\S+) says seq (?P<seq>\d+), below the (?P<n>\d+) already delivered, without a new boot id",
        N_("the tower's {where} says drop {seq}, below the {n} already taken, without a new boot"),
    ),
    (
        r"the tower overwrote (?P<n>\d+) drops no host had acknowledged",
        N_("the tower overwrote {n} drops no host had acknowledged"),
    ),
    (
        r"drops up to (?P<n>\d+) are no longer held by the tower",
        N_("drops up to {n} are no longer held by the tower"),
    ),
    (r"the tower could not use its storage", N_("the tower could not use its storage")),
    (
        r"the table could not take the tower's totals \((?P<error>.+)\): asking again",
        N_("the table could not take the tower's totals ({error}): asking again"),
    ),
    (r"(?P<where>.+) failed \((?P<error>.+)\); restarted", N_("{where} failed ({error}); restarted")),
    (
        r"(?P<where>.+) failed \((?P<error>.+)\); the link carries on",
        N_("{where} failed ({error}); the link carries on"),
    ),
    (r"tower: (?P<message>.+)", N_("the tower says: {message}")),
    # firmware_bridge/transport_serial.py
    (r"serial link cut", N_("serial link cut")),
    (r"serial link lost: (?P<error>.+)", N_("serial link lost: {error}")),
    (r"stopped", N_("stopped")),
    (r"cannot open (?P<port>\S+): (?P<error>.+)", N_("cannot open {port}: {error}")),
    # firmware_bridge/transport_mqtt.py: describe_connect_error, describe_unanswered, describe_refusal
    (r"broker connection lost \((?P<reason>.+)\)", N_("broker connection lost ({reason})")),
    (  # the simulated tower's own link (firmware_bridge/sim/mqtt_port.py)
        r"broker connection lost \((?P<reason>.+)\); drops are queued until it is back",
        N_("broker connection lost ({reason}); drops are queued until it is back"),
    ),
    (
        r"TLS: the broker at (?P<where>\S+) showed a certificate the CA file does not vouch for \((?P<reason>.+)\); "
        r"check the CA file and that the broker's certificate names (?P<host>\S+)",
        N_(
            "TLS: the broker at {where} showed a certificate the CA file does not vouch for ({reason}); "
            "check the CA file and that the broker's certificate names {host}"
        ),
    ),
    (
        r"TLS handshake with the broker at (?P<where>\S+) failed \((?P<reason>.+)\): is that port TLS\? "
        r"plain MQTT is mqtt://",
        N_("TLS handshake with the broker at {where} failed ({reason}): is that port TLS? plain MQTT is mqtt://"),
    ),
    (
        r"TLS handshake with the broker at (?P<where>\S+) failed \((?P<reason>.+)\): the broker wants a client "
        r"certificate \(--cert / --key\)",
        N_(
            "TLS handshake with the broker at {where} failed ({reason}): the broker wants a client "
            "certificate (--cert / --key)"
        ),
    ),
    (
        r"TLS handshake with the broker at (?P<where>\S+) failed \((?P<reason>.+)\): the broker did not accept "
        r"the client certificate",
        N_(
            "TLS handshake with the broker at {where} failed ({reason}): the broker did not accept "
            "the client certificate"
        ),
    ),
    (
        r"TLS handshake with the broker at (?P<where>\S+) failed \((?P<reason>.+)\)",
        N_("TLS handshake with the broker at {where} failed ({reason})"),
    ),
    (
        r"nothing listens at (?P<where>\S+): is the broker running\? \(mqtts:// is usually port 8883\)",
        N_("nothing listens at {where}: is the broker running? (mqtts:// is usually port 8883)"),
    ),
    (
        r"nothing listens at (?P<where>\S+): is the broker running\? \(mqtt:// is usually port 1883\)",
        N_("nothing listens at {where}: is the broker running? (mqtt:// is usually port 1883)"),
    ),
    (r"broker host (?P<host>'.+') not found \((?P<error>.+)\)", N_("broker host {host} not found ({error})")),
    (
        r"no answer from the broker at (?P<where>\S+) \(timed out\)",
        N_("no answer from the broker at {where} (timed out)"),
    ),
    (
        r"cannot reach the broker at (?P<where>\S+) \((?P<error>.+)\)",
        N_("cannot reach the broker at {where} ({error})"),
    ),
    (r"cannot connect to the broker at (?P<where>\S+)", N_("cannot connect to the broker at {where}")),
    (
        r"cannot connect to the broker at (?P<where>\S+) \((?P<error>.+)\)",
        N_("cannot connect to the broker at {where} ({error})"),
    ),
    (
        r"the broker at (?P<where>\S+) closed the connection without answering(?: \((?P<why>.+?)\))?: a TLS-only "
        r"port\? use mqtts://",
        N_("the broker at {where} closed the connection without answering{why}: a TLS-only port? use mqtts://"),
    ),
    (
        r"the broker at (?P<where>\S+) closed the connection without answering(?: \((?P<why>.+?)\))?: a broker "
        r"that wants a client certificate does this \(--cert / --key\)",
        N_(
            "the broker at {where} closed the connection without answering{why}: a broker that wants a "
            "client certificate does this (--cert / --key)"
        ),
    ),
    (
        r"the broker at (?P<where>\S+) closed the connection without answering(?: \((?P<why>.+?)\))?",
        N_("the broker at {where} closed the connection without answering{why}"),
    ),
    (
        r"the broker at (?P<where>\S+) refused the connection: not authorised \(user (?P<user>'.+'); "
        r"check the user name and password\)",
        N_(
            "the broker at {where} refused the connection: not authorised (user {user}; check the "
            "user name and password)"
        ),
    ),
    (
        r"the broker at (?P<where>\S+) refused the connection: not authorised \(an anonymous client \(no user "
        r"name\); check the user name and password\)",
        N_(
            "the broker at {where} refused the connection: not authorised (an anonymous client, with no "
            "user name; check the user name and password)"
        ),
    ),
    (
        r"the broker at (?P<where>\S+) refused the connection: (?P<reason>.+) \(user (?P<user>'.+')\)",
        N_("the broker at {where} refused the connection: {reason} (user {user})"),
    ),
    (
        r"the broker at (?P<where>\S+) refused the connection: (?P<reason>.+) \(an anonymous client \(no user "
        r"name\)\)",
        N_("the broker at {where} refused the connection: {reason} (an anonymous client, with no user name)"),
    ),
)
_COMPILED = tuple((re.compile(pattern), words) for pattern, words in _SHAPES)
MESSAGES = tuple(words for _pattern, words in _SHAPES)  # every sentence below, for a page's words
# A notice repeated while it was held back (firmware_bridge/link/status.py Notices): said apart
_REPEATED = re.compile(r"^(?P<text>.+) \((?P<n>\d+) more since the last one\)$")


def link_message(text: str) -> tuple[str, dict[str, str]]:
    """The catalogue message a link sentence is, with its values; ("{text}", {"text": ...}) for one
    of no known shape (shown as it is)."""
    for pattern, words in _COMPILED:
        match = pattern.fullmatch(text)
        if match:
            values = {k: v or "" for k, v in match.groupdict().items()}
            if "why" in values and values["why"]:
                values["why"] = f" ({values['why']})"
            return words, values
    return "{text}", {"text": text}


def link_words(text: str | None) -> str:
    """A link or broker sentence in the language in use."""
    if not text:
        return ""
    repeated = _REPEATED.match(text)
    if repeated:
        n = int(repeated["n"])
        more = ngettext("{n} more since the last one", "{n} more since the last one", n).format(n=n)
        return f"{link_words(repeated['text'])} ({more})"
    words, values = link_message(text)
    return _(words).format(**values)


# How private a broker link is (firmware_bridge/security.py's warning, from its two facts)
_UNENCRYPTED = {
    "tower": N_("not encrypted (mqtt://): anyone on the network can read and forge tower frames; use mqtts://"),
    "club": N_("not encrypted (mqtt://): anyone on the network can read and forge the tables' states; use mqtts://"),
}
_ANONYMOUS = {
    "tower": N_("anonymous (no user name): the broker cannot keep strangers off the tower's topics"),
    "club": N_("anonymous (no user name): the broker cannot keep strangers off the tables' topics"),
}


def security_words(encrypted: bool, authenticated: bool, carries: str = "tower") -> str:
    """What is wrong with a broker link's privacy, in one line ("" when nothing); `carries`:
    "tower" (tower frames) or "club" (the tables' states)."""
    problems = ([] if encrypted else [_(_UNENCRYPTED[carries])]) + ([] if authenticated else [_(_ANONYMOUS[carries])])
    return "; ".join(problems)
