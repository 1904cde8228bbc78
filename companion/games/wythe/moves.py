"""Wythe's vocabulary: the two colours, the move words, placements and pieces, and move
notation ('d4-d5': black half on d4, white half on d5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from ...core.squares import parse_square, square_name
from ..base import Move, Word

OLED_WIDTH: Final = 21  # characters per OLED line

BLACK: Final = "black"
WHITE: Final = "white"
PLAYERS: Final = (BLACK, WHITE)
PASS: Final = Word("pass")
SWAP: Final = Word("swap")


def other(player: str) -> str:
    return WHITE if player == BLACK else BLACK


@dataclass(frozen=True, slots=True, eq=False)
class Placement(Move):
    """A piece placed with its black half on ``black`` and its white half on ``white``, on a
    board ``size`` squares a side; named black-white, ``d4-d5``; ordered by squares. Interned
    like ``base.Place`` (one object per value), with its ``bit`` in ``WytheState.legal_bits``
    (-1 for two squares that are not neighbours, or not on the board)."""

    black: int
    white: int
    size: int
    bit: int = field(init=False, repr=False)

    def __new__(cls, black: int, white: int, size: int) -> Placement:
        key = (black, white, size)
        placement = _PLACEMENTS.get(key)
        if placement is None:
            placement = object.__new__(cls)
            for name, value in zip(("black", "white", "size"), key, strict=True):
                object.__setattr__(placement, name, value)
            object.__setattr__(placement, "bit", _bit(black, white, size))
            _PLACEMENTS[key] = placement
        return placement

    def __lt__(self, other: Placement) -> bool:
        return (self.black, self.white, self.size) < (other.black, other.white, other.size)

    def __gt__(self, other: Placement) -> bool:
        return (self.black, self.white, self.size) > (other.black, other.white, other.size)

    @property
    def name(self) -> str:
        return f"{square_name(self.black, self.size)}-{square_name(self.white, self.size)}"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.black, self.white)


WytheMove = Placement | Word
_PLACEMENTS: dict[tuple[int, int, int], Placement] = {}


def _bit(black: int, white: int, n: int) -> int:
    """Where a pair lies in ``legal_bits``: direction k (0 black s / white s+1, 1 white s /
    black s+1, 2 black s / white s+n, 3 white s / black s+n) times n*n plus its lower square
    s; -1 when the squares are not neighbours on an n x n board."""
    if not (0 <= black < n * n and 0 <= white < n * n):
        return -1
    low = min(black, white)
    if abs(black - white) == 1 and low % n != n - 1:
        return (0 if black == low else 1) * n * n + low
    if abs(black - white) == n:
        return (2 if black == low else 3) * n * n + low
    return -1


class Piece(NamedTuple):
    """A piece on the board: its halves' squares and the level both bits lie at (0 = floor)."""

    black: int
    white: int
    level: int


def parse_move(text: str, n: int = 8) -> WytheMove:
    """'d4-d5' (black half on d4, white half on d5), 'pass' or 'swap'; ValueError otherwise."""
    word = text.strip().lower()
    if word in (PASS.name, SWAP.name):
        return PASS if word == PASS.name else SWAP
    first, sep, second = word.partition("-")
    if not sep or not first or not second:
        shown = text.strip() or "?"
        raise ValueError(f"{shown}: write black-white, e.g. d4-d5")
    return Placement(parse_square(first, n), parse_square(second, n), n)
