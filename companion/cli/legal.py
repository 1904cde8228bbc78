"""``binaryon legal FILE --mover on|off [--last SQUARE]``: the squares the mover may turn."""

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
    parser.add_argument("file", metavar="FILE", help="position file, or - for stdin")
    parser.add_argument("--mover", required=True, choices=("on", "off"), help="player to move")
    parser.add_argument("--last", default=None, help="last square turned (omit: opening move)")
    parser.add_argument("--json", action="store_true", help='print {"moves": [...]}')
    add_rule_argument(parser, "opening=majority")
    add_legacy_rule_flags(parser, list(OPTIONS), {"file", "mover", "last", "json", "rule"})


def run(args: argparse.Namespace) -> int:
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
