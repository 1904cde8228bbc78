"""Noughts for the engines: the rules engine's moves, evaluation by open rows."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.games.engine_api import WIN, BaseAdapter, score_change
from tests.toy_game.engine import MARKS, NoughtsState, lines_of, other


class NoughtsAdapter(BaseAdapter):
    def moves(self, state: NoughtsState) -> list[Any]:
        return state.legal_moves()

    def play(self, state: NoughtsState, move: Any) -> NoughtsState:
        return state.play(move)

    def is_over(self, state: NoughtsState) -> bool:
        return state.is_over()

    def mover(self, state: NoughtsState) -> str:
        return state.mover

    def evaluate(self, state: NoughtsState, player: str) -> int:
        """A finished game +-WIN or 0; else the rows still open to ``player`` (weighted by
        their marks) minus the opponent's."""
        if state.is_over():
            won = state.winner()
            return 0 if won is None else (WIN if won == player else -WIN)
        return _open(state, player) - _open(state, other(player))

    def key(self, state: NoughtsState) -> Hashable:
        return state.board, state.mover

    def winner(self, state: NoughtsState) -> str | None:
        return state.winner()


def _open(state: NoughtsState, player: str) -> int:
    mine, theirs = MARKS[player], MARKS[other(player)]
    total = 0
    for line in lines_of(state.n):
        marks = [state.board[c] for c in line]
        if theirs not in marks:
            total += 1 + 3 * marks.count(mine)
    return total


def effect(before: NoughtsState, after: NoughtsState) -> list[str]:
    """The mover's threats (rows of two with the third free) up, or the opponent's down."""
    me, them = before.mover, other(before.mover)
    mine = (before.open_twos(me), after.open_twos(me))
    theirs = (before.open_twos(them), after.open_twos(them))
    return score_change(me.upper(), them.upper(), mine, theirs, word="threats")
