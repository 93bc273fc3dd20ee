"""The new-game screen's club settings (TableSetup.club), like the tower's MQTT settings."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.club.topics import check_name
from companion.words import _
from firmware_bridge.transport_mqtt import parse_broker_url


class ClubConfig(BaseModel):
    """A club broker the table publishes its public state to. `table_id` defaults to the user
    name: the shipped ACL lets a table write only the topics under its own user name."""

    model_config = ConfigDict(extra="forbid")

    broker: str  # mqtts://host:port (TLS) or mqtt://host:port
    club: str = "club"
    table_id: str | None = None
    username: str | None = None
    password: str | None = Field(default=None, repr=False)
    ca_file: str | None = None  # mqtts: the CA that signed the broker's certificate

    @model_validator(mode="after")
    def _check(self) -> ClubConfig:
        check_name(self.club, "club name")
        if not (self.table_id or self.username):  # mqtts://table-1:password@host: the user in the address
            try:
                self.username = parse_broker_url(self.broker).user
            except ValueError as exc:
                raise ValueError(_("club broker: {reason}").format(reason=exc)) from None
        if not (self.table_id or self.username):
            raise ValueError(_("a club table needs its table id (or a user name, which is then its id)"))
        check_name(self.table, "table id")
        return self

    @property
    def table(self) -> str:
        return self.table_id or self.username or ""
