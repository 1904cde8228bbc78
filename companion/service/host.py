"""What the service's helpers (the table feedback, the hints, the opponent, its searches)
may use of the daemon that hosts them: the game in progress, the loop's timers, a way back
into the loop's thread, and the table. The daemon is one; tests may give another."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from companion.referee.session import Session
from companion.referee.verdict import Verdict
from companion.sensing.debounce import Scheduler


class Host(Protocol):
    @property
    def session(self) -> Session: ...

    @property
    def loop(self) -> Scheduler: ...

    @property
    def message(self) -> str:
        """The line on the OLED now."""

    def post_call(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` in the loop's thread soon (from any thread), then draw."""

    def say(self, text: str, lasting: bool = False) -> None: ...

    def tell(self, verdict: Verdict) -> None:
        """Show ``verdict`` on the table (a hint, the companion's own move)."""

    def render(self) -> None:
        """Draw the table again (after a timer changed what it shows)."""
