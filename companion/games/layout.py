"""Where a game's cells sit on the physical board (``GameSpec.layout``): a leaf of the game
protocol (companion/games/base.py names it too)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Layout:
    """The game's cells (``files`` x ``ranks``, cell index = rank * files + file, a1 = 0)
    and where they sit on a square physical board: at ``origin`` (file, rank) when given,
    else centred. ``board`` is the physical size a simulated board takes for this game."""

    files: int
    ranks: int
    origin: tuple[int, int] | None = None
    board: int | None = None

    @classmethod
    def square(cls, n: int) -> Layout:
        return cls(n, n)

    @property
    def cells(self) -> int:
        return self.files * self.ranks

    @property
    def natural_board(self) -> int:
        return self.board or max(self.files, self.ranks)

    def fits(self, board: int) -> bool:
        f0, r0 = self.offset(board)
        return f0 >= 0 and r0 >= 0 and f0 + self.files <= board and r0 + self.ranks <= board

    def offset(self, board: int) -> tuple[int, int]:
        if self.origin is not None:
            return self.origin
        return (board - self.files) // 2, (board - self.ranks) // 2

    def to_board(self, board: int) -> list[int]:
        """The physical square of every cell, in cell order."""
        f0, r0 = self.offset(board)
        return [(r0 + r) * board + f0 + f for r in range(self.ranks) for f in range(self.files)]

    def from_board(self, board: int) -> dict[int, int]:
        """Physical square -> cell, for the squares the game uses."""
        return {sq: cell for cell, sq in enumerate(self.to_board(board))}

    def describe(self) -> str:
        return f"{self.files}x{self.ranks}"
