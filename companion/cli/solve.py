"""``binaryon solve --game G --size 4``: the perfect-play result from the start and a principal
line, by exhaustive search (small boards only), for any game an engine plays."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from companion.games import game_names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        default=game_names()[0],
        help=f"a game an engine plays (default {game_names()[0]})",
    )
    parser.add_argument("--size", type=int, default=4, help="board size (default 4)")
    parser.add_argument("--max-nodes", type=int, default=None, help="give up past this many nodes")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--progress",
        type=int,
        default=0,
        metavar="N",
        help="every N nodes, print nodes, table entries and CPU seconds to stderr",
    )


def run(args: argparse.Namespace) -> int:
    from companion.engines.adapters import adapter_for, new_state
    from companion.engines.search import OutOfTime
    from companion.engines.solve import solve

    try:
        adapter = adapter_for(args.game)
        state = adapter.prepare(new_state(args.game, {"size": args.size}))
    except ValueError as exc:
        print(f"binaryon: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    start = time.monotonic()
    kw = {}
    if args.progress > 0:
        kw = {"progress": _report, "progress_every": args.progress}
    try:
        sol = solve(adapter, state, args.max_nodes, **kw)
    except OutOfTime:
        print(f"binaryon: not solved within {args.max_nodes} nodes", file=sys.stderr)
        return 3
    mover = adapter.mover(state)
    names, s = [], state
    for move in sol.line:
        names.append(move.name)
        s = adapter.play(s, move)
    winner = adapter.winner(s)
    out = {
        "game": args.game,
        "size": args.size,
        "first": mover,
        "result": {1: "first player wins", 0: "draw", -1: "second player wins"}[sol.value],
        "value": sol.value,
        "winner": winner,
        "line": names,
        "nodes": sol.nodes,
        "positions": sol.positions,
        "seconds": round(time.monotonic() - start, 2),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{args.game} {args.size}x{args.size}: {out['result']} ({out['nodes']} nodes)")
        print("line: " + " ".join(names))
    return 0


def _report(solver: Any) -> None:
    """One progress line on stderr."""
    print(
        f"solve: {solver.nodes} nodes, {len(solver.table)} entries, "
        f"{time.process_time():.0f} s CPU",
        file=sys.stderr,
        flush=True,
    )
