"""``binaryon lines`` (a command Binaryon brings, registered in companion/games): every line of
the board, each reading direction separately."""

from __future__ import annotations

import argparse
import json
import sys

from companion import PROGRAM
from companion.games.binaryon.lines import all_lines
from companion.games.binaryon.options import resolve
from companion.games.binaryon.scoring import line_names
from companion.games.options import rule_pairs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", default="8", help="board size n, even 4..16 (default 8)")
    parser.add_argument("--json", action="store_true", help='print {"lines": [[...], ...]}')
    parser.add_argument(  # the same convention as every command's --rule
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="e.g. --rule size=6"
    )


def run(args: argparse.Namespace) -> int:
    try:
        n = resolve({"size": args.size, **rule_pairs(args.rule)})["size"]
    except ValueError as exc:
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return 2
    lines = [line_names(line, n) for line in all_lines(n)]
    if args.json:
        print(json.dumps({"lines": lines}))
    else:
        for line in lines:
            print("-".join(line))
        print(f"{len(lines)} lines on {n}x{n}")
    return 0
