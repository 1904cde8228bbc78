"""Binøme moves (see the notation in ``engine``) and the sheet's cell names ('3a': number
3's first digit)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from ..base import Move
from .postulates import number_text

HALVES: Final = "ab"  # a = first digit (tens), b = second digit (units)


@dataclass(frozen=True, slots=True)
class Roll(Move):
    digit: int

    @property
    def name(self) -> str:
        return f"roll {self.digit}"


@dataclass(frozen=True, slots=True)
class Draw(Move):
    card: str

    @property
    def name(self) -> str:
        return f"draw {self.card}"


class _PlayerMove(Move):
    """A move that names its player, who may be left out where the page says who it is."""

    __slots__ = ()
    player: str | None

    def by(self, player: str) -> Move:
        return self if self.player is not None else replace(self, player=player)  # type: ignore[type-var]

    def _who(self) -> str:
        if self.player is None:
            raise ValueError("a player's move needs its player to be named")
        return self.player


@dataclass(frozen=True, slots=True)
class Write(_PlayerMove):
    cell: int  # slot * 2 + half; slot 0..7 is number 1..8, half 0 = first digit
    player: str | None = None

    @property
    def name(self) -> str:
        return f"{self._who()} write {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Claim(_PlayerMove):
    number: int
    player: str | None = None
    burn: bool = False  # confirmed: the number is not eligible, it is used up for nothing

    @property
    def name(self) -> str:
        burn = " burn" if self.burn else ""
        return f"{self._who()} claim {number_text(self.number)}{burn}"


@dataclass(frozen=True, slots=True)
class Decline(_PlayerMove):
    player: str | None = None

    @property
    def name(self) -> str:
        return f"{self._who()} pass"


@dataclass(frozen=True, slots=True)
class Veiled(_PlayerMove):
    """Another seat's secret move as a board that plays only its own seat hears it, by its
    public name (remote play, ``masked.py``): ``Bob write``, ``Bob claim``, ``Bob chose``."""

    verb: str  # one of VEILED
    player: str | None = None

    @property
    def name(self) -> str:
        return f"{self._who()} {self.verb}"


VEILED: Final = ("write", "claim", "chose")

BinomeMove = Roll | Draw | Write | Claim | Decline | Veiled


def cell_name(cell: int) -> str:
    """Cell index -> '3a' (number 3, first digit)."""
    slot, half = divmod(cell, 2)
    return f"{slot + 1}{HALVES[half]}"


def parse_cell(text: str) -> int:
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "12345678" or t[1] not in HALVES:
        raise ValueError(f"{text!r}: a cell is 1a..8b")
    return (int(t[0]) - 1) * 2 + HALVES.index(t[1])
