"""Speed of Binary's scoring through the public API against the plain list-based reference
``naive_binary.py``, on the same random positions (sizes 4, 6 and 8 in turn, seeded).

Each side scores the whole set of positions in turn, batch after batch, by CPU time, so that
other jobs on a shared machine count for neither side. The API sides are a finished game's
``BinaryState.score()`` (scores, territory sizes and squares), ``BinaryState.outcome()`` (the
winner and its explanation, the squares by name) and ``spec.view()`` (what a page or the OLED
shows, with the LEDs). States are built afresh, outside the timing, for every batch, so no
side is helped by anything kept from an earlier batch. Every position's scores, sizes and
winner are also checked against the reference's.

    .venv/bin/python benchmarks/bench_binary.py [--positions 501] [--seconds 2] [--apart]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from companion.games import get_spec
from companion.games.binary.engine import BinaryState

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive_binary  # noqa: E402  (a sibling file, not a package)

SPEC = get_spec("binary")
SIZES = (4, 6, 8)
TARGET_RATIO = 1.0  # issue 24: at least the reference's speed (aim: 5x)


def positions(seed: int, count: int) -> list[tuple[int, str]]:
    """``count`` random positions (n, cells): sizes 4, 6, 8 in turn; each player has up to
    the n*n/4 pieces of a game, on random squares."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        n = SIZES[k % len(SIZES)]
        cells = ["."] * (n * n)
        per = n * n // 4
        black, white = rng.randint(0, per), rng.randint(0, per)
        for j, sq in enumerate(rng.sample(range(n * n), black + white)):
            cells[sq] = "x" if j < black else "o"
        out.append((n, "".join(cells)))
    return out


def finished(n: int, cells: str, empty_joins: bool) -> BinaryState:
    """The position as a finished game (hands empty), as the rules engine holds it."""
    return BinaryState(
        n=n, cells=tuple(cells), hands=(0, 0), mover=None, opening=False, empty_joins=empty_joins
    )


def api_result(state: BinaryState) -> tuple:
    """The reference's result tuple, read from the public API."""
    score = state.score()
    outcome = state.outcome()
    assert outcome is not None
    b, w = score["black"], score["white"]
    return b["score"], w["score"], b["territories"], w["territories"], outcome.winner


def differences(cases: list[tuple[int, str]], empty_joins: bool) -> int:
    """Positions whose scores, sizes or winner differ between the API and the reference."""
    return sum(
        api_result(finished(n, cells, empty_joins)) != naive_binary.result(cells, n, empty_joins)
        for n, cells in cases
    )


def compare(cases: list[tuple[int, str]], seconds: float, empty_joins: bool) -> dict[str, float]:
    """Positions per CPU second of each side, the same positions in alternating batches."""
    sides = {
        "reference": lambda states: [
            naive_binary.result(cells, n, empty_joins) for n, cells in cases
        ],
        "score": lambda states: [s.score() for s in states],
        "outcome": lambda states: [s.outcome() for s in states],
        "view": lambda states: [SPEC.view(s) for s in states],
    }
    cpu = dict.fromkeys(sides, 0.0)
    batches = 0
    while cpu["reference"] < seconds or batches < 2:
        for side, run in sides.items():
            states = [finished(n, cells, empty_joins) for n, cells in cases]
            t0 = time.process_time()
            run(states)
            cpu[side] += time.process_time() - t0
        batches += 1
    return {side: batches * len(cases) / spent for side, spent in cpu.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=501)
    parser.add_argument("--seconds", type=float, default=2.0, help="reference CPU time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--apart", action="store_true", help="option empty_joins=false")
    args = parser.parse_args()
    empty_joins = not args.apart
    cases = positions(args.seed, args.positions)
    rates = compare(cases, args.seconds, empty_joins)
    ref = rates["reference"]
    print(
        f"Binary scoring, {len(cases)} random positions (sizes {'/'.join(map(str, SIZES))}), "
        f"empty_joins={str(empty_joins).lower()}, positions per CPU second:"
    )
    print(f"  plain list-based reference (naive_binary.py): {ref:>9,.0f}")
    labels = {
        "score": "BinaryState.score()",
        "outcome": "BinaryState.outcome()",
        "view": "spec.view(state)",
    }
    for side, label in labels.items():
        ratio = rates[side] / ref
        met = "met" if ratio >= TARGET_RATIO else "NOT met"
        print(f"  {label:<45} {rates[side]:>9,.0f}  {ratio:5.1f}x  (>= {TARGET_RATIO:g}x: {met})")
    differ = differences(cases, empty_joins)
    print(f"  positions where the API and the reference differ: {differ}")


if __name__ == "__main__":
    main()
