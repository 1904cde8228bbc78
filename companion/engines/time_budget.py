"""How long the engine thinks about a move when it plays on a game clock. Pure.

Its share of what is left (``left / MOVES_EXPECTED``, once the making of its moves to come
is set aside) plus most of what the control gives
back for the move (a Fischer increment, a Bronstein delay) beyond the time a person needs to
make its move on the board (its clock runs until the move is made), never more than what is
left minus that time and a safety margin, and never less than a glance (``GLANCE``). The
budget shrinks with the time left, so the engine speeds up instead of flagging.
"""

from __future__ import annotations

from companion.timing.clock import BRONSTEIN, FISCHER, TimeControl

MOVES_EXPECTED = 20  # the engine's moves still to come, as far as its budget is concerned
GIVEN_BACK = 0.8  # the share of an increment (or a delay) it spends on the move
MAKE_MOVE = 2.0  # seconds a person takes to make the engine's move on the board
SAFETY = 0.5  # seconds kept back on top of that
GLANCE = 0.05  # the least it thinks: a shallow search still finds a legal move
MOST = 30.0  # the most it thinks about one move, however long the game


def think_seconds(control: TimeControl, left: float) -> float:
    """Seconds to think about the move, with ``left`` seconds on its clock."""
    reserve = MAKE_MOVE + SAFETY  # kept for the move to be made on the board
    # what the control gives back beyond the time the move takes to be made
    extra = control.extra if control.kind in (FISCHER, BRONSTEIN) else 0.0
    gift = max(0.0, extra - MAKE_MOVE)
    # the moves to come after this one each need their making, unless the control pays it
    later = (MOVES_EXPECTED - 1) * max(0.0, MAKE_MOVE - extra)
    wanted = max(0.0, left - reserve - later) / MOVES_EXPECTED + GIVEN_BACK * gift
    cap = left - reserve
    if control.kind == BRONSTEIN:
        cap += control.extra  # the delay's first seconds are free
    return max(GLANCE, min(wanted, cap, MOST))
