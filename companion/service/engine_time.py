"""How long the companion's engine thinks about its move: its budget from its own time on the
game clock (``engines.time_budget``), or ``THINK_SECONDS`` in a game without a clock."""

from __future__ import annotations

from companion.engines.time_budget import think_seconds
from companion.referee.session import Session, clock_player
from companion.service.background_search import THINK_SECONDS


def engine_seconds(session: Session) -> float:
    """Seconds to search the position of ``session``, where the engine is to move."""
    clock = session.clock
    player = clock_player(session.state)
    if clock is None or player is None or player not in clock.players:
        return THINK_SECONDS
    return think_seconds(clock.control, clock.left(player, session.timer()))
