"""A small event loop: a thread-safe queue of events plus timers, handled in one thread.

The loop sleeps in ``queue.get`` until an event arrives or the next timer is due, so the
daemon uses no CPU while nobody plays. Tests can run it in a thread (``run``) and wait for it
to go idle, or step it by hand (``run_pending``).
"""

from __future__ import annotations

import heapq
import itertools
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from companion import PROGRAM


class Timer:
    __slots__ = ("due", "fn", "cancelled")

    def __init__(self, due: float, fn: Callable[[], None]):
        self.due = due
        self.fn = fn
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class EventLoop:
    def __init__(self, handler: Callable[[Any], None], clock: Callable[[], float] = time.monotonic):
        self._handler = handler
        self.clock = clock
        self._queue: queue.Queue[Any] = queue.Queue()
        self._timers: list[tuple[float, int, Timer]] = []
        self._seq = itertools.count()
        self._busy = 0  # events posted and not yet handled
        self._idle = threading.Condition()
        self._stopping = False
        self.errors = 0
        self.thread: threading.Thread | None = None  # the thread running ``run``, if any

    # --- any thread ---
    def post(self, event: Any) -> None:
        with self._idle:
            self._busy += 1
        self._queue.put(event)

    def stop(self) -> None:
        self._stopping = True
        self._queue.put(_WAKE)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Block until every posted event has been handled (timers are not waited for)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)

    # --- loop thread ---
    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        timer = Timer(self.clock() + max(0.0, delay), fn)
        heapq.heappush(self._timers, (timer.due, next(self._seq), timer))
        return timer

    def run(self) -> None:
        self.thread = threading.current_thread()
        try:
            while not self._stopping:
                timeout = self._run_due_timers()
                try:
                    event = self._queue.get(timeout=timeout)
                except queue.Empty:
                    continue
                if event is not _WAKE:
                    self._dispatch(event)
        finally:
            self.thread = None

    def run_pending(self) -> int:
        """Handle every queued event and due timer without blocking; returns how many."""
        count = 0
        while True:
            self._run_due_timers()
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                return count
            if event is not _WAKE:
                self._dispatch(event)
                count += 1

    def _dispatch(self, event: Any) -> None:
        try:
            self._handler(event)
        except Exception:  # one bad event must never stop the daemon
            self.errors += 1
            import logging

            logging.getLogger(PROGRAM).exception("error handling %r", event)
        finally:
            with self._idle:
                self._busy -= 1
                if self._busy == 0:
                    self._idle.notify_all()

    def _run_due_timers(self) -> float | None:
        """Run due timers; return seconds until the next one (None if there is none)."""
        while self._timers:
            due, _, timer = self._timers[0]
            if timer.cancelled:
                heapq.heappop(self._timers)
                continue
            now = self.clock()
            if due > now:
                return due - now
            heapq.heappop(self._timers)
            try:
                timer.fn()
            except Exception:
                self.errors += 1
                import logging

                logging.getLogger(PROGRAM).exception("error in timer")
        return None


_WAKE = object()
