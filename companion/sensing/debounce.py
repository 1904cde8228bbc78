"""From raw square readings to what counts.

- Switch boards: a press counts at once (leading edge), and the square then ignores edges for
  ``debounce`` seconds, so contact bounce counts once and a press costs no latency. When the
  lock-out ends, a square whose last raw reading differs from what was reported is reported
  then, so a glitch never leaves a square stuck.
- Presence and colour boards: a change counts only once the whole board has been still for
  ``settle`` seconds (slides and hovering hands are not moves); then the full board is handed on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class Scheduler(Protocol):
    clock: Callable[[], float]

    def call_later(self, delay: float, fn: Callable[[], None]): ...


class SwitchDebouncer:
    def __init__(
        self,
        size: int,
        debounce: float,
        scheduler: Scheduler,
        on_change: Callable[[int, str], None],
    ):
        self.debounce = debounce
        self._scheduler = scheduler
        self._on_change = on_change
        self._reported = ["0"] * (size * size)
        self._raw = ["0"] * (size * size)
        self._locked_until = [float("-inf")] * (size * size)
        self._raw_at = [float("-inf")] * (size * size)  # when each raw reading last changed

    def reading(self, square: int, value: str, at: float, debounced: bool = False) -> None:
        now = self._scheduler.clock()
        self._raw[square] = value
        self._raw_at[square] = now
        if debounced or self.debounce <= 0:
            self._report(square, value)
            return
        if now < self._locked_until[square]:
            return  # bounce: the recheck at the end of the lock-out settles it
        self._lock_and_report(square, value, now)

    def reset(self, values: Sequence[str]) -> None:
        """A full reading from the board (snapshot): adopt it without reporting edges."""
        self._reported = list(values)
        self._raw = list(values)

    def _lock_and_report(self, square: int, value: str, since: float) -> None:
        """Report ``value``, which the square has had since ``since``; lock out bounce."""
        if value == self._reported[square]:
            return
        self._locked_until[square] = since + self.debounce
        delay = self._locked_until[square] - self._scheduler.clock()
        self._scheduler.call_later(max(0.0, delay), lambda: self._recheck(square))
        self._report(square, value)

    def _recheck(self, square: int) -> None:
        """End of a lock-out: report the square's latest raw reading if it differs (the
        lock-out then counts from when that reading arrived, not from now)."""
        self._lock_and_report(square, self._raw[square], self._raw_at[square])

    def _report(self, square: int, value: str) -> None:
        if value != self._reported[square]:
            self._reported[square] = value
            self._on_change(square, value)


class BoardSettler:
    """Hands on the whole board after it has been still for ``settle`` seconds."""

    def __init__(
        self,
        size: int,
        settle: float,
        scheduler: Scheduler,
        on_settled: Callable[[tuple[str, ...]], None],
        empty: str = "0",
    ):
        self.settle = settle
        self._scheduler = scheduler
        self._on_settled = on_settled
        self.readings = [empty] * (size * size)
        self._timer = None
        self.known = False  # True once a full snapshot arrived

    def reading(self, square: int, value: str) -> None:
        if self.readings[square] != value:
            self.readings[square] = value
            self._restart()

    def snapshot(self, values: Sequence[str]) -> None:
        changed = not self.known or list(values) != self.readings
        self.readings = list(values)
        self.known = True
        if changed:
            self._restart()

    def _restart(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._scheduler.call_later(self.settle, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._on_settled(tuple(self.readings))
