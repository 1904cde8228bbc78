"""``binaryon noughts-rows``: a command the game brings (registered with it: ``COMMANDS`` in
tests/games/test_toy_game.py)."""

from __future__ import annotations

import argparse

from tests.toy_game.engine import cell_name, lines_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, choices=(3, 4), default=3)


def run(args: argparse.Namespace) -> int:
    for line in lines_of(args.size):
        print("-".join(cell_name(c, args.size) for c in line))
    return 0
