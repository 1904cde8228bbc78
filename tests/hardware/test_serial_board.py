"""The host driver against the simulated Pico through a pty: events, LEDs, faults, reconnects."""

import logging
import random
import threading
import time

import pytest

from companion.core.events import BoardSnapshot, LinkStatus, SquareReading
from companion.hardware import link_protocol as lp
from companion.hardware import serial_board
from companion.hardware.pico_port import BoardNotFound
from companion.hardware.serial_board import SerialBoard
from companion.hardware.simulated.pico_sim import SimulatedPico
from tests.conftest import wait_until


class Sink:
    """Collects events from the reader thread; tests wait for conditions, never fixed sleeps."""

    def __init__(self):
        self.events = []
        self.cond = threading.Condition()

    def __call__(self, event):
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait(self, predicate, timeout=5.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not predicate(self.events):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; events: {self.events[-8:]}")
                self.cond.wait(left)

    def of(self, cls):
        with self.cond:
            return [e for e in self.events if isinstance(e, cls)]

    def readings(self):
        return [(e.square, e.value) for e in self.of(SquareReading)]

    def wait_reading(self, square, value):
        self.wait(lambda ev: any(isinstance(e, SquareReading) and (e.square, e.value) == (
            square, value) for e in ev))  # fmt: skip

    def count(self, cls):
        return len(self.of(cls))


@pytest.fixture
def link():
    made = []

    def make(kind="switch", **board_options):
        pico = SimulatedPico(kind=kind)
        board = SerialBoard(pico.port, **board_options)
        sink = Sink()
        made.append((pico, board))
        board.start(sink)
        sink.wait(lambda ev: any(isinstance(e, BoardSnapshot) for e in ev))
        return pico, board, sink

    yield make
    for pico, board in made:
        board.stop()
        pico.close()
        assert pico.crashed is None


def tap_and_wait(pico, sink, square, **kw):
    before = len(sink.readings())
    pico.tap(square, **kw)
    sink.wait(lambda ev: len([e for e in ev if isinstance(e, SquareReading)]) >= before + 2)


def test_handshake_gives_link_status_kind_size_and_a_snapshot(link):
    pico, board, sink = link("presence")
    first = sink.events[0]
    assert first == LinkStatus(True, "Pico fw 1.0.0, 8x8 presence")
    assert (board.kind, board.size, board.firmware) == ("presence", 8, "1.0.0")
    snap = sink.of(BoardSnapshot)[0]
    assert snap.values == ("0",) * 64


def test_a_tap_gives_one_press_and_one_release_marked_debounced(link):
    pico, board, sink = link()
    tap_and_wait(pico, sink, 28)
    assert sink.readings() == [(28, "1"), (28, "0")]
    assert all(e.debounced for e in sink.of(SquareReading))
    assert board.debounced is True


def test_bouncing_switches_count_once(link):
    pico, board, sink = link()
    pico.tap(20, bounces=7)
    pico.wait_quiet()
    pico.tap(21)  # a later tap: once its release is in, everything before it has arrived
    sink.wait_reading(21, "0")
    assert sink.readings() == [(20, "1"), (20, "0"), (21, "1"), (21, "0")]


def test_a_key_held_down_is_one_press_and_snapshots_agree(link):
    pico, board, sink = link()
    pico.press(9)
    sink.wait(
        lambda ev: (9, "1") in [(e.square, e.value) for e in ev if isinstance(e, SquareReading)]
    )
    snaps = sink.count(BoardSnapshot)
    sink.wait(lambda ev: len([e for e in ev if isinstance(e, BoardSnapshot)]) >= snaps + 1)
    assert sink.readings() == [(9, "1")]
    assert sink.of(BoardSnapshot)[-1].values[9] == "1"
    pico.release(9)
    sink.wait(lambda ev: len([e for e in ev if isinstance(e, SquareReading)]) == 2)
    assert sink.readings() == [(9, "1"), (9, "0")]


def test_two_keys_at_once(link):
    pico, board, sink = link()
    pico.press_many([12, 50])
    sink.wait(lambda ev: len([e for e in ev if isinstance(e, SquareReading)]) == 2)
    assert sink.readings() == [(12, "1"), (50, "1")]


def test_garbage_and_truncated_lines_are_counted_and_ignored(link):
    pico, board, sink = link()
    rng = random.Random(3)
    pico.inject_raw(bytes(rng.randrange(256) for _ in range(500)) + b"\n")
    pico.inject_raw(lp.board_line(0x42, "EV 1 1")[:-3] + b"\n")  # truncated checksum
    pico.inject_raw(b"\x03\x04MicroPython v1.23 REPL\r\n>>> \n")
    tap_and_wait(pico, sink, 30)
    assert sink.readings() == [(30, "1"), (30, "0")]
    assert board.stats["bad_lines"] >= 3
    assert board.connected


def test_a_dropped_event_line_is_noticed_and_replayed(link):
    pico, board, sink = link()
    pico.drop_next_line(b" EV ")
    tap_and_wait(pico, sink, 33)
    assert sink.readings() == [(33, "1"), (33, "0")]  # nothing lost, in order
    assert board.stats["gaps"] == 1
    assert board.stats["recovered"] == 1
    snaps = sink.count(BoardSnapshot)
    sink.wait(lambda ev: len([e for e in ev if isinstance(e, BoardSnapshot)]) > snaps)


def test_a_checksum_error_is_rejected_and_the_line_recovered(link):
    pico, board, sink = link()
    pico.corrupt_next_line(b" EV ")
    tap_and_wait(pico, sink, 34)
    assert sink.readings() == [(34, "1"), (34, "0")]
    assert board.stats["bad_lines"] == 1
    assert board.stats["gaps"] == 1


def test_when_replay_is_impossible_a_snapshot_resyncs(link):
    pico, board, sink = link()
    for _ in range(10):
        pico.drop_next_line(b" EV ")  # the press and every replay of it are lost
    pico.press(35)
    sink.wait(lambda ev: any(isinstance(e, BoardSnapshot) and e.values[35] == "1" for e in ev))
    assert sink.readings() == [(35, "1")]  # rebuilt from the snapshot
    assert board.stats["resyncs"] == 1 and board.stats["snapshot_fixes"] == 1


def test_unplug_is_noticed_within_two_seconds_and_replug_resyncs(link):
    pico, board, sink = link()
    board.leds().show([(0, 0, 255)] * 64)
    wait_until(lambda: pico.leds == ((0, 0, 255),) * 64)
    pico.unplug()
    t0 = time.monotonic()
    sink.wait(lambda ev: LinkStatus(False, "board disconnected") in ev, timeout=2.0)
    assert time.monotonic() - t0 < 2.0
    assert not board.connected
    board.leds().show([(0, 255, 0)] * 64)  # the game goes on while unplugged
    pico.press(7)  # and someone holds a key meanwhile
    snaps = sink.count(BoardSnapshot)
    pico.replug()
    sink.wait(lambda ev: len([e for e in ev if isinstance(e, BoardSnapshot)]) > snaps)
    links = sink.of(LinkStatus)
    assert [s.connected for s in links] == [True, False, True]
    assert sink.of(BoardSnapshot)[-1].values[7] == "1"
    wait_until(lambda: pico.leds == ((0, 255, 0),) * 64)  # the current frame is sent again
    assert board.stats["disconnects"] == 1


def test_a_board_that_stops_talking_is_declared_lost(link):
    pico, board, sink = link()
    pico.freeze()  # the firmware hangs with the cable in
    t0 = time.monotonic()
    sink.wait(lambda ev: LinkStatus(False, "board disconnected") in ev, timeout=2.5)
    assert time.monotonic() - t0 < 2.0


def test_firmware_reset_mid_game_rehandshakes_and_resends_leds(link):
    pico, board, sink = link()
    board.leds().show([(9, 9, 9)] * 64)
    wait_until(lambda: pico.leds == ((9, 9, 9),) * 64)
    tap_and_wait(pico, sink, 1)
    pico.reset()
    sink.wait(lambda ev: any(isinstance(e, LinkStatus) and "restarted" in e.detail for e in ev))
    wait_until(lambda: pico.leds == ((9, 9, 9),) * 64)
    tap_and_wait(pico, sink, 2)
    assert sink.readings() == [(1, "1"), (1, "0"), (2, "1"), (2, "0")]
    assert board.stats["board_restarts"] == 1
    assert board.stats["board_errors"] >= 1  # the firmware said the watchdog restarted it


def test_leds_send_changed_squares_and_full_frames_when_many_change(link):
    pico, board, sink = link()
    leds = board.leds()
    frame = [(0, 0, 0)] * 64
    leds.show(frame)
    wait_until(lambda: leds.acked == 1)
    frame[5] = (255, 0, 0)
    leds.show(frame)
    wait_until(lambda: leds.acked == 2)
    assert (leds.full_frames, leds.delta_frames) == (1, 1)
    leds.show([(1, 1, 1)] * 64)
    wait_until(lambda: pico.leds == ((1, 1, 1),) * 64)
    assert leds.full_frames == 2
    leds.show([(1, 1, 1)] * 64)  # nothing changed: nothing sent
    assert leds.full_frames + leds.delta_frames == 3
    with pytest.raises(ValueError, match="64 squares"):
        leds.show([(0, 0, 0)] * 3)


def test_a_lost_led_command_is_repaired_with_a_full_frame(link):
    pico, board, sink = link()
    leds = board.leds()
    leds.show([(0, 0, 0)] * 64)
    wait_until(lambda: leds.acked == 1)
    pico.drop_next_command(b"LEDD")
    frame = [(0, 0, 0)] * 64
    frame[10] = (0, 200, 0)
    leds.show(frame)
    wait_until(lambda: pico.leds is not None and pico.leds[10] == (0, 200, 0))
    assert leds.full_frames == 2  # the delta was lost; the repair was a full frame


def test_brightness_reaches_the_board_and_survives_a_reset(link):
    pico, board, sink = link(brightness=255)
    board.leds().show([(200, 100, 0)] * 64)
    wait_until(lambda: pico.pixels[0] == (200, 100, 0))
    board.set_brightness(51)
    wait_until(lambda: pico.pixels[0] == (40, 20, 0))
    pico.reset()
    wait_until(lambda: board.stats["board_restarts"] == 1)
    wait_until(lambda: pico.pixels[0] == (40, 20, 0))


def test_stopping_turns_the_leds_off(link):
    pico, board, sink = link()
    board.leds().show([(50, 50, 50)] * 64)
    wait_until(lambda: pico.leds == ((50, 50, 50),) * 64)
    board.stop()
    wait_until(lambda: pico.leds == ((0, 0, 0),) * 64)
    assert not board.connected


def test_polarity_readings_pass_through(link):
    pico, board, sink = link("polarity")
    pico.set_reading(27, "x")
    pico.set_reading(28, "o")
    sink.wait(lambda ev: len([e for e in ev if isinstance(e, SquareReading)]) == 2)
    assert sink.readings() == [(27, "x"), (28, "o")]
    assert board.kind == "polarity"


def test_a_missing_port_is_reported_and_retried_until_it_appears(tmp_path):
    pico = SimulatedPico(link_dir=str(tmp_path))
    pico.unplug()
    board = SerialBoard(pico.port)
    sink = Sink()
    try:
        board.start(sink)
        sink.wait(lambda ev: any(isinstance(e, LinkStatus) and not e.connected for e in ev))
        assert sink.events[0].detail.startswith("board disconnected")
        pico.replug()
        sink.wait(lambda ev: any(isinstance(e, LinkStatus) and e.connected for e in ev))
        sink.wait(lambda ev: any(isinstance(e, BoardSnapshot) for e in ev))
    finally:
        board.stop()
        pico.close()


def test_a_port_that_never_answers_is_reported(tmp_path):
    import os
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    board = SerialBoard(os.ttyname(slave), handshake_timeout=0.1)
    sink = Sink()
    try:
        board.start(sink)
        sink.wait(lambda ev: any(isinstance(e, LinkStatus) for e in ev))
        status = sink.of(LinkStatus)[0]
        assert not status.connected and "no answer" in status.detail
    finally:
        board.stop()
        os.close(master)
        os.close(slave)


def test_auto_finds_the_pico_by_usb_id_or_says_clearly_why_not(monkeypatch):
    from serial.tools import list_ports, list_ports_common

    def info(device, vid, pid):
        p = list_ports_common.ListPortInfo(device, skip_link_detection=True)
        p.vid, p.pid = vid, pid
        return p

    ports = [info("/dev/ttyUSB0", 0x0403, 0x6001), info("/dev/ttyACM1", 0x2E8A, 0x0005)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert serial_board.find_pico_port() == "/dev/ttyACM1"
    monkeypatch.setattr(list_ports, "comports", lambda: ports[:1])
    with pytest.raises(BoardNotFound, match="no Pico board found"):
        serial_board.find_pico_port()
    board = SerialBoard("auto", start_timeout=1)
    sink = Sink()
    try:
        board.start(sink)
        sink.wait(lambda ev: len(ev) >= 1)
        assert sink.events[0] == LinkStatus(
            False,
            "no Pico board found (USB 2E8A:0005): plug it in or use --board serial:/dev/ttyACM0",
        )
    finally:
        board.stop()


def test_random_noise_on_the_wire_never_stops_the_driver(link):
    pico, board, sink = link()
    rng = random.Random(11)
    for _ in range(20):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
        pico.inject_raw(junk)
        if rng.random() < 0.3:
            pico.inject_raw(lp.board_line(rng.randrange(256), "EV 3 1"))  # forged, out of order
    pico.inject_raw(b"\n")
    tap_and_wait(pico, sink, 44)
    assert (44, "1") in sink.readings() and (44, "0") in sink.readings()
    assert board.connected


def test_a_port_that_vanishes_between_open_and_flush_is_closed_and_retried(tmp_path, monkeypatch):
    import termios

    import serial

    pico = SimulatedPico(link_dir=str(tmp_path))
    opened = []
    real_reset = serial.Serial.reset_input_buffer

    def vanishing(self):
        opened.append(self)
        if len(opened) <= 2:  # what tcflush raises once the USB device is gone
            raise termios.error(5, "Input/output error")
        return real_reset(self)

    monkeypatch.setattr(serial.Serial, "reset_input_buffer", vanishing)
    board = SerialBoard(pico.port, retry_min=0.01)
    sink = Sink()
    try:
        board.start(sink)
        sink.wait(lambda ev: any(isinstance(e, LinkStatus) and e.connected for e in ev))
        assert len(opened) == 3
        assert not opened[0].is_open and not opened[1].is_open  # the failed opens were closed
        assert not sink.of(LinkStatus)[0].connected
        tap_and_wait(pico, sink, 44)  # the reader lived through the failed opens: it reads
        assert (44, "1") in sink.readings() and board.connected
    finally:
        board.stop()
        pico.close()


def test_an_unexpected_error_in_the_reader_is_logged_once_and_the_link_comes_back(
    link, caplog, monkeypatch
):
    pico, board, sink = link()
    real_feed = lp.LineSplitter.feed
    failures = []

    def buggy_feed(splitter, data):  # a bug in what the reader calls on each read
        if len(failures) < 3:
            failures.append(data)
            raise RuntimeError("a bug")
        return real_feed(splitter, data)

    monkeypatch.setattr(lp.LineSplitter, "feed", buggy_feed)
    sink.wait(lambda ev: [e.connected for e in ev if isinstance(e, LinkStatus)][-1:] == [True]
              and len(failures) == 3 and board.connected)  # fmt: skip
    said = [r for r in caplog.records if r.levelno >= logging.WARNING and "unexpected" in r.message]
    assert len(said) == 1 and said[0].levelname == "ERROR"  # once, with the traceback
    assert board.stats["reader_errors"] == 3
    tap_and_wait(pico, sink, 5)  # the same reader thread reads on
    assert sink.readings()[-2:] == [(5, "1"), (5, "0")]


def test_brightness_is_sent_again_after_a_replug(link):
    pico, board, sink = link(brightness=51)
    board.leds().show([(200, 100, 0)] * 64)
    wait_until(lambda: pico.pixels[0] == (40, 20, 0))
    pico.unplug()
    sink.wait(lambda ev: LinkStatus(False, "board disconnected") in ev)
    pico.replug()  # a power-on boot: the firmware starts at its own default brightness
    sink.wait(lambda ev: [e.connected for e in ev if isinstance(e, LinkStatus)][-1:] == [True])
    wait_until(lambda: pico.firmware is not None and pico.firmware.leds.brightness == 51)
    wait_until(lambda: pico.pixels[0] == (40, 20, 0))


def test_a_board_in_safe_mode_is_one_line_until_it_says_hello_again(link, caplog):
    # the link is never declared lost nor its handshake tried again here (a loaded machine may
    # leave the simulated board's answer to a ping later than 1.5 s, or to HELLO later than
    # 0.7 s: the reconnection's or the second try's HELLO would end safe mode early)
    pico, board, sink = link(ping_after=5.0, lost_after=60.0, handshake_timeout=30.0)
    caplog.set_level(logging.WARNING, logger="companion.hardware.serial_board")
    safe = LinkStatus(False, "board safe mode: 5 failures: OSError(5,)")
    for _ in range(3):  # the board repeats it about once a second
        pico.inject_raw(lp.board_line(0x50, "SAFE 5 failures: OSError(5,)"))
    sink.wait(lambda ev: safe in ev)
    wait_until(lambda: board.stats["safe_lines"] == 3, what="the three SAFE lines")
    assert not board.connected and board.last_error == safe.detail
    assert [e for e in sink.of(LinkStatus) if e == safe] == [safe]  # said once
    said = [r.getMessage() for r in caplog.records if "safe mode" in r.getMessage()]
    assert said == [safe.detail]
    # a HELLO this boot sent before its SAFE (the answer to ours, late): safe mode stays
    fw = pico.firmware
    late = f"HELLO proto={lp.PROTO} fw=1.0.0 size=8 kind=switch boot={fw.boot_id} leds=64"
    pico.inject_raw(lp.board_line(0x51, late + " debounce=20 reset=power"))
    pico.inject_raw(lp.board_line(0x52, "SAFE 5 failures: OSError(5,)"))
    wait_until(lambda: board.stats["safe_lines"] == 4, what="the SAFE line after it")
    assert board.stats["stale_hellos"] >= 1 and not board.connected
    assert [e for e in sink.of(LinkStatus) if e == safe] == [safe]
    pico.reset()  # it boots again (a fixed firmware): HELLO
    wait_until(lambda: board.connected, what="the board back")
    assert sink.of(LinkStatus)[-1].connected


def test_errors_the_board_counted_are_counted_here_too(link):
    pico, board, sink = link()
    bad = lp.CMD_PING[:-6] + b"0000\n"  # a wrong checksum
    pico.inject_to_board(bad * 10)  # one ERR crc, then (a second later) ERR crc x9
    wait_until(lambda: board.stats["board_errors"] == 10, what="all ten counted")
    assert board.last_error == "board: crc" and board.connected
