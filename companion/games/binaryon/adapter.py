"""Binaryon for the engines: the rules engine's own moves and play, evaluation by the score,
the exact solver's fast path (``solving.py``) and a hint's wording of a move's effect."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.games.binaryon.engine import BinaryonState
from companion.games.engine_api import WIN, BaseAdapter, score_change


class BinaryonAdapter(BaseAdapter):
    """Moves are the rules engine's (``Place`` or ``PASS``); states are ``BinaryonState``."""

    name = "binaryon"
    review_scale = 32  # a review's logistic unit: 8 in the best numbers' difference

    def moves(self, state: BinaryonState) -> list[Any]:
        return state.legal_moves()

    def play(self, state: BinaryonState, move: Any) -> BinaryonState:
        """The next state: a listed move takes the rules engine's fast path (one bitboard test,
        the neighbour counts carried over)."""
        return state.play(move)

    def is_over(self, state: BinaryonState) -> bool:
        return state.passes >= 2

    def mover(self, state: BinaryonState) -> str:
        return state.mover

    def evaluate(self, state: BinaryonState, player: str) -> int:
        """Own best number minus the opponent's (x4), plus one for who the tie-break favours;
        a finished game is +-WIN or 0."""
        sc = state.score()
        sign = 1 if player == "on" else -1
        tb = 0 if sc.winner is None else (1 if sc.winner == "on" else -1)
        if state.passes >= 2:
            return sign * tb * WIN
        return sign * (4 * (sc.on_best - sc.off_best) + tb)

    def score_difference(self, state: BinaryonState, player: str) -> int:
        """What the greedy player maximises: the evaluation right after a move."""
        return self.evaluate(state, player)

    def key(self, state: BinaryonState) -> Hashable:
        """One int (small in the table): white bitboard, last square + 1, mover, passes."""
        last = 0 if state.last is None else state.last + 1
        return (((state.white << 9 | last) << 1 | (state.mover == "off")) << 2) | state.passes

    def winner(self, state: BinaryonState) -> str | None:
        return state.score().winner

    def solving(self, state: Any) -> tuple[type, dict[str, Any]] | None:
        """The symmetric fast path (``solving.SymmetricSolving``) for a Binaryon state."""
        from companion.games.binaryon.solving import SymmetricSolving

        return (SymmetricSolving, {"n": state.n}) if isinstance(state, BinaryonState) else None


def effect(before: BinaryonState, after: BinaryonState) -> list[str]:
    """ON/OFF: the mover's best number up, or the opponent's down (as the numbers read)."""
    s0, s1 = before.score(), after.score()
    me = before.mover
    other = "off" if me == "on" else "on"
    best = {"on": (s0.on_best, s1.on_best), "off": (s0.off_best, s1.off_best)}
    return score_change(me.upper(), other.upper(), best[me], best[other], s1.bits)
