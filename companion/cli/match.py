"""``binaryon match A B --game G --games N``: two players (engine:LEVEL, greedy, careful,
random) play each other with alternating colours; wins, draws, losses and an Elo-style
difference. ``binaryon match --ladder``: the ladder of levels, each against the one below it,
the weakest against a greedy player and a careful one (who only avoids blunders)."""

from __future__ import annotations

import argparse
import json
import sys

from companion.games import game_names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "a", metavar="A", nargs="?", help="engine[:LEVEL], greedy, careful or random"
    )
    parser.add_argument(
        "b", metavar="B", nargs="?", help="engine[:LEVEL], greedy, careful or random"
    )
    parser.add_argument(
        "--ladder", action="store_true", help="the ladder of levels instead of A against B"
    )
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


def run_ladder(args: argparse.Namespace, options: dict) -> int:
    """The ladder, a line per match as it ends (JSON: one list at the end)."""
    from companion.engines.match import ladder

    if not args.json:
        print(f"the ladder at {args.game}: {args.games} games a match, {args.time:g} s a move")

    def line(m) -> None:
        if args.json:
            return
        d = m.as_dict()
        elo = d["elo"] if d["elo"] is not None else d["elo_bound"]
        a, b = m.a.removeprefix("engine:"), m.b.removeprefix("engine:")
        print(
            f"  {a:<10} vs {b:<10} {d['wins']}-{d['draws']}-{d['losses']}  "
            f"score {d['score']}  Elo {elo}",
            flush=True,
        )

    results = ladder(args.game, args.games, args.seed, args.time, options, line)
    if args.json:
        print(json.dumps([m.as_dict() for m in results]))
    return 0


def run(args: argparse.Namespace) -> int:
    from companion.engines.match import run_match
    from companion.engines.players import parse_player

    try:
        if args.ladder and (args.a or args.b):
            raise ValueError("--ladder plays the levels: give no players A and B")
        if not args.ladder and not (args.a and args.b):
            raise ValueError("give two players A and B, or --ladder")
        for p in (args.a, args.b):
            if p:
                parse_player(p)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if not args.time > 0:
            raise ValueError("--time must be above 0")
        options = {} if args.size is None else {"size": args.size}
        if args.ladder:
            return run_ladder(args, options)
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
