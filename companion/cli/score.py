"""``binaryon score FILE|-``: score a position (``GameSpec.positions().score``) or a record's
final state (``score_record``, else its final position, else its result) and say why."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.rule_args import add_legacy_rule_flags, add_rule_argument, given_rules
from companion.core import text_input
from companion.games import DEFAULT_GAME, get_spec

_RESERVED = {"game", "json", "file", "mover", "last", "record", "rule"}
POSITION_LIMIT = 1 << 20  # bytes: a 16x16 diagram with a long caption is a few KiB


def fail(reason: str) -> int:
    """Report a one-line error on stderr; the exit status for bad input."""
    print(f"binaryon: {reason}", file=sys.stderr)
    return 2


def print_json(value: Any) -> None:
    """``value`` as one line of JSON (json is imported only for ``--json``)."""
    import json

    print(json.dumps(value))


def read_text(path: str, limit: int = POSITION_LIMIT) -> str:
    """A position's text, or stdin for '-'; ValueError with a one-line reason. More than
    ``limit`` bytes is refused rather than read for ever."""
    return text_input.read_text(path, limit, "a position", f"more than {limit // 1024} KiB")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", nargs="?", help="position file, or - for stdin")
    parser.add_argument(
        "--record",
        metavar="RECORD",
        help="score the final position of a game record instead (- for stdin)",
    )
    parser.add_argument(
        "--game",
        default=None,
        help=f"game to score (default {DEFAULT_GAME}; a record names its own)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    add_rule_argument(parser, "scoring=orthogonal")


def add_arguments_for(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    add_legacy_rule_flags(parser, argv, _RESERVED)


def run(args: argparse.Namespace) -> int:
    text = None
    record_options: dict[str, Any] = {}
    game = args.game or DEFAULT_GAME
    if args.record:
        if args.file:
            return fail("give a position FILE or --record RECORD, not both")
        from companion.records.check import final_position_text, read_record
        from companion.records.format import RecordError

        try:
            rec, state = read_record(args.record)
            if args.game and args.game != rec.game:
                return fail(f"--game {args.game}, but {args.record} is a {rec.game} game")
            spec = get_spec(rec.game)
            if args.json:  # a game that scores its own state (``Positions.score_record``)
                scored = spec.positions().score_record(state)
                if scored is not None:
                    print_json(scored)
                    return 0
            else:
                words = spec.positions().describe_record(state)
                if words is not None:
                    sys.stdout.write(words.rstrip("\n") + "\n")
                    return 0
            if getattr(state, "cells", None) is None or getattr(state, "n", None) is None:
                return _score_outcome(state, args.json)  # no board position: the result
            game, record_options, text = final_position_text(args.record, (rec, state))
        except RecordError as exc:
            return fail(str(exc))
    elif not args.file:
        return fail("give a position FILE (or - for stdin), or --record RECORD")
    try:
        spec = get_spec(game)
    except ValueError as exc:
        return fail(str(exc))
    except ImportError:
        return fail(f"game {game!r} is not available")
    try:
        given = {**record_options, **given_rules(args)}
        if text is None:
            text = read_text(args.file)
        if args.json:
            result = spec.positions().score(text, given)
            if result is not None:
                print_json(result)
        else:
            result = spec.positions().describe_score(text, given)
            if result is not None:
                sys.stdout.write(result)
    except ValueError as exc:
        return fail(str(exc).splitlines()[0] if str(exc) else "bad input")
    if result is None:
        return fail(f"game {game!r} cannot score a position")
    return 0


def _score_outcome(state: Any, as_json: bool) -> int:
    """A record of a game with no board position to score (no board, or a hidden one): the
    result the moves give, with why."""
    outcome = state.outcome() if state.is_over() else None
    if as_json:
        print_json({
            "over": outcome is not None,
            "winners": list(outcome.winners) if outcome else [],
            "summary": outcome.summary if outcome else "not finished",
            "reason": outcome.reason if outcome else "",
        })  # fmt: skip
    elif outcome is None:
        print("not finished")
    else:
        print(f"{outcome.summary}: {outcome.reason}" if outcome.reason else outcome.summary)
    return 0
