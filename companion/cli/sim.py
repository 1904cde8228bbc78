"""``binaryon sim``: play on simulated hardware in this terminal. ``--link serial`` runs the
Pico firmware's own logic on this machine and talks to it through a pseudo-terminal, so the
whole path (matrix scan, debounce, protocol, pyserial, daemon) is exercised."""

from __future__ import annotations

import argparse
import sys

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


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_daemon_arguments(p)
    p.add_argument(
        "--link",
        choices=("mock", "serial"),
        default="mock",
        help="mock: a simulated board in-process; serial: the firmware through a pty",
    )


def run(args: argparse.Namespace) -> int:
    setup_logging(args.verbose)
    if args.board:
        print("binaryon: sim always uses a simulated board (use run --board)", file=sys.stderr)
        return 2
    args.board = "mock"
    try:
        config = config_from_args(args)
        voice_to, listen_from = voice_paths(args)
    except (ConfigError, ValueError) as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    from companion.service.app import build_daemon
    from companion.service.simulator import Simulator

    pico = board = None
    try:
        if args.link == "serial":
            from companion.hardware.serial_board import SerialBoard
            from companion.hardware.simulated.pico_sim import SimulatedPico

            pico = SimulatedPico(size=config.board.size, kind=config.board.kind)
            board = SerialBoard(
                pico.port,
                size=config.board.size,
                brightness=round(config.leds.brightness * 255),
            )
        daemon, closers = build_daemon(
            config, board=board, simulated=True, voice_to=voice_to, listen_from=listen_from
        )
        controller = daemon.board if pico is None else pico  # what the simulator presses
    except (ConfigError, ValueError, OSError, JournalError, HardwareError) as e:
        print(f"binaryon: {e}", file=sys.stderr)
        if pico is not None:
            pico.close()
        return 2
    try:
        quiet_while_simulating(args.verbose)
        daemon.start()
        Simulator(daemon, controller).run()
    finally:
        daemon.stop()
        for close in closers:
            close()
        if pico is not None:
            pico.close()
    return 0
