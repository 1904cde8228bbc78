"""``binaryon score FILE|-``: score a finished position and say which lines decide it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.games import game_names, get_spec
from companion.games.base import Option

_RESERVED = {"game", "json", "file", "mover", "last"}


def fail(reason: str) -> int:
    """Report a one-line error on stderr; the exit status for bad input."""
    print(f"binaryon: {reason}", file=sys.stderr)
    return 2


def game_options(names: list[str]) -> list[Option]:
    """Every rule option of the given games, deduplicated by name (first one wins).

    A game whose module is missing or broken is skipped here: its options simply have no flag,
    and choosing that game reports the problem when it is loaded.
    """
    seen: dict[str, Option] = {}
    for name in names:
        try:
            spec = get_spec(name)
        except (ImportError, AttributeError, SyntaxError):
            continue
        for option in spec.options:
            if option.name not in _RESERVED:
                seen.setdefault(option.name, option)
    return list(seen.values())


def add_rule_flags(parser: argparse.ArgumentParser, options: list[Option]) -> None:
    group = parser.add_argument_group("rule options")
    for option in options:
        flags = [f"--{option.name.replace('_', '-')}"]
        if "_" in option.name:
            flags.append(f"--{option.name}")
        group.add_argument(
            *flags,
            dest=f"rule_{option.name}",
            default=None,
            metavar="VALUE",
            help=f"{option.help} (default {option.default!r})",
        )


def given_rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The rule flags actually given on the command line, by option name."""
    return {
        key[len("rule_") :]: value
        for key, value in vars(args).items()
        if key.startswith("rule_") and value is not None
    }


def read_text(path: str) -> str:
    """The file's text, or stdin for '-'; ValueError with a one-line reason."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file") from None
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", nargs="?", help="position file, or - for stdin")
    parser.add_argument(
        "--record", metavar="RECORD", help="score the final position of a game record instead"
    )
    parser.add_argument("--game", default="binaryon", help="game to score (default binaryon)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    add_rule_flags(parser, game_options(game_names()))


def run(args: argparse.Namespace) -> int:
    text = None
    record_options: dict[str, Any] = {}
    if args.record:
        if args.file:
            return fail("give a position FILE or --record RECORD, not both")
        from companion.journal.records import RecordError, final_position_text

        try:
            args.game, record_options, text = final_position_text(args.record)
        except RecordError as exc:
            return fail(str(exc))
    elif not args.file:
        return fail("give a position FILE (or - for stdin), or --record RECORD")
    try:
        spec = get_spec(args.game)
    except ValueError as exc:
        return fail(str(exc))
    except ImportError:
        return fail(f"game {args.game!r} is not available")
    if not hasattr(spec, "score_position"):
        return fail(f"game {args.game!r} cannot score a position")
    given = {**record_options, **given_rule_options(args)}
    try:
        if text is None:
            text = read_text(args.file)
        if args.json:
            result = spec.score_position(text, given)
            print(json.dumps(result))
        else:
            sys.stdout.write(spec.describe_score(text, given))
    except ValueError as exc:
        return fail(str(exc).splitlines()[0] if str(exc) else "bad input")
    return 0
