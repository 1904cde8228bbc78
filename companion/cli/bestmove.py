"""``binaryon bestmove FILE|- --mover M``: the engine's move in a position file of a game that
reads them (``GameSpec.positions().state``), its value for the mover and the line it expects."""

from __future__ import annotations

import argparse
import json

from companion.cli.score import fail, read_text
from companion.engines.levels import LEVELS
from companion.games import game_names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="position file, or - for stdin")
    parser.add_argument("--mover", required=True, help="the player to move, as the game names them")
    parser.add_argument("--last", metavar="SQ", help="square turned last (none: the opening)")
    parser.add_argument(
        "--game", default=game_names()[0], help=f"the position's game (default {game_names()[0]})"
    )
    parser.add_argument("--level", default="default", choices=LEVELS, help="engine level")
    parser.add_argument("--time", type=float, default=1.0, help="seconds to think (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed for a level's slips")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    import random

    from companion.engines.adapters import adapter_for
    from companion.engines.positions import state_from_text
    from companion.engines.search import WIN, choose

    if not 0 < args.time <= 3600:
        return fail("--time must be above 0 (seconds)")
    try:
        state = state_from_text(args.game, read_text(args.file), args.mover, args.last)
        adapter = adapter_for(args.game)
    except ValueError as exc:
        return fail(str(exc).splitlines()[0] if str(exc) else "bad position")
    if state.is_over():
        return fail("the game is over: no move to make")
    result = choose(adapter, state, args.level, args.time, random.Random(args.seed))
    line, s = [], state
    for move in result.line:
        line.append(move.name)
        s = s.play(move)
    out = {
        "move": result.move.name,
        "value": result.value,
        "line": line,
        "result": "win" if result.value >= WIN else "loss" if result.value <= -WIN else None,
        "depth": result.depth,
        "nodes": result.nodes,
        "level": args.level,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['move']}  value {out['value']}  line {' '.join(line)}")
    return 0
