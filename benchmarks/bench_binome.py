"""Binøme through the daemon: the time from a move named on a player's page to the journal
commit and the next OLED frame, over whole games (five players; solo against six virtual
players, whose moves the referee computes in the same step).

Run: .venv/bin/python benchmarks/bench_binome.py
"""

from __future__ import annotations

import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.core.config import Config
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.store import SqliteJournal
from companion.service.daemon import Daemon


def play(rules: dict, journal_dir: Path, seed: int) -> list[float]:
    cfg = Config.default().with_overrides(game={"name": "binome"}, rules={"binome": rules})
    journal = SqliteJournal.open(journal_dir / f"j{seed}.sqlite")
    d = Daemon(cfg, board=MockBoard(8, "switch"), journal=journal, rng=random.Random(seed))
    rng = random.Random(seed)
    spec = d.session.spec
    times = []
    while not d.session.state.is_over():
        state = d.session.state
        player = sorted(state.to_act - state.virtual)[0]
        name = rng.choice(spec.view(state, player).actions)[0]
        start = time.perf_counter()
        result = d.submit(name, player)
        d.render()
        if not result.accepted:  # a claim of a number that is not eligible asks to confirm
            continue
        times.append(time.perf_counter() - start)
    return times


def report(label: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(len(ms) * 0.95)]
    print(
        f"{label:26s} {len(ms):4d} moves, median {statistics.median(ms):6.2f} ms, "
        f"p95 {p95:6.2f} ms, max {ms[-1]:6.2f} ms"
    )


def main() -> None:
    print(
        f"machine: {platform.machine()} {platform.python_implementation()} "
        f"{platform.python_version()}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        five: list[float] = []
        solo: list[float] = []
        for seed in range(3):
            five += play({"players": "p1,p2,p3,p4,p5"}, Path(tmp), seed)
            solo += play({"players": "Solo", "solo": 6, "seed": seed}, Path(tmp), 100 + seed)
        report("5 players, SQLite journal", five)
        report("solo vs 6 virtual players", solo)


if __name__ == "__main__":
    main()
