"""The Binary adapter: the state's own moves, evaluation by the score difference."""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import Any

from companion.engines.search import WIN
from companion.games.binary.engine import BLACK, BinaryState, compare


@cache
def _masks(n: int) -> tuple[int, int, int, int]:
    """(dark squares, light squares, not file a, not the last file) as bitboards."""
    dark = sum(1 << i for i in range(n * n) if (i // n + i % n) % 2 == 0)
    full = (1 << (n * n)) - 1
    file_a = sum(1 << (r * n) for r in range(n))
    return dark, full ^ dark, full & ~file_a, full & ~(file_a << (n - 1))


def _fill_sizes(pieces: int, members: int, n: int, not_a: int, not_h: int) -> list[int]:
    """Sizes (largest first) of the orthogonal groups of ``members`` that hold a piece and
    have at least two squares: Binary's territories with empty squares joining."""
    sizes = []
    rest = members
    while rest:
        group = rest & -rest
        while True:
            grown = (
                group | ((group << 1) & not_a) | ((group >> 1) & not_h) | (group << n)
                | (group >> n)
            ) & rest  # fmt: skip
            if grown == group:
                break
            group = grown
        rest ^= group
        if group & pieces and group & (group - 1):
            sizes.append(group.bit_count())
    sizes.sort(reverse=True)
    return sizes


def territory_sizes(state: BinaryState) -> tuple[list[int], list[int]]:
    """Black's and White's territory sizes, largest first, by flood fills on bitboards (the
    rules engine's ``score_cells`` gives the same, with the squares, more slowly)."""
    n = state.n
    if not state.empty_joins:
        result = state.score()
        return result["black"]["territories"], result["white"]["territories"]
    text = "".join(reversed(state.cells))
    black = int(text.replace("o", "0").replace(".", "0").replace("x", "1"), 2)
    white = int(text.replace("x", "0").replace(".", "0").replace("o", "1"), 2)
    dark, light, not_a, not_h = _masks(n)
    empty = ~(black | white)
    return (
        _fill_sizes(black, black | (empty & dark), n, not_a, not_h),
        _fill_sizes(white, white | (empty & light), n, not_a, not_h),
    )


def score_of(sizes: list[int]) -> int:
    """Binary's score: twice the largest territory plus all the others."""
    return sum(sizes) + max(sizes, default=0)


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
        return territory_sizes(state)

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
