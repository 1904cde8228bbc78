"""What the public board allows, from the frame's geometry: nest steps, winning lines and
goal-marker jumps. Shared by the engine and the ``legal`` function on public positions."""

from __future__ import annotations

from collections.abc import Iterable

from .geometry import HEIGHT, STEPS, WIDTH, index, sees, squares_of
from .moves import Marker, Step
from .options import PLAYERS, RAINBOW


def base_squares(markers: tuple[int, int], player: str) -> tuple[int, int]:
    """The two marker squares of ``player``'s base (behind their home row)."""
    rank = 0 if player == RAINBOW else HEIGHT - 1
    f = markers[PLAYERS.index(player)]
    return index(f, rank), index(f + 1, rank)


def step_moves(own: int, nests: int) -> list[Step]:
    """Every one-square orthogonal nest move of the nests in ``own`` onto empty play squares."""
    return [
        Step(s, t) for s in squares_of(own) for t in squares_of(STEPS[s] & ~nests)
    ]  # fmt: skip


def winning_line(own: int, nests: int, targets: Iterable[int]) -> tuple[int, int] | None:
    """(nest, marker square) of the first unblocked straight line from a nest in ``own`` to a
    square of ``targets``, or None."""
    for s in squares_of(own):
        for t in targets:
            if sees(s, t, nests):
                return s, t
    return None


def marker_jumps(low: int, rank: int) -> list[Marker]:
    """The jumps of the marker pair on ``rank`` whose left marker is on file ``low``."""
    out = []
    if low + 2 < WIDTH:  # the left marker jumps right over its partner
        out.append(Marker(index(low, rank), index(low + 2, rank)))
    if low - 1 >= 0:  # the right marker jumps left
        out.append(Marker(index(low + 1, rank), index(low - 1, rank)))
    return out
