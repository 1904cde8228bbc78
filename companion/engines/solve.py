"""Solving a game from a position: the perfect-play result by exhaustive alpha-beta with a
transposition table, values win (1), draw (0), loss (-1) for the player to move.

Exact because the games end (every game an engine plays is finite) and a position's key holds
everything its future depends on.

The search is two null-window passes: "does the mover win?" (window (0, 1)), then, if not,
"does the mover at least draw?" (window (-1, 0)). Every search answers one yes/no question,
which cuts off far more than a full window. The table keeps, per position, a lower and an upper
bound on its value (both equal once it is exact) and the move that decided it, tried first
when the position comes back.

A game may bring its own faster path (``Adapter.solving``: a class that replaces the solver's
hooks, e.g. keys that fold the board's symmetries), mixed in before ``Solver``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.engines.search import Adapter, OutOfTime


@dataclass
class Solution:
    value: int  # 1 the mover wins, 0 draw, -1 the mover loses, with perfect play
    line: list[Any]  # a principal line to the end of the game
    nodes: int
    positions: int  # entries in the transposition table


def _pack(lo: int, hi: int, code: int) -> int:
    """Bounds in -1..1 and a move code (0 = none) in one small int."""
    return (lo + 1) | (hi + 1) << 2 | code << 4


def _unpack(entry: int) -> tuple[int, int, int]:
    return (entry & 3) - 1, (entry >> 2 & 3) - 1, entry >> 4


class Solver:
    """Null-window solver over any adapter. ``full_window`` searches (-1, 1) in one pass
    instead (the tests hold the two to each other); ``order`` False tries the moves in the
    adapter's order (the table's move first still)."""

    def __init__(
        self,
        adapter: Adapter,
        max_nodes: int | None = None,
        full_window: bool = False,
        order: bool = True,
        progress: Callable[[Solver], None] | None = None,
        progress_every: int = 1_000_000,
    ):
        self.adapter = adapter
        self.max_nodes = max_nodes
        self.full_window = full_window
        self.order = order
        self.table: dict[Hashable, int] = {}
        self.nodes = 0
        self.progress = progress
        self.progress_every = progress_every
        self._next_report = progress_every
        self.started = time.monotonic()

    # -- the hooks a game's fast path replaces (``Adapter.solving``) ---------------------------

    def table_key(self, state: Any, ply: int) -> tuple[Hashable, int]:
        """The table key and the frame (symmetry) the stored move is written in."""
        return self.adapter.key(state), 0

    def children(self, state: Any, code: int, frame: int) -> list[tuple[Any, Any, int]]:
        """(move, child, code) in the order to search them; ``code`` is the table's hint."""
        a = self.adapter
        out = [(m, a.play(state, m), i + 1) for i, m in enumerate(a.moves(state))]
        if self.order and len(out) > 1:
            me = a.mover(state)  # the table's move, then by the evaluation after the move
            out.sort(key=lambda mc: (mc[2] != code, -a.evaluate(mc[1], me)))
        elif code:
            out.sort(key=lambda mc: mc[2] != code)
        return out

    def is_over(self, state: Any) -> bool:
        """Whether the game has ended in ``state``."""
        return self.adapter.is_over(state)

    def mover(self, state: Any) -> Any:
        """The player to move in ``state``."""
        return self.adapter.mover(state)

    def final(self, state: Any, player: Any) -> int:
        """A finished game's result for ``player``."""
        v = self.adapter.evaluate(state, player)
        return (v > 0) - (v < 0)

    # -- the search ---------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfTime
        if self.progress is not None and self.nodes >= self._next_report:
            self._next_report += self.progress_every
            self.progress(self)

    def search(self, state: Any, alpha: int, beta: int, ply: int = 0) -> int:
        """The value of ``state`` (not over) for its mover if strictly inside (alpha, beta);
        else a bound on the side it fails (fail-soft)."""
        self._tick()
        key, frame = self.table_key(state, ply)
        table = self.table
        entry = table.get(key)
        lo, hi, code = -1, 1, 0
        if entry is not None:
            lo, hi, code = _unpack(entry)
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        alpha0 = alpha
        me = self.mover(state)
        best_v, best_code = -2, 0
        for _move, child, c in self.children(state, code, frame):
            if self.is_over(child):
                self._tick()
                v = self.final(child, me)
            elif self.mover(child) == me:
                v = self.search(child, alpha, beta, ply + 1)
            else:
                v = -self.search(child, -beta, -alpha, ply + 1)
            if v > best_v:
                best_v, best_code = v, c
                if v >= beta:
                    break
                if v > alpha:
                    alpha = v
        if best_v >= beta:
            lo = max(lo, best_v)
        elif best_v <= alpha0:
            hi = max(lo, min(hi, best_v))
        else:
            lo = hi = best_v
        table[key] = _pack(lo, hi, best_code if best_v > alpha0 or not code else code)
        return best_v

    def value(self, state: Any) -> int:
        """The exact value of ``state`` (not over) for its mover."""
        if self.full_window:
            return self.search(state, -1, 1)
        if self.search(state, 0, 1) >= 1:
            return 1
        return 0 if self.search(state, -1, 0) >= 0 else -1

    def line(self, state: Any) -> list[Any]:
        """The principal line: from each position, a move that keeps its exact value (the
        table's move first)."""
        out = []
        while not self.is_over(state):
            want = self.value(state)
            me = self.mover(state)
            key, frame = self.table_key(state, 0)
            entry = self.table.get(key)
            code = _unpack(entry)[2] if entry is not None else 0
            for move, child, _c in self.children(state, code, frame):
                if self.is_over(child):
                    v = self.final(child, me)
                elif self.mover(child) == me:
                    v = self.value(child)
                else:
                    v = -self.value(child)
                if v == want:
                    out.append(move)
                    state = child
                    break
            else:  # cannot happen: some move always keeps a position's value
                raise AssertionError("no move keeps the solved value")
        return out


def make_solver(adapter: Adapter, state: Any, **kw: Any) -> Solver:
    """The fastest exact solver for ``adapter``'s game: its own fast path (``solving``) mixed
    in before the generic ``Solver``, or the generic one."""
    fast = adapter.solving(state)
    if fast is None:
        return Solver(adapter, **kw)
    mixin, extra = fast
    return _solver_with(mixin)(adapter, **{**extra, **kw})


@cache
def _solver_with(mixin: type) -> type[Solver]:
    """``Solver`` with a game's fast path mixed in (one class per fast path)."""
    return type(mixin.__name__, (mixin, Solver), {})


def solve(
    adapter: Adapter,
    state: Any,
    max_nodes: int | None = None,
    progress: Callable[[Solver], None] | None = None,
    **kw: Any,
) -> Solution:
    """Solve ``state`` completely (exponential: small boards only). Raises ``OutOfTime`` past
    ``max_nodes`` positions visited."""
    solver = make_solver(adapter, state, max_nodes=max_nodes, progress=progress, **kw)
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
