"""Speed of the Wythe engine on one core, through its public API: random full games per second
(a legal move chosen at random with ``legal_moves`` and played with ``play`` until both players
pass) and positions scored per second (group tables, scores and leader of positions taken
from random games, each scored from scratch with ``score_masks``).

    .venv/bin/python benchmarks/bench_wythe.py [--size 8] [--seconds 2]

Targets on 8x8 (issue 12): >= 5,000 games/s and >= 50,000 positions scored/s. Rates are per
second of this process's CPU time (``time.process_time``), so other work on the machine does
not skew them; the wall-clock rate is printed alongside.
"""

from __future__ import annotations

import argparse
import random
import time

from companion.games import get_spec
from companion.games.wythe.engine import WytheState
from companion.games.wythe.scoring import score_masks

WYTHE = get_spec("wythe")


def random_game(options: dict, rng: random.Random) -> WytheState:
    state = WYTHE.new(**options)
    rand = rng.random
    while moves := state.legal_moves():  # [] once the game is over
        state = state.play(moves[int(rand() * len(moves))])
    return state


def bench_games(
    options: dict, rng: random.Random, seconds: float
) -> tuple[float, float, float, float]:
    games = plies = 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        for _ in range(50):
            plies += random_game(options, rng).ply
        games += 50
    rate = games / (time.process_time() - start)
    pieces = sum(len(random_game(options, rng).pieces) for _ in range(200)) / 200
    return rate, games / (time.perf_counter() - wall), plies / games, pieces


def sample_positions(options: dict, rng: random.Random, count: int) -> list[WytheState]:
    """Positions met in random games, every ply of each game."""
    out: list[WytheState] = []
    while len(out) < count:
        state = WYTHE.new(**options)
        while not state.is_over():
            out.append(state)
            state = state.play(rng.choice(state.legal_moves()))
        out.append(state)
    return out[:count]


def bench_scoring(positions: list[WytheState], seconds: float) -> tuple[float, float, float]:
    boards = [(s.black_tops, s.white_tops, s.n, s.last_placer) for s in positions]
    done = leads = 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        for black, white, n, last in boards:
            leads += score_masks(black, white, n, last).leader == "black"
        done += len(boards)
    rate = done / (time.process_time() - start)
    return rate, done / (time.perf_counter() - wall), leads / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    options = {"size": args.size}
    n = args.size
    random_game(options, rng)  # build the tables first
    rate, wall, plies, pieces = bench_games(options, rng, args.seconds)
    print(
        f"{n}x{n} random full games/s (legal_moves + play): {rate:,.0f}  (wall clock {wall:,.0f};"
        f" {plies:.1f} plies, {pieces:.1f} pieces per game)"
    )
    positions = sample_positions(options, rng, 5000)
    rate, wall, black = bench_scoring(positions, args.seconds)
    print(
        f"{n}x{n} positions scored/s (score_masks): {rate:,.0f}  (wall clock {wall:,.0f};"
        f" Black leads in {black:.0%})"
    )


if __name__ == "__main__":
    main()
