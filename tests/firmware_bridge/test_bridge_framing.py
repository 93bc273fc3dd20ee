"""Framing: the checksum, the worked example, and a parser that survives anything."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import framing
from firmware_bridge.framing import FrameError, LineSplitter, Rejected
from firmware_bridge.messages import parse_device, parse_host

PROTOCOL = Path(__file__).resolve().parents[2] / "hardware" / "PROTOCOL.md"
CODES = {"bad_frame", "bad_checksum", "line_too_long"}


def protocol_examples():
    # every line of a fenced block that starts with "{": the document's example frames
    lines, fenced = [], False
    for line in PROTOCOL.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif fenced and line.startswith("{"):
            lines.append(line)
    return lines


def test_crc_check_value_and_worked_example():
    assert framing.crc16(b"123456789") == 0x29B1
    assert framing.encode({"t": "totals_req"}) == b'{"t":"totals_req"}*69FC'


def test_the_device_spelling_t_first_then_sorted_keys():
    frame = framing.encode({"seq": 17, "boot": "3f9a12c0", "t": "ack"})
    assert frame == b'{"t":"ack","boot":"3f9a12c0","seq":17}*4056'
    with pytest.raises(ValueError):
        framing.encode({"t": "x", "v": 0.5})


@pytest.mark.parametrize("line", protocol_examples())
def test_every_example_frame_of_protocol_md_decodes_and_parses(line):
    obj = framing.decode(line.encode())
    parsed = (
        parse_device(obj) if obj["t"] in ("hello", "drop", "totals", "hb", "fault", "cal", "ok") else parse_host(obj)
    )
    assert parsed.t == obj["t"]
    assert framing.encode(obj) == line.encode()  # and we spell it exactly as the device does


def test_the_examples_cover_every_message_type():
    types = {json.loads(line[: line.rindex("*")])["t"] for line in protocol_examples()}
    assert types >= {
        "hello",
        "drop",
        "totals",
        "hb",
        "fault",
        "cal",
        "ok",
        "hello_req",
        "ack",
        "replay",
        "totals_req",
        "empty",
        "calibrate",
        "identify",
    }


@pytest.mark.parametrize(
    "line,code",
    [
        (b'{"t":"totals_req"}*0000', "bad_checksum"),
        (b'{"t":"totals_req"}*69fc', None),  # lower case is accepted
        (b'{"t":"totals_req"}*69FC\r', None),
        (b'{"t":"totals_req"}69FC', "bad_frame"),
        (b'{"t":"totals_req"}*69F', "bad_frame"),
        (b'{"t":"totals_req"}*+9FC', "bad_frame"),
        (b"hello world", "bad_frame"),
        (b"[1,2]*" + b"%04X" % framing.crc16(b"[1,2]"), "bad_frame"),
        (b'{"x":1}*' + b"%04X" % framing.crc16(b'{"x":1}'), "bad_frame"),
        (b'{"t":1}*' + b"%04X" % framing.crc16(b'{"t":1}'), "bad_frame"),
        (b'{"t":"a",}*' + b"%04X" % framing.crc16(b'{"t":"a",}'), "bad_frame"),
        (b'{"t":"' + b"x" * 600 + b'"}*0000', "line_too_long"),
        (b'\xff\xfe{"t":"a"}*0000', "bad_frame"),
    ],
)
def test_decode_rejects_with_the_device_fault_code(line, code):
    if code is None:
        assert framing.decode(line) == {"t": "totals_req"}
    else:
        with pytest.raises(FrameError) as e:
            framing.decode(line)
        assert e.value.code == code and e.value.reason


def test_splitter_split_merged_garbage_blank_and_oversized():
    a, b = framing.encode({"t": "hello_req"}), framing.encode({"t": "totals_req"})
    s = LineSplitter()
    out = []
    stream = b"\x00garbage\n" + a + b"\n\n\r\n" + b + b"\n" + b"y" * 2000 + b"\n" + a + b"\r\n"
    for i in range(0, len(stream), 7):  # arrives in pieces of 7 bytes
        out += s.feed(stream[i : i + 7])
    frames = [o for o in out if isinstance(o, dict)]
    assert frames == [{"t": "hello_req"}, {"t": "totals_req"}, {"t": "hello_req"}]
    assert [o.code for o in out if isinstance(o, Rejected)] == ["bad_frame", "line_too_long"]
    assert s.rejected == {"bad_frame": 1, "line_too_long": 1}
    assert s.feed(a[:10]) == [] and s.feed(a[10:] + b"\n") == [{"t": "hello_req"}]


def test_splitter_oversized_line_is_reported_once_and_spares_the_next():
    s = LineSplitter()
    out = []
    for _ in range(10):
        out += s.feed(b"z" * 300)
    out += s.feed(b"\n" + framing.encode({"t": "ok", "cmd": "x"}) + b"\n")
    assert [o.code for o in out if isinstance(o, Rejected)] == ["line_too_long"]
    assert out[-1] == {"t": "ok", "cmd": "x"}


VALID = [
    framing.encode(m)
    for m in (
        {"t": "hello_req", "id": 1},
        {"t": "ack", "boot": "3f9a12c0", "seq": 17},
        {
            "t": "drop",
            "boot": "3f9a12c0",
            "seq": 3,
            "col": "red",
            "best": "red",
            "conf": 1000,
            "raw": [1, 2, 3, 4],
            "amb": [0, 0, 0, 0],
            "tr": 6000,
            "multi": False,
            "est": 1,
            "ms": 5,
        },
    )
]


def _check_output(out):
    for item in out:
        if isinstance(item, Rejected):
            assert item.code in CODES and item.reason
        else:
            assert isinstance(item, dict) and isinstance(item["t"], str)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=700), max_size=8))
def test_fuzz_random_bytes_never_break_the_parser(chunks):
    s = LineSplitter()
    out = []
    for c in chunks:
        out += s.feed(c)
    _check_output(out)
    # and the next good frame still comes through
    assert s.feed(b"\n" + VALID[0] + b"\n")[-1] == {"t": "hello_req", "id": 1}


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(VALID),
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), min_size=1, max_size=4),
    st.integers(1, 50),
)
def test_fuzz_mutated_frames_are_rejected_or_intact(frame, mutations, cut):
    mutated = bytearray(frame)
    for pos, byte in mutations:
        mutated[pos % len(mutated)] = byte
    s = LineSplitter()
    out = []
    data = bytes(mutated) + b"\n"
    for i in range(0, len(data), cut):
        out += s.feed(data[i : i + cut])
    _check_output(out)
    originals = [framing.decode(v) for v in VALID]
    if len(mutations) == 1 and b"\n" not in mutated and bytes(mutated) != frame:
        # one changed byte: CRC-16 catches every such error
        assert not [o for o in out if isinstance(o, dict) and o not in originals]
    for o in out:
        if isinstance(o, dict):
            try:
                parse_device(o)
            except ValueError:
                pass  # a MessageError is the link's to count; nothing else may escape


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(VALID), min_size=1, max_size=6), st.lists(st.integers(1, 40), min_size=1))
def test_fuzz_any_split_of_good_frames_gives_them_back_in_order(frames, cuts):
    data = b"".join(f + b"\n" for f in frames)
    s = LineSplitter()
    out, i, k = [], 0, 0
    while i < len(data):
        n = cuts[k % len(cuts)]
        out += s.feed(data[i : i + n])
        i, k = i + n, k + 1
    assert out == [framing.decode(f) for f in frames]


def test_protocol_examples_found():
    assert len(protocol_examples()) >= 25
    assert all(re.search(r"\*[0-9A-F]{4}$", line) for line in protocol_examples())
