"""Costs bounded by the request, not by the game or the input (issue 28): a record tag of
3.9 MB (time and peak memory), a record of 1.3 million move numbers and one of too many
moves (the time to the refusal), and the web answers of a long game: one page of its replay
against every view at once, and the live view's size.

Run: .venv/bin/python benchmarks/bench_bounds.py
"""

from __future__ import annotations

import json
import platform
import random
import time
import tracemalloc

from companion.journal.api import NullJournal
from companion.records.format import MAX_RECORD_MOVES, RecordError
from companion.records.read import parse_record
from companion.referee.session import Session
from companion.service.web_backend import replay_frames


def attempt(fn) -> str:
    try:
        fn()
    except RecordError as e:
        return f"refused ({str(e).split(': ', 1)[-1][:40]})"
    return "read"


def measure(label: str, fn) -> None:
    """Time (a plain run), then peak memory (a second run under tracemalloc)."""
    start = time.perf_counter()
    outcome = attempt(fn)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    attempt(fn)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{label:42s} {seconds * 1000:8.0f} ms, peak {peak / 1e6:6.1f} MB  {outcome}")


def records() -> None:
    head = '[Game "binaryon"]\n'
    for name, value in (
        ("tag of 3.9 MB, plain", "v" * 3_900_000),
        ("tag of 3.9 MB, every character escaped", '\\"' * 1_950_000),
    ):
        text = f'{head}[Event "{value}"]\n\n1. e5\n'
        measure(name, lambda text=text: parse_record(text))
    numbers = head + "\n" + " ".join(["1."] * 1_300_000) + "\n"
    measure("1,300,000 move numbers '1.'", lambda: parse_record(numbers))
    moves = head + "\n" + " ".join(["e5"] * (MAX_RECORD_MOVES + 1)) + "\n"
    measure(f"{MAX_RECORD_MOVES + 1:,} moves", lambda: parse_record(moves))


def long_game() -> tuple[dict, list[str]]:
    s = Session("binome", {"players": "Solo", "solo": 6, "seed": 3}, NullJournal(),
                rng=random.Random(1))  # fmt: skip
    while not s.state.is_over():
        legal = s.state.legal_moves("Solo")
        s.submit(legal[-1], "Solo")  # always pass: the longest games
    return dict(s.options), list(s.moves)


def web() -> None:
    options, names = long_game()
    start = time.perf_counter()
    page = json.dumps(replay_frames(1, "binome", options, names, len(names) - 50, 50))
    page_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    every = sum(
        len(json.dumps(replay_frames(1, "binome", options, names, first, 100)))
        for first in range(0, len(names) + 1, 100)
    )
    every_ms = (time.perf_counter() - start) * 1000
    print(f"Binøme solo game of {len(names)} plies (/api/game/<id>):")
    print(f"  last page of 50 views: {len(page) / 1e3:8.0f} kB in {page_ms:6.0f} ms")
    print(f"  every view, in pages:  {every / 1e3:8.0f} kB in {every_ms:6.0f} ms")


def main() -> None:
    print(f"{platform.machine()}, Python {platform.python_version()}")
    records()
    web()


if __name__ == "__main__":
    main()
