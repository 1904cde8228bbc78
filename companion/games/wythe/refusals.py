"""Why a Wythe placement or half-placement is refused, and where the other half of a piece
may go (the second press on the switch board)."""

from __future__ import annotations

from functools import cache

from ...core.squares import square_name
from ..base import Refusal
from .moves import BLACK, WHITE


def refuse(code: str, reason: str) -> Refusal:
    return Refusal(code, reason)


@cache
def _orthogonal(n: int) -> tuple[frozenset[int], ...]:
    from ...core.squares import orthogonal_neighbours

    return tuple(frozenset(orthogonal_neighbours(s, n)) for s in range(n * n))


class PlacementRefusals:
    """The explanations behind ``WytheState.check`` and the half-placement checks used while a
    piece is being put down (mixed into ``engine.WytheState``)."""

    __slots__ = ()

    def _placement_refusal(self, b: int, w: int) -> Refusal:
        """Why the placement black ``b`` / white ``w`` is illegal (it is)."""
        n = self.n
        bn, wn = square_name(b, n), square_name(w, n)
        if b == w:
            return refuse("same-square", f"{bn}: both halves on one square")
        if w not in _orthogonal(n)[b]:
            return refuse("not-adjacent", f"{wn}: not next to {bn}")
        hb, hw = self.height(b), self.height(w)
        if hb != hw:
            return refuse("unequal-heights", f"heights differ: {bn} {hb}, {wn} {hw}")
        refusal = self.half_blocked(b, BLACK) or self.half_blocked(w, WHITE)
        if refusal is not None:
            return refusal
        tb = self.top_piece(b)
        if tb is not None and tb == self.top_piece(w):
            return refuse("covers-piece", f"{bn}-{wn}: would bury {self.piece_name(tb)}")
        raise AssertionError(f"{bn}-{wn} refused for no reason")  # the masks disagree

    def half_blocked(self, square: int, colour: str) -> Refusal | None:
        """Why ``square`` cannot take a half of ``colour`` whatever its partner (its top is that
        colour, or its top piece has its other bit covered already), else None."""
        name = square_name(square, self.n)
        top = self.top(square)
        if top == colour:
            return refuse("like-colour", f"{name}: {colour} on {colour}")
        if top is not None:
            tid = self.top_piece(square)
            assert tid is not None
            p = self.pieces[tid]
            partner = p.white if p.black == square else p.black
            if self.height(partner) != p.level + 1:
                return refuse("covers-piece", f"{name}: would bury {self.piece_name(tid)}")
        return None

    def completions(self, square: int, colour: str = BLACK) -> list[int]:
        """Squares for the other half once the ``colour`` half is on ``square`` (the second
        press on the switch board), in square order."""
        moves = self.placements() if self.passes < 2 else []
        if colour == BLACK:
            return sorted(p.white for p in moves if p.black == square)
        return sorted(p.black for p in moves if p.white == square)

    def check_half(self, square: int, colour: str = BLACK) -> Refusal | None:
        """None if some legal placement puts the ``colour`` half on ``square`` (a first press),
        else why not."""
        if self.passes >= 2:
            return refuse("game-over", "game over")
        if not 0 <= square < self.n * self.n:
            return refuse("not-a-square", f"{square}: not a square")
        if self.completions(square, colour):
            return None
        refusal = self.half_blocked(square, colour)
        if refusal is not None:
            return refusal
        return refuse("no-fit", f"{square_name(square, self.n)}: no piece fits here")
