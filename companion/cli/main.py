"""The ``binaryon`` command. Each subcommand lives in companion/cli/<name>.py and is
imported only when chosen, so ``binaryon score`` never loads display or hardware code."""
# (this docstring is for developers; DESCRIPTION below is what --help shows)

from __future__ import annotations

import argparse
import os
import sys
from functools import cache
from importlib import import_module

from companion import PROGRAM, package_version
from companion.games import game_commands, game_names

# name -> (module, one-line help). Modules define add_arguments(parser) and run(args) -> int.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("companion.cli.run", "run the companion (simulated board when none is found)"),
    "sim": ("companion.cli.sim", "play on simulated hardware in this terminal"),
    "score": ("companion.cli.score", "score a position (file or - for stdin)"),
    "legal": ("companion.cli.legal", "list the legal moves in a position or after a record"),
    "say": ("companion.cli.say", "speak one line with the [voice] settings (--to DIR: a WAV)"),
    "doctor": (
        "companion.cli.doctor",
        "check the Pi's hardware and say how to fix what is missing",
    ),
    "firmware": (
        "companion.cli.firmware",
        "flash the Pico's firmware with settings from the companion's config",
    ),
    "install-service": (
        "companion.cli.install_service",
        "install and start the systemd service (Raspberry Pi OS)",
    ),
    "history": ("companion.cli.history", "list the games in the journal with results"),
    "export": ("companion.cli.export", "write a game from the journal as a text record"),
    "import": ("companion.cli.import_record", "check a text record and add it to the journal"),
    "replay": ("companion.cli.replay", "step through a game record on the simulated board"),
    "review": ("companion.cli.review", "the engine's review of a finished game, move by move"),
    "abandon": ("companion.cli.abandon", "abandon the game in progress (kept in history)"),
    "resume": ("companion.cli.resume", "take a paused game up again (see history)"),
    "backup": ("companion.cli.backup", "copy the journal safely, even while the daemon runs"),
    "restore": ("companion.cli.restore", "put a backup back as the journal (daemon stopped)"),
    "accept-loss": (
        "companion.cli.accept_loss",
        "stop saying that the journal lost moves (a lost WAL), once dealt with",
    ),
    "invite": ("companion.cli.invite", "print the table page's and each player's page address"),
    "bestmove": ("companion.cli.bestmove", "the engine's move in a position (file or - for stdin)"),
    "solve": ("companion.cli.solve", "solve a small board: the perfect-play result from the start"),
    "match": (
        "companion.cli.match",
        "play engines, greedy, careful and random players against each other; --ladder",
    ),
    "club": ("companion.cli.club", "the club's hub: every board on an MQTT broker, results"),
    "event": ("companion.cli.event", "run a tournament: pairings, results, corrections, standings"),
}


DESCRIPTION = """\
Referee, scorer and record keeper for games played on an 8x8 sensor board.
With no board attached, `binaryon run` plays on a simulated board in this
terminal. Games: {games}."""

EPILOG = """\
Rule options are given the same way everywhere: --rule NAME=VALUE, repeatable
(e.g. --rule first=off). `binaryon COMMAND --help` lists a command's options."""


class _Version(argparse.Action):
    """argparse's "version" action (``companion.VERSION``: no package metadata to read)."""

    def __init__(self, option_strings, dest, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"binaryon {package_version()}")
        parser.exit()


def all_commands() -> dict[str, tuple[str, str]]:
    """The core commands, then those the registered games bring (named in the registry)."""
    return {**COMMANDS, **{k: v for k, v in game_commands().items() if k not in COMMANDS}}


@cache
def _width() -> int:
    """The terminal's width as argparse's formatter finds it (``$COLUMNS``, else the
    terminal's, else 80), found once: argparse asks at every argument it adds, and the
    shutil it asks through costs more than a short command's whole run."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else 80) - 2


class _HelpFormatter(argparse.HelpFormatter):
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        super().__init__(prog, indent_increment, max_help_position, width or _width())


class _RawDescriptionFormatter(argparse.RawDescriptionHelpFormatter, _HelpFormatter):
    pass


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description=DESCRIPTION.format(games=", ".join(game_names())),
        epilog=EPILOG,
        formatter_class=_RawDescriptionFormatter,
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = all_commands()
    chosen = next((a for a in argv if not a.startswith("-")), None)
    if chosen in commands:  # its parser alone: the others' are for --help and mistakes
        commands = {chosen: commands[chosen]}
    elif chosen is None and "--version" in argv and not {"-h", "--help"} & set(argv):
        commands = {}
    for name, (module, help_text) in commands.items():
        p = sub.add_parser(
            name, help=help_text, description=help_text, formatter_class=_HelpFormatter
        )
        if name == chosen:  # only the chosen command's module is imported
            command = import_module(module)
            command.add_arguments(p)
            if hasattr(command, "add_arguments_for"):  # options that depend on what is given
                command.add_arguments_for(p, argv)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    module = import_module(all_commands()[args.command][0])
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
