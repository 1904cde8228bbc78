"""Line framing of the board link, protocol 1 (see docs/protocol.md).

Written in the subset MicroPython and CPython share, so the desktop simulation runs it as is.
companion/link_protocol.py is the host's copy; tests check both frame lines identically.
"""

# MicroPython subset: no contextlib, and %-formatting is the cheapest there.
# ruff: noqa: UP031, SIM105, SIM110

PROTO = 1
MAX_LINE = 2048  # bytes before the newline; longer input is dropped as garbled
STAR = 42  # ord("*")


def _make_table():
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
            c &= 0xFFFF
        table.append(c)
    return table


_TABLE = _make_table()


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    c = 0xFFFF
    t = _TABLE
    for b in data:
        c = ((c << 8) & 0xFFFF) ^ t[(c >> 8) ^ b]
    return c


def frame(body):
    """'00 EV 12 1' -> b'00 EV 12 1*ABCD\\n'. The body must be printable ASCII without '*'."""
    raw = body.encode()
    return raw + ("*%04X\n" % crc16(raw)).encode()


def unframe(line):
    """Bytes of one line (newline removed) -> the body as str, or None when garbled."""
    n = len(line)
    if n and line[n - 1] == 13:  # tolerate CRLF
        n -= 1
    if n < 6 or n > MAX_LINE or line[n - 5] != STAR:
        return None
    for i in range(n):
        b = line[i]
        if b < 32 or b > 126:
            return None
    for i in range(n - 4, n):
        b = line[i]
        if not (48 <= b <= 57 or 65 <= b <= 70 or 97 <= b <= 102):
            return None
    body = bytes(line[: n - 5])
    if body.find(b"*") >= 0:
        return None
    if crc16(body) != int(bytes(line[n - 4 : n]).decode(), 16):
        return None
    return body.decode()


class LineBuffer:
    """Collects bytes into lines; a line longer than MAX_LINE is dropped and counted."""

    def __init__(self):
        self.buf = bytearray()
        self.skipping = False
        self.overflows = 0

    def feed(self, data, count=-1):
        """Returns the complete lines (bytes, newline removed) in the first ``count`` bytes of
        ``data`` (all of it by default)."""
        out = []
        if count < 0:
            count = len(data)
        for i in range(count):
            b = data[i]
            if b == 10:
                if self.skipping:
                    self.skipping = False
                else:
                    out.append(bytes(self.buf))
                self.buf = bytearray()
            elif self.skipping:
                continue
            elif len(self.buf) >= MAX_LINE + 1:
                self.buf = bytearray()
                self.skipping = True
                self.overflows += 1
            else:
                self.buf.append(b)
        return out


def is_hex(text):
    if not text:
        return False
    for ch in text:
        if ch not in "0123456789abcdefABCDEF":
            return False
    return True


def is_uint(text, limit):
    """True for a decimal integer 0..limit written with digits only."""
    if not text or len(text) > 6:
        return False
    for ch in text:
        if ch not in "0123456789":
            return False
    return int(text) <= limit


def is_token(text):
    """An id token: 1..8 letters or digits."""
    if not text or len(text) > 8:
        return False
    for ch in text:
        if not ("0" <= ch <= "9" or "a" <= ch <= "z" or "A" <= ch <= "Z"):
            return False
    return True
