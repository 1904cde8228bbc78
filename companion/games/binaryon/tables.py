"""Binaryon precomputed tables for one (size, options): reach, scoring lookups, neighbours.

Performance: tables are built once per (size, options) and cached. Scoring ORs per-byte lookup
tables into one big int holding every line's number in its own 8- or 16-bit field, so the
numbers of all lines come out of one ``int.to_bytes``. Legal moves count neighbours with a
bit-sliced carry-save adder over eight shifted bitboards.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from companion.games.binaryon.lines import _lines, _ray_reach, _scoring_lines
from companion.games.binaryon.options import resolve


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
        self.lines = _lines(n)
        if opts["reach"] == "ray":
            self.reach = tuple(_ray_reach(n, s) for s in range(n * n))
        else:
            reach = [0] * (n * n)
            for line in self.lines:
                m = 0
                for s in line:
                    m |= 1 << s
                for s in line:
                    reach[s] |= m
            self.reach = tuple(m & ~(1 << s) for s, m in enumerate(reach))
        self._build_scoring(_scoring_lines(n, opts["scoring"], opts["through"]))

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
        self.chunk_bits = cb
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
        """Bit slices (1s, 2s, 4s, 8s) of the number of each square's neighbours in ``x``."""
        n, full, not_a, not_h = self.n, self.full, self.not_a, self.not_h
        i1 = x >> n
        i2 = (x << n) & full
        i3 = (x >> 1) & not_h
        i4 = (x << 1) & not_a
        i5 = (x >> (n + 1)) & not_h
        i6 = (x >> (n - 1)) & not_a
        i7 = (x << (n - 1)) & not_h
        i8 = (x << (n + 1)) & not_a
        # carry-save adder tree
        t = i1 ^ i2
        s1, c1 = t ^ i3, (i1 & i2) | (i3 & t)
        t = i4 ^ i5
        s2, c2 = t ^ i6, (i4 & i5) | (i6 & t)
        t = s1 ^ s2
        s3, c3 = t ^ i7, (s1 & s2) | (i7 & t)
        b0, c4 = s3 ^ i8, s3 & i8
        t = c1 ^ c2
        s5, c5 = t ^ c3, (c1 & c2) | (c3 & t)
        b1, c6 = s5 ^ c4, s5 & c4
        return b0, b1, c5 ^ c6, c5 & c6

    def majority(self, x: int) -> int:
        """Squares with strictly more neighbours in ``x`` than outside it."""
        b0, b1, b2, b3 = self.neighbour_counts(x)
        ge2 = b1 | b2 | b3
        ge3 = (b0 & b1) | b2 | b3
        ge5 = (b2 & (b0 | b1)) | b3
        return (self.interior & ge5) | (self.edges & ge3) | (self.corners & ge2)

    def legal(self, white: int, mover: str, last: int | None) -> int:
        """Bitboard of the squares ``mover`` may turn (``last`` None = the opening move)."""
        x = self.full ^ white if mover == "on" else white
        if last is None:
            return x & self.majority(x) if self.opening_majority else x
        return x & self.reach[last] & self.majority(x)


@lru_cache(maxsize=32)
def _rules_cached(key: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules(dict(key))


def rules(options: Mapping[str, Any] | None = None) -> Rules:
    """The cached tables for ``options`` (missing options take their defaults)."""
    opts = resolve(options)
    return _rules_cached(tuple(sorted(opts.items())))
