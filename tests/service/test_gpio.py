"""The daemon running on a GPIO-scanned board (a simulated diode matrix behind a fake lgpio):
presses on the matrix become moves, through the real scan thread and the daemon's loop."""

from __future__ import annotations

import time

from companion.core.config import Config
from companion.core.squares import parse_square
from companion.hardware import pinout
from companion.hardware.gpio_board import GpioBoard
from companion.service.daemon import Daemon
from tests.fake_gpio import FakeLgpio, MatrixSim


def eventually(predicate, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


def press(sim: MatrixSim, d: Daemon, name: str) -> None:
    square = parse_square(name)
    sim.set_square(square, "1")
    assert eventually(lambda: d.board.reported[square] == "1")
    sim.set_square(square, "0")
    assert eventually(lambda: d.board.reported[square] == "0")
    d.wait_idle(5)


def test_daemon_plays_from_the_gpio_matrix():
    sim = MatrixSim(pinout.MATRIX_ROWS, pinout.MATRIX_COLS)
    fake = FakeLgpio(sim)
    board = GpioBoard(
        pinout.MATRIX_ROWS, pinout.MATRIX_COLS, backend=fake, scan_hz=1000, debounce_ms=5
    )
    d = Daemon(Config.default(), board=board)
    d.start()
    try:
        assert d.wait_idle(5)
        assert fake.claimed == set(pinout.MATRIX_ROWS) | set(pinout.MATRIX_COLS)
        press(sim, d, "e5")
        assert eventually(lambda: d.session.moves == ["e5"])
        assert d.session.state.turn == "off"
        press(sim, d, "d4")
        assert eventually(lambda: d.session.moves == ["e5", "d4"])
        press(sim, d, "f5")  # not in line with d4: refused, nothing changes
        assert d.wait_idle(5)
        assert d.session.moves == ["e5", "d4"]
        assert d.marks().refused == parse_square("f5") and d.message
    finally:
        d.stop()
    assert fake.claimed == set()  # every line released on stop


def test_board_gpio_off_a_pi_reports_instead_of_crashing():
    """`--board gpio` on a desktop: the default backend cannot open, the daemon says so."""
    from companion.hardware.boards import make_board

    cfg = Config.default().with_overrides(board={"driver": "gpio"})
    board = make_board(cfg.board)
    assert isinstance(board, GpioBoard)
    assert (board.rows, board.cols) == (list(pinout.MATRIX_ROWS), list(pinout.MATRIX_COLS))
    try:
        import lgpio  # noqa: F401

        return  # on a Pi the real backend would open: nothing to check here
    except ImportError:
        pass
    board.retry_seconds = 60
    d = Daemon(cfg, board=board)
    d.start()
    try:
        assert d.wait_idle(5)
        assert not board.connected
        assert d.session.moves == []
    finally:
        d.stop()
