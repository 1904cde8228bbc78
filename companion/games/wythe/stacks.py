"""Reading a Wythe position: stack heights, top colours, the pieces in each stack."""

from __future__ import annotations

from .moves import BLACK, WHITE, Placement


class StackReading:
    """What a ``WytheState`` says about its stacks, read from its bitboards and ``pieces``
    (mixed into ``engine.WytheState``; the hot paths stay in the state itself)."""

    __slots__ = ()

    def height(self, square: int) -> int:
        return (self.p0 >> square & 1) | (self.p1 >> square & 1) << 1 | (self.p2 >> square & 1) << 2

    def heights(self) -> list[int]:
        return [self.height(s) for s in range(self.n * self.n)]

    @property
    def occupied(self) -> int:
        return self.p0 | self.p1 | self.p2

    @property
    def black_tops(self) -> int:
        return (self.p0 | self.p1 | self.p2) & ~self.white

    @property
    def white_tops(self) -> int:
        return self.white

    def top(self, square: int) -> str | None:
        """The colour of the stack on ``square`` (None when empty)."""
        if not self.occupied >> square & 1:
            return None
        return WHITE if self.white >> square & 1 else BLACK

    def cells(self) -> list[str]:
        """'x' (black top), 'o' (white top) or '.' (empty) per square, a1 first."""
        occ, white = self.occupied, self.white
        return [("o" if white >> i & 1 else "x") if occ >> i & 1 else "." for i in range(self.n**2)]

    def stack_pieces(self, square: int) -> list[int]:
        """Ids (indices in ``pieces``) of the pieces with a bit on ``square``, bottom first."""
        return [i for i, p in enumerate(self.pieces) if square in (p.black, p.white)]

    def stack(self, square: int) -> list[str]:
        """The colours of the bits on ``square``, bottom first."""
        return [
            BLACK if self.pieces[i].black == square else WHITE for i in self.stack_pieces(square)
        ]

    def top_piece(self, square: int) -> int | None:
        ids = self.stack_pieces(square)
        return ids[-1] if ids else None

    def piece_name(self, piece_id: int) -> str:
        p = self.pieces[piece_id]
        return Placement(p.black, p.white, self.n).name  # type: ignore[attr-defined]
