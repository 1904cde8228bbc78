"""Speed of the Binaryon engine on one core: positions scored per second and random full games
per second (legal moves chosen at random until both players pass).

    .venv/bin/python benchmarks/bench_rules.py [--size 8] [--seconds 2]
"""

from __future__ import annotations

import argparse
import random
import time

from companion.games.binaryon.engine import BinaryonState
from companion.games.binaryon.scoring import score_bitboard
from companion.games.binaryon.tables import Rules, rules


def bench_scoring(r: Rules, rng: random.Random, seconds: float) -> tuple[float, float]:
    n = r.n
    boards = [rng.getrandbits(n * n) for _ in range(5000)]
    done = ties = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for white in boards:
            ties += score_bitboard(white, r).tied
        done += len(boards)
    return done / (time.perf_counter() - start), ties / done


def random_game(r: Rules, rng: random.Random) -> int:
    """Play one game from the start on bitboards; returns its number of plies."""
    n = r.n
    white = (1 << (n * n // 2)) - 1
    mover, last, passes, plies = r.first, None, 0, 0
    legal = r.legal
    while passes < 2:
        moves = legal(white, mover, last)
        if moves:
            for _ in range(rng.randrange(moves.bit_count())):
                moves &= moves - 1
            last = (moves & -moves).bit_length() - 1
            white ^= 1 << last
            passes = 0
        else:
            passes += 1
        mover = "off" if mover == "on" else "on"
        plies += 1
    return plies


def random_game_states(options: dict, rng: random.Random) -> int:
    """The same through the BinaryonState API (check + play on every move)."""
    state = BinaryonState.start(options)
    while not state.is_over():
        state = state.play(rng.choice(state.legal_moves()))
    return state.ply


def bench_games(fn, arg, rng: random.Random, seconds: float) -> tuple[float, float]:
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        plies += fn(arg, rng)
        games += 1
    return games / (time.perf_counter() - start), plies / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    options = {"size": args.size}
    t0 = time.perf_counter()
    r = rules(options)
    build = time.perf_counter() - t0
    n = args.size
    print(f"{n}x{n}: {len(r.lines)} lines, tables built in {build * 1000:.1f} ms")
    rate, ties = bench_scoring(r, rng, args.seconds)
    print(f"positions scored/s (random full boards): {rate:,.0f}  ({ties:.1%} tied best numbers)")
    rate, plies = bench_games(random_game, r, rng, args.seconds)
    print(f"random full games/s (bitboards):         {rate:,.0f}  ({plies:.1f} plies/game)")
    rate, plies = bench_games(random_game_states, options, rng, args.seconds)
    print(f"random full games/s (BinaryonState API): {rate:,.0f}  ({plies:.1f} plies/game)")


if __name__ == "__main__":
    main()
