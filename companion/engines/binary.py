"""The Binary adapter: the state's own moves, evaluation by the score difference."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.engines.search import WIN
from companion.games.binary.engine import BLACK, BinaryState, compare, score_of, territories


class BinaryAdapter:
    """Moves are square indices, ``END`` and ``PASS``; states are ``BinaryState``."""

    name = "binary"

    def moves(self, state: BinaryState) -> list[Any]:
        return state.legal_moves()

    def play(self, state: BinaryState, move: Any) -> BinaryState:
        return state.play(move)

    def is_over(self, state: BinaryState) -> bool:
        return state.mover is None

    def mover(self, state: BinaryState) -> str:
        assert state.mover is not None
        return state.mover

    def _sizes(self, state: BinaryState) -> tuple[list[int], list[int]]:
        n, cells, joins = state.n, state.cells, state.empty_joins
        black = [len(t) for t in territories(cells, n, "black", joins)]
        white = [len(t) for t in territories(cells, n, "white", joins)]
        return black, white

    def evaluate(self, state: BinaryState, player: str) -> int:
        """Own score minus the opponent's (x4, territories as they stand, empty own-colour
        squares counted), plus one for who the tie-break favours; a finished game +-WIN or 0."""
        black, white = self._sizes(state)
        winner, _ = compare(black, white)
        sign = 1 if player == BLACK else -1
        tb = 0 if winner is None else (1 if winner == BLACK else -1)
        if state.mover is None:
            return sign * tb * WIN
        return sign * (4 * (score_of(black) - score_of(white)) + tb)

    def key(self, state: BinaryState) -> Hashable:
        return (
            state.cells, state.hands, state.mover, tuple(sorted(state.placed)), state.opening,
            state.passes,
        )  # fmt: skip

    def winner(self, state: BinaryState) -> str | None:
        return compare(*self._sizes(state))[0]
