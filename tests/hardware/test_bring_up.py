"""``binaryon doctor --bring-up`` on simulated boards: the GPIO matrix behind fake_gpio (good,
and with two rank wires crossed), the mock board (a stuck square, a ghost, a dead square, hall
discs), gpiozero's MockFactory buttons and luma's dummy OLED."""

from __future__ import annotations

import argparse
import io
import itertools

from luma.core.device import dummy

from companion.cli import bring_up as bu
from companion.cli import doctor
from companion.hardware import pinout
from companion.hardware.buttons import Buttons
from companion.hardware.gpio_board import GpioBoard
from companion.hardware.simulated.mock_board import MockBoard
from companion.hardware.simulated.recording_leds import RecordingLeds
from tests.fake_gpio import FakeLgpio, MatrixSim

ROWS, COLS = list(pinout.PI_ROWS), list(pinout.PI_COLS)


def buttons_on(factory):
    ticks = itertools.count(step=0.05)

    def make(sink):
        return Buttons(pinout.PI_BUTTONS, sink, pin_factory=factory, clock=lambda: next(ticks))

    return make


def tap(factory, name):
    pin = factory.pin(pinout.PI_BUTTONS[name])
    pin.drive_low()
    pin.drive_high()


def gpio_board(sim):
    return GpioBoard(ROWS, COLS, backend=FakeLgpio(sim), debounce_ms=0, scan_hz=2000)


def test_a_good_gpio_board_passes_every_square_the_oled_and_the_buttons(factory):
    sim = MatrixSim(ROWS, COLS)
    board, leds, oled = gpio_board(sim), RecordingLeds(64), dummy()
    lit_when_asked = []

    def act(step):
        if step[0] == "square":
            lit_when_asked.append([i for i, c in enumerate(leds.frame) if c == bu.LIT])
            sim.set_square(step[1], step[2])
        elif step[0] == "release":
            sim.set_square(step[1], "0")
        elif step[0] in ("oled", "leds"):
            tap(factory, "confirm")
        elif step[0] == "button":
            tap(factory, step[1])

    out = io.StringIO()
    result = bu.bring_up(board, leds, buttons_on(factory), oled, wait=10, out=out, asking=act)
    assert result.passed, result.faults
    assert result.squares_ok == list(range(64)) and result.oled_ok
    assert result.buttons_ok == ["confirm", "undo", "menu"]
    assert lit_when_asked == [[sq] for sq in range(64)]  # the square asked for is the lit one
    assert leds.frame == [(0, 0, 0)] * 64
    assert oled.image.getbbox() is not None  # it drew its question
    assert result.colours_ok
    summary = "bring-up: 64/64 squares, 3/3 buttons, LED colours ok, OLED ok: all good"
    assert summary in out.getvalue()


def test_crossed_rank_wires_are_named():
    sim = MatrixSim([ROWS[1], ROWS[0], *ROWS[2:]], COLS)  # ranks 1 and 2 wired the other way
    board = gpio_board(sim)

    def act(step):
        if step[0] == "square":
            sim.set_square(step[1], step[2])
        elif step[0] == "release":
            sim.set_square(step[1], "0")

    result = bu.bring_up(
        board, RecordingLeds(64), wait=5, out=io.StringIO(), asking=act, squares=[0, 9, 20]
    )
    assert result.squares_ok == [20]
    assert result.faults[0].startswith("a1: read as a2 (rank lines 1 and 2 swapped or crossed")
    assert result.faults[1].startswith("b2: read as b1 (rank lines 2 and 1 swapped or crossed")


def test_a_stuck_square_a_ghost_and_a_dead_square_each_say_what_to_check():
    initial = ["0"] * 64
    initial[63] = "1"  # h8 closed with nothing on it
    board = MockBoard(initial=initial)

    def act(step):
        if step[0] == "square" and step[1] == 5:
            return  # f1 never answers
        if step[0] == "square":
            board.set_reading(step[1], step[2], clean=True)
            if step[1] == 12:
                board.set_reading(20, "1", clean=True)  # e3 reads too while e2 is held
        elif step[0] == "release":
            board.set_reading(step[1], "0", clean=True)
            if step[1] == 12:
                board.set_reading(20, "0", clean=True)

    result = bu.bring_up(
        board, RecordingLeds(64), wait=0.3, out=io.StringIO(), asking=act, squares=[4, 5, 12, 63]
    )
    assert result.squares_ok == [4]
    faults = "\n".join(result.faults)
    assert "h8: reads '1' with nothing on it" in faults
    assert "f1: nothing in 0.3s (its sensor, its diode: band toward the row" in faults
    assert "e2: e3 read too while it was closed (a diode missing" in faults


def test_a_hall_board_is_asked_for_both_faces_and_a_swapped_pair_is_found():
    board = MockBoard(kind="polarity")
    asked = []

    def act(step):
        if step[0] == "square":
            asked.append(step[2])
            swapped = {"x": "o", "o": "x"}[step[2]] if step[1] == 1 else step[2]
            board.set_reading(step[1], swapped, clean=True)
        elif step[0] == "release":
            board.set_reading(step[1], ".", clean=True)

    result = bu.bring_up(
        board, RecordingLeds(64), wait=2, out=io.StringIO(), asking=act, squares=[0, 1]
    )
    assert asked[:2] == ["x", "o"] and result.squares_ok == [0]
    assert "b1: read 'o' for 'x' (its two hall sensors swapped" in result.faults[0]


def test_an_oled_the_maker_cannot_read_is_a_fault(factory):
    def act(step):
        if step[0] == "oled":
            tap(factory, "undo")
        elif step[0] == "leds":
            tap(factory, "confirm")
        elif step[0] == "button":
            tap(factory, step[1])

    result = bu.bring_up(
        MockBoard(), RecordingLeds(64), buttons_on(factory), dummy(), wait=2,
        out=io.StringIO(), asking=act, squares=[],
    )  # fmt: skip
    assert result.oled_ok is False and result.buttons_ok == ["confirm", "undo", "menu"]
    assert result.faults[0].startswith("OLED: not confirmed")


def test_doctor_bring_up_rehearses_on_the_simulated_board(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("BINARYON_CONFIG", raising=False)
    config = tmp_path / "c.toml"
    config.write_text('[board]\ndriver = "mock"\n')
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    assert doctor.run(parser.parse_args(["--bring-up", "--config", str(config)])) == 0
    out = capsys.readouterr().out
    assert "press a1 (lit) ..." in out and "bring-up: 64/64 squares" in out


def test_an_led_of_the_wrong_colour_is_a_fault(factory):
    leds = RecordingLeds(64)
    shown = []

    def act(step):
        if step[0] == "leds":
            shown.append(set(leds.frame))
            tap(factory, "undo" if step[1] == "green" else "confirm")
        elif step[0] == "button":
            tap(factory, step[1])

    result = bu.bring_up(
        MockBoard(), leds, buttons_on(factory), wait=2, out=io.StringIO(), asking=act, squares=[]
    )
    assert shown == [{(60, 0, 0)}, {(0, 60, 0)}, {(0, 0, 60)}]  # every LED, one colour each
    assert result.colours_ok is False and result.faults[0].startswith("LEDs: not all green")
    assert leds.frame == [(0, 0, 0)] * 64
