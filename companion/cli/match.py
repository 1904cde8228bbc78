"""``binaryon match A B --game G --games N``: two players (engine:LEVEL, greedy, random) play
each other with alternating colours; wins, draws, losses and an Elo-style difference."""

from __future__ import annotations

import argparse
import json
import sys

from companion.games import game_names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="engine[:LEVEL], greedy or random")
    parser.add_argument("b", metavar="B", help="engine[:LEVEL], greedy or random")
    parser.add_argument(
        "--game",
        default=game_names()[0],
        help=f"a game an engine plays (default {game_names()[0]})",
    )
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--time", type=float, default=1.0, help="engine seconds per move")
    parser.add_argument("--size", type=int, default=None, help="board size (default the game's)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    from companion.engines.match import run_match
    from companion.engines.players import parse_player

    try:
        for p in (args.a, args.b):
            parse_player(p)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if not args.time > 0:
            raise ValueError("--time must be above 0")
        options = {} if args.size is None else {"size": args.size}
        result = run_match(args.a, args.b, args.game, args.games, args.seed, args.time, options)
    except ValueError as exc:
        print(f"binaryon: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    d = result.as_dict()
    if args.json:
        print(json.dumps(d))
        return 0
    elo = d["elo"] if d["elo"] is not None else d["elo_bound"]
    print(f"{d['a']} vs {d['b']} at {d['game']}, {d['games']} games")
    print(f"wins {d['wins']}  draws {d['draws']}  losses {d['losses']}  score {d['score']}")
    print(f"Elo difference {elo}")
    for colour, c in d["by_colour"].items():
        print(f"  as {colour}: {c['wins']}-{c['draws']}-{c['losses']}")
    return 0
