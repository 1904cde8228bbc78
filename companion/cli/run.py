"""``binaryon run``: the companion. With no board attached it runs on the simulated board in
this terminal; with a board (Pico on USB, or GPIO) it runs as the service."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys

from companion import PROGRAM
from companion.cli.daemon_options import (
    add_daemon_arguments,
    config_from_args,
    quiet_while_simulating,
    setup_logging,
    voice_paths,
)
from companion.core.config import ConfigError
from companion.hardware.interfaces import HardwareError
from companion.journal.api import JournalError
from companion.service.config_check import game_name

log = logging.getLogger(PROGRAM)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_daemon_arguments(p)
    p.add_argument(
        "--service",
        action="store_true",
        help="run as the service: never simulate, wait for the board (implied under systemd)",
    )
    p.add_argument(
        "--wait",
        action="store_true",
        help="a board that cannot be opened yet is waited for instead of an error "
        "(implied by --service)",
    )


def gpio_problem(config) -> str | None:
    """Why the GPIO matrix cannot be opened now (no GPIO library, no access), or None."""
    from companion.hardware import pinout
    from companion.hardware.gpio_board import GpioError, open_matrix

    rows = list(config.board.rows or pinout.MATRIX_ROWS)
    cols = list(config.board.cols or pinout.MATRIX_COLS)
    try:
        open_matrix("auto", rows, cols).close()
    except GpioError as e:
        return str(e)
    return None


def run(args: argparse.Namespace) -> int:
    setup_logging(args.verbose)
    try:
        config = config_from_args(args)
        voice_to, listen_from = voice_paths(args)
        from companion.service.app import build_daemon

        service = args.service or "INVOCATION_ID" in os.environ  # systemd sets it
        gpio_now = config.board.driver == "gpio" and not (args.wait or service)
        if gpio_now and (why := gpio_problem(config)):
            raise HardwareError(f"board gpio: {why} (--wait to wait for it)")
        # a service is ready before its pages and club link (started once the table is up)
        daemon, closers = build_daemon(
            config, service=service, later=service, voice_to=voice_to, listen_from=listen_from
        )
    except (ConfigError, ValueError, OSError, JournalError, HardwareError) as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    try:
        if daemon.board.simulated:
            from companion.service.simulator import Simulator

            quiet_while_simulating(args.verbose)
            daemon.start()
            Simulator(daemon, daemon.board).run()
        else:
            signal.signal(signal.SIGTERM, lambda *_: daemon.loop.stop())
            log.info("running %s on %s", game_name(config), config.board.driver)
            daemon.run()
    finally:
        daemon.stop()
        for close in closers:
            close()
    return 0
