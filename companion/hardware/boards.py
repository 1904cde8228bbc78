"""Choose the sensor board from the config: ``mock`` (the simulated board), ``serial:PORT``,
``gpio`` or ``auto``, each made by its factory in the BOARDS registry.

Real drivers are imported only when chosen, so a desktop never imports Pi-only modules.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from companion import PROGRAM
from companion.core.config import BoardConfig, ConfigError
from companion.hardware.interfaces import SensorBoard

log = logging.getLogger(PROGRAM)


# A board factory: (the [board] config, the port or "" after "serial:", a clock, the LEDs'
# brightness 0..1 or None) -> the board.
BoardFactory = Callable[[BoardConfig, str, Callable[[], float], float | None], SensorBoard]


def _mock(cfg: BoardConfig, port: str, clock: Callable[[], float], _: float | None) -> SensorBoard:
    from companion.hardware.simulated.mock_board import MockBoard

    return MockBoard(cfg.size, cfg.kind, clock)


def _serial(cfg: BoardConfig, port: str, clock: Callable[[], float], led: float | None):
    from companion.hardware.serial_board import SerialBoard

    if not port:
        raise ConfigError("board driver serial: needs a port, e.g. serial:/dev/ttyACM0")
    level = None if led is None else round(led * 255)
    return SerialBoard(port, size=cfg.size, brightness=level)


def _gpio(cfg: BoardConfig, port: str, clock: Callable[[], float], _: float | None):
    from companion.hardware import pinout
    from companion.hardware.gpio_board import GpioBoard

    rows = list(cfg.rows or pinout.MATRIX_ROWS)
    cols = list(cfg.cols or pinout.MATRIX_COLS)
    return GpioBoard(rows, cols, kind=cfg.kind, scan_hz=cfg.scan_hz, debounce_ms=cfg.debounce_ms)


# [board] driver -> its factory; "serial:PORT" is the "serial" driver with PORT. "auto" is
# not a board: it finds the Pico, else the simulated board (see make_board).
BOARDS: dict[str, BoardFactory] = {"mock": _mock, "serial": _serial, "gpio": _gpio}


def driver_problem(driver: str) -> str | None:
    """Why ``[board] driver`` names no board, or None."""
    kind = driver.split(":", 1)[0] if driver.startswith("serial:") else driver
    if driver == "auto" or (kind in BOARDS and (kind == "serial") == (":" in driver)):
        return None
    others = ", ".join(k for k in BOARDS if k != "serial")
    return f"driver {driver!r}: use auto, {others} or serial:PORT"


def make_board(
    cfg: BoardConfig,
    clock: Callable[[], float] = time.monotonic,
    simulate_if_missing: bool = True,
    led_brightness: float | None = None,
) -> SensorBoard:
    """The board ``[board] driver`` names, made by its factory in BOARDS. ``auto`` finds a Pico
    on USB; with none there it simulates one, or (for the service) waits for the Pico to be
    plugged in. ``led_brightness`` (0..1, ``[leds] brightness``) goes to a board that drives
    its own LEDs (the Pico), which re-sends it after every reconnect."""
    driver = cfg.driver
    if driver == "auto":
        port = find_board_port()
        if port is not None:
            driver = f"serial:{port}"
        elif simulate_if_missing:
            log.info("no board found: using the simulated board")
            driver = "mock"
        else:
            log.info("no board found yet: waiting for the Pico on USB")
            driver = "serial:auto"
    if problem := driver_problem(driver):
        raise ConfigError(f"board {problem}")
    kind, _, port = driver.partition(":")
    return BOARDS[kind](cfg, port, clock, led_brightness)


def find_board_port() -> str | None:
    """The serial port of a Pico running our firmware (udev symlink first, then USB id)."""
    import os

    from companion.hardware.pico_port import BoardNotFound, find_pico_port

    if os.path.exists("/dev/binaryon-board"):
        return "/dev/binaryon-board"
    try:
        return find_pico_port()
    except BoardNotFound:
        return None
