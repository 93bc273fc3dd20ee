"""Typed messages: strict where it matters, tolerant of what version 1 may add."""

import pytest

from firmware_bridge.messages import (
    Ack,
    Drop,
    Hello,
    MessageError,
    Replay,
    UnknownMessage,
    command,
    parse_device,
    parse_host,
)

DROP = {
    "t": "drop",
    "boot": "3f9a12c0",
    "seq": 17,
    "col": "red",
    "best": "red",
    "conf": 1000,
    "raw": [313, 78, 69, 486],
    "amb": [6, 6, 5, 17],
    "tr": 6010,
    "multi": False,
    "est": 1,
    "ms": 26443,
}


def test_drop_parses_and_keeps_unknown_fields():
    d = parse_device({**DROP, "lux": 12})
    assert isinstance(d, Drop) and d.seq == 17 and not d.uncertain
    assert d.model_extra == {"lux": 12}


@pytest.mark.parametrize(
    "change",
    [{"seq": "17"}, {"seq": True}, {"seq": 0}, {"col": "purple"}, {"boot": "XYZ"}, {"conf": 1001}, {"raw": [1, 2, 3]}],
)
def test_bad_fields_are_refused_with_the_field_named(change):
    with pytest.raises(MessageError) as e:
        parse_device({**DROP, **change})
    assert str(e.value).startswith("drop: ")


def test_missing_field():
    bad = dict(DROP)
    del bad["seq"]
    with pytest.raises(MessageError, match="seq"):
        parse_device(bad)


def test_unknown_types_are_not_errors():
    assert isinstance(parse_device({"t": "weather", "rain": 1}), UnknownMessage)
    assert isinstance(parse_host({"t": "self_destruct"}), UnknownMessage)


def test_commands_serialise_with_wire_names():
    assert command(Replay(boot="3f9a12c0", from_=18, id=2)) == {"t": "replay", "boot": "3f9a12c0", "from": 18, "id": 2}
    assert command(Ack(boot="3f9a12c0", seq=3)) == {"t": "ack", "boot": "3f9a12c0", "seq": 3}
    assert parse_host({"t": "replay", "boot": "3f9a12c0", "from": 18}).from_ == 18


def test_hello_future_protocol_still_parses_so_it_can_be_refused_clearly():
    h = parse_device(
        {
            "t": "hello",
            "board": "pico_w",
            "boot": "3f9a12c0",
            "boots": 1,
            "cal": {"ok": False, "colours": [], "per": 0, "sep": 0},
            "dev": "castillo-a1b2c3",
            "fw": "2.0.0",
            "oldest": 1,
            "proto": 2,
            "ring": 256,
            "sensor": True,
            "seq": 0,
        }
    )
    assert isinstance(h, Hello) and h.proto == 2
