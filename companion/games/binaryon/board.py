"""Binaryon boards as bitboards of white pieces, and as cells ('x'/'o', index a1 = 0)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.squares import square_name

BLACK, WHITE = "x", "o"


def cells_to_white(cells: Sequence[str], n: int) -> int:
    """Bitboard of white pieces; ValueError naming the first square that is not x or o."""
    if len(cells) != n * n:
        raise ValueError(f"expected {n * n} squares, got {len(cells)}")
    white = 0
    for i, c in enumerate(cells):
        if c == WHITE:
            white |= 1 << i
        elif c != BLACK:
            what = "empty" if c == "." else f"{c!r} is not x or o"
            raise ValueError(f"{square_name(i, n)}: {what} (every Binaryon square holds a piece)")
    return white


def white_to_cells(white: int, n: int) -> list[str]:
    return [WHITE if white >> i & 1 else BLACK for i in range(n * n)]
