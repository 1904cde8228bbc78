"""Binaryon lines: the n-square lines of the board, reflecting off the edges.

Lines (see docs/rules/binaryon.md): a line is n squares, each a king step from the last
in a fixed direction. Rows and columns never reflect, so they are whole rows and columns.
Diagonals reflect off an edge (the component perpendicular to that edge is reversed); a step
that would leave across two edges at once (out of a corner) ends the line: no line continues
through it. Each reading direction is a separate line, so every line's reverse is also listed.
The move rule always uses every line; the options ``scoring`` and ``through`` only choose which
lines are read for the score.

The in-line rule has an option ``reach``: ``line`` (share one of those lines) or ``ray`` (any
square an unbounded ray from the last square hits, diagonals reflecting, stopping at a corner
or when the ray repeats). Both give the same squares on every size: a reflecting diagonal that
meets a corner is a long diagonal (itself a line); any other repeats with period 2(n-1), and
the n-square windows containing a square cover 2n-1 consecutive steps, i.e. the whole orbit.
The option is kept because the rules name it; a test holds the two equal.

A line never visits a square twice, on any board size. Unfold the reflections: each coordinate
walks a triangle wave of period 2(n-1), and a coordinate repeats within n-1 steps only by
mirroring around an edge halfway between the two visits. A repeated *square* needs both
coordinates to mirror at the same step, i.e. the line would pass through a corner and carry on,
which the corner rule forbids (a corner is always entered heading out of both edges). The
generator still checks this, so a line is always n distinct squares.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from companion.core.squares import parse_square
from companion.games.binaryon.options import resolve

_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
# East, north, west, south, then the diagonals: the order lines are generated in.
_DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0), *_DIAGONALS)


def _step(n: int, r: int, f: int, dr: int, df: int) -> tuple[int, int, int, int] | None:
    """One king step heading (dr, df), reflecting off an edge at equal angles; None where the
    line cannot go on (out of a corner, or a row/column meeting an edge: straight angles)."""
    nr, nf = r + dr, f + df
    out_r, out_f = not 0 <= nr < n, not 0 <= nf < n
    if (out_r and out_f) or ((out_r or out_f) and (dr == 0 or df == 0)):
        return None
    if out_r:
        dr = -dr
        nr = r + dr
    if out_f:
        df = -df
        nf = f + df
    return nr, nf, dr, df


def _walk(n: int, start: int, dr: int, df: int) -> tuple[int, ...] | None:
    """The n-square line from ``start`` heading (dr, df), or None if there is none."""
    r, f = divmod(start, n)
    out = [start]
    for _ in range(n - 1):
        nxt = _step(n, r, f, dr, df)
        if nxt is None:
            return None
        r, f, dr, df = nxt
        out.append(r * n + f)
    if len(set(out)) != n:  # cannot happen (see the module docstring); kept as a guard
        return None
    return tuple(out)


@cache
def board_lines(n: int) -> tuple[tuple[int, ...], ...]:
    seen: dict[tuple[int, ...], None] = {}
    for start in range(n * n):
        for dr, df in _DIRECTIONS:
            line = _walk(n, start, dr, df)
            if line is not None:
                seen.setdefault(line, None)
    return tuple(seen)


def _is_orthogonal(line: Sequence[int], n: int) -> bool:
    a, b = line[0], line[1]
    return a // n == b // n or a % n == b % n


@cache
def scoring_lines(n: int, scoring: str, through: str) -> tuple[tuple[int, ...], ...]:
    lines = board_lines(n)
    if scoring == "orthogonal":
        lines = tuple(ln for ln in lines if _is_orthogonal(ln, n))
    if through:
        sq = parse_square(through, n)
        lines = tuple(ln for ln in lines if sq in ln)
    return lines


def all_lines(n: int, options: Mapping[str, Any] | None = None) -> list[tuple[int, ...]]:
    """Every line of the n x n board that counts for scoring under ``options`` (default: all).

    Order: by first square (index), then by first direction east, north, west, south, NE, NW,
    SE, SW. The best-line tie rule ("the first line listed") refers to this order.
    """
    opts = resolve({**(options or {}), "size": n})
    return list(scoring_lines(n, opts["scoring"], opts["through"]))


def ray_reach(n: int, start: int) -> int:
    """Squares an unbounded ray from ``start`` hits (rays reflect; stop at a corner or repeat)."""
    mask = 0
    r0, f0 = divmod(start, n)
    for dr0, df0 in _DIRECTIONS:
        r, f, dr, df = r0, f0, dr0, df0
        seen = {(r, f, dr, df)}
        while (nxt := _step(n, r, f, dr, df)) is not None and nxt not in seen:
            r, f, dr, df = nxt
            seen.add((r, f, dr, df))
            mask |= 1 << (r * n + f)
    return mask & ~(1 << start)
