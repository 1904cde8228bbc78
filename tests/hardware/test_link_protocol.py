"""The line protocol: framing, checksums, parsing; host and firmware copies agree; fuzzing."""

import binascii
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware import link_protocol as lp
from companion.hardware.simulated.pico_firmware import load_firmware

load_firmware()
proto = sys.modules["boardfw.proto"]

bodies = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126, blacklist_characters="*"),
    min_size=1,
    max_size=200,
)


def test_crc_is_ccitt_false():
    assert lp.crc16(b"123456789") == 0x29B1  # the published check value
    assert proto.crc16(b"123456789") == 0x29B1


def test_a_board_line_parses_into_its_message():
    line = lp.board_line(5, "EV 28 1")
    assert line.endswith(b"\n")
    assert lp.parse_board_line(line[:-1]) == lp.Change(5, 28, "1")
    hello = lp.parse_board_line(lp.board_line(0, "HELLO proto=1 fw=1.2 size=8 kind=polarity")[:-1])
    assert isinstance(hello, lp.Hello)
    assert (hello.proto, hello.fw, hello.size, hello.kind) == (1, "1.2", 8, "polarity")
    assert lp.parse_board_line(lp.board_line(7, "SNAP " + "0" * 64)[:-1]) == lp.Snapshot(
        7, "0" * 64
    )
    assert lp.parse_board_line(lp.board_line(8, "ACK 12")[:-1]) == lp.Ack(8, "12")
    assert lp.parse_board_line(lp.board_line(9, "ERR crc")[:-1]) == lp.BoardError(9, "crc", "")


def test_crlf_is_tolerated_and_any_damage_is_rejected():
    line = lp.board_line(1, "EV 3 0")[:-1]
    assert lp.parse_board_line(line + b"\r") == lp.Change(1, 3, "0")
    for i in range(len(line)):
        damaged = line[:i] + bytes([line[i] ^ 0x01]) + line[i + 1 :]
        assert lp.parse_board_line(damaged) is None, damaged
    assert lp.parse_board_line(line[:-1]) is None  # truncated


def test_well_framed_but_unknown_or_malformed_lines_are_unknown_not_errors():
    assert lp.parse_board_line(lp.board_line(3, "FOO bar")[:-1]) == lp.Unknown(3, "FOO", ("bar",))
    # bad square, bad value, bad snapshot characters: still framed, so still sequenced
    for body in ("EV x 1", "EV 3 7", "SNAP 01z", "HELLO size=8"):
        assert isinstance(lp.parse_board_line(lp.board_line(4, body)[:-1]), lp.Unknown), body


def test_host_commands_are_framed():
    assert lp.unframe(lp.CMD_PING[:-1]) == "PING"
    assert lp.unframe(lp.cmd_resend(0x1FF)[:-1]) == "RESEND ff"
    frame = [(255, 0, 0)] + [(0, 0, 0)] * 63
    full = lp.unframe(lp.cmd_leds_full("7", frame)[:-1])
    assert full == "LEDS 7 ff0000" + "000000" * 63
    delta = lp.unframe(lp.cmd_leds_delta("8", [(3, (1, 2, 300))])[:-1])
    assert delta == "LEDD 8 3:0102ff"  # clamped to 0..255
    assert lp.unframe(lp.cmd_brightness("9", -5)[:-1]) == "BRIGHT 9 0"


def test_line_splitter_drops_overlong_lines_and_keeps_going():
    s = lp.LineSplitter(max_line=10)
    assert s.feed(b"abc\nde") == [b"abc"]
    assert s.feed(b"f\n" + b"x" * 50) == [b"def"]
    assert s.feed(b"yyy\nok\n") == [b"ok"]
    assert s.overflows == 1


@settings(max_examples=150, deadline=None)
@given(bodies)
def test_host_and_firmware_frame_identically_and_round_trip(body):
    framed = lp.frame(body)
    assert framed == proto.frame(body)
    assert lp.unframe(framed[:-1]) == body
    assert proto.unframe(framed[:-1]) == body


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_never_raise_out_of_either_parser(data):
    host = lp.LineSplitter()
    fw = proto.LineBuffer()
    for line in host.feed(data):
        lp.parse_board_line(line)
        assert lp.unframe(line) == proto.unframe(line)
    for line in fw.feed(data):
        proto.unframe(line)
    lp.parse_board_line(data)
    proto.unframe(data)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 255), st.sampled_from(["EV", "SNAP", "HELLO", "ACK", "ERR", "X"]), bodies)
def test_any_framed_board_line_parses_to_a_message(seq, kind, rest):
    msg = lp.parse_board_line(lp.board_line(seq, f"{kind} {rest}")[:-1])
    assert msg is not None and msg.seq == seq


def test_coalesced_errors_carry_their_count_and_older_lines_still_parse():
    def parse(body: str):
        return lp.parse_board_line(lp.board_line(7, body)[:-1])

    assert parse("ERR crc x999") == lp.BoardError(7, "crc", "", 999)
    assert parse("ERR args x3 DEBOUNCE") == lp.BoardError(7, "args", "DEBOUNCE", 3)
    assert parse("ERR internal x49 OSError(5,)") == lp.BoardError(7, "internal", "OSError(5,)", 49)
    # what boards sent before: one error per line, count 1
    assert parse("ERR crc") == lp.BoardError(7, "crc", "", 1)
    assert parse("ERR resend 04") == lp.BoardError(7, "resend", "04", 1)
    assert parse("ERR wdt restarted by watchdog").detail == "restarted by watchdog"


def test_a_safe_line_says_why_the_board_stopped():
    line = lp.board_line(3, "SAFE 5 failures: OSError(5,)")[:-1]
    assert lp.parse_board_line(line) == lp.Safe(3, "5 failures: OSError(5,)")


def _crc_ccitt_false(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def test_the_host_crc_is_binascii_crc_hqx():
    from companion.hardware import link_protocol as lp

    assert not hasattr(lp, "_TABLE") and not hasattr(lp, "_make_table")
    assert lp.crc16(b"123456789") == 0x29B1 == binascii.crc_hqx(b"123456789", 0xFFFF)


@given(st.binary(max_size=300))
def test_the_host_crc_is_crc16_ccitt_false(data):
    from companion.hardware import link_protocol as lp

    assert lp.crc16(data) == _crc_ccitt_false(data)
