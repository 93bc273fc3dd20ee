"""What a phone may send, allow-listed: request bodies and socket frames as strict pydantic models.

Anything else is refused (Refused(400)) naming the first problem, never echoing the data back."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.phones.ordering import MAX_SEQ
from companion.phones.refusals import Refused
from companion.phones.seats import MAX_TOKEN_CHARS

Token = Annotated[str, Field(min_length=1, max_length=MAX_TOKEN_CHARS)]
AnswerSeq = Annotated[int, Field(ge=1, le=MAX_SEQ)]  # the page's number for an answer (ordering.py)


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


Language = Annotated[str, Field(max_length=20)]  # a page's language ("de"); one the app lacks reads English


class HelloIn(_In):
    type: Literal["hello"]
    credential: Token
    lang: Language | None = None  # the page's language (else the browser's Accept-Language)


class LangIn(_In):
    """The page's language switch: every word sent to this socket from now on is in `lang`."""

    type: Literal["lang"] = "lang"
    credential: Token
    lang: Language
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class PickIn(_In):
    type: Literal["pick"] = "pick"
    credential: Token
    question: Annotated[str, Field(min_length=1, max_length=200)]
    region: Annotated[str, Field(min_length=1, max_length=40)]
    seq: AnswerSeq | None = None
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class JoinIn(_In):
    code: Token
    # The credential this browser already holds, if any: "this phone already holds Ana's seat".
    # Not a Token: a page's stored value is only a hint, and a strange one must not stop the join.
    credential: Annotated[str, Field(max_length=MAX_TOKEN_CHARS)] | None = None


class SeatIn(_In):
    type: Literal["seat"] = "seat"
    credential: Token
    seat: Annotated[str, Field(min_length=1, max_length=20)]
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class LeaveIn(_In):
    type: Literal["leave"] = "leave"
    credential: Token
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class ChooseIn(_In):
    """A 2023 private answer: the values of the options the phone's question offers."""

    type: Literal["choose"] = "choose"
    credential: Token
    question: Annotated[str, Field(min_length=1, max_length=200)]
    # at most a whole hand: King and Intrigue with its modules keeps 13 Power cards by tapping them
    values: Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]], Field(min_length=1, max_length=18)]
    seq: AnswerSeq | None = None
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


FRAMES: dict[str, type[BaseModel]] = {
    "pick": PickIn,
    "choose": ChooseIn,
    "seat": SeatIn,
    "leave": LeaveIn,
    "lang": LangIn,
}


def _load(raw: bytes | str) -> dict:
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "malformed request: expected a JSON object") from None
    if not isinstance(data, dict):
        raise Refused(400, "malformed request: expected a JSON object")
    return data


def parse_frame(raw: str) -> Any:
    """A phone socket's frame: a pick (the default), a seat taken or a seat left."""
    data = _load(raw)
    kind = data.get("type", "pick")
    return _validate(FRAMES.get(kind, PickIn) if isinstance(kind, str) else PickIn, data)


def parse(model: type[BaseModel], raw: bytes | str) -> Any:
    """Malformed input -> Refused(400) naming the first problem, never echoing data back."""
    return _validate(model, _load(raw))


def _validate(model: type[BaseModel], data: dict) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False, include_input=False, include_context=False)[0]
        where = ".".join(str(x) for x in err["loc"]) or "request"
        raise Refused(400, f"malformed request ({where}: {err['msg']})") from None
    except RecursionError:
        raise Refused(400, "malformed request: nested too deeply") from None
