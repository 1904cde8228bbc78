"""Questions about a Latent Binaries position: whose nests are where, what is in the stash,
where the bases are, and which opponent nests are in sight."""

from __future__ import annotations

from .board import base_squares
from .geometry import mask_of, sees, squares_of
from .nest import Nest
from .options import PLAYERS, other


class PositionQueries:
    """The read-only queries of ``engine.LatentState`` (mixed into it; reads its nests, stash,
    markers, mover and turns)."""

    __slots__ = ()

    def nests_of(self, player: str) -> tuple[Nest, ...]:
        return tuple(n for n in self.nests if n.owner == player)

    def nest_at(self, square: int) -> Nest | None:
        for n in self.nests:
            if n.square == square:
                return n
        return None

    def occupied(self) -> int:
        return mask_of(n.square for n in self.nests)

    def own_mask(self, player: str) -> int:
        return mask_of(n.square for n in self.nests if n.owner == player)

    def stash_of(self, player: str) -> dict[str, int]:
        k = PLAYERS.index(player)
        return dict(zip(self.rules.colours[k], self.stash[k], strict=True))

    def base(self, player: str) -> tuple[int, int]:
        """The marker squares of ``player``'s base (the opponent wins by reaching it)."""
        return base_squares(self.markers, player)

    def first_turn(self) -> bool:
        return self.mover is not None and self.turns[PLAYERS.index(self.mover)] == 1

    def in_sight(self, player: str) -> list[Nest]:
        """The opponent's nests that one of ``player``'s nests sees."""
        own, occ = self.own_mask(player), self.occupied()
        return [
            n
            for n in self.nests_of(other(player))
            if any(sees(s, n.square, occ) for s in squares_of(own))
        ]
