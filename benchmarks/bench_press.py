"""Per-press latency: from a mock sensor event to the OLED frame delivered.

Each press goes the whole way: MockBoard event -> loop queue -> debounce -> interpreter ->
rules -> session (journal) -> OLED frame drawn on a luma dummy device and LED frame.
Prints median and p99 over many presses of random legal Binaryon games.

    .venv/bin/python benchmarks/bench_press.py [--presses 3000] [--journal PATH]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core.config import Config  # noqa: E402
from companion.service.daemon import Daemon  # noqa: E402


def measure(presses: int, journal=None, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    config = Config.default().with_overrides(board={"driver": "mock"})
    now = [0.0]  # the daemon's clock: debounce lock-outs pass without sleeping
    d = Daemon(config, journal=journal, clock=lambda: now[0])
    d.board.start(d.loop.post)
    d.loop.run_pending()
    done: list[float] = []
    d.on_frame = lambda: done.append(time.perf_counter())
    times = []
    misses = 0  # presses in a row that drew no frame: a daemon that takes none ends the run
    while len(times) < presses:
        state = d.session.state
        if state.is_over():
            d.new_game()
            d.loop.run_pending()
            continue
        square = rng.choice([m for m in state.legal_moves() if not m.is_pass]).cells[0]
        done.clear()
        start = time.perf_counter()
        d.board.press(square)
        d.loop.run_pending()
        if done:
            times.append(done[0] - start)
            misses = 0
        else:
            misses += 1
            if misses > 100:
                raise SystemExit("bench_press: 100 presses drew no OLED frame (see the log above)")
        now[0] += 0.05  # the finger lifts after the debounce lock-out
        d.board.release(square)
        d.loop.run_pending()
    return times


def report(label: str, times: list[float]) -> None:
    times = sorted(times)
    p99 = times[int(len(times) * 0.99) - 1]
    print(
        f"{label}: {len(times)} presses, median {statistics.median(times) * 1000:.2f} ms, "
        f"p99 {p99 * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=3000)
    ap.add_argument("--with-journal", action="store_true", help="also time with the journal")
    args = ap.parse_args()
    report("press -> OLED frame (no journal)", measure(args.presses))
    if args.with_journal:
        try:
            from companion.journal.store import SqliteJournal
        except ImportError:
            print("journal: not available")
            return
        with tempfile.TemporaryDirectory() as tmp:
            journal = SqliteJournal.open(Path(tmp) / "bench.sqlite")
            report("press -> OLED frame (SQLite journal)", measure(args.presses // 3, journal))


if __name__ == "__main__":
    main()
