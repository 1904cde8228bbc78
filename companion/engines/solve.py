"""Solving a game from a position: the perfect-play result by exhaustive alpha-beta with a
transposition table, values win (1), draw (0), loss (-1) for the player to move.

Exact because the games end (a Binaryon move always lowers the number of same-coloured
neighbouring pairs) and a position's key holds everything its future depends on. The table
stores bounds: a value found with a window is a lower or upper bound unless strictly inside it.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from companion.engines.search import Adapter, OutOfTime

EXACT, LOWER, UPPER = 0, 1, 2


@dataclass
class Solution:
    value: int  # 1 the mover wins, 0 draw, -1 the mover loses, with perfect play
    line: list[Any]  # a principal line to the end of the game
    nodes: int
    positions: int  # entries in the transposition table


class Solver:
    def __init__(self, adapter: Adapter, order: bool = True, max_nodes: int | None = None):
        self.adapter = adapter
        self.order = order
        self.max_nodes = max_nodes
        self.table: dict[Hashable, tuple[int, int, Any]] = {}
        self.nodes = 0

    def _terminal(self, state: Any, player: str) -> int:
        v = self.adapter.evaluate(state, player)
        return (v > 0) - (v < 0)

    def value(self, state: Any, alpha: int = -1, beta: int = 1) -> int:
        """The value of ``state`` (not over) for its mover, exact when inside (alpha, beta)."""
        a = self.adapter
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfTime
        key = a.key(state)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            v, flag, first = entry
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        me = a.mover(state)
        moves = a.moves(state)
        children = [(move, a.play(state, move)) for move in moves]
        if self.order and len(children) > 1:
            # likeliest best first: the table's move, then by the evaluation after the move
            children.sort(key=lambda mc: (mc[0] != first, -a.evaluate(mc[1], me)))
        elif first is not None:
            children.sort(key=lambda mc: mc[0] != first)
        alpha0, best_v, best = alpha, -2, moves[0]
        for move, child in children:
            if a.is_over(child):
                self.nodes += 1
                v = self._terminal(child, me)
            elif a.mover(child) == me:
                v = self.value(child, alpha, beta)
            else:
                v = -self.value(child, -beta, -alpha)
            if v > best_v:
                best_v, best = v, move
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        flag = UPPER if best_v <= alpha0 else LOWER if best_v >= beta else EXACT
        self.table[key] = (best_v, flag, best)
        return best_v

    def line(self, state: Any) -> list[Any]:
        """The principal line: from each position, the move that keeps its exact value."""
        a, out = self.adapter, []
        while not a.is_over(state):
            want = self.value(state)
            me = a.mover(state)
            for move in a.moves(state):
                child = a.play(state, move)
                if a.is_over(child):
                    v = self._terminal(child, me)
                elif a.mover(child) == me:
                    v = self.value(child)
                else:
                    v = -self.value(child)
                if v == want:
                    break
            out.append(move)
            state = child
        return out


def solve(adapter: Adapter, state: Any, max_nodes: int | None = None) -> Solution:
    """Solve ``state`` completely (exponential: small boards only). Raises ``OutOfTime`` past
    ``max_nodes`` positions visited."""
    solver = Solver(adapter, max_nodes=max_nodes)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        if adapter.is_over(state):
            return Solution(0, [], 0, 0)
        value = solver.value(state)
        line = solver.line(state)
    finally:
        sys.setrecursionlimit(old)
    return Solution(value, line, solver.nodes, len(solver.table))


def minimax(adapter: Adapter, state: Any, player: str | None = None) -> int:
    """Plain minimax, no pruning, no table: the reference the tests hold ``solve`` to.
    The value of ``state`` for ``player`` (default its mover)."""
    me = adapter.mover(state) if player is None else player
    values = []
    for move in adapter.moves(state):
        child = adapter.play(state, move)
        if adapter.is_over(child):
            v = adapter.evaluate(child, me)
            values.append((v > 0) - (v < 0))
        else:
            values.append(minimax(adapter, child, me))
    mover_is_me = adapter.mover(state) == me
    return max(values) if mover_is_me else min(values)
