"""``binaryon legal``: the legal moves of the side to move.

- ``legal FILE --mover on|off [--last SQUARE]``: a Binaryon position, the squares to turn;
- ``legal --game latent-binaries FILE --mover rainbow|xeno``: a public Latent Binaries
  position, the nest moves and those that win;
- ``legal --record RECORD``: any game, after the record's moves (placements, ``swap``,
  ``["pass"]`` when only a pass is left, ``[]`` once the game is over).
"""

from __future__ import annotations

import argparse
import json

from companion.cli.rule_args import add_legacy_rule_flags, add_rule_argument, given_rules
from companion.cli.score import fail, read_text
from companion.core.position_text import parse_position
from companion.core.squares import parse_square, square_name
from companion.games.binaryon.engine import legal_squares
from companion.games.binaryon.options import OPTIONS, resolve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", nargs="?", help="position file, or - for stdin")
    parser.add_argument("--mover", help="player to move: on|off (Binaryon), rainbow|xeno")
    parser.add_argument("--game", default=None, help="binaryon (default) or latent-binaries")
    parser.add_argument(
        "--record", metavar="RECORD", help="a game record (any game), or - for stdin"
    )
    parser.add_argument("--last", default=None, help="last square turned (omit: opening move)")
    parser.add_argument("--json", action="store_true", help='print {"moves": [...]}')
    add_rule_argument(parser, "opening=majority")
    add_legacy_rule_flags(
        parser, list(OPTIONS), {"file", "mover", "last", "json", "rule", "game", "record"}
    )


def _print(result: dict[str, list[str]], as_json: bool, mover: str) -> int:
    if as_json:
        print(json.dumps(result))
    elif result["moves"]:
        print(" ".join(result["moves"]))
    else:
        print(f"{mover} has no legal move")
    return 0


def _record(args: argparse.Namespace) -> int:
    from companion.games import get_spec
    from companion.journal.records import RecordError, read_record

    if args.file:
        return fail("give a position FILE or --record RECORD, not both")
    try:
        rec, state = read_record(args.record)
    except RecordError as exc:
        return fail(str(exc))
    if args.game and args.game != rec.game:
        return fail(f"--game {args.game}, but {args.record} is a {rec.game} game")
    spec = get_spec(rec.game)
    hook = getattr(spec, "legal_record", None)
    if hook is not None:
        result = hook(state)
    else:
        names = list(dict.fromkeys(state.move_name(m) for m in state.legal_moves()))
        result = {"moves": names}
    return _print(result, args.json, " and ".join(sorted(state.to_act)) or "nobody")


def _latent(args: argparse.Namespace) -> int:
    from companion.games import get_spec

    if not args.file:
        return fail("give a position FILE (or - for stdin)")
    if args.mover not in ("rainbow", "xeno"):
        return fail("--mover rainbow or --mover xeno")
    try:
        result = get_spec("latent-binaries").legal_position(read_text(args.file), args.mover)
    except ValueError as exc:
        return fail(str(exc))
    _print(result, args.json, args.mover)
    if not args.json and result["winning"]:
        print("winning: " + " ".join(result["winning"]))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.record:
        return _record(args)
    if args.game == "latent-binaries":
        return _latent(args)
    if args.game not in (None, "binaryon"):
        return fail(
            f"legal FILE reads Binaryon or Latent Binaries positions; use --record for {args.game}"
        )
    if not args.file:
        return fail("give a position FILE (or - for stdin), or --record RECORD")
    if args.mover not in ("on", "off"):
        return fail("--mover on or --mover off")
    try:
        given = given_rules(args)
        n, cells = parse_position(read_text(args.file))
        if "size" in given and resolve({"size": given["size"]})["size"] != n:
            raise ValueError(f"position is {n}x{n} but size is {given['size']}")
        options = resolve({**given, "size": n})
    except ValueError as exc:
        return fail(str(exc))
    try:
        last = None if args.last is None else parse_square(args.last, n)
    except ValueError as exc:
        return fail(f"--last {exc}")
    try:
        moves = legal_squares(cells, n, args.mover, last, options)
    except ValueError as exc:
        return fail(str(exc))
    names = [square_name(s, n) for s in moves]
    if args.json:
        print(json.dumps({"moves": names}))
    elif names:
        print(" ".join(names))
    else:
        print(f"{args.mover.upper()} has no legal move: pass")
    return 0
