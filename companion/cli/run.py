"""``binaryon run``: the companion. With no board attached it runs on the simulated board in
this terminal; with a board (Pico on USB, or GPIO) it runs as the service."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys

from companion.cli.daemon_options import (
    add_daemon_arguments,
    config_from_args,
    quiet_while_simulating,
    setup_logging,
)
from companion.core.config import ConfigError
from companion.hardware.interfaces import HardwareError
from companion.journal.api import JournalError

log = logging.getLogger("binaryon")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_daemon_arguments(p)
    p.add_argument(
        "--service",
        action="store_true",
        help="run as the service: never simulate, wait for the board (implied under systemd)",
    )


def run(args: argparse.Namespace) -> int:
    setup_logging(args.verbose)
    try:
        config = config_from_args(args)
        from companion.service.app import build_daemon

        service = args.service or "INVOCATION_ID" in os.environ  # systemd sets it
        daemon, closers = build_daemon(config, service=service)
    except (ConfigError, ValueError, OSError, JournalError, HardwareError) as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    from companion.testing.mock_board import MockBoard

    try:
        if isinstance(daemon.board, MockBoard):
            from companion.service.simulator import Simulator

            log.info("no board: playing on the simulated board (type help)")
            quiet_while_simulating(args.verbose)
            daemon.start()
            Simulator(daemon, daemon.board).run()
        else:
            signal.signal(signal.SIGTERM, lambda *_: daemon.loop.stop())
            log.info("running %s on %s", config.game.name, config.board.driver)
            daemon.run()
    finally:
        daemon.stop()
        for close in closers:
            close()
    return 0
