"""The physical board and the game's cells: which square is which cell (the layout), what the
board should read for a game, and whether it does.

A game may be smaller than the board (a 4x4 Binaryon on the 8x8 board, Latent Binaries'
5x7 frame) or have no board at all; squares outside the game's area are ignored when
pressed and must be empty on a sensor board.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.sensors import IDLE_READING
from companion.core.squares import FILES, parse_square, square_name
from companion.games.base import Layout


class BoardMap:
    def __init__(self, size: int, kind: str, layout: Layout | None):
        self.size = size
        self.kind = kind
        self.layout = layout
        self.squares: list[int] = layout.to_board(size) if layout and layout.fits(size) else []
        self.cell_of = {sq: c for c, sq in enumerate(self.squares)}
        self.idle = IDLE_READING.get(kind, "0")

    def cell(self, square: int) -> int | None:
        """The game's cell on ``square``, or None outside the game's area."""
        return self.cell_of.get(square)

    def square(self, cell: int) -> int:
        return self.squares[cell]

    def to_squares(self, cells: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.squares[c] for c in cells if 0 <= c < len(self.squares))

    def cells(self, readings: Sequence[str]) -> list[str]:
        """The readings of the game's cells, in cell order."""
        return [readings[sq] for sq in self.squares]

    def strays(self, readings: Sequence[str]) -> tuple[int, ...]:
        """Squares outside the game's area that hold something."""
        return tuple(
            sq for sq, v in enumerate(readings) if sq not in self.cell_of and v != self.idle
        )

    def expected(self, cell_readings: Sequence[str]) -> list[str]:
        """What the whole board reads when its game cells read ``cell_readings``."""
        out = [self.idle] * (self.size * self.size)
        for cell, value in zip(self.squares, cell_readings, strict=False):
            out[cell] = value
        return out

    def name(self, square: int) -> str | None:
        """A square as the players read and type it: the game's own name (the frame's c2 for
        Latent Binaries on files b-f), None outside the game's area."""
        if not self.squares:
            return square_name(square, self.size)
        cell = self.cell_of.get(square)
        if cell is None or self.layout is None:
            return None
        return f"{FILES[cell % self.layout.files]}{cell // self.layout.files + 1}"

    def square_named(self, text: str) -> int:
        """The board square a player names in the game's own squares; ValueError if none."""
        if not self.squares or self.layout is None:
            return parse_square(text, self.size)
        files, ranks = self.layout.files, self.layout.ranks
        word = text.strip().lower()
        try:
            cell = parse_square(word, max(files, ranks))
        except ValueError:
            raise ValueError(f"{text.strip() or '?'}: not a square") from None
        file, rank = cell % max(files, ranks), cell // max(files, ranks)
        if file >= files or rank >= ranks:
            last = f"{FILES[files - 1]}{ranks}"
            raise ValueError(f"{word}: not a square of this game (a1..{last})")
        return self.squares[rank * files + file]

    def fix_hint(self, squares: Sequence[int]) -> str:
        """A short line naming the squares to fix, as the game names them; squares outside
        the game's area are counted."""
        if len(squares) > 3:
            return f"{len(squares)} squares differ"
        names = [n for n in map(self.name, squares) if n is not None]
        outside = len(squares) - len(names)
        off = f"{outside} off the game" if outside else ""
        return "fix " + ", ".join(part for part in (" ".join(names), off) if part)
