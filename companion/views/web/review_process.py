"""A review in a process of its own (``python -m companion.views.web.review_process``), at a
lower priority: the table page's reviews never take the daemon's interpreter lock, so a
press on the board is handled as fast while one runs (benchmarks/bench_review.py
``--presses``). The parent writes one JSON line ``{"game", "options", "names", "nodes"}`` to
its stdin; it answers ``progress DONE TOTAL`` lines, then one JSON line: ``{"review": {...}}``
or ``{"refused": "one line"}``."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

NICE = 10  # the child's niceness: the referee's process goes first
MAX_LINE = 1 << 24  # a review's JSON line at most (a long game's is some hundred KB)


class ReviewFailed(RuntimeError):
    """The child ended without a review (a crash): the message is one line."""


def review_in_process(
    game: str,
    options: dict[str, Any],
    names: Sequence[str],
    progress: Callable[[int, int], None],
    nodes: int | None = None,
) -> dict[str, Any]:
    """The review's JSON (``Review.as_dict()``), made in a child process; ``NotReviewable``
    for a game it refuses, ``ReviewFailed`` when the child dies."""
    from companion.engines.review import NODES, NotReviewable

    ask = {"game": game, "options": options, "names": list(names), "nodes": nodes or NODES}
    answer: dict[str, Any] | None = None
    with subprocess.Popen(
        [sys.executable, "-m", __name__],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a Ctrl-C at the terminal is the daemon's to handle
    ) as child:
        assert child.stdin is not None and child.stdout is not None and child.stderr is not None
        try:
            child.stdin.write(json.dumps(ask) + "\n")
            child.stdin.close()
            for line in child.stdout:
                if line.startswith("progress "):
                    done, total = (int(x) for x in line.split()[1:3])
                    progress(done, total)
                elif len(line) <= MAX_LINE:
                    answer = json.loads(line)
            why = child.stderr.read()[-500:]
        finally:
            if child.poll() is None:
                child.kill()
    if answer is not None and "review" in answer:
        return answer["review"]
    if answer is not None and "refused" in answer:
        raise NotReviewable(str(answer["refused"]))
    last = why.strip().splitlines()[-1] if why.strip() else f"exit status {child.returncode}"
    raise ReviewFailed(last)


def main() -> int:
    from companion.engines.review import NotReviewable, review_game

    with contextlib.suppress(OSError):
        os.nice(NICE)
    ask = json.loads(sys.stdin.readline())

    def progress(done: int, total: int) -> None:
        print(f"progress {done} {total}", flush=True)

    try:
        review = review_game(ask["game"], ask["options"], ask["names"], progress, ask["nodes"])
    except NotReviewable as e:
        print(json.dumps({"refused": str(e)}), flush=True)
        return 0
    print(json.dumps({"review": review.as_dict()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
