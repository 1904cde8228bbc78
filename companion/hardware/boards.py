"""Choose the sensor board from the config: ``mock``, ``serial:PORT``, ``auto`` or ``gpio``.

Real drivers are imported only when chosen, so a desktop never imports Pi-only modules.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from companion.core.config import BoardConfig, ConfigError
from companion.hardware.interfaces import SensorBoard

log = logging.getLogger("binaryon")


def make_board(
    cfg: BoardConfig,
    clock: Callable[[], float] = time.monotonic,
    simulate_if_missing: bool = True,
    led_brightness: float | None = None,
) -> SensorBoard:
    """``auto`` finds a Pico on USB; with none there it simulates one, or (for the service)
    waits for the Pico to be plugged in. ``led_brightness`` (0..1, ``[leds] brightness``) goes
    to a board that drives its own LEDs (the Pico), which re-sends it after every reconnect."""
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
    if driver == "mock":
        from companion.testing.mock_board import MockBoard

        return MockBoard(cfg.size, cfg.kind, clock)
    if driver.startswith("serial:"):
        from companion.hardware.serial_board import SerialBoard

        port = driver.split(":", 1)[1]
        if not port:
            raise ConfigError("board driver serial: needs a port, e.g. serial:/dev/ttyACM0")
        level = None if led_brightness is None else round(led_brightness * 255)
        return SerialBoard(port, size=cfg.size, brightness=level)
    if driver == "gpio":
        from companion.hardware import pinout
        from companion.hardware.gpio_board import GpioBoard

        rows = list(cfg.rows or pinout.MATRIX_ROWS)
        cols = list(cfg.cols or pinout.MATRIX_COLS)
        return GpioBoard(
            rows, cols, kind=cfg.kind, scan_hz=cfg.scan_hz, debounce_ms=cfg.debounce_ms
        )
    raise ConfigError(f"board driver {driver!r}: use auto, mock, gpio or serial:PORT")


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
