"""Speed of the Binaryon engine on one core: positions scored per second and random full games
per second (legal moves chosen at random until both players pass).

The public ``BinaryonState`` API is compared with the plain list-based reference in
``naive_binaryon.py`` on the same games (the same seeds give the same moves on both sides),
in alternating batches, by CPU time, so that other jobs on a shared machine count for neither
side. Target (issue 15): the API plays at least 20x as many games per second.

    .venv/bin/python benchmarks/bench_rules.py [--size 8] [--seconds 2]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from companion.games import get_spec
from companion.games.binaryon.scoring import score_bitboard
from companion.games.binaryon.tables import Rules, rules

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive_binaryon  # noqa: E402  (a sibling file, not a package)

BINARYON = get_spec("binaryon")

TARGET_RATIO = 20


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
    """The same through the BinaryonState API: legal_moves, play (with its check) and, at the
    end, the outcome with its explanation."""
    state = BINARYON.new(**options)
    while not state.is_over():
        state = state.play(rng.choice(state.legal_moves()))
    state.outcome()
    return state.ply


def api_game(size: int, rng: random.Random) -> tuple[int, str | None]:
    """One game through the API: (plies, winner)."""
    state = BINARYON.new(size=size)
    while not state.is_over():
        state = state.play(rng.choice(state.legal_moves()))
    outcome = state.outcome()
    return state.ply, outcome.winner if outcome else None


def naive_game(size: int, rng: random.Random, indexed: bool = False) -> tuple[int, str | None]:
    """One game with the list-based reference: (plies, winner)."""
    plies, (winner, _, _) = naive_binaryon.random_game(rng, size, indexed)
    return plies, winner


def compare_with_naive(size: int, seconds: float, seed: int) -> dict[str, float]:
    """Games per CPU second of the reference and of the API on the same games: batches of
    games from one seed, played by one side then by the other. The bare bitboard loop
    (``random_game``: no API, no move lists, no outcome) plays alongside as the ceiling, on
    games of its own from the same seeds. Also counts the games whose plies or winner differ
    between the reference and the API (there should be none)."""
    batch = 100
    cpu = {"naive": 0.0, "indexed": 0.0, "api": 0.0, "bitboard": 0.0}
    games = differ = 0
    r = rules({"size": size})
    batch_seed = seed * 1_000_000

    def timed(side: str, play) -> list:
        rng = random.Random(batch_seed)
        t0 = time.process_time()
        out = [play(rng) for _ in range(batch)]
        cpu[side] += time.process_time() - t0
        return out

    while cpu["naive"] < seconds:
        batch_seed += 1
        naive = timed("naive", lambda rng: naive_game(size, rng))
        indexed = timed("indexed", lambda rng: naive_game(size, rng, True))
        api = timed("api", lambda rng: api_game(size, rng))
        timed("bitboard", lambda rng: random_game(r, rng))
        games += batch
        differ += sum(a != b for a, b in zip(naive, api, strict=True))
        differ += sum(a != b for a, b in zip(indexed, api, strict=True))
    return {**{k: games / v for k, v in cpu.items()}, "games": games, "differ": differ}


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
    rates = compare_with_naive(n, args.seconds, args.seed)
    naive, api, bare = rates["naive"], rates["api"], rates["bitboard"]
    indexed = rates["indexed"]
    ratio = api / naive
    met = "met" if ratio >= TARGET_RATIO else "NOT met"
    print(f"games per CPU second, the same {rates['games']:,.0f} random games on every side:")
    print(f"  naive list-based reference (naive_binaryon.py):  {naive:,.0f}")
    print(f"  BinaryonState API (legal_moves, play, outcome):  {api:,.0f}")
    print(f"  ratio {ratio:.1f}x  (target >= {TARGET_RATIO}x: {met})")
    print(f"  the reference with its in-line index (stricter): {indexed:,.0f}  "
          f"(API {api / indexed:.1f}x)")  # fmt: skip
    print(f"  for scale, bench's bare bitboard loop (no API):  {bare:,.0f}  ({bare / naive:.1f}x)")
    if rates["differ"]:
        print(f"  WARNING: {rates['differ']:,.0f} games differ between the two (plies or winner)")


if __name__ == "__main__":
    main()
