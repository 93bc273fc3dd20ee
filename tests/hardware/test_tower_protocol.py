"""Framing and checksums: the firmware's encoder on MicroPython against an
independent CPython implementation, and every example in PROTOCOL.md."""

import binascii
import json
import re
import subprocess
from pathlib import Path

import towersim

FIRMWARE = Path(towersim.HARDWARE) / "firmware"
PROTOCOL_MD = Path(towersim.HARDWARE) / "PROTOCOL.md"


def mp_eval(micropython, code):
    out = subprocess.run(
        [micropython, "-c", f"import sys; sys.path.insert(0, {str(FIRMWARE)!r})\n{code}"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()


def test_crc_matches_cpython_crc_hqx_and_the_catalogue_check_value(micropython):
    lines = mp_eval(
        micropython,
        "import protocol\nprint(protocol.crc16(b'123456789'))\nprint(protocol.crc16(b'{\"t\":\"totals_req\"}'))",
    )
    assert int(lines[0]) == 0x29B1  # CRC-16/CCITT-FALSE check value
    assert int(lines[1]) == binascii.crc_hqx(b'{"t":"totals_req"}', 0xFFFF)


def test_firmware_frames_decode_on_cpython(micropython):
    lines = mp_eval(
        micropython,
        "import protocol\n"
        "print(protocol.encode("
        "{'t': 'drop', 'seq': 7, 'raw': [1, 2, 3, 4], 'col': 'red', 'multi': False, 'best': None}"
        "))",
    )
    frame = towersim.decode_frame(lines[0])
    assert frame == {"t": "drop", "seq": 7, "raw": [1, 2, 3, 4], "col": "red", "multi": False, "best": None}
    assert lines[0].startswith('{"t":"drop",')


def test_decoder_rejects_bad_frames_with_the_documented_codes(micropython):
    body = '{"t":"totals_req"}'

    def with_crc(text):
        return f"{text}*{binascii.crc_hqx(text.encode(), 0xFFFF):04X}"

    crc = with_crc(body).rpartition("*")[2]
    cases = {
        "garbage": "bad_frame",
        body + "*" + ("0000" if crc != "0000" else "FFFF"): "bad_checksum",
        with_crc('{"t":1}'): "bad_frame",
        with_crc("[1,2]"): "bad_frame",
        "{" + "x" * 600 + "}*0000": "line_too_long",
        body + "*" + crc: "ok",
    }
    code = (
        f"import protocol\nfor line in {list(cases)!r}:\n"
        "    try:\n        protocol.decode(line); print('ok')\n"
        "    except protocol.FrameError as e:\n        print(e.code)\n"
    )
    assert mp_eval(micropython, code) == list(cases.values())


def example_frames():
    text = PROTOCOL_MD.read_text()
    return re.findall(r"^(\{.*\}\*[0-9A-F]{4})$", text, flags=re.M)


def test_every_example_frame_in_protocol_md_has_a_valid_checksum():
    frames = example_frames()
    assert len(frames) >= 20, "PROTOCOL.md should show an example of every message"
    types = set()
    for line in frames:
        types.add(towersim.decode_frame(line)["t"])
    expected = {
        "hello",
        "drop",
        "totals",
        "hb",
        "fault",
        "cal",
        "ok",
        "ack",
        "replay",
        "totals_req",
        "hello_req",
        "empty",
        "calibrate",
        "identify",
    }
    assert expected <= types, f"no example for: {sorted(expected - types)}"


def test_example_frames_are_what_the_firmware_would_write(micropython):
    # Same bytes from the firmware's encoder: one spelling per message.
    frames = example_frames()
    bodies = [json.loads(f.rpartition("*")[0]) for f in frames]
    code = f"import protocol, json\nfor o in json.loads({json.dumps(bodies)!r}):\n    print(protocol.encode(o))"
    assert mp_eval(micropython, code) == frames
