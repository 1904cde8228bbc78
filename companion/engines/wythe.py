"""The Wythe adapter: the state's own moves, evaluation by the group tables."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.engines.search import WIN
from companion.games.wythe.engine import BLACK, WytheState


class WytheAdapter:
    """Moves are placements, ``swap`` and ``pass``; states are ``WytheState``."""

    name = "wythe"

    def moves(self, state: WytheState) -> list[Any]:
        return state.legal_moves()

    def play(self, state: WytheState, move: Any) -> WytheState:
        return state.play(move)

    def is_over(self, state: WytheState) -> bool:
        return state.passes >= 2

    def mover(self, state: WytheState) -> str:
        return state.mover

    def evaluate(self, state: WytheState, player: str) -> int:
        """Own score minus the opponent's from the group tables (x4), plus one for the leader
        (the 0-0 rule included); a finished game is +-WIN."""
        sc = state.score()
        sign = 1 if player == BLACK else -1
        lead = 0 if sc.leader is None else (1 if sc.leader == BLACK else -1)
        if state.passes >= 2:
            return sign * lead * WIN
        return sign * (4 * (sc.black - sc.white) + lead)

    def prepare(self, state: WytheState) -> WytheState:
        return state

    def score_difference(self, state: WytheState, player: str) -> int:
        """What the greedy player maximises: the evaluation right after a move."""
        return self.evaluate(state, player)

    def key(self, state: WytheState) -> Hashable:
        return (
            state.p0, state.p1, state.p2, state.white, state.hwest, state.ssouth, state.mover,
            state.passes, state.last_placer, state.swap_allowed(),
        )  # fmt: skip

    def winner(self, state: WytheState) -> str | None:
        return state.score().leader
