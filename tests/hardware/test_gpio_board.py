"""GpioBoard against simulated diode matrices behind lgpio- and RPi.GPIO-shaped modules."""

from __future__ import annotations

import queue
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.events import BoardSnapshot, LinkStatus, SquareReading
from companion.hardware import pinout
from companion.hardware.gpio_board import GpioBoard
from tests.fake_gpio import FakeLgpio, FakeRPiGPIO, MatrixSim

ROWS, COLS = list(pinout.PI_ROWS), list(pinout.PI_COLS)


def make(kind="switch", module=FakeLgpio, cols=None, **kw):
    cols = COLS if cols is None else cols
    sim = MatrixSim(ROWS, cols)
    fake = module(sim)
    kw.setdefault("delay", sim.sleep)  # the settle wait on the matrix's own clock
    board = GpioBoard(ROWS, cols, kind=kind, backend=fake, clock=lambda: 0.0, **kw)
    return sim, fake, board


def readings(events):
    return [(e.square, e.value) for e in events if isinstance(e, SquareReading)]


@pytest.mark.parametrize("module", [FakeLgpio, FakeRPiGPIO])
def test_connect_posts_link_and_starting_position(module):
    sim, fake, board = make(module=module)
    sim.set_square(0, "1")
    sim.set_square(63, "1")
    events = []
    assert board.connect(events.append)
    assert isinstance(events[0], LinkStatus) and events[0].connected
    assert "8x8 switch" in events[0].detail
    snap = events[1]
    assert isinstance(snap, BoardSnapshot)
    assert [i for i, v in enumerate(snap.values) if v == "1"] == [0, 63]
    assert fake.claimed == set(ROWS) | set(COLS)
    board.stop()
    assert fake.claimed == set()


def test_lgpio_scan_is_sixteen_calls():
    _, fake, board = make()
    board.connect(lambda e: None)
    fake.calls.clear()
    board.scan_once(now=1.0)
    assert dict(fake.calls) == {"group_write": 8, "group_read": 8}


def test_rpigpio_uses_bcm_numbers_and_one_output_call_per_row():
    _, fake, board = make(module=FakeRPiGPIO)
    board.connect(lambda e: None)
    assert fake.mode == fake.BCM
    fake.calls.clear()
    board.scan_once(now=1.0)
    assert dict(fake.calls) == {"output": 8, "input": 64}


@pytest.mark.parametrize("module", [FakeLgpio, FakeRPiGPIO])
def test_press_counts_only_after_debounce(module):
    sim, _, board = make(module=module, debounce_ms=20)
    events = []
    board.connect(events.append)
    events.clear()
    e4 = 3 * 8 + 4
    sim.set_square(e4, "1")
    board.scan_once(now=1.000)
    board.scan_once(now=1.015)
    assert readings(events) == []
    board.scan_once(now=1.020)
    assert readings(events) == [(e4, "1")]
    assert all(e.debounced for e in events)
    board.scan_once(now=1.025)
    assert readings(events) == [(e4, "1")]  # reported once


def test_bounce_counts_once():
    sim, _, board = make(debounce_ms=20)
    events = []
    board.connect(events.append)
    t = 1.0
    for value in "1010110111":  # contact bounce, 2 ms apart, ends closed
        sim.set_square(9, value)
        board.scan_once(now=t)
        t += 0.002
    board.scan_once(now=t + 0.030)
    assert readings(events) == [(9, "1")]


def test_several_pieces_down_show_no_ghosts():
    sim, _, board = make(debounce_ms=0)
    events = []
    board.connect(events.append)
    # three corners of a rectangle: without diodes the fourth would read closed too
    for sq in (0, 5, 8 * 6):
        sim.set_square(sq, "1")
    board.scan_once(now=1.0)
    assert sorted(readings(events)) == [(0, "1"), (5, "1"), (48, "1")]


def test_polarity_board_reads_both_poles():
    cols = COLS + [0, 1, 2, 3, 5, 6, 13, 26]  # any free lines
    sim, _, board = make(kind="polarity", cols=cols, debounce_ms=0)
    events = []
    board.connect(events.append)
    assert set(events[1].values) == {"."}
    sim.set_square(0, "x")
    sim.set_square(1, "o")
    board.scan_once(now=1.0)
    assert sorted(readings(events)) == [(0, "x"), (1, "o")]
    sim.set_square(0, "o")
    sim.set_square(1, ".")
    board.scan_once(now=2.0)
    assert readings(events)[2:] == [(0, "o"), (1, ".")]


def test_request_snapshot_sends_debounced_board():
    sim, _, board = make(debounce_ms=0)
    events = []
    board.connect(events.append)
    sim.set_square(7, "1")
    board.scan_once(now=1.0)
    board.request_snapshot()
    board.scan_once(now=1.1)
    snap = events[-1]
    assert isinstance(snap, BoardSnapshot) and snap.values[7] == "1" and snap.at == 1.1


def test_unusable_backend_is_one_line_not_a_crash():
    board = GpioBoard(ROWS, COLS, backend="nonsense")
    events = []
    assert board.connect(events.append) is False
    assert events == [LinkStatus(False, events[0].detail)]
    assert "nonsense" in events[0].detail and "\n" not in events[0].detail


def test_auto_backend_off_a_pi_says_what_to_install():
    try:
        import lgpio  # noqa: F401

        pytest.skip("lgpio is installed here")
    except ImportError:
        pass
    board = GpioBoard(ROWS, COLS)
    events = []
    assert board.connect(events.append) is False
    assert "no GPIO access" in events[0].detail and "lgpio" in events[0].detail


def test_read_failure_reports_and_thread_reconnects():
    sim, fake, board = make(debounce_ms=0, retry_seconds=0.01, scan_hz=500)
    q: queue.Queue = queue.Queue()
    board.start(q.put)
    try:
        assert q.get(timeout=2).connected
        assert isinstance(q.get(timeout=2), BoardSnapshot)
        sim.fail_reads = 1
        lost = q.get(timeout=2)
        assert lost == LinkStatus(False, lost.detail) and "read failed" in lost.detail
        back = q.get(timeout=2)
        assert isinstance(back, LinkStatus) and back.connected
        assert isinstance(q.get(timeout=2), BoardSnapshot)
        sim.set_square(20, "1")
        got = q.get(timeout=2)
        assert isinstance(got, SquareReading) and (got.square, got.value) == (20, "1")
    finally:
        board.stop()
    assert fake.claimed == set()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"cols": COLS[:7]}, "needs 8 column pins"),
        ({"cols": [ROWS[0], *COLS[1:]]}, "used twice"),
        ({"kind": "weight"}, "sensor kind"),
        ({"scan_hz": 0}, "scan_hz"),
        ({"rows": ROWS[:3], "cols": COLS[:3]}, "rows"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message):
    args = {"rows": ROWS, "cols": COLS, **kwargs}
    with pytest.raises(ValueError, match=message):
        GpioBoard(args.pop("rows"), args.pop("cols"), **args)


# Scans: a list of (square, value) toggles, each followed by a scan `dt` ms later.
scans = st.lists(
    st.tuples(st.integers(0, 63), st.sampled_from("01"), st.integers(1, 30)),
    min_size=1,
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(scans, st.integers(0, 40))
def test_debounce_invariants(steps, debounce_ms):
    """No change shorter than the debounce window is reported, no square is reported twice
    in a row with the same value, and once the matrix is still the report matches it."""
    sim, _, board = make(debounce_ms=debounce_ms)
    events = []
    board.connect(events.append)
    t = 0.0
    board.scan_once(now=t)
    raw_history: dict[int, list[tuple[float, str]]] = {}
    for square, value, dt in steps:
        sim.set_square(square, value)
        t += dt / 1000
        board.scan_once(now=t)
        raw_history.setdefault(square, []).append((t, value))
    t += debounce_ms / 1000 + 0.001
    board.scan_once(now=t)
    last: dict[int, str] = {}
    for e in events:
        if isinstance(e, SquareReading):
            assert last.get(e.square, "0") != e.value
            last[e.square] = e.value
            # the raw value had been e.value, unchanged, for at least the debounce window
            value_then, changed_at = "0", 0.0
            for at, v in raw_history[e.square]:
                if at > e.at:
                    break
                if v != value_then:
                    value_then, changed_at = v, at
            assert value_then == e.value
            assert e.at - changed_at >= debounce_ms / 1000 - 1e-9
    final = ["1" if (r, f) in sim.closed else "0" for r in range(8) for f in range(8)]
    assert list(board.reported) == final


def test_importing_the_driver_loads_no_pi_library():
    code = (
        "import sys, companion.hardware.gpio_board, companion.hardware.pinout;"
        "bad = [m for m in ('lgpio', 'RPi', 'RPi.GPIO') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0
