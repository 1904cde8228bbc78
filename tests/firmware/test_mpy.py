"""The Pico firmware, unmodified, in the real MicroPython interpreter (unix port).

firmware/main.py runs from a copy of the flash folder with the stand-ins of tests/mpy/ in
front of it (machine: the diode matrix, mem32, WDT, resets; neopixel; rp2; rp2-style ticks),
and the host talks to it over a pty with the real SerialBoard or with pyserial and
link_protocol. See tests/mpy_pico.py for the model of the USB link.
"""

from __future__ import annotations

import re
import threading
import time

import pytest
import serial

from companion.core.events import BoardSnapshot, LinkStatus, SquareReading
from companion.hardware import link_protocol as lp
from companion.hardware.serial_board import SerialBoard
from companion.views.oled import wrap
from tests.conftest import wait_until
from tests.mpy_pico import PWRON_RESET, REASON_TIMER, WDT_RESET, MpyPico, micropython_missing

pytestmark = pytest.mark.micropython


class Link:
    """The host end over pyserial: raw bytes out, parsed board lines in."""

    def __init__(self, port: str) -> None:
        self.ser = serial.Serial(port, timeout=0.02)
        self.split = lp.LineSplitter()
        self.msgs: list = []
        self.raw = b""
        self.bad = 0
        self.seen = 0  # messages already returned by wait()

    def send(self, data: bytes) -> None:
        self.ser.write(data)
        self.ser.flush()

    def pump(self) -> None:
        data = self.ser.read(65536)
        self.raw += data
        for line in self.split.feed(data):
            msg = lp.parse_board_line(line)
            if msg is None:
                self.bad += 1
            else:
                self.msgs.append(msg)

    def wait(self, pred, timeout: float = 5.0):
        """The first new message matching ``pred``; the ones before it are skipped."""
        deadline = time.monotonic() + timeout
        while True:
            while self.seen < len(self.msgs):
                m = self.msgs[self.seen]
                self.seen += 1
                if pred(m):
                    return m
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; last messages {self.msgs[-6:]}")
            self.pump()

    def wait_text(self, text: bytes, timeout: float = 5.0, start: int = 0) -> None:
        """Until ``text`` (e.g. a line main.py prints) has arrived (after byte ``start``)."""
        deadline = time.monotonic() + timeout
        while text not in self.raw[start:]:
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {text!r}; got {self.raw[-200:]!r}")
            self.pump()

    def new(self, quiet: float = 0.15, limit: float = 60.0) -> list:
        """Every message that arrives until the line has been quiet for ``quiet`` s (a line
        that never goes quiet within ``limit`` s fails the test rather than hanging it)."""
        end = time.monotonic() + quiet
        give_up = time.monotonic() + limit
        count = len(self.msgs)
        while time.monotonic() < end:
            if time.monotonic() > give_up:
                raise AssertionError(f"the line never went quiet for {quiet} s in {limit} s")
            self.pump()
            if len(self.msgs) != count:
                count = len(self.msgs)
                end = time.monotonic() + quiet
        out = self.msgs[self.seen :]
        self.seen = len(self.msgs)
        return out

    def close(self) -> None:
        self.ser.close()


def is_(cls, **fields):
    return lambda m: isinstance(m, cls) and all(getattr(m, k) == v for k, v in fields.items())


def events(msgs):
    return [(m.square, m.value) for m in msgs if isinstance(m, lp.Change)]


class Sink:
    def __init__(self) -> None:
        self.events: list = []
        self.cond = threading.Condition()

    def __call__(self, event) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait(self, pred, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not pred(self.events):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; events {self.events[-6:]}")
                self.cond.wait(left)

    def readings(self):
        with self.cond:
            return [(e.square, e.value) for e in self.events if isinstance(e, SquareReading)]


@pytest.fixture
def pico():
    missing = micropython_missing()
    if missing:
        reason, skip = missing
        (pytest.skip if skip else pytest.fail)(reason)
    made: list = []

    def make(**kw) -> MpyPico:
        p = MpyPico(**kw)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()
        assert "Traceback" not in p.stderr, p.stderr


@pytest.fixture
def link():
    made: list = []

    def make(port: str) -> Link:
        k = Link(port)
        made.append(k)
        return k

    yield make
    for k in made:
        k.close()


# -- start-up -------------------------------------------------------------------------------


def test_power_on_says_hello_then_a_snapshot_and_no_watchdog_error(pico, link):
    p = pico(initial="0" * 9 + "1" + "0" * 54)
    k = link(p.port)
    k.send(lp.CMD_HELLO)
    hello = k.wait(is_(lp.Hello))
    assert (hello.proto, hello.size, hello.kind, hello.fw) == (1, 8, "switch", "1.0.0")
    snap = k.wait(is_(lp.Snapshot))
    assert snap.seq == (hello.seq + 1) % 256
    assert snap.values == "0" * 9 + "1" + "0" * 54  # a key down at boot is in it
    assert not [m for m in k.new() if isinstance(m, lp.BoardError)]
    assert p.boots == [1] and p.wait_report("wdt armed") == "wdt armed 2000"


def test_serial_board_gets_the_handshake_snapshot_and_debounced_key_events(pico):
    p = pico()
    board = SerialBoard(p.port)
    sink = Sink()
    board.start(sink)
    try:
        sink.wait(lambda ev: any(isinstance(e, BoardSnapshot) for e in ev))
        status = [e for e in sink.events if isinstance(e, LinkStatus)]
        assert status[-1].connected and "8x8 switch" in status[-1].detail
        p.bounce(28, 1, "101010101")  # nine 1 ms chatters, then closed: one press
        sink.wait(lambda ev: (28, "1") in [(e.square, e.value) for e in ev if hasattr(e, "square")])
        p.bounce(28, 1, "0101010")  # and one release
        sink.wait(lambda ev: sum(isinstance(e, SquareReading) for e in ev) >= 2)
        time.sleep(0.1)  # room for a wrong extra event to arrive
        assert sink.readings() == [(28, "1"), (28, "0")]
        assert all(e.debounced for e in sink.events if isinstance(e, SquareReading))
    finally:
        board.stop()


def test_a_chatter_shorter_than_the_debounce_time_is_no_event(pico, link):
    p = pico()
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    p.bounce(5, 2, "1010100")  # 12 ms of chatter ending where it started
    p.press(6)
    first = k.wait(is_(lp.Change))
    assert (first.square, first.value) == (6, "1")  # the steady key, not the chattering one
    assert events(k.new()) == []


def test_two_keys_in_the_same_scan_come_in_square_order(pico, link):
    p = pico()
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    p.press(40, 3)
    k.wait(is_(lp.Change, square=40))
    assert events(k.msgs) == [(3, "1"), (40, "1")]


def test_diodes_stop_ghost_squares(pico, link):
    p = pico()
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    p.press(0, 1, 8)  # three corners of a rectangle: b2 (9) would be the ghost
    k.wait(is_(lp.Change, square=8))
    assert events(k.msgs) == [(0, "1"), (1, "1"), (8, "1")]
    k.send(lp.CMD_SNAPSHOT)
    snap = k.wait(is_(lp.Snapshot))
    assert snap.values[:10] == "1100000010"


def test_per_pin_reads_agree_with_the_register_read(pico, link):
    p = pico(FAST_IO=False)
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    p.press(7, 56, 63, 20)
    k.wait(is_(lp.Change, square=63))
    assert events(k.msgs) == [(7, "1"), (20, "1"), (56, "1"), (63, "1")]


def test_polarity_board_reads_x_o_and_empty_through_powered_hall_rows(pico, link):
    # sensors valid 150 us after their row powers them: the scan must wait HALL_SETTLE_US
    # (300 here), not ROW_SETTLE_US (10), on a polarity board
    p = pico(kind="polarity", hall_power_on_us=150, HALL_SETTLE_US=300, ROW_SETTLE_US=10)
    k = link(p.port)
    assert k.wait(is_(lp.Hello)).kind == "polarity"
    k.wait(is_(lp.Snapshot))
    p.set((10, "x"), (11, "o"), (63, "o"))
    k.wait(is_(lp.Change, square=63))
    assert events(k.msgs) == [(10, "x"), (11, "o"), (63, "o")]
    p.set((10, "o"), (11, "."))
    k.wait(is_(lp.Change, square=11))
    assert events(k.msgs)[-2:] == [(10, "o"), (11, ".")]


def test_a_hall_settle_time_shorter_than_the_power_on_time_is_refused(pico, link):
    p = pico(kind="polarity", HALL_SETTLE_US=10)
    k = link(p.port)
    p.wait(lambda: p.exits)  # main() returned to the REPL: nothing runs
    k.wait_text(b"HALL_SETTLE_US must be 50..10000, got 10")
    assert not k.msgs


def test_bootsel_held_at_boot_leaves_the_repl_free(pico, link):
    p = pico(bootsel=True)
    k = link(p.port)
    p.wait(lambda: p.exits)
    k.wait_text(b"BOOTSEL held at boot")
    assert not k.msgs
    assert not any(r.startswith("wdt armed") for r in p.reports)


# -- commands, LEDs, errors -----------------------------------------------------------------


def test_led_frames_are_acknowledged_and_shown_with_brightness(pico):
    p = pico()
    board = SerialBoard(p.port, brightness=128)
    sink = Sink()
    board.start(sink)
    try:
        sink.wait(lambda ev: any(isinstance(e, BoardSnapshot) for e in ev))
        frame = [(0, 0, 0)] * 64
        frame[0], frame[63] = (200, 100, 0), (0, 0, 255)
        board.leds().show(frame)
        want = bytes([100, 50, 0]) + bytes(3 * 62) + bytes([0, 0, 128])
        p.wait(lambda: p.pixels == want)
        frame[5] = (10, 20, 30)
        board.leds().show(frame)  # one square changed: a LEDD line
        p.wait(lambda: p.pixels[15:18] == bytes([5, 10, 15]))
        leds = board.leds()
        wait_until(lambda: leds.acked >= 2, what="both frames acknowledged")
        assert leds.delta_frames >= 1
        assert board.stats["board_errors"] == 0
    finally:
        board.stop()


def test_the_led_current_stays_within_the_supply_whatever_the_host_sends(pico, link):
    p = pico(LED_SUPPLY_AMPS=1.0)
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    k.send(lp.cmd_brightness("b", 255))
    k.send(lp.cmd_leds_full("w", [(255, 255, 255)] * 64))  # 3.84 A asked
    k.wait(is_(lp.Ack, id="w"))
    p.wait(lambda: p.pixels is not None and sum(p.pixels) > 0)
    budget = 1000 * 90 // 100 - 64  # mA for the colour channels: 90 % less 1 mA per LED
    assert sum(p.pixels) * 20 / 255 <= budget
    assert sum(p.pixels) * 20 / 255 > budget * 0.95  # scaled down, not switched off
    k.send(lp.CMD_STAT)
    stat = k.wait(is_(lp.Stat))
    assert int(stat.fields["led_ma"]) <= int(stat.fields["led_budget"]) == budget


def test_resend_replays_the_same_bytes_and_says_when_it_cannot(pico, link):
    p = pico(SNAPSHOT_MS=60000)  # no periodic line in between
    k = link(p.port)
    k.send(lp.CMD_HELLO)
    hello = k.wait(is_(lp.Hello))
    p.press(12)
    k.wait(is_(lp.Change))
    k.new()
    before = k.raw[k.raw.index(b"%02x HELLO" % hello.seq) :]
    replay_start = len(k.raw)
    k.send(lp.cmd_resend(hello.seq))
    k.wait_text(b"EV 12 1*", start=replay_start)
    k.wait_text(b"\n", start=k.raw.rindex(b"EV 12 1*"))  # the whole line
    assert k.raw[replay_start:].startswith(before)
    for _ in range(70):
        k.send(lp.CMD_PING)
    k.wait(lambda m: isinstance(m, lp.Pong) and len(k.msgs) > 70)
    k.send(lp.cmd_resend(hello.seq))
    err = k.wait(is_(lp.BoardError))
    assert (err.code, err.detail) == ("resend", f"{hello.seq:02x}")


def test_bad_crc_long_lines_and_garbage_get_errors_and_change_nothing(pico, link):
    p = pico()
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    good = lp.CMD_PING
    k.send(good[:-6] + b"0000\n")
    assert k.wait(is_(lp.BoardError)).code == "crc"
    k.send(b"x" * 3000 + b"\n" + lp.CMD_PING)
    assert k.wait(is_(lp.BoardError)).code == "long"
    k.wait(is_(lp.Pong))
    k.send(b"\x00\xff\x03\x03 noise \x1b[0m\r\n" + bytes(range(256)) + b"\n")  # 3 lines
    k.send(lp.frame("LEDD 1 99:ff0000") + lp.frame("FLY away"))
    errs = []
    while len(errs) < 3:  # a repeated error is counted, then summed up within a second
        e = k.wait(is_(lp.BoardError))
        errs.append((e.code, e.count))
    assert errs == [("args", 1), ("unknown", 1), ("crc", 3)]
    k.send(lp.CMD_PING)
    k.wait(is_(lp.Pong))
    k.send(lp.CMD_STAT)
    assert k.wait(is_(lp.Stat)).fields["bad"] == "7"
    assert p.pixels == bytes(192) and p.boots == [1]


def test_sequence_numbers_count_every_line_and_wrap(pico, link):
    p = pico(SNAPSHOT_MS=60000)
    k = link(p.port)
    k.send(lp.CMD_HELLO)
    hello = k.wait(is_(lp.Hello))
    start = k.msgs.index(hello)
    for _ in range(6):
        k.send(lp.CMD_PING * 50)
        time.sleep(0.05)
    pongs = 0
    while pongs < 300:
        pongs += isinstance(k.wait(lambda m: True), lp.Pong)
    seqs = [m.seq for m in k.msgs[start:]]
    assert len(seqs) > 300 and k.bad == 0
    assert seqs == [(hello.seq + i) % 256 for i in range(len(seqs))]


# -- resets, watchdog, maintenance ----------------------------------------------------------


def test_maint_is_acknowledged_before_the_reset_and_no_false_watchdog_error(pico, link):
    p = pico()
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    k.send(lp.CMD_MAINTENANCE)
    assert k.wait(is_(lp.Ack)).id == "maint"  # sent before the chip reset
    p.wait(lambda: p.exits)  # the next boot: main.py returns to the REPL
    k.wait_text(b"maintenance boot")
    assert p.boots == [1, WDT_RESET]  # rp2 reports machine.reset() as a watchdog reset
    assert "maint.flag" not in p.flash_files() and "reset.flag" in p.flash_files()
    # firmware/install.sh copies the files and resets the same way
    p.power_cycle(WDT_RESET)
    k.send(lp.CMD_HELLO)
    k.wait(is_(lp.Snapshot))
    assert not [m for m in k.new(0.3) if isinstance(m, lp.BoardError)]
    assert "reset.flag" not in p.flash_files()


def test_a_hung_loop_is_reset_by_the_watchdog_and_says_so(pico, link):
    p = pico(WATCHDOG_MS=1000)
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    p.hang()
    p.wait_report("wdt expired")
    k.wait(is_(lp.Hello))
    k.wait(is_(lp.Snapshot))
    err = k.wait(is_(lp.BoardError))
    assert (err.code, err.detail) == ("wdt", "restarted by watchdog")
    assert p.boots == [1, WDT_RESET]


@pytest.mark.parametrize("chip", ["RP2040", "RP2350"])
def test_a_plain_reset_is_not_taken_for_the_watchdog_on_a_pico_or_a_pico_2(pico, link, chip):
    """The watchdog's REASON register moved on the RP2350: read at the RP2040's address (the
    RP2350's PLL_USB there) a plain reset would read as the watchdog's."""
    p = pico(chip=chip)
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    p.power_cycle(WDT_RESET)  # machine.reset() at the REPL: no flag, REASON = forced
    k.send(lp.CMD_HELLO)
    assert k.wait(is_(lp.Hello)).fields["reset"] == "reset"
    k.wait(is_(lp.Snapshot))
    assert not [m for m in k.new(0.3) if isinstance(m, lp.BoardError)]
    p.close()
    p = pico(chip=chip)  # a watchdog reset still reads as one
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    p.power_cycle(WDT_RESET, REASON_TIMER)
    k.send(lp.CMD_HELLO)
    assert k.wait(is_(lp.Hello)).fields["reset"] == "watchdog"


def test_a_host_that_stops_reading_does_not_starve_the_watchdog(pico, link):
    p = pico()  # WATCHDOG_MS 2000 as shipped
    k = link(p.port)
    k.send(lp.CMD_HELLO)
    hello = k.wait(is_(lp.Hello))
    k.new()
    for _ in range(60):  # 60 RESENDs of up to 64 lines: far more than the link holds
        k.send(lp.cmd_resend(hello.seq))
    time.sleep(3.5)  # not reading: the board's writes stall; a 2 s watchdog would fire
    assert not any(r == "wdt expired" for r in p.reports) and p.boots == [1]
    k.ser.reset_input_buffer()
    k.new()
    k.send(lp.CMD_STAT)
    stat = k.wait(is_(lp.Stat))
    assert int(stat.fields["drop"]) > 0  # lines that did not fit were dropped, not waited for
    p.press(9)
    assert k.wait(is_(lp.Change)).square == 9


def test_writes_that_wait_500_ms_for_room_are_given_up_and_the_watchdog_stays_fed(pico, link):
    # rp2 reports POLLOUT while its USB FIFO has a byte free: with a host that reads nothing
    # (or a trickle) a line does not fit, and the write waits up to 500 ms, then returns short
    p = pico(usb_pollout="always")  # WATCHDOG_MS 2000 as shipped
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    k.send(lp.CMD_SNAPSHOT * 63)  # the RESEND ring full of 80-byte lines
    last = [k.wait(is_(lp.Snapshot)) for _ in range(63)][-1]
    k.new()
    for _ in range(24):  # 24 RESENDs of 63 lines, 120 kB: far more than the link holds
        k.send(lp.cmd_resend((last.seq - 62) % 256))
    time.sleep(4)  # not reading
    gap = p.max_feed_gap()
    assert "wdt expired" not in p.reports and p.boots == [1]
    assert gap >= 450  # writes did wait for room: the 500 ms path was taken, and given up
    k.ser.reset_input_buffer()
    # what is still on its way comes out first; quiet for 0.7 s: longer than the 500 ms in
    # which no write is tried, shorter than the 1 s between snapshots
    k.new(quiet=0.7)
    k.send(lp.CMD_STAT)
    stat = k.wait(is_(lp.Stat), timeout=20)
    assert int(stat.fields["drop"]) > 0  # what did not fit was dropped and counted
    p.press(9)
    assert k.wait(is_(lp.Change)).square == 9


# -- time and allocations -------------------------------------------------------------------


def test_debounce_and_snapshots_across_the_30_bit_ticks_wrap(pico, link):
    p = pico(ticks_start=(1 << 30) - 600, SNAPSHOT_MS=200)  # wraps 0.6 s after boot
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    t0 = time.monotonic()
    for sq in range(6):  # presses before, across and after the wrap
        p.press(sq)
        k.wait(is_(lp.Change, square=sq))
        p.release(sq)
        k.wait(is_(lp.Change, square=sq, value="0"))
        time.sleep(0.1)
    assert time.monotonic() - t0 > 0.6  # the wrap happened in between
    assert events(k.msgs) == [(sq, v) for sq in range(6) for v in "10"]
    # after the wrap, snapshots still come once per SNAPSHOT_MS of the board's clock
    k.new()
    k.send(lp.CMD_STAT)
    up1 = int(k.wait(is_(lp.Stat)).fields["uptime"])
    for _ in range(3):
        k.wait(is_(lp.Snapshot))
    k.send(lp.CMD_STAT)
    up2 = int(k.wait(is_(lp.Stat)).fields["uptime"])
    assert up2 - up1 >= 2 * 200


def test_stat_uptime_keeps_counting_past_2_to_the_29_ms(pico, link):
    p = pico()
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    for _ in range(6):  # six jumps of ~1.2 days: 600 000 000 ms > 2**29
        p.jump(100_000_000)
        k.send(lp.CMD_PING)
        k.wait(is_(lp.Pong))
    k.send(lp.CMD_PING)  # a whole loop pass after the last jump has been summed
    k.wait(is_(lp.Pong))
    k.send(lp.CMD_STAT)
    uptime = int(k.wait(is_(lp.Stat)).fields["uptime"])
    assert 600_000_000 <= uptime < 600_000_000 + 60_000


def test_an_idle_loop_pass_allocates_nothing(pico, link):
    p = pico(SNAPSHOT_MS=60000)  # no snapshot line inside the measured passes
    k = link(p.port)
    k.wait(is_(lp.Snapshot))
    assert p.measure_allocations(500) == (0, 0)
    p.press(3)  # and the loop still works after the measurement
    assert k.wait(is_(lp.Change)).square == 3


def test_serial_board_hears_of_a_watchdog_restart_but_not_of_an_installs_reset(pico):
    p = pico(WATCHDOG_MS=1000)
    board = SerialBoard(p.port)
    sink = Sink()
    board.start(sink)
    try:
        sink.wait(lambda ev: any(isinstance(e, BoardSnapshot) for e in ev))
        p.hang()  # the loop stops: the watchdog restarts the chip
        wait_until(lambda: board.stats["board_restarts"] == 1, what="the restart")
        wait_until(lambda: board.stats["board_errors"] == 1, what="the board's error")
        assert board.last_error == "board: wdt restarted by watchdog"
        (p.flash / "reset.flag").write_text("install")  # what firmware/install.sh leaves
        p.power_cycle(WDT_RESET)  # mpremote's reset: reported as a watchdog reset by rp2
        wait_until(lambda: board.stats["board_restarts"] == 2, what="the second restart")
        snaps = board.stats["snapshots"]
        wait_until(lambda: board.stats["snapshots"] >= snaps + 1, what="a snapshot after it")
        assert board.stats["board_errors"] == 1 and board.connected
    finally:
        board.stop()


# -- a persistent fault: back-off, then safe mode -------------------------------------------


def _flash_state(p) -> dict:
    return {f.name: f.stat().st_mtime_ns for f in p.flash.iterdir()} | {
        ".": p.flash.stat().st_mtime_ns
    }


def test_a_persistent_error_backs_off_then_stays_in_safe_mode_saying_why(pico, link):
    # every read of the input register fails a few passes after each boot, for good
    p = pico(fault_after_reads=40, RESTART_BACKOFF_MS=100)
    k = link(p.port)
    final = k.wait(lambda m: isinstance(m, lp.Safe) and "failures" in m.reason, timeout=60)
    assert final.reason == "5 failures: OSError(5,)"
    waits = [m.reason for m in k.msgs if isinstance(m, lp.Safe) and "restart in" in m.reason]
    delays = [int(re.search(r"restart in (\d+) ms", r).group(1)) for r in waits]
    assert delays == [100, 200, 400, 800]  # doubling at each restart in a row
    assert p.boots == [PWRON_RESET] + [WDT_RESET] * 4
    gaps = [b - a for a, b in zip(p.boot_times, p.boot_times[1:], strict=False)]
    assert all(g >= d / 1000 for g, d in zip(gaps, delays, strict=True))
    # and then it stays: no more resets, no more flash writes, the reason on every question
    flash = _flash_state(p)
    assert "reset.flag" not in flash
    for _ in range(2):  # two heartbeats (SNAPSHOT_MS) later
        assert k.wait(is_(lp.Safe), timeout=5).reason == final.reason
    k.send(lp.CMD_HELLO)
    answer = k.wait(lambda m: isinstance(m, lp.Safe | lp.Hello))
    assert answer == lp.Safe(answer.seq, final.reason)  # not a HELLO: nothing else runs
    assert len(p.boots) == 5 and _flash_state(p) == flash
    assert "wdt expired" not in p.reports  # the watchdog is still fed
    # MAINT still works, so a fixed firmware can be copied over
    k.send(lp.CMD_MAINTENANCE)
    assert k.wait(is_(lp.Ack)).id == "maint"
    p.wait(lambda: p.exits)


def test_the_companion_shows_the_safe_mode_in_one_line(pico, caplog):
    p = pico(fault_after_reads=40, RESTART_BACKOFF_MS=100)
    board = SerialBoard(p.port)
    sink = Sink()
    caplog.set_level("WARNING", logger="companion.hardware.serial_board")
    board.start(sink)
    try:
        sink.wait(
            lambda ev: any(isinstance(e, LinkStatus) and "5 failures" in e.detail for e in ev),
            timeout=60,
        )
        time.sleep(2.5)  # heartbeats and pings go on: nothing more is posted or logged
        status = [e for e in sink.events if isinstance(e, LinkStatus) and not e.connected]
        assert status[-1].detail == "board safe mode: 5 failures: OSError(5,)"
        assert not board.connected and board.last_error == status[-1].detail
        assert sum("5 failures" in e.detail for e in status) == 1
        logged = [r.getMessage() for r in caplog.records if "5 failures" in r.getMessage()]
        assert logged == ["board safe mode: 5 failures: OSError(5,)"]
        assert wrap(status[-1].detail) == ["board safe mode: 5", "failures: OSError(5,)"]
    finally:
        board.stop()
