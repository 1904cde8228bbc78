"""Square names and indices for an n x n board.

Index = rank * n + file, so a1 = 0, b1 = 1, ..., a2 = n. Files a.. left to right, ranks 1..n
bottom to top, as in chess. Boards from 4x4 to 16x16 (files a..p).
"""

from __future__ import annotations

from collections.abc import Iterable

FILES = "abcdefghijklmnop"
MIN_SIZE, MAX_SIZE = 4, 16


def check_size(n: int) -> int:
    if not isinstance(n, int) or not MIN_SIZE <= n <= MAX_SIZE:
        raise ValueError(f"board size must be {MIN_SIZE}..{MAX_SIZE}, got {n}")
    return n


def square_name(index: int, n: int = 8) -> str:
    rank, file = divmod(index, n)
    return f"{FILES[file]}{rank + 1}"


def parse_square(text: str, n: int = 8) -> int:
    """'e4' -> index. Raises ValueError with a short reason for anything else.

    Only ASCII digits make a rank: ``e²`` or ``e٣`` are not squares (str.isdigit accepts them).
    """
    s = text.strip().lower()
    if len(s) < 2 or s[0] not in FILES[:n] or not (s[1:].isascii() and s[1:].isdigit()):
        raise ValueError(f"{text.strip() or '?'}: not a square")
    rank = int(s[1:])
    if not 1 <= rank <= n:
        raise ValueError(f"{s}: not on a {n}x{n} board")
    return (rank - 1) * n + FILES.index(s[0])


def neighbours(index: int, n: int = 8) -> list[int]:
    """King-adjacent squares on the board."""
    rank, file = divmod(index, n)
    out = []
    for dr in (-1, 0, 1):
        for df in (-1, 0, 1):
            if dr == df == 0:
                continue
            r, f = rank + dr, file + df
            if 0 <= r < n and 0 <= f < n:
                out.append(r * n + f)
    return out


def orthogonal_neighbours(index: int, n: int = 8) -> list[int]:
    rank, file = divmod(index, n)
    out = []
    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, f = rank + dr, file + df
        if 0 <= r < n and 0 <= f < n:
            out.append(r * n + f)
    return out


def orthogonal_groups(members: Iterable[int], n: int) -> list[list[int]]:
    """The orthogonally connected groups of ``members`` on an n x n board, each sorted, in
    order of their lowest square."""
    todo = set(members)
    out = []
    while todo:
        first = min(todo)
        todo.remove(first)
        group, stack = [first], [first]
        while stack:
            for nb in orthogonal_neighbours(stack.pop(), n):
                if nb in todo:
                    todo.remove(nb)
                    group.append(nb)
                    stack.append(nb)
        out.append(sorted(group))
    return sorted(out)


def squares_of(bits: int) -> list[int]:
    """The square indices set in the bitboard ``bits``, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
