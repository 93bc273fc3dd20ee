"""Typed messages of hardware/PROTOCOL.md sections 3 and 4 (protocol version 1).

Every model allows extra fields: within version 1 the device may add fields and
the host must ignore them (section 7). Integer fields are strict (a bool or a
string is not a sequence number).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

PROTOCOL_VERSION = 1
COLOURS = ("red", "yellow", "green", "blue", "black")

Colour = Literal["red", "yellow", "green", "blue", "black"]
BootId = Annotated[str, Field(pattern=r"^[0-9a-f]{8}$")]
Counts4 = Annotated[list[int], Field(min_length=4, max_length=4)]


class Message(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True, populate_by_name=True, frozen=True)

    def to_wire(self) -> dict:
        return self.model_dump(by_alias=True, exclude_none=False)


# ---- device -> host ----------------------------------------------------------

class CalSummary(Message):
    ok: bool
    colours: list[str] = []
    per: int = 0
    sep: int = 0


class Hello(Message):
    t: Literal["hello"]
    dev: str = Field(min_length=1, max_length=64)
    fw: str
    proto: int
    board: str
    boot: BootId
    boots: int = Field(ge=1)
    seq: int = Field(ge=0)
    oldest: int = Field(ge=1)
    ring: int = Field(ge=1)
    sensor: bool
    cal: CalSummary


class Drop(Message):
    t: Literal["drop"]
    boot: BootId
    seq: int = Field(ge=1)
    col: Union[Colour, Literal["uncertain"]]
    best: Optional[Colour] = None
    conf: int = Field(ge=0, le=1000)
    raw: Optional[Counts4] = None
    amb: Counts4
    tr: int
    multi: bool
    est: int = Field(ge=1)
    ms: int

    @property
    def uncertain(self) -> bool:
        return self.col == "uncertain"


class Totals(Message):
    t: Literal["totals"]
    boot: BootId
    seq: int = Field(ge=0)
    counts: dict[str, int]
    unc: int
    multi: int
    drops: int
    epoch: int
    token: str


class Heartbeat(Message):
    t: Literal["hb"]
    boot: BootId
    seq: int = Field(ge=0)
    acked: int
    up: int
    beam: int
    held: int
    lost: int
    bad: int
    glitch: int
    edge_ovf: int


class Fault(Message):
    t: Literal["fault"]
    boot: BootId
    code: str
    msg: str
    re: Optional[int] = None
    count: Optional[int] = None
    oldest: Optional[int] = None  # replay_gap
    last: Optional[int] = None  # replay_gap


class Cal(Message):
    t: Literal["cal"]
    state: str
    colour: Optional[str] = None
    got: Optional[int] = None
    need: Optional[int] = None
    msg: Optional[str] = None


class Ok(Message):
    t: Literal["ok"]
    cmd: str
    re: Optional[int] = None
    from_: Optional[int] = Field(default=None, alias="from")
    to: Optional[int] = None
    token: Optional[str] = None
    emptied: Optional[bool] = None


DeviceMessage = Annotated[Union[Hello, Drop, Totals, Heartbeat, Fault, Cal, Ok], Field(discriminator="t")]
DEVICE_TYPES = ("hello", "drop", "totals", "hb", "fault", "cal", "ok")

# ---- host -> device ----------------------------------------------------------

Id = Annotated[int, Field(ge=0, le=2**31 - 1)]


class HelloReq(Message):
    t: Literal["hello_req"] = "hello_req"
    id: Optional[Id] = None


class Ack(Message):
    t: Literal["ack"] = "ack"
    boot: BootId
    seq: int = Field(ge=0)
    id: Optional[Id] = None


class Replay(Message):
    t: Literal["replay"] = "replay"
    boot: BootId
    from_: int = Field(ge=1, alias="from")
    id: Optional[Id] = None


class TotalsReq(Message):
    t: Literal["totals_req"] = "totals_req"
    id: Optional[Id] = None


class Empty(Message):
    t: Literal["empty"] = "empty"
    token: str = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.:-]+$")
    id: Optional[Id] = None


class Calibrate(Message):
    t: Literal["calibrate"] = "calibrate"
    per: Optional[int] = Field(default=None, ge=1, le=20)
    colours: Optional[list[Colour]] = None
    cancel: Optional[bool] = None
    id: Optional[Id] = None


class Identify(Message):
    t: Literal["identify"] = "identify"
    s: Optional[int] = Field(default=None, ge=1, le=60)
    id: Optional[Id] = None


HostCommand = Annotated[Union[HelloReq, Ack, Replay, TotalsReq, Empty, Calibrate, Identify],
                        Field(discriminator="t")]
HOST_TYPES = ("hello_req", "ack", "replay", "totals_req", "empty", "calibrate", "identify")

_device = TypeAdapter(DeviceMessage)
_host = TypeAdapter(HostCommand)


class UnknownMessage(BaseModel):
    """A valid frame with a type this host does not know: ignored (section 7)."""
    model_config = ConfigDict(extra="allow")
    t: str


class MessageError(ValueError):
    """A known message type with missing or invalid fields."""


def _why(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"][1:]) or first["loc"][0]
    return f"{where}: {first['msg']}"


def _parse(obj: dict, known_types, adapter) -> Any:
    if obj.get("t") not in known_types:
        return UnknownMessage.model_validate(obj)
    try:
        return adapter.validate_python(obj)
    except ValidationError as e:
        raise MessageError(f"{obj['t']}: {_why(e)}") from None


def parse_device(obj: dict) -> Any:
    """A device frame's object as a typed message, or UnknownMessage."""
    return _parse(obj, DEVICE_TYPES, _device)


def parse_host(obj: dict) -> Any:
    """A host command's object as a typed message, or UnknownMessage."""
    return _parse(obj, HOST_TYPES, _host)


def command(msg: Message) -> dict:
    """A host command as the dict to frame, without fields left unset."""
    return {k: v for k, v in msg.model_dump(by_alias=True).items() if v is not None}
