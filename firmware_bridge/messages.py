"""Typed messages of hardware/PROTOCOL.md sections 3 and 4 (protocol version 1).

Every model allows extra fields: within version 1 the device may add fields and
the host must ignore them (section 7); the host never reads or re-encodes them.
Every known field is strict: an integer is an int (not a bool, a float or a
string) within the range a real tower can send, a string is a string of a
bounded length, so anything else is refused here, with the field named,
before the link acts on it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

PROTOCOL_VERSION = 1
COLOURS = ("red", "yellow", "green", "blue", "black")  # the classic box: a drop's `col`
# The colours a tower may calibrate besides (the 2023 box; the table's ids): a drop's `xcol`/`xbest`
# (PROTOCOL.md 3.2), so that a host that knows only COLOURS sees such a drop as uncertain.
ADDED_COLOURS = ("purple", "orange", "white")
TOWER_COLOURS = COLOURS + ADDED_COLOURS
MAX_CAL_COLOURS = 6  # colours one calibration may name

MAX_SEQ = 2**31 - 1  # sequence numbers and command ids: a tower makes a few thousand drops a night
MAX_INT = 2**53  # any other integer: what every JSON reader keeps exact

# Patterns, and what they mean in a refusal (pydantic would quote the regex).
BOOT_RE = r"^[0-9a-f]{8}$"
DEV_RE = r"^[\x21-\x22\x24-\x2a\x2c-\x2e\x30-\x7e]{1,64}$"  # an MQTT topic level, printable
NAME_RE = r"^[\x20-\x7e]{0,64}$"
TEXT_RE = r"^[^\x00-\x1f\x7f]{0,512}$"
PATTERN_RULES = {
    BOOT_RE: "8 lower-case hex digits",
    DEV_RE: "1 to 64 printable ASCII characters without space, /, + or #",
    NAME_RE: "up to 64 printable ASCII characters",
    TEXT_RE: "up to 512 characters, no control characters",
}

Colour = Literal["red", "yellow", "green", "blue", "black"]
AddedColour = Literal["purple", "orange", "white"]
TowerColour = Literal["red", "yellow", "green", "blue", "black", "purple", "orange", "white"]
BootId = Annotated[str, Field(pattern=BOOT_RE)]
DeviceId = Annotated[str, Field(pattern=DEV_RE)]
Seq = Annotated[int, Field(ge=0, le=MAX_SEQ)]
Count = Annotated[int, Field(ge=0, le=MAX_INT)]
Int = Annotated[int, Field(ge=-MAX_INT, le=MAX_INT)]
Name = Annotated[str, Field(pattern=NAME_RE)]  # firmware version, board, codes, tokens
Text = Annotated[str, Field(pattern=TEXT_RE)]  # a sentence for a person
Counts4 = Annotated[list[Count], Field(min_length=4, max_length=4)]


class Message(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True, populate_by_name=True, frozen=True)

    def to_wire(self) -> dict:
        return self.model_dump(by_alias=True, exclude_none=False)


# ---- device -> host ----------------------------------------------------------


class CalSummary(Message):
    ok: bool
    colours: Annotated[list[Name], Field(max_length=16)] = []
    per: Int = 0
    sep: Int = 0


class Hello(Message):
    t: Literal["hello"]
    dev: DeviceId
    fw: Name
    proto: Int
    board: Name
    boot: BootId
    boots: int = Field(ge=1, le=MAX_INT)
    seq: Seq
    oldest: int = Field(ge=1, le=MAX_SEQ)
    ring: int = Field(ge=1, le=MAX_SEQ)
    sensor: bool
    cal: CalSummary


class Drop(Message):
    t: Literal["drop"]
    boot: BootId
    seq: int = Field(ge=1, le=MAX_SEQ)
    col: Literal["red", "yellow", "green", "blue", "black", "uncertain"]
    best: Colour | None = None
    conf: int = Field(ge=0, le=1000)
    raw: Counts4 | None = None
    amb: Counts4
    tr: Count
    multi: bool
    est: int = Field(ge=1, le=MAX_INT)
    ms: Count
    xcol: AddedColour | None = None  # an added colour, named with confidence (col is then uncertain)
    xbest: AddedColour | None = None  # an added colour as the nearest (best is then null)

    @model_validator(mode="after")
    def _added_colours(self) -> Drop:
        if self.xcol is not None and self.col != "uncertain":
            raise ValueError(f"xcol {self.xcol!r} comes with col 'uncertain', not {self.col!r}")
        if self.xbest is not None and self.best is not None:
            raise ValueError(f"xbest {self.xbest!r} comes with best null, not {self.best!r}")
        return self

    @property
    def colour(self) -> str | None:
        """The colour named with confidence, classic or added; None when uncertain."""
        return self.xcol or (None if self.col == "uncertain" else self.col)

    @property
    def nearest(self) -> str | None:
        return self.xbest or self.best

    @property
    def uncertain(self) -> bool:
        return self.colour is None


class Totals(Message):
    t: Literal["totals"]
    boot: BootId
    seq: Seq
    counts: Annotated[dict[Name, Count], Field(max_length=16)]
    unc: Count
    multi: Count
    drops: Count
    epoch: Count
    token: Name


class Heartbeat(Message):
    t: Literal["hb"]
    boot: BootId
    seq: Seq
    acked: Seq
    up: Count
    beam: Count
    held: Count
    lost: Count
    bad: Count
    glitch: Count
    edge_ovf: Count


class Fault(Message):
    t: Literal["fault"]
    boot: BootId
    code: Name
    msg: Text
    re: Int | None = None
    count: Count | None = None
    oldest: int | None = Field(default=None, ge=1, le=MAX_SEQ)  # replay_gap
    last: Seq | None = None  # replay_gap


class Cal(Message):
    t: Literal["cal"]
    state: Name
    colour: Name | None = None
    got: Count | None = None
    need: Count | None = None
    msg: Text | None = None
    colours: Annotated[list[Name], Field(max_length=16)] | None = None  # done
    sep: Int | None = None  # done
    near: Name | None = None  # learnt: the colour lying closest to the one just learnt
    dist: Int | None = None  # learnt: ten times that distance, in spreads
    warn: bool | None = None  # done


class Ok(Message):
    t: Literal["ok"]
    cmd: Name
    re: Int | None = None
    from_: Seq | None = Field(default=None, alias="from")
    to: Seq | None = None
    token: Name | None = None
    emptied: bool | None = None


# The messages that name a boot in a field of their own (ok and cal frames carry none:
# a "boot" among their extra fields is nobody's boot id).
WITH_BOOT = (Drop, Totals, Heartbeat, Fault)


DeviceMessage = Annotated[Hello | Drop | Totals | Heartbeat | Fault | Cal | Ok, Field(discriminator="t")]
DEVICE_TYPES = ("hello", "drop", "totals", "hb", "fault", "cal", "ok")

# ---- host -> device ----------------------------------------------------------

Id = Annotated[int, Field(ge=0, le=2**31 - 1)]


class HelloReq(Message):
    t: Literal["hello_req"] = "hello_req"
    id: Id | None = None


class Ack(Message):
    t: Literal["ack"] = "ack"
    boot: BootId
    seq: int = Field(ge=0)
    id: Id | None = None


class Replay(Message):
    t: Literal["replay"] = "replay"
    boot: BootId
    from_: int = Field(ge=1, alias="from")
    id: Id | None = None


class TotalsReq(Message):
    t: Literal["totals_req"] = "totals_req"
    id: Id | None = None


class Empty(Message):
    t: Literal["empty"] = "empty"
    token: str = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.:-]+$")
    id: Id | None = None


class Calibrate(Message):
    t: Literal["calibrate"] = "calibrate"
    per: int | None = Field(default=None, ge=1, le=20)
    colours: Annotated[list[TowerColour], Field(min_length=1, max_length=MAX_CAL_COLOURS)] | None = None
    # Colours calibrated now that stay as they are (firmware 1.2; an older tower ignores it).
    keep: Annotated[list[TowerColour], Field(max_length=MAX_CAL_COLOURS - 1)] | None = None
    cancel: bool | None = None
    id: Id | None = None

    @model_validator(mode="after")
    def _distinct(self) -> Calibrate:
        if self.colours is not None and len(set(self.colours)) != len(self.colours):
            raise ValueError(f"colours must be distinct: {', '.join(self.colours)}")
        if self.keep:
            if not self.colours or set(self.keep) & set(self.colours) or len(set(self.keep)) != len(self.keep):
                raise ValueError(f"keep ({', '.join(self.keep)}) must be distinct colours not among those taught")
            if len(self.keep) + len(self.colours) > MAX_CAL_COLOURS:
                raise ValueError(f"keep and colours: at most {MAX_CAL_COLOURS} colours in all")
        return self


class Identify(Message):
    t: Literal["identify"] = "identify"
    s: int | None = Field(default=None, ge=1, le=60)
    id: Id | None = None


HostCommand = Annotated[HelloReq | Ack | Replay | TotalsReq | Empty | Calibrate | Identify, Field(discriminator="t")]
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
    if first["type"] == "value_error" and len(first["loc"]) <= 1:  # a rule across fields (model_validator)
        return first["msg"].removeprefix("Value error, ")
    where = ".".join(str(p) for p in first["loc"][1:]) or str(first["loc"][0])
    if len(where) > 60:
        where = where[:57] + "..."
    rule = PATTERN_RULES.get((first.get("ctx") or {}).get("pattern"))
    if rule is None and first["type"].startswith("int") and isinstance(first.get("input"), float):
        rule = "an integer (PROTOCOL.md section 1: floats are not used on the wire)"
    return f"{where}: " + (f"should be {rule}" if rule else first["msg"])


def _parse(obj: dict, known_types, adapter) -> Any:
    if not isinstance(obj, dict) or not isinstance(obj.get("t"), str):
        raise MessageError("not an object with a string field t")
    if obj["t"] not in known_types:
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
