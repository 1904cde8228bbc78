"""An engine search in its own thread, so the referee keeps answering the board meanwhile.

Used by the companion as an opponent and by the menu's engine hint. The answer comes back in
the loop's thread and only while the game is still where it was asked (the same game, the same
number of moves) and no newer search or a cancel came after it. A search longer than
``SHOW_AFTER`` shows "thinking" with a bar that fills over the time it may take.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion import PROGRAM
from companion.service.host import Host

if TYPE_CHECKING:
    from companion.engines.search import Result

log = logging.getLogger(PROGRAM)

THINK_SECONDS = 1.0
SHOW_AFTER = 0.5  # a search longer than this shows "thinking" with a progress bar

Search = Callable[..., "Result"]  # choose(adapter, state, level, seconds, nodes=...)


class BackgroundSearch:
    """One search at a time. ``search`` is ``engines.search.choose`` unless a test gives
    another (one it can hold back, to press something while it thinks); the engine is loaded
    when the first search starts, not before (a game nobody asks a hint of never loads it)."""

    def __init__(self, host: Host, search: Search | None = None):
        self.host = host
        self.search: Search | None = search
        self.asked: tuple[Any, ...] | None = None  # the position being thought about
        self._serial = 0  # which search an answer belongs to (older answers are dropped)
        self._started = 0.0
        self._seconds = THINK_SECONDS
        self._timer: Any = None
        self.thread: threading.Thread | None = None  # the last search's (tests wait for it)
        self._said = ""  # the "thinking" line on show, taken away with the search

    def position(self) -> tuple[Any, ...]:
        """Where the game is: a move played, an undo or a new game changes it."""
        s = self.host.session
        return (s.game_id, len(s.played))

    @property
    def busy(self) -> bool:
        return self.asked is not None

    def start(
        self,
        level: str,
        done: Callable[[Any, Result | None], None],
        seconds: float | None = THINK_SECONDS,
        nodes: int | None = None,
    ) -> None:
        """Search the game's state at ``level``; ``done(state, result)`` runs in the loop's
        thread when the answer still applies (result None: the engine failed)."""
        self.cancel()
        if self.search is None:
            from companion.engines.search import choose

            self.search = choose
        search = self.search
        state = self.host.session.state
        self.asked = self.position()
        self._serial += 1
        serial, asked = self._serial, self.asked
        self._started = self.host.loop.clock()
        self._seconds = seconds or THINK_SECONDS
        self._timer = self.host.loop.call_later(SHOW_AFTER, self._progress)

        def think() -> None:
            from companion.engines.adapters import adapter_for

            try:
                result: Result | None = search(
                    adapter_for(state.game), state, level, seconds, nodes=nodes
                )
            except Exception:  # an engine fault must never stop the referee
                log.exception("engine failed")
                result = None
            self.host.post_call(lambda: self._answered(serial, asked, state, result, done))

        self.thread = threading.Thread(target=think, name="engine", daemon=True)
        self.thread.start()

    def cancel(self) -> None:
        """Forget the search in progress: its answer, when it comes, is dropped."""
        self._serial += 1
        self.asked = None
        self._stop_timer()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._said and self.host.message == self._said:
            self.host.say("")
        self._said = ""

    def _answered(
        self,
        serial: int,
        asked: tuple[Any, ...],
        state: Any,
        result: Result | None,
        done: Callable[[Any, Result | None], None],
    ) -> None:
        if serial != self._serial:
            return  # cancelled, or a newer search was started
        self.asked = None
        self._stop_timer()
        if asked != self.position():
            return  # the game moved on meanwhile
        done(state, result)

    def _progress(self) -> None:
        """'thinking' with a bar that fills over the time it may take."""
        self._timer = None
        if self.asked is None or self.asked != self.position():
            return
        share = min(1.0, (self.host.loop.clock() - self._started) / self._seconds)
        filled = int(share * 10)
        self._said = "thinking " + "#" * filled + "." * (10 - filled)
        self.host.say(self._said, lasting=True)
        self._timer = self.host.loop.call_later(0.1, self._progress)
        self.host.render()
