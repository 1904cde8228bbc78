"""Binaryon's fast path for the exact solver (``binaryon solve``): the rules engine's
incremental moves, keys packed in one int from the mover's side (the game is the same with
colours and players swapped, so one key serves both), the board's eight symmetries near the
root, and moves with the fewest replies first."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.games.base import places
from companion.games.binaryon.engine import PASS


class SymmetricSolving:
    """The Binaryon fast path of the exact solver, on ``BinaryonState`` directly; mixed in
    before ``companion.engines.solve.Solver`` (``BinaryonAdapter.solving``), whose hooks it
    replaces.

    Key: the mover's pieces (white for ON, black for OFF) as a bitboard, the last square + 1
    and the passes in a row, in one int. Swapping both colours and players maps the game onto
    itself, so the mover need not be in the key. Up to ``sym_plies`` plies from the root the key
    is the least over the board's eight symmetries (rows, columns and reflected diagonals map
    onto lines: checked in the tests); deeper the plain key, which is cheaper to work out
    (either is sound: a key stands for positions that all have the same value). Stored moves
    are written in the key's frame.
    """

    def __init__(self, adapter: Any, n: int, sym_plies: int = 12, **kw: Any):
        super().__init__(adapter, **kw)  # type: ignore[call-arg]
        self.n = n
        self.sym_plies = sym_plies
        self.perms = symmetries(n)
        self.inverse = [[0] * (n * n) for _ in self.perms]
        for f, p in enumerate(self.perms):
            for s, t in enumerate(p):
                self.inverse[f][t] = s
        self._row_tables = _row_tables(n, self.perms)
        self.full = (1 << (n * n)) - 1

    def table_key(self, state: Any, ply: int) -> tuple[Hashable, int]:
        b = state.white if state.mover == "on" else self.full ^ state.white
        last = -1 if state.last is None else state.last
        if ply >= self.sym_plies:
            return ((b << 6 | (last + 1)) << 2) | state.passes, 0
        n = self.n
        mask = (1 << n) - 1
        rows = [(b >> (n * r)) & mask for r in range(n)]
        best, frame = -1, 0
        for f, tables in enumerate(self._row_tables):
            t = 0
            for r, row in enumerate(rows):
                t |= tables[r][row]
            lt = 0 if last < 0 else self.perms[f][last] + 1
            k = ((t << 6 | lt) << 2) | state.passes
            if best < 0 or k < best:
                best, frame = k, f
        return best, frame

    def children(self, state: Any, code: int, frame: int) -> list[tuple[Any, Any, int]]:
        mask = state.legal_mask()
        if not mask:
            return [(PASS, state.play(PASS), 0)]
        cells = places(self.n)
        perm = self.perms[frame]
        hint = self.inverse[frame][code - 1] if code else -1
        out = []
        while mask:
            low = mask & -mask
            sq = low.bit_length() - 1
            mask ^= low
            child = state.play(cells[sq])
            # fewest replies first; the table's move before all
            order = -1 if sq == hint else child.legal_mask().bit_count()
            out.append((order, cells[sq], child, perm[sq] + 1))
        out.sort(key=lambda t: t[0])
        return [(sq, child, c) for _o, sq, child, c in out]

    def is_over(self, state: Any) -> bool:
        return state.passes >= 2

    def mover(self, state: Any) -> Any:
        return state.mover

    def final(self, state: Any, player: Any) -> int:
        winner = state.score().winner
        return 0 if winner is None else (1 if winner == player else -1)


def symmetries(n: int) -> list[list[int]]:
    """The eight symmetries of the n x n board as square permutations (identity first)."""

    def idx(f: int, r: int) -> int:
        return r * n + f

    m = n - 1
    maps = [
        lambda f, r: (f, r),
        lambda f, r: (m - f, r),
        lambda f, r: (f, m - r),
        lambda f, r: (m - f, m - r),
        lambda f, r: (r, f),
        lambda f, r: (m - r, f),
        lambda f, r: (r, m - f),
        lambda f, r: (m - r, m - f),
    ]
    out = []
    for g in maps:
        perm = [0] * (n * n)
        for r in range(n):
            for f in range(n):
                perm[idx(f, r)] = idx(*g(f, r))
        out.append(perm)
    return out


def transform(board: int, perm: list[int]) -> int:
    """``board`` with each square s moved to ``perm[s]``."""
    out = 0
    while board:
        low = board & -board
        out |= 1 << perm[low.bit_length() - 1]
        board ^= low
    return out


def _row_tables(n: int, perms: list[list[int]]) -> list[list[list[int]]]:
    """Per symmetry and rank, the transformed bitboard of each set of squares on that rank."""
    return [
        [[transform(bits << (n * r), p) for bits in range(1 << n)] for r in range(n)] for p in perms
    ]
