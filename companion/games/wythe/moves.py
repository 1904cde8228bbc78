"""Wythe's vocabulary: the two colours, the move words, placements and pieces, and move
notation ('d4-d5': black half on d4, white half on d5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from ...core.squares import parse_square, square_name
from ..base import Move, Word

BLACK: Final = "black"
WHITE: Final = "white"
PLAYERS: Final = (BLACK, WHITE)
PASS: Final = Word("pass")
SWAP: Final = Word("swap")


def other(player: str) -> str:
    return WHITE if player == BLACK else BLACK


@dataclass(frozen=True, slots=True, order=True)
class Placement(Move):
    """A piece placed with its black half on ``black`` and its white half on ``white``, on a
    board ``size`` squares a side; named black-white, ``d4-d5``. The rules' tables hold one
    of each with its ``bit`` in ``WytheState.legal_bits`` (-1 for one made elsewhere)."""

    black: int
    white: int
    size: int
    bit: int = field(default=-1, compare=False, repr=False)

    @property
    def name(self) -> str:
        return f"{square_name(self.black, self.size)}-{square_name(self.white, self.size)}"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.black, self.white)


WytheMove = Placement | Word


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
