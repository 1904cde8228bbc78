"""Per-client token buckets, so one client's flood is answered 429 cheaply and never reaches
the daemon. Used only from the web server's event loop (not thread-safe)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class RateLimiter:
    """``rate`` requests per second per client, with bursts up to ``burst``. Remembers the
    ``max_clients`` most recent clients (older ones start again with a full bucket)."""

    def __init__(
        self,
        rate: float = 30.0,
        burst: float = 60.0,
        max_clients: int = 1024,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.rate, self.burst, self.max_clients, self._clock = rate, burst, max_clients, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # level, when
        self._told: dict[str, float] = {}  # client -> until when its 429 said to wait

    @property
    def clients(self) -> int:
        """How many clients' buckets are remembered (at most ``max_clients``)."""
        return len(self._buckets)

    def allow(self, client: str) -> bool:
        now = self._clock()
        level, then = self._buckets.pop(client, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        allowed = level >= 1.0
        if allowed:
            level -= 1.0
        self._buckets[client] = (level, now)
        if len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
        return allowed

    def retry_after(self, client: str) -> float:
        """Seconds until ``client`` may send again."""
        level, _ = self._buckets.get(client, (self.burst, 0.0))
        return max(0.0, (1.0 - level) / self.rate)

    def tell(self, client: str, seconds: float) -> None:
        """``client`` was answered 429 with ``Retry-After: seconds``: until then the server
        stops reading from it (``holding``)."""
        self._told.pop(client, None)
        self._told[client] = self._clock() + seconds
        if len(self._told) > self.max_clients:
            self._told.pop(next(iter(self._told)))

    def holding(self, client: str) -> float:
        """Seconds left of the wait ``client`` was told with its last 429 (0 when none): until
        then its connections are not read, the cheapest answer to a flood."""
        until = self._told.get(client)
        if until is None:
            return 0.0
        left = until - self._clock()
        if left > 0:
            return left
        del self._told[client]
        return 0.0
