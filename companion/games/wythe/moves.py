"""Wythe's vocabulary: the two colours, the move words, placements and pieces, and move
notation ('d4-d5': black half on d4, white half on d5)."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from ...core.squares import parse_square

BLACK: Final = "black"
WHITE: Final = "white"
PLAYERS: Final = (BLACK, WHITE)
PASS: Final = "pass"
SWAP: Final = "swap"


def other(player: str) -> str:
    return WHITE if player == BLACK else BLACK


class Placement(NamedTuple):
    """A piece placed with its black half on ``black`` and its white half on ``white``."""

    black: int
    white: int


class Piece(NamedTuple):
    """A piece on the board: its halves' squares and the level both bits lie at (0 = floor)."""

    black: int
    white: int
    level: int


def parse_move(text: str, n: int = 8) -> Any:
    """'d4-d5' (black half on d4, white half on d5), 'pass' or 'swap'; ValueError otherwise."""
    word = text.strip().lower()
    if word in (PASS, SWAP):
        return word
    first, sep, second = word.partition("-")
    if not sep or not first or not second:
        shown = text.strip() or "?"
        raise ValueError(f"{shown}: write black-white, e.g. d4-d5")
    return Placement(parse_square(first, n), parse_square(second, n))
