"""Binøme moves (see the notation in ``engine``) and the sheet's cell names ('3a': number
3's first digit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

HALVES: Final = "ab"  # a = first digit (tens), b = second digit (units)


@dataclass(frozen=True, slots=True)
class Roll:
    digit: int


@dataclass(frozen=True, slots=True)
class Draw:
    card: str


@dataclass(frozen=True, slots=True)
class Write:
    cell: int  # slot * 2 + half; slot 0..7 is number 1..8, half 0 = first digit
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    number: int
    player: str | None = None
    burn: bool = False  # confirmed: the number is not eligible, it is used up for nothing


@dataclass(frozen=True, slots=True)
class Decline:
    player: str | None = None


BinomeMove = Roll | Draw | Write | Claim | Decline
PlayerMove = Write | Claim | Decline


def cell_name(cell: int) -> str:
    """Cell index -> '3a' (number 3, first digit)."""
    slot, half = divmod(cell, 2)
    return f"{slot + 1}{HALVES[half]}"


def parse_cell(text: str) -> int:
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "12345678" or t[1] not in HALVES:
        raise ValueError(f"{text!r}: a cell is 1a..8b")
    return (int(t[0]) - 1) * 2 + HALVES.index(t[1])
