"""Engine (default level) against the greedy player on Binaryon, Binary and Wythe.

The target (issue 15): the engine wins >= 95% of games with each colour. Prints one JSON line
per game and the share of wins by colour. Usage:

    .venv/bin/python benchmarks/bench_engines.py [--games N] [--time S] [--game G ...]
"""

from __future__ import annotations

import argparse
import json
import time

from companion.engines.match import run_match


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=1.0, help="engine seconds per move")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", choices=("binaryon", "binary", "wythe"))
    args = parser.parse_args()
    for game in args.game or ("binaryon", "binary", "wythe"):
        start = time.monotonic()
        result = run_match("engine:default", "greedy", game, args.games, args.seed, args.time)
        d = result.as_dict()
        d["seconds"] = round(time.monotonic() - start, 1)
        d["time_per_move"] = args.time
        print(json.dumps(d), flush=True)
        for colour, c in d["by_colour"].items():
            played = sum(c.values())
            share = c["wins"] / played if played else 0.0
            mark = "ok" if share >= 0.95 else "BELOW TARGET"
            print(f"  {game} engine as {colour}: {c['wins']}/{played} wins ({share:.0%}) {mark}")


if __name__ == "__main__":
    main()
