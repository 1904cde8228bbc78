"""Wythe's masks and move tables for one board size (see ``engine`` for how the legal
placements are laid out in one int)."""

from __future__ import annotations

from functools import cache

from .moves import Placement
from .options import resolve


class Rules:
    """Masks and move tables for one board size, and the game's options; get one with
    ``rules(n, pie)`` (shared by every state of every game with those options)."""

    def __init__(self, n: int, pie: bool = True):
        self.n = n
        self.pie = pie
        self.squares = n * n
        self.full = (1 << (n * n)) - 1
        last_file = sum(1 << (r * n + n - 1) for r in range(n))
        self.east_ok = self.full & ~last_file  # s has a square east of it
        self.north_ok = (1 << (n * n - n)) - 1  # s has a square north of it
        # (black, white) for a pair in direction k whose lower square is s
        pairs: list[list[Placement | None]] = [[], [], [], []]
        for s in range(n * n):
            e = s + 1 if self.east_ok >> s & 1 else None
            u = s + n if self.north_ok >> s & 1 else None
            pairs[0].append(None if e is None else Placement(s, e, n))
            pairs[1].append(None if e is None else Placement(e, s, n))
            pairs[2].append(None if u is None else Placement(s, u, n))
            pairs[3].append(None if u is None else Placement(u, s, n))
        self.pairs = tuple(tuple(p) for p in pairs)
        # The legal pairs are one int of 4 * n * n bits: direction k, lower square s at bit
        # k * n * n + s. chunks[j][v] lists the placements of the set bits v of its byte j.
        nbits = 4 * n * n
        self.nbytes = (nbits + 7) // 8
        chunks = []
        for j in range(self.nbytes):
            table: list[tuple[Placement, ...]] = [()] * 256
            for v in range(1, 256):
                low = v & -v
                bit = j * 8 + low.bit_length() - 1
                k, s = divmod(bit, n * n)
                p = self.pairs[k][s] if bit < nbits else None
                table[v] = table[v ^ low] + ((p,) if p is not None else ())
            chunks.append(tuple(table))
        self.chunks = tuple(chunks)
        self.shift1, self.shift2 = n * n, 2 * n * n  # where directions 1 and 2 start
        # For each placement on the board: its bit in legal_bits, its squares, the mask of both
        # squares, of the white square, of the lower square, and whether it lies east-west.
        # ``info`` by (black, white), ``by_bit`` by the bit (None where no pair lies).
        self.info: dict[tuple[int, int], tuple[int, int, int, int, int, int, bool]] = {}
        by_bit: list[tuple[int, int, int, int, int, int, bool] | None] = [None] * nbits
        for k in range(4):
            for s, p in enumerate(self.pairs[k]):
                if p is not None:
                    b, w = p.black, p.white
                    mask = (1 << b) | (1 << w)
                    info = (k * n * n + s, b, w, mask, 1 << w, 1 << s, k < 2)
                    self.info[(b, w)] = by_bit[k * n * n + s] = info
        self.by_bit = tuple(by_bit)


@cache
def rules(n: int = 8, pie: bool = True) -> Rules:
    resolve({"size": n, "pie": pie})
    return Rules(n, pie)
