"""The table page's reviews of finished games (docs/review.md): each runs in a process of its
own at a lower priority (``review_process``: it never takes the daemon's interpreter lock),
watched by a thread here, one at a time; never on the web server's event loop nor in the
daemon's thread. The page asks how far it has got and, once done, gets the review.

``ask`` answers, JSON-able::

    {"id": 12, "state": "idle" | "running" | "done" | "refused",
     "done": 30, "total": 60,          (while running)
     "review": {...},                   (done: ``Review.as_dict()`` plus the players)
     "reason": "..."}                   (refused: one line)
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Final

log = logging.getLogger(__name__)

KEEP: Final = 8  # finished reviews kept for the pages (the oldest go first)


class Reviews:
    """Reviews by game id. ``run(game, options, names, progress)`` makes the review's JSON
    (default ``review_process.review_in_process``); given, it runs in the watching thread
    itself, so a test may slow it down or count its calls."""

    def __init__(self, run: Callable[..., Any] | None = None, keep: int = KEEP):
        self._run = run
        self._keep = keep
        self._lock = threading.Lock()
        self._done: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._running: dict[str, Any] | None = None  # {"id", "done", "total"}
        self.threads: list[threading.Thread] = []  # started, for tests to join

    def ask(
        self,
        game_id: int,
        game: str,
        options: dict[str, Any],
        names: Sequence[str],
        start: bool,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Where the review of ``game_id`` stands; ``start``: begin it when not done or
        running. A second review while one runs is refused (one line): the board's CPU is
        the referee's first."""
        with self._lock:
            if game_id in self._done:
                self._done.move_to_end(game_id)
                return self._done[game_id]
            running = self._running
            if running is not None and running["id"] == game_id:
                return {"id": game_id, "state": "running", **_progress(running)}
            if not start:
                return {"id": game_id, "state": "idle"}
            if running is not None:
                return {"id": game_id, "state": "refused",
                        "reason": f"the review of game {running['id']} is running: try again "
                        "once it is done"}  # fmt: skip
            self._running = {"id": game_id, "done": 0, "total": len(names)}
        thread = threading.Thread(
            target=self._review,
            args=(game_id, game, dict(options), list(names), dict(extra or {})),
            name=f"review-{game_id}",
            daemon=True,
        )
        self.threads.append(thread)
        thread.start()
        return {"id": game_id, "state": "running", "done": 0, "total": len(names)}

    def _review(
        self,
        game_id: int,
        game: str,
        options: dict[str, Any],
        names: list[str],
        extra: dict[str, Any],
    ) -> None:
        run = self._run
        if run is None:
            from companion.views.web.review_process import review_in_process as run
        from companion.engines.review import NotReviewable

        def progress(done: int, total: int) -> None:
            with self._lock:
                if self._running is not None:
                    self._running.update(done=done, total=total)

        try:
            review = run(game, options, names, progress)
            answer = {"id": game_id, "state": "done", "review": {**extra, **review}}
        except NotReviewable as e:
            answer = {"id": game_id, "state": "refused", "reason": str(e)}
        except Exception as e:  # one line in the log, the page told; the daemon goes on
            log.error("review of game %d failed: %s: %s", game_id, type(e).__name__, e)
            answer = {"id": game_id, "state": "refused", "reason": "the review failed"}
        with self._lock:
            self._running = None
            self._done[game_id] = answer
            while len(self._done) > self._keep:
                self._done.popitem(last=False)


def _progress(running: dict[str, Any]) -> dict[str, int]:
    return {"done": running["done"], "total": running["total"]}
