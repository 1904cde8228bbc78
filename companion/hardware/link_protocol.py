"""The board link's line protocol, host side (protocol 1; the spec is docs/protocol.md).

Every line is ``BODY*CRC\\n``: printable ASCII, then a CRC-16/CCITT-FALSE of BODY in four hex
digits. Board lines start with a two-hex-digit sequence number. The firmware has its own copy of
the framing in firmware/boardfw/proto.py (MicroPython); tests check that both agree.

Nothing here raises on bad input: ``parse_board_line`` returns None for a garbled line and an
``Unknown`` message for a well-framed line it does not understand.
"""

from __future__ import annotations

import binascii
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

PROTO = 1
MAX_LINE = 2048
SEQ_MOD = 256
VALUE_CHARS = {"switch": "01", "presence": "01", "polarity": "xo."}
_HEX = frozenset("0123456789abcdefABCDEF")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor. That is
    binascii's CRC-CCITT started at 0xFFFF (the firmware, without binascii, uses a table)."""
    return binascii.crc_hqx(data, 0xFFFF)


def frame(body: str) -> bytes:
    """'PING' -> b'PING*XXXX\\n'. Raises ValueError for a body that cannot be framed."""
    raw = body.encode("ascii")
    if any(b < 32 or b > 126 for b in raw) or b"*" in raw:
        raise ValueError("a line body is printable ASCII without '*'")
    return raw + b"*%04X\n" % crc16(raw)


def unframe(line: bytes) -> str | None:
    """One line (newline removed, CR tolerated) -> its body, or None if garbled or corrupt."""
    if line.endswith(b"\r"):
        line = line[:-1]
    n = len(line)
    if n < 6 or n > MAX_LINE or line[-5] != 0x2A:
        return None
    if any(b < 32 or b > 126 for b in line):
        return None
    body, crc = line[:-5], line[-4:].decode("ascii")
    if b"*" in body or not set(crc) <= _HEX:
        return None
    if crc16(body) != int(crc, 16):
        return None
    return body.decode("ascii")


class LineSplitter:
    """Bytes in, complete lines out. Over-long lines are dropped and counted in ``overflows``."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._buf = bytearray()
        self._skipping = False
        self._max = max_line
        self.overflows = 0

    def feed(self, data: bytes) -> list[bytes]:
        out: list[bytes] = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            chunk = data[start:] if nl < 0 else data[start:nl]
            if not self._skipping:
                self._buf += chunk
                if len(self._buf) > self._max + 1:
                    self._buf.clear()
                    self._skipping = True
                    self.overflows += 1
            if nl < 0:
                return out
            if not self._skipping:
                out.append(bytes(self._buf))
            self._buf.clear()
            self._skipping = False
            start = nl + 1


# -- board -> host messages -------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    seq: int
    proto: int
    fw: str
    size: int
    kind: str
    fields: dict[str, str]


@dataclass(frozen=True)
class Snapshot:
    seq: int
    values: str  # one character per square, a1 first


@dataclass(frozen=True)
class Change:
    seq: int
    square: int
    value: str


@dataclass(frozen=True)
class Ack:
    seq: int
    id: str


@dataclass(frozen=True)
class Pong:
    seq: int


@dataclass(frozen=True)
class BoardError:
    seq: int
    code: str
    detail: str
    count: int = 1  # "ERR crc x999": 999 more of the same since its last line (coalesced)


@dataclass(frozen=True)
class Safe:
    """The board stopped scanning after repeated errors and says why (``SAFE text``)."""

    seq: int
    reason: str


@dataclass(frozen=True)
class Stat:
    seq: int
    fields: dict[str, str]


@dataclass(frozen=True)
class Unknown:
    """A line with a good checksum that this host does not understand (newer board?)."""

    seq: int
    type: str
    args: tuple[str, ...]


BoardMessage = Hello | Snapshot | Change | Ack | Pong | BoardError | Safe | Stat | Unknown


def _fields(args: Iterable[str]) -> dict[str, str]:
    out = {}
    for a in args:
        key, eq, val = a.partition("=")
        if eq and key:
            out[key] = val
    return out


def _uint(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


def _parse(seq: int, kind: str, args: list[str]) -> BoardMessage:
    unknown = Unknown(seq, kind, tuple(args))
    if kind == "HELLO":
        f = _fields(args)
        proto, size = _uint(f.get("proto", "")), _uint(f.get("size", ""))
        if proto is None or size is None or f.get("kind") not in VALUE_CHARS:
            return unknown
        return Hello(seq, proto, f.get("fw", "?"), size, f["kind"], f)
    if kind == "SNAP":
        if len(args) != 1 or not args[0] or set(args[0]) - set("01xo."):
            return unknown
        return Snapshot(seq, args[0])
    if kind == "EV":
        square = _uint(args[0]) if len(args) == 2 else None
        if square is None or len(args[1]) != 1 or args[1] not in "01xo.":
            return unknown
        return Change(seq, square, args[1])
    if kind == "ACK" and len(args) == 1:
        return Ack(seq, args[0])
    if kind == "PONG":
        return Pong(seq)
    if kind == "ERR" and args:
        more = args[1] if len(args) > 1 else ""
        if more[:1] == "x" and _uint(more[1:]):  # repeats counted: "ERR args x3 DEBOUNCE"
            return BoardError(seq, args[0], " ".join(args[2:]), int(more[1:]))
        return BoardError(seq, args[0], " ".join(args[1:]))
    if kind == "SAFE":
        return Safe(seq, " ".join(args))
    if kind == "STAT":
        return Stat(seq, _fields(args))
    return unknown


def parse_board_line(line: bytes) -> BoardMessage | None:
    """A line from the board (newline removed) -> a message, or None when garbled or corrupt."""
    body = unframe(line)
    if body is None:
        return None
    parts = body.split(" ")
    if len(parts) < 2 or len(parts[0]) != 2 or not set(parts[0]) <= _HEX or not parts[1]:
        return None
    return _parse(int(parts[0], 16), parts[1], parts[2:])


def board_line(seq: int, body: str) -> bytes:
    """How a board frames ``body`` with sequence number ``seq`` (used by tests and tools)."""
    return frame(f"{seq % SEQ_MOD:02x} {body}")


# -- host -> board commands -------------------------------------------------------------------

RGB = tuple[int, int, int]


def rgb_hex(rgb: RGB) -> str:
    r, g, b = (max(0, min(255, int(v))) for v in rgb)
    return f"{r:02x}{g:02x}{b:02x}"


# the commands without arguments, framed once
CMD_HELLO = frame("HELLO")
CMD_SNAPSHOT = frame("SNAP")
CMD_PING = frame("PING")
CMD_STAT = frame("STAT")
CMD_MAINTENANCE = frame("MAINT")


def cmd_resend(first_seq: int) -> bytes:
    return frame(f"RESEND {first_seq % SEQ_MOD:02x}")


def cmd_leds_full(ident: str, frame_rgb: Sequence[RGB]) -> bytes:
    return frame(f"LEDS {ident} " + "".join(rgb_hex(c) for c in frame_rgb))


def cmd_leds_delta(ident: str, changes: Iterable[tuple[int, RGB]]) -> bytes:
    items = " ".join(f"{sq}:{rgb_hex(c)}" for sq, c in changes)
    return frame(f"LEDD {ident} {items}".rstrip())


def cmd_brightness(ident: str, level: int) -> bytes:
    return frame(f"BRIGHT {ident} {max(0, min(255, int(level)))}")


def cmd_debounce(ident: str, ms: int) -> bytes:
    return frame(f"DEBOUNCE {ident} {max(1, min(1000, int(ms)))}")
