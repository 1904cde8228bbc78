"""``binaryon legal``: the legal moves of the side to move.

- ``legal FILE --mover M [--game G] [--last SQUARE]``: a position file of a game that reads
  them (``GameSpec.positions().legal``; the first registered game by default), e.g. the squares
  to turn, or the nest moves and those that win;
- ``legal --record RECORD``: any game, after the record's moves (``Positions.legal_record``:
  placements, ``swap``, ``["pass"]`` when only a pass is left, ``[]`` once the game is over).
"""

from __future__ import annotations

import argparse

from companion.cli.rule_args import add_legacy_rule_flags, add_rule_argument, given_rules
from companion.cli.score import fail, print_json, read_text
from companion.games import game_names, get_spec

_RESERVED = {"file", "mover", "last", "json", "rule", "game", "record"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", nargs="?", help="position file, or - for stdin")
    parser.add_argument("--mover", help="the player to move, as the game names them")
    parser.add_argument(
        "--game", default=None, help=f"the position's game (default {game_names()[0]})"
    )
    parser.add_argument(
        "--record", metavar="RECORD", help="a game record (any game), or - for stdin"
    )
    parser.add_argument("--last", default=None, help="last square turned (omit: opening move)")
    parser.add_argument("--json", action="store_true", help='print {"moves": [...]}')
    add_rule_argument(parser, "opening=majority")


def add_arguments_for(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    add_legacy_rule_flags(parser, argv, _RESERVED)


def _record(args: argparse.Namespace) -> int:
    from companion.records.check import read_record
    from companion.records.format import RecordError

    if args.file:
        return fail("give a position FILE or --record RECORD, not both")
    try:
        rec, state = read_record(args.record)
    except RecordError as exc:
        return fail(str(exc))
    if args.game and args.game != rec.game:
        return fail(f"--game {args.game}, but {args.record} is a {rec.game} game")
    result = get_spec(rec.game).positions().legal_record(state)
    if args.json:
        print_json(result)
    elif result["moves"]:
        print(" ".join(result["moves"]))
    else:
        print(f"{' and '.join(sorted(state.to_act)) or 'nobody'} has no legal move")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.record:
        return _record(args)
    game = args.game or game_names()[0]
    try:
        spec = get_spec(game)
    except ValueError as exc:
        return fail(str(exc))
    positions = spec.positions()
    if not positions.movers:
        return fail(f"legal FILE reads no {game} positions; use --record for {game}")
    if not args.file:
        return fail("give a position FILE (or - for stdin), or --record RECORD")
    if args.mover not in positions.movers:
        return fail("--mover " + " or --mover ".join(positions.movers))
    try:
        given = given_rules(args)
        result = positions.legal(read_text(args.file), args.mover, given, args.last)
    except ValueError as exc:
        return fail(str(exc).splitlines()[0] if str(exc) else "bad input")
    if result is None:
        return fail(f"legal FILE reads no {game} positions; use --record for {game}")
    if args.json:
        print_json(result)
    else:
        print(positions.describe_legal(result, args.mover))
    return 0
