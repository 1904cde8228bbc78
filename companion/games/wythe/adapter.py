"""Wythe for the engines: the state's own moves, evaluation by the group tables, and a hint's
wording of a move's effect.

The search's players are *seats* (the colours as the game started), not colours: after a swap
the seat that started as White plays Black. So ``swap`` hands the move to the other seat (it
is negated like any move): the swapper now owns Black's piece and the first player, now White,
moves next on the same board. Values are for the seat on move, i.e. for the colour it plays.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.games.engine_api import WIN, BaseAdapter, score_change
from companion.games.wythe.engine import BLACK, WytheState
from companion.games.wythe.moves import other


class WytheAdapter(BaseAdapter):
    """Moves are placements, ``swap`` and ``pass``; states are ``WytheState``."""

    name = "wythe"
    review_scale = 24  # a review's logistic unit: six points of score (x4)

    def moves(self, state: WytheState) -> list[Any]:
        return state.legal_moves()

    def play(self, state: WytheState, move: Any) -> WytheState:
        return state.play(move)

    def is_over(self, state: WytheState) -> bool:
        return state.passes >= 2

    def mover(self, state: WytheState) -> str:
        """The seat on move: the colour to move, or the other one after a swap."""
        return other(state.mover) if state.swapped else state.mover

    def evaluate(self, state: WytheState, player: str) -> int:
        """Own score minus the opponent's from the group tables (x4), plus one for the leader
        (the 0-0 rule included); a finished game is +-WIN. ``player`` is a seat."""
        sc = state.score()
        colour = other(player) if state.swapped else player
        sign = 1 if colour == BLACK else -1
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
        """The winning seat (the colour it started with)."""
        leader = state.score().leader
        return None if leader is None else state.seat_of(leader)


def effect(before: WytheState, after: WytheState) -> list[str]:
    """Black/White: the mover's group score up, or the opponent's down."""
    me = before.mover
    them = other(me)
    s0, s1 = before.score(), after.score()
    mine = (s0.of(me), s1.of(me))
    theirs = (s0.of(them), s1.of(them))
    return score_change(me.capitalize(), them.capitalize(), mine, theirs, word="score")
