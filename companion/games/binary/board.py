"""Binary's checkerboard: the two colours, their pieces and which squares belong to whom."""

from __future__ import annotations

BLACK, WHITE = "black", "white"
PLAYERS = (BLACK, WHITE)
PIECE = {BLACK: "x", WHITE: "o"}
EMPTY = "."
OLED_WIDTH = 21  # characters per OLED line


def other(player: str) -> str:
    return WHITE if player == BLACK else BLACK


def square_owner(index: int, n: int) -> str:
    """The player whose colour the square is: Black for dark squares (a1 is dark)."""
    rank, file = divmod(index, n)
    return BLACK if (rank + file) % 2 == 0 else WHITE


def centre_squares(n: int) -> frozenset[int]:
    """The central 2x2 block (d4, e4, d5, e5 on 8x8)."""
    h = n // 2
    return frozenset({(h - 1) * n + h - 1, (h - 1) * n + h, h * n + h - 1, h * n + h})
