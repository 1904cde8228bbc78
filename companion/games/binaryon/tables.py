"""Binaryon precomputed tables for one (size, options): reach, scoring lookups, neighbours.

Performance: tables are built once per (size, options) and cached. Scoring ORs per-byte lookup
tables into one big int holding every line's number in its own 8- or 16-bit field, so the
numbers of all lines come out of one ``int.to_bytes``.

Legal moves need each square's number of white neighbours. It is kept bit-sliced in four
bitboards ``(d0, d1, d2, d3)`` holding, per square, that number plus a bias (3 mid-board, 5 on
an edge, 6 in a corner) chosen so that bit 3 (``d3``) is set exactly where white holds the
majority: 5 of 8, 3 of 5 or 2 of 3 neighbours. Black holds the majority where the biased count
is at most 6 mid-board, at most 7 elsewhere. Counted once for a position (``counts``); a move
only changes its square's neighbours' counts, so ``BinaryonState.play`` adds or takes one there
(``neighbours``) in a few bitboard operations.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from companion.core.squares import neighbours
from companion.games.base import places
from companion.games.binaryon.lines import board_lines, ray_reach, scoring_lines
from companion.games.binaryon.options import resolve

Counts = tuple[int, int, int, int]


class Rules:
    """Precomputed tables for one (size, options); get one with ``rules(options)``."""

    def __init__(self, opts: dict[str, Any]):
        n = opts["size"]
        self.options = opts
        self.n = n
        self.first = opts["first"]
        self.opening_majority = opts["opening"] == "majority"
        self.full = (1 << (n * n)) - 1
        file_a = sum(1 << (r * n) for r in range(n))
        file_h = file_a << (n - 1)
        self.not_a = self.full & ~file_a
        self.not_h = self.full & ~file_h
        rank_1 = (1 << n) - 1
        rank_n = rank_1 << (n * (n - 1))
        border = file_a | file_h | rank_1 | rank_n
        self.corners = 1 | (1 << (n - 1)) | (1 << (n * (n - 1))) | (1 << (n * n - 1))
        self.edges = border & ~self.corners
        self.interior = self.full & ~border
        # The count bias per square, as bit slices: 3 = 011 mid-board, 5 = 101 edge, 6 = 110 corner.
        self._bias = (
            self.interior | self.edges,
            self.interior | self.corners,
            self.edges | self.corners,
        )
        self.neighbours = tuple(sum(1 << t for t in neighbours(s, n)) for s in range(n * n))
        self.squares = _square_lister(n * n)
        self.places = _square_lister(n * n, places(n))  # the same, as moves
        self.lines = board_lines(n)
        if opts["reach"] == "ray":
            self.reach = tuple(ray_reach(n, s) for s in range(n * n))
        else:
            reach = [0] * (n * n)
            for line in self.lines:
                m = 0
                for s in line:
                    m |= 1 << s
                for s in line:
                    reach[s] |= m
            self.reach = tuple(m & ~(1 << s) for s, m in enumerate(reach))
        self._build_scoring(scoring_lines(n, opts["scoring"], opts["through"]))

    def _build_scoring(self, lines: tuple[tuple[int, ...], ...]) -> None:
        n = self.n
        self.score_lines = lines
        self.width = width = 8 if n <= 8 else 16
        self.top = (1 << n) - 1
        self.nbytes = len(lines) * width // 8
        masks = [0] * (n * n)
        for j, line in enumerate(lines):
            for k, s in enumerate(line):
                masks[s] |= 1 << (j * width + n - 1 - k)
        # Per chunk of `cb` squares, the OR of the masks for every subset of those squares.
        cb = 8 if n <= 10 else 4
        tables = []
        for base in range(0, n * n, cb):
            size = min(cb, n * n - base)
            table = [0] * (1 << size)
            for v in range(1, 1 << size):
                low = v & -v
                table[v] = table[v ^ low] | masks[base + low.bit_length() - 1]
            tables.append((base, (1 << size) - 1, table))
        self.tables = tuple(tables)

    def numbers(self, white: int) -> Sequence[int]:
        """ON's number on every scoring line, in line order (OFF's is top - that)."""
        acc = 0
        for base, chunk_mask, table in self.tables:
            acc |= table[(white >> base) & chunk_mask]
        raw = acc.to_bytes(self.nbytes, "little")
        if self.width == 8:
            return raw
        nums = array("H")
        nums.frombytes(raw)
        if sys.byteorder == "big":
            nums.byteswap()
        return nums

    def neighbour_counts(self, x: int) -> tuple[int, int, int, int]:
        """Bit slices (1s, 2s, 4s, 8s) of the number of each square's neighbours in ``x``:
        the pieces above and below (0..2), plus the columns of three either side (0..3 each)."""
        n, not_a, not_h = self.n, self.not_a, self.not_h
        up = x >> n
        down = (x << n) & self.full
        v0, v1 = up ^ down, up & down
        c0, c1 = v0 ^ x, v1 | (v0 & x)  # the column of three: 0..3
        l0, l1 = (c0 << 1) & not_a, (c1 << 1) & not_a
        r0, r1 = (c0 >> 1) & not_h, (c1 >> 1) & not_h
        # left + right (0..6) -> s0 s1 s2
        s0, k = l0 ^ r0, l0 & r0
        t = l1 ^ r1
        s1, s2 = t ^ k, (l1 & r1) | (t & k)
        # + above and below (0..8)
        b0, k = s0 ^ v0, s0 & v0
        t = s1 ^ v1
        b1, k = t ^ k, (s1 & v1) | (t & k)
        return b0, b1, s2 ^ k, s2 & k

    def majority(self, x: int) -> int:
        """Squares with strictly more neighbours in ``x`` than outside it."""
        b0, b1, b2, b3 = self.neighbour_counts(x)
        ge2 = b1 | b2 | b3
        ge3 = (b0 & b1) | b2 | b3
        ge5 = (b2 & (b0 | b1)) | b3
        return (self.interior & ge5) | (self.edges & ge3) | (self.corners & ge2)

    def counts(self, white: int) -> Counts:
        """The biased white-neighbour counts of every square (see the module docstring)."""
        c0, c1, c2, c3 = self.neighbour_counts(white)
        b0, b1, b2 = self._bias
        d0, k = c0 ^ b0, c0 & b0
        t = c1 ^ b1
        d1, k = t ^ k, (c1 & b1) | (t & k)
        t = c2 ^ b2
        d2, k = t ^ k, (c2 & b2) | (t & k)
        return d0, d1, d2, c3 ^ k

    def legal(self, white: int, mover: str, last: int | None) -> int:
        """Bitboard of the squares ``mover`` may turn (``last`` None = the opening move)."""
        x = self.full ^ white if mover == "on" else white
        if last is None:
            return x & self.majority(x) if self.opening_majority else x
        return x & self.reach[last] & self.majority(x)


def _byte_bits(width: int) -> tuple[tuple[int, ...], ...]:
    """For each byte value, its set bits below ``width``, lowest first."""
    return tuple(tuple(i for i in range(width) if v >> i & 1) for v in range(256))


_BYTE_BITS = _byte_bits(8)


def _square_lister(size: int, items: Sequence[Any] | None = None) -> Callable[[int], list[Any]]:
    """A function listing the set bits of a ``size``-bit mask, lowest first, from per-byte tables
    (one table per byte position, the square numbers already offset): the square numbers, or
    ``items[square]`` when given (each square's ``Place``)."""
    nbytes = (size + 7) // 8
    of = items if items is not None else range(size)
    tables = []
    for b in range(nbytes):  # made at every start: built from the bits of each byte value
        row = of[8 * b : min(8 * b + 8, size)]
        bits = _BYTE_BITS if len(row) == 8 else _byte_bits(len(row))
        tables.append(tuple(tuple(map(row.__getitem__, set_bits)) for set_bits in bits))
    if nbytes == 8:  # the 8x8 board, unrolled
        t0, t1, t2, t3, t4, t5, t6, t7 = tables

        def squares8(mask: int) -> list[Any]:
            b = mask.to_bytes(8, "little")
            return [
                *t0[b[0]],
                *t1[b[1]],
                *t2[b[2]],
                *t3[b[3]],
                *t4[b[4]],
                *t5[b[5]],
                *t6[b[6]],
                *t7[b[7]],
            ]

        return squares8

    def squares(mask: int) -> list[Any]:
        out: list[Any] = []
        for table, v in zip(tables, mask.to_bytes(nbytes, "little"), strict=True):
            if v:
                out += table[v]
        return out

    return squares


@lru_cache(maxsize=32)
def _rules_cached(key: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules(dict(key))


# The options as given (name, type, value) -> their tables, so that starting a game with the
# same options again skips their validation. Bounded: cleared when it grows past _GIVEN_MAX.
_by_given: dict[tuple[tuple[str, type, Any], ...], Rules] = {}
_GIVEN_MAX = 256


def rules(options: Mapping[str, Any] | None = None) -> Rules:
    """The cached tables for ``options`` (missing options take their defaults)."""
    try:
        key = tuple(sorted((k, type(v), v) for k, v in options.items())) if options else ()
        return _by_given[key]
    except KeyError:
        pass
    except TypeError:  # unhashable values (or names): no shortcut
        return _rules_cached(tuple(sorted(resolve(options).items())))
    r = _rules_cached(tuple(sorted(resolve(options).items())))
    if len(_by_given) >= _GIVEN_MAX:
        _by_given.clear()
    _by_given[key] = r
    return r
