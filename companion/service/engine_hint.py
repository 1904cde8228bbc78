"""The menu button's last hint step in an engine game: the engine's move for the player to
act, lit on the board, with a one-line reason (``companion/engines/explain.py``).

The search runs in its own thread (``BackgroundSearch``); a move, an undo or another menu press
meanwhile drops its answer. A hint plays at full strength (``level``), with the opponent's
thinking time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.engines.adapters import ENGINE_GAMES
from companion.engines.explain import hint_line, move_cells
from companion.engines.search import Result, choose
from companion.games.base import Hint
from companion.service.background_search import THINK_SECONDS, BackgroundSearch, Search

if TYPE_CHECKING:
    from companion.service.daemon import Daemon

# How many steps each engine game's own hint cycle has (its spec's ``hint``); the engine's
# move comes after them. tests/test_hints_daemon.py holds these to the specs.
OWN_STEPS = {"binaryon": 2, "binary": 3, "wythe": 3}


class EngineHint:
    """``nodes`` (with ``seconds=None``) makes the search deterministic, for tests."""

    def __init__(
        self,
        daemon: Daemon,
        search: Search = choose,
        seconds: float | None = THINK_SECONDS,
        nodes: int | None = None,
    ):
        self.daemon = daemon
        self.seconds = seconds
        self.nodes = nodes
        self.job = BackgroundSearch(daemon, search)

    def own_steps(self) -> int | None:
        """The game's own hint steps before the engine's (None: no engine step now)."""
        d = self.daemon
        game, state = d.session.game, d.session.state
        if game not in ENGINE_GAMES or game not in OWN_STEPS or state.is_over():
            return None
        if d.opponent is not None and d.opponent.to_move():
            return None  # its own move is lit already
        return OWN_STEPS[game]

    def level(self) -> str:
        """A hint is the engine's best: the default level, or ``strongest`` when the companion
        plays at that level (a weaker opponent level slips on purpose; a hint never does)."""
        from companion.service.opponent import parse_opponent

        try:
            wanted = parse_opponent(self.daemon.config.game.opponent)
        except ValueError:
            wanted = None
        return "strongest" if wanted == "strongest" else "default"

    @property
    def busy(self) -> bool:
        return self.job.busy

    def start(self) -> None:
        self.job.start(self.level(), self._answered, self.seconds, self.nodes)

    def cancel(self) -> None:
        self.job.cancel()

    def _answered(self, state: Any, result: Result | None) -> None:
        feedback = self.daemon.feedback
        if result is None:
            feedback.show_hint(Hint((), "no hint: engine fault"))
            return
        feedback.show_hint(Hint(move_cells(result.move), hint_line(state, result)))
