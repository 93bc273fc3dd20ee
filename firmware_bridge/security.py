"""How private a tower link is, for the tower bar and `elgrande listen`.

Serial is a cable on the table: nobody else can read or forge it. MQTT goes
over the network through a broker: without TLS anyone on the Wi-Fi can read
and forge frames; without a user name the broker cannot tell the tower (or
the companion) from a stranger, so its ACL cannot keep strangers off the
tower's topics (hardware/README.md, "A locked-down broker")."""

from __future__ import annotations

from pydantic import BaseModel

UNENCRYPTED = "not encrypted (mqtt://): anyone on the network can read and forge tower frames; use mqtts://"
ANONYMOUS = "anonymous (no user name): the broker cannot keep strangers off the tower's topics"


class LinkSecurity(BaseModel):
    """`warning` is one line for people, None when there is nothing to warn about."""

    encrypted: bool
    authenticated: bool
    local: bool = False  # a cable (serial, or the simulated tower in process)
    warning: str | None = None

    @property
    def ok(self) -> bool:
        return self.warning is None


LOCAL = LinkSecurity(encrypted=False, authenticated=False, local=True)


def mqtt_security(tls: bool, username: str | None) -> LinkSecurity:
    problems = ([] if tls else [UNENCRYPTED]) + ([] if username else [ANONYMOUS])
    return LinkSecurity(encrypted=tls, authenticated=bool(username), warning="; ".join(problems) if problems else None)
