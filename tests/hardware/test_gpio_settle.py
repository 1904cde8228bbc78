"""The GPIO build's settle time: a released column recovers through the Pi's pull-up into the
column's capacitance, so the scan waits after selecting each row. Against fake_gpio's RC model
of the column lines: a ghost one rank up without the wait, none with it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.events import SquareReading
from companion.hardware import gpio_board, pinout
from companion.hardware.gpio_board import GpioBoard
from tests.fake_gpio import FakeLgpio, FakeRPiGPIO, MatrixSim

ROWS, COLS = list(pinout.PI_ROWS), list(pinout.PI_COLS)
WORST_TAU_S = 65e3 * 80e-12  # the Pi's weakest pull-up into the heaviest column: 5.2 us


def scan(closed, module=FakeLgpio, tau_s=WORST_TAU_S, **kw):
    """The squares one scan reads with ``closed`` squares pressed."""
    sim = MatrixSim(ROWS, COLS, tau_s=tau_s)
    board = GpioBoard(
        ROWS, COLS, backend=module(sim), clock=lambda: 0.0, debounce_ms=0, delay=sim.sleep, **kw
    )
    events = []
    board.connect(events.append)
    for sq in closed:
        sim.set_square(sq, "1")
    board.scan_once(now=1.0)
    board.stop()
    return {e.square for e in events if isinstance(e, SquareReading) and e.value == "1"}


def test_the_settle_time_is_several_time_constants_of_the_worst_column():
    tau_us = gpio_board.PULL_UP_OHMS_MAX * gpio_board.COLUMN_FARADS_MAX * 1e6
    assert gpio_board.PULL_UP_OHMS_MAX == 65_000 and gpio_board.COLUMN_FARADS_MAX == 80e-12
    assert gpio_board.SETTLE_US == pytest.approx(5 * tau_us) == pytest.approx(26.0)
    assert GpioBoard(ROWS, COLS).settle_us == gpio_board.SETTLE_US


@pytest.mark.parametrize("module", [FakeLgpio, FakeRPiGPIO])
def test_without_the_settle_a_closed_square_ghosts_one_rank_up(module):
    """The model can fail: reading right after selecting the next row sees the last one's."""
    d4 = 3 * 8 + 3
    assert scan({d4}, module, settle_us=0) == {d4, d4 + 8}  # d4 and a ghost on d5


@pytest.mark.parametrize("module", [FakeLgpio, FakeRPiGPIO])
def test_with_the_settle_a_closed_square_reads_alone(module):
    d4 = 3 * 8 + 3
    assert scan({d4}, module) == {d4}


def test_an_ideal_column_needs_no_settle():
    assert scan({27}, tau_s=0.0, settle_us=0) == {27}


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.integers(0, 63), max_size=12),
    st.floats(0.1e-6, WORST_TAU_S),
    st.sampled_from([FakeLgpio, FakeRPiGPIO]),
)
def test_the_default_settle_reads_exactly_the_closed_squares(closed, tau_s, module):
    assert scan(closed, module, tau_s=tau_s) == closed


def test_a_bad_settle_time_is_refused():
    with pytest.raises(ValueError, match="settle_us"):
        GpioBoard(ROWS, COLS, settle_us=-1)
