"""A game-agnostic alpha-beta search: negamax, iterative deepening, a transposition table and
a time limit per move checked by node counts. Pure: no I/O, no threads.

Values are from the point of view of the player to move. A game where a player may move twice
in a row (a second piece in the same turn, a swap) is handled by negating a child's value only
when the mover changes. Finished positions are scored by the adapter from the point of view
of the player who moved into them, so a finished state needs no mover of its own.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Final

# What the search needs from a game: each game's own adapter (``GameSpec.engine()``).
from companion.games.engine_api import WIN, Adapter

EXACT, LOWER, UPPER = 0, 1, 2
CHECK_EVERY: Final = 256  # nodes between two looks at the clock


class OutOfTime(Exception):
    """Raised inside the search when the node budget or the deadline is reached."""


@dataclass
class Result:
    """The search's answer: the move (None when the mover has none), its value for the mover,
    the principal line, the depth of the last finished iteration and the nodes visited."""

    move: Any
    value: int
    line: list[Any]
    depth: int
    nodes: int
    complete: bool = False  # the search saw every line to its end (the value is exact)
    scored: list[tuple[Any, int]] = field(default_factory=list)  # root moves, best first

    @property
    def value_depth(self) -> int:
        """The depth ``value`` was searched to: one more than ``depth`` for a move an
        unfinished depth proved better than the last finished depth's best."""
        if self.scored and self.move is not None and self.move != self.scored[0][0]:
            return self.depth + 1
        return self.depth


@dataclass
class Limits:
    """When to stop: a time budget in seconds (None: no clock), a node budget (None: none, the
    deterministic limit tests use), a maximum depth, and the share of the time after which no
    new iteration is started (1.0: use all of it)."""

    seconds: float | None = 1.0
    nodes: int | None = None
    depth: int = 64
    start_fraction: float = 0.5
    extend: bool = True  # a same-player continuation costs no depth


class Searcher:
    """One search tree's worth of state: the table, the clock, the node counter."""

    def __init__(
        self, adapter: Adapter, limits: Limits, clock: Callable[[], float] = time.monotonic
    ):
        self.adapter = adapter
        self.limits = limits
        self.clock = clock
        self.table: dict[Hashable, tuple[int, int, int, Any]] = {}
        # Moves that cut the search off elsewhere, weighted by depth: tried first (history
        # heuristic; a move is the same square wherever it is played).
        self.history: dict[Any, int] = {}
        self.nodes = 0
        self.deadline = float("inf")
        self._next_check = CHECK_EVERY
        self._hit_horizon = False
        self.partial: list[tuple[Any, int]] = []

    def _tick(self) -> None:
        self.nodes += 1
        if self.limits.nodes is not None and self.nodes >= self.limits.nodes:
            raise OutOfTime
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + CHECK_EVERY
            if self.clock() >= self.deadline:
                raise OutOfTime

    def _child_value(
        self, me: str, child: Any, depth: int, alpha: int, beta: int, extended: bool = False
    ) -> int:
        """The value for ``me`` of ``child``, searched ``depth`` more plies. A move after which
        the same player moves again (a second piece in one turn) costs no depth, once in a row, so
        a horizon never falls in the middle of a turn."""
        a = self.adapter
        if a.is_over(child):
            self._tick()
            return a.evaluate(child, me)
        if a.mover(child) == me:
            if not extended and self.limits.extend:
                return self.negamax(child, depth + 1, alpha, beta, True)
            return self.negamax(child, depth, alpha, beta)
        return -self.negamax(child, depth, -beta, -alpha)

    def negamax(self, state: Any, depth: int, alpha: int, beta: int, extended: bool = False) -> int:
        """The value of ``state`` for its mover, searched ``depth`` plies (fail-hard bounds)."""
        a = self.adapter
        self._tick()
        me = a.mover(state)
        if depth <= 0:
            self._hit_horizon = True
            return a.evaluate(state, me)
        key = a.key(state)
        entry = self.table.get(key)
        best_move = None
        if entry is not None:
            e_depth, e_value, e_flag, best_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        moves = a.moves(state)
        history = self.history
        if history:
            moves.sort(key=lambda mv: -history.get(mv, 0))
        if best_move is not None and best_move in moves:
            moves.remove(best_move)
            moves.insert(0, best_move)
        alpha0 = alpha
        best_value = -WIN - 1
        best = moves[0]
        for move in moves:
            v = self._child_value(me, a.play(state, move), depth - 1, alpha, beta, extended)
            if v > best_value:
                best_value, best = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        history[move] = history.get(move, 0) + depth * depth
                        break
        flag = UPPER if best_value <= alpha0 else LOWER if best_value >= beta else EXACT
        self.table[key] = (depth, best_value, flag, best)
        return best_value

    def principal_line(self, state: Any, limit: int = 32) -> list[Any]:
        """The moves the table holds as best from ``state`` on (stops at a repeat or an end)."""
        a = self.adapter
        line: list[Any] = []
        seen: set[Hashable] = set()
        while len(line) < limit and not a.is_over(state):
            key = a.key(state)
            entry = self.table.get(key)
            if entry is None or key in seen:
                break
            seen.add(key)
            move = entry[3]
            if move not in a.moves(state):
                break
            line.append(move)
            state = a.play(state, move)
        return line

    def _root(self, state: Any, depth: int, order: list[Any]) -> list[tuple[Any, int]]:
        """Every root move's value at ``depth`` (exact for the best, bounds for the others)."""
        me = self.adapter.mover(state)
        alpha, scored = -WIN - 1, []
        self.partial = scored  # what this depth found before the clock stopped it
        for move in order:
            child = self.adapter.play(state, move)
            v = self._child_value(me, child, depth - 1, alpha, WIN + 1)
            scored.append((move, v))
            alpha = max(alpha, v)
        scored.sort(key=lambda mv: -mv[1])
        self.table[self.adapter.key(state)] = (depth, scored[0][1], EXACT, scored[0][0])
        return scored

    def move_value(self, state: Any, move: Any, depth: int) -> tuple[int, bool]:
        """The value for the mover of ``state`` of playing ``move``, searched to ``depth`` plies
        (``move`` counted) with a full window and no node budget, and whether it is proven (no
        line stopped at the horizon): a move the search did not choose valued as its choice
        was (a game's review). A table of its own, so a proof is one this search made."""
        nodes, self.limits.nodes = self.limits.nodes, None
        deadline, self.deadline = self.deadline, float("inf")
        table, self.table = self.table, {}
        self._hit_horizon = False
        try:
            child = self.adapter.play(state, move)
            me = self.adapter.mover(state)
            value = self._child_value(me, child, depth - 1, -WIN - 1, WIN + 1)
        finally:
            self.limits.nodes, self.deadline, self.table = nodes, deadline, table
        return value, not self._hit_horizon or abs(value) >= WIN

    def search(self, state: Any) -> Result:
        """Iterative deepening from ``state`` until the limits; the last finished depth wins."""
        a = self.adapter
        start = self.clock()
        lim = self.limits
        if lim.seconds is not None:
            self.deadline = start + lim.seconds
        if a.is_over(state):
            return Result(None, 0, [], 0, 0, complete=True)
        order = a.moves(state)
        if len(order) == 1 and lim.nodes is None:
            only = order[0]
            return Result(only, a.evaluate(state, a.mover(state)), [only], 0, 1)
        done: Result | None = None
        for depth in range(1, lim.depth + 1):
            self._hit_horizon = False
            try:
                scored = self._root(state, depth, order)
            except OutOfTime:
                # An unfinished depth still counts for a move it proved better than the last
                # depth's best, which it searched first.
                if done is not None and len(self.partial) > 1:
                    move, value = max(self.partial, key=lambda mv: mv[1])
                    if value > self.partial[0][1]:
                        done = Result(move, value, [move], depth - 1, self.nodes, False,
                                      done.scored)  # fmt: skip
                break
            order = [m for m, _ in scored]
            best, value = scored[0]
            complete = not self._hit_horizon or abs(value) >= WIN  # a proof either way
            done = Result(
                best, value, self.principal_line(state), depth, self.nodes, complete, scored
            )
            if complete or abs(value) >= WIN:
                break
            elapsed = self.clock() - start
            if lim.seconds is not None and elapsed >= lim.seconds * lim.start_fraction:
                break
        if done is None:  # not even depth 1 finished: the first move generated
            move = order[0]
            return Result(move, a.evaluate(a.play(state, move), a.mover(state)), [move], 0,
                          self.nodes)  # fmt: skip
        done.nodes = self.nodes
        return done


def search(
    adapter: Adapter, state: Any, limits: Limits | None = None, table: dict | None = None
) -> Result:
    """Search ``state`` within ``limits`` (default one second)."""
    s = Searcher(adapter, limits or Limits())
    if table is not None:
        s.table = table
    return s.search(adapter.prepare(state))


# ---------------------------------------------------------------------------------------------
# Levels (their names: engines/levels.py)


@dataclass(frozen=True)
class Level:
    """How a level plays: its depth cap, the share of the time it uses, when it stops starting
    new iterations, and how often it slips to a plausible weaker move."""

    name: str
    depth: int
    time_share: float
    start_fraction: float
    slip: float  # chance of not playing the best move
    wild: float = 0.0  # chance of any legal move at all (a person who overlooks a threat)


LEVEL_TABLE: Final = {
    "novice": Level("novice", 1, 0.1, 0.5, 0.35, wild=0.3),
    "beginner": Level("beginner", 1, 0.1, 0.5, 0.35),
    "casual": Level("casual", 2, 0.3, 0.5, 0.1),
    "default": Level("default", 64, 1.0, 0.5, 0.0),
    "strongest": Level("strongest", 64, 1.0, 1.0, 0.0),
}


def choose(
    adapter: Adapter,
    state: Any,
    level: str = "default",
    seconds: float | None = 1.0,
    rng: random.Random | None = None,
    nodes: int | None = None,
) -> Result:
    """The move a player of ``level`` makes in ``state`` with ``seconds`` to think.

    A slip (beginner, casual) is human-like: not a random move but one of the next three best
    root moves, the closer in value the likelier.
    """
    spec = LEVEL_TABLE[level]
    limits = Limits(
        seconds=None if seconds is None else seconds * spec.time_share,
        nodes=nodes,
        depth=spec.depth,
        start_fraction=spec.start_fraction,
    )
    result = search(adapter, state, limits)
    rng = rng or random.Random(0)
    if spec.wild and len(result.scored) > 1 and rng.random() < spec.wild:
        move, value = rng.choice(result.scored)
        return Result(move, value, [move], result.depth, result.nodes, False, result.scored)
    if spec.slip and len(result.scored) > 1 and rng.random() < spec.slip:
        best_value = result.scored[0][1]
        others = result.scored[1:4]
        if all(abs(v) < WIN for _, v in others) or rng.random() < 0.3:
            weights = [1.0 / (1 + max(0, best_value - v)) for _, v in others]
            move, value = rng.choices(others, weights)[0]
            result = Result(move, value, [move], result.depth, result.nodes, False, result.scored)
    return result
