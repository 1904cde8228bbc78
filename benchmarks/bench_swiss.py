"""Time of one Swiss round's pairing (``companion.club.event.swiss.pair_swiss``, the FIDE
Dutch system) for events of 40, 100 and 300 players, round by round, with random results
(a game in 20 a forfeit, the byes worth 1). Aim (issue 33): 100 players within 2 s a round,
300 within 15 s, on the development machine.

Each size runs in a child process stopped after ``--budget`` seconds, so that a round that
does not finish is said (``not finished``) rather than waited for.

    .venv/bin/python benchmarks/bench_swiss.py [--sizes 40,100,300] [--rounds 7]
        [--budget 120] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.club.event.swiss import BLACK, WHITE, History, pair_swiss  # noqa: E402


def play(n: int, rounds: int, seed: int) -> None:
    """Pair ``rounds`` rounds of an ``n``-player event; one line a round: its seconds."""
    rnd = random.Random(seed)
    ratings = sorted(rnd.sample(range(1000, 2800), n), reverse=True)
    players = [History(rating=r) for r in ratings]
    met: set[tuple[int, int]] = set()
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        pairs = pair_swiss(players, met, number, rounds)
        print(f"{n} players, round {number}: {time.perf_counter() - start:.2f} s", flush=True)
        before = [p.score for p in players]
        for w, b in pairs:
            if b is None:
                players[w].score += 1
                players[w].byes += 1
                players[w].floats.append("down")
                continue
            if rnd.random() < 0.05:  # a forfeit: no colour, the winner floats down
                winner, loser = (w, b) if rnd.random() < 0.5 else (b, w)
                players[winner].score += 1
                players[winner].forfeit_wins += 1
                players[winner].floats.append("down")
                players[loser].floats.append("none")
                continue
            points = rnd.choice([1.0, 0.5, 0.0, 1.0])
            players[w].score += points
            players[b].score += 1 - points
            players[w].colours.append(WHITE)
            players[b].colours.append(BLACK)
            met.add((min(w, b), max(w, b)))
            down = "none" if before[w] == before[b] else "down"
            up = "none" if before[w] == before[b] else "up"
            players[w].floats.append(down if before[w] > before[b] else up)
            players[b].floats.append(down if before[b] > before[w] else up)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="40,100,300", help="players per event, comma-separated")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--budget", type=float, default=120, help="seconds per size at most")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child: one size
    args = parser.parse_args()
    if args.one:
        play(args.one, args.rounds, args.seed)
        return 0
    for n in (int(x) for x in args.sizes.split(",")):
        cmd = [sys.executable, __file__, "--one", str(n), "--rounds", str(args.rounds)]
        cmd += ["--seed", str(args.seed)]
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        try:
            out, _ = child.communicate(timeout=args.budget)
        except subprocess.TimeoutExpired:
            child.kill()
            out, _ = child.communicate()
        lines = out.splitlines()
        print("\n".join(lines), flush=True)
        if len(lines) < args.rounds:
            print(f"{n} players, round {len(lines) + 1}: not finished within the "
                  f"{args.budget:.0f} s budget", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
