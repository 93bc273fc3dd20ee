# Castillo tower wire protocol, version 1: framing and checksums.
# A frame is one line: <compact JSON object>*<CRC-16/CCITT-FALSE as 4 upper-case hex>.
# Shared by the serial and the MQTT link; see hardware/PROTOCOL.md.
import json

PROTOCOL_VERSION = 1
MAX_LINE = 512  # bytes per frame, checksum included, newline excluded


class FrameError(Exception):
    # code is one of the fault codes of PROTOCOL.md ("bad_frame", "bad_checksum", ...).
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


def crc16(data, crc=0xFFFF):
    # CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor.
    # Same value as CPython's binascii.crc_hqx(data, 0xFFFF).
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def _dump(value, parts):
    # Compact JSON with "t" first and the other keys sorted, so that a frame has
    # one spelling on CPython and on MicroPython (whose dicts are unordered).
    if isinstance(value, dict):
        keys = sorted(value)
        if "t" in value:
            keys.remove("t")
            keys.insert(0, "t")
        parts.append("{")
        first = True
        for key in keys:
            if not first:
                parts.append(",")
            first = False
            parts.append(json.dumps(str(key)))
            parts.append(":")
            _dump(value[key], parts)
        parts.append("}")
    elif isinstance(value, (list, tuple)):
        parts.append("[")
        for i, item in enumerate(value):
            if i:
                parts.append(",")
            _dump(item, parts)
        parts.append("]")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif value is None:
        parts.append("null")
    elif isinstance(value, float):
        raise ValueError("floats are not used on the wire; scale to an int")
    else:
        parts.append(json.dumps(value))


def dumps(obj):
    parts = []
    _dump(obj, parts)
    return "".join(parts)


def encode(obj):
    # Returns the frame as a str without the trailing newline.
    body = dumps(obj)
    return f"{body}*{crc16(body.encode()):04X}"


def decode(line):
    # line: str or bytes, without newline (a trailing "\r" is tolerated).
    # Returns the message dict or raises FrameError; never acts on a bad frame.
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode()
        except Exception:
            # `from None`: MicroPython prints a warning (on the serial link) for any other cause
            raise FrameError("bad_frame", "frame is not UTF-8 text") from None
    if line.endswith("\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise FrameError("line_too_long", f"frame longer than {MAX_LINE} bytes")
    star = line.rfind("*")
    if not line.startswith("{") or star < 0 or len(line) - star != 5:
        raise FrameError("bad_frame", "expected {json}*XXXX")
    body, check = line[:star], line[star + 1 :]
    try:
        expected = int(check, 16)
    except ValueError:
        raise FrameError("bad_frame", "checksum is not 4 hex digits") from None
    actual = crc16(body.encode())
    if actual != expected:
        raise FrameError("bad_checksum", f"checksum {check}, computed {actual:04X}")
    try:
        obj = json.loads(body)
    except ValueError:
        raise FrameError("bad_frame", "body is not valid JSON") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("t"), str):
        raise FrameError("bad_frame", "body must be an object with a string field t")
    return obj
