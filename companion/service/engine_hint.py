"""The menu button's last hint step in an engine game: the engine's move for the player to
act, lit on the board, with a one-line reason (``companion/engines/explain.py``).

The search runs in its own thread (``BackgroundSearch``); a move, an undo or another menu press
meanwhile drops its answer. A hint plays at full strength (``level``), with the opponent's
thinking time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.base import Hint
from companion.referee.verdict import Verdict
from companion.service.background_search import THINK_SECONDS, BackgroundSearch, Search
from companion.service.host import Host
from companion.service.opponent import Opponent

if TYPE_CHECKING:
    from companion.engines.search import Result


class EngineHint:
    """``nodes`` (with ``seconds=None``) makes the search deterministic, for tests."""

    def __init__(
        self,
        host: Host,
        opponent: Opponent | None = None,
        search: Search | None = None,  # engines.search.choose, loaded at the first search
        seconds: float | None = THINK_SECONDS,
        nodes: int | None = None,
    ):
        self.host = host
        self.opponent = opponent  # the companion as a player, when it plays
        self.seconds = seconds
        self.nodes = nodes
        self.job = BackgroundSearch(host, search)

    def own_steps(self) -> int | None:
        """The game's own hint steps before the engine's (None: no engine step now)."""
        spec, state = self.host.session.spec, self.host.session.state
        if spec.engine() is None or state.is_over():
            return None
        if self.opponent is not None and self.opponent.to_move():
            return None  # its own move is lit already
        return spec.hint_steps

    def level(self) -> str:
        """A hint is the engine's best: the default level, or ``strongest`` when the companion
        plays at that level (a weaker opponent level slips on purpose; a hint never does)."""
        wanted = self.opponent.level if self.opponent is not None else None
        return "strongest" if wanted == "strongest" else "default"

    @property
    def busy(self) -> bool:
        return self.job.busy

    def start(self) -> None:
        self.job.start(self.level(), self._answered, self.seconds, self.nodes)

    def cancel(self) -> None:
        self.job.cancel()

    def _answered(self, state: Any, result: Result | None) -> None:
        if result is None:
            self.host.tell(Verdict(hint=Hint((), "no hint: engine fault")))
            return
        cells = () if result.move is None else result.move.cells
        from companion.engines.explain import hint_line

        self.host.tell(Verdict(hint=Hint(cells, hint_line(state, result))))
