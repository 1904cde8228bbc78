"""One log line per kind of trouble, then at most one a period with the count left unsaid: a
flood of bad messages is counted, not written (a Pi's journald and SD card are small)."""

from __future__ import annotations

import time
from collections.abc import Callable


class LogThrottle:
    def __init__(self, period: float = 60.0, clock: Callable[[], float] = time.monotonic):
        self.period = period
        self.clock = clock
        self._last: dict[str, float] = {}
        self._unsaid: dict[str, int] = {}
        self.counts: dict[str, int] = {}  # every occurrence, by kind

    def note(self, kind: str) -> str | None:
        """Count one ``kind``; the suffix to log it with (``""``, or `` (12 more since)``), or
        None when it is not to be logged now."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.period:
            self._unsaid[kind] = self._unsaid.get(kind, 0) + 1
            return None
        self._last[kind] = now
        unsaid = self._unsaid.pop(kind, 0)
        return f" ({unsaid} more since)" if unsaid else ""
