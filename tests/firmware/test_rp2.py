"""The shipped firmware on MicroPython's own rp2 port (v1.28.0, RPI_PICO) in an RP2040
emulator, over the emulated USB serial (tests/rp2_board.py, tests/rp2_board.mjs).

What the unix-port tests cannot show: the real registers and USB stack, the speed of the scan,
the watchdog, the LED chain's output on its data pin. One booted emulator per board kind is
shared by the tests of this module; simulated time runs at about a third of real time, so
each test spends little of it.
"""

from __future__ import annotations

import pytest

from companion.hardware import link_protocol as lp
from tests.rp2_board import Rp2Board, missing

pytestmark = pytest.mark.rp2

WHY = missing()
if WHY is not None:
    pytest.skip(WHY, allow_module_level=True)


def _is(kind):
    return lambda m: isinstance(m, kind)


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    b = Rp2Board(tmp_path_factory.mktemp("rp2"))
    b.wait(_is(lp.Snapshot), ms=1500)
    yield b
    b.stop()


def stat(b: Rp2Board) -> dict[str, int]:
    b.skip_old()
    b.send(lp.CMD_STAT)
    got = b.wait(_is(lp.Stat), ms=300)
    return {k: int(v) for k, v in got.fields.items()}


def snap(b: Rp2Board) -> str:
    b.skip_old()
    b.send(lp.CMD_SNAPSHOT)
    return b.wait(_is(lp.Snapshot), ms=300).values


def test_boot_line_says_power_on_and_the_board(board):
    hello = next(m for m in board.msgs if isinstance(m, lp.Hello))
    assert hello.fields["reset"] == "power"
    assert hello.fields["kind"] == "switch" and hello.fields["size"] == "8"
    assert board.boots == 1


def test_presses_and_releases_without_ghosts(board):
    board.recovery(4)  # a 50 kOhm pull-up into 60 pF: a few microseconds
    # three corners of a rectangle: without the diodes (or with a column read too early)
    # the fourth would show up too
    for sq in (0, 1, 8):
        board.close(sq)
    got = set()
    while len(got) < 3:
        m = board.wait(_is(lp.Change), ms=300)
        assert m.value == "1"
        got.add(m.square)
    assert got == {0, 1, 8}
    assert snap(board) == "11" + "0" * 6 + "1" + "0" * 55
    board.close(1, False)
    m = board.wait(_is(lp.Change), ms=300)
    assert (m.square, m.value) == (1, "0")
    board.close(0, False)
    board.close(8, False)
    board.run(60)
    assert snap(board) == "0" * 64


def test_a_column_read_before_it_recovers_shows_a_ghost(board):
    """The settle time is what keeps the ghost away: a line slower than it shows one."""
    board.recovery(200)  # far longer than the settle time: the column is still low
    board.close(3)  # d1: read again while rank 2 is driven, it shows at d2
    try:
        seen = set()
        while 11 not in seen:
            seen.add(board.wait(_is(lp.Change), ms=300).square)
        assert seen == {3, 11}
    finally:
        board.recovery(4)
        board.close(3, False)
        board.run(60)
    assert snap(board) == "0" * 64


def test_snap_and_stat(board):
    assert snap(board) == "0" * 64
    board.run(1100)  # a full snapshot period, for the rate
    s = stat(board)
    assert s["bad"] == 0 and s["drop"] == 0
    assert s["uptime"] > 1000
    assert s["rate"] >= 2000, s  # the promise of firmware/README.md for switch boards


def test_a_bad_crc_is_refused_and_resend_repeats_the_lines(board):
    board.skip_old()
    board.send(b"PING*0000\n")
    err = board.wait(_is(lp.BoardError), ms=300)
    assert err.code == "crc"
    board.send(lp.CMD_PING)
    pong = board.wait(_is(lp.Pong), ms=300)
    start = board.text.rfind(f"{err.seq:02x} ERR crc")
    first = board.text[start : board.text.index("\n", start) + 1]
    board.skip_old()
    board.send(lp.cmd_resend(err.seq))
    again = board.wait(lambda m: getattr(m, "seq", None) == pong.seq, ms=300)
    assert isinstance(again, lp.Pong)
    assert board.text.count(first) == 2  # the same line, byte for byte


def test_led_chain_output_colours_and_current_cap(board):
    board.send(lp.cmd_brightness("b1", 255))
    frame = [(0, 0, 0)] * 64
    frame[0] = (255, 0, 0)
    frame[1] = (0, 128, 0)
    frame[63] = (0, 0, 9)
    board.send(lp.cmd_leds_full("l1", frame))
    board.wait(lambda m: isinstance(m, lp.Ack) and m.id == "l1", ms=400)
    board.run(30)
    out = board.led_frames()[-1]
    assert len(out) == 64 * 3
    assert out[0:3] == [0, 255, 0]  # GRB on the wire
    assert out[3:6] == [128, 0, 0]
    assert out[189:192] == [0, 0, 9]
    assert sum(out[6:189]) == 0
    # full white everywhere would draw 3.84 A: the chain is held within the budget
    board.send(lp.cmd_leds_full("l2", [(255, 255, 255)] * 64))
    board.wait(lambda m: isinstance(m, lp.Ack) and m.id == "l2", ms=400)
    board.run(30)
    out = board.led_frames()[-1]
    s = stat(board)
    drawn = (sum(out) * 20 + 254) // 255
    assert drawn == s["led_ma"] <= s["led_budget"]
    assert min(out) == max(out) > 0


def test_a_host_that_stops_reading_never_stalls_the_loop(board):
    """rp2 waits up to 500 ms, twice, in a write that does not fit: at most one such wait."""
    board.run(50)
    board.max_feed_gap()
    board.reading(False)  # the port stays open, nobody reads: IN transfers stay pending
    for _ in range(24):  # 96 SNAP lines of 80 bytes: far more than the USB FIFO holds
        board.send(lp.CMD_SNAPSHOT * 4)
        board.run(25)
    board.close(5)
    board.run(200)
    gap = board.max_feed_gap()
    print(f"longest time without a watchdog feed while the host did not read: {gap:.1f} ms")
    assert gap < 600  # one 500 ms wait for room at most, not 1.0 s
    assert board.boots == 1
    board.reading(True)
    board.run(600)  # what was pending comes out; after a stall no write is tried for 500 ms
    s = stat(board)
    assert s["drop"] > 0  # what did not fit was dropped and counted
    board.close(5, False)
    m = board.wait(_is(lp.Change), ms=300)
    assert (m.square, m.value) == (5, "0")  # the link works again (the press was dropped or
    # sent: either way the host asks RESEND for a gap)


def test_watchdog_restarts_a_hung_loop(board):
    """Last: it reboots the board."""
    board.stall()
    hello = board.wait(_is(lp.Hello), ms=3500, step=100)
    assert hello.fields["reset"] == "watchdog"
    err = board.wait(_is(lp.BoardError), ms=300)
    assert err.code == "wdt"
    assert board.boots == 2


def test_a_hall_board_scans_at_least_1000_times_a_second_and_reads_both_poles(tmp_path):
    b = Rp2Board(tmp_path, KIND="polarity")
    try:
        b.wait(_is(lp.Snapshot), ms=1500)
        b.close(9)  # b2's black-up sensor
        b.close(20, second=True)  # e3's white-up one
        got = {}
        while len(got) < 2:
            m = b.wait(_is(lp.Change), ms=300)
            got[m.square] = m.value
        assert got == {9: "x", 20: "o"}
        b.run(1100)
        s = stat(b)
        assert s["rate"] >= 1000, s  # eight rows of 100 us HALL_SETTLE_US: the most is 1250
    finally:
        b.stop()


def test_without_the_settle_time_a_released_column_shows_a_ghost(tmp_path):
    """ROW_SETTLE_US = 0: the next row is read while d1's column still recovers (4 us)."""
    b = Rp2Board(tmp_path, ROW_SETTLE_US=0)
    try:
        b.wait(_is(lp.Snapshot), ms=1500)
        b.recovery(4)
        b.close(3)
        seen = set()
        while 11 not in seen:
            seen.add(b.wait(_is(lp.Change), ms=300).square)
        assert seen == {3, 11}  # d2 appears with d1: the ghost one rank above
    finally:
        b.stop()
