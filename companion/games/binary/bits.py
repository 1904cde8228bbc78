"""Binary's territories on bitboards (bit i = square i, a1 = bit 0): the flood fills that
both the rules engine's scoring (``territories.py``) and the search (``bitboard.py``) use."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple


class Masks(NamedTuple):
    """Bitboards of an n x n board: the colours, the centre and the edges for shifts."""

    n: int
    full: int
    own: tuple[int, int]  # (dark squares, light squares): Black's colour, White's colour
    centre: int
    not_a: int  # every square but file a (what a shift to the right may land on)
    not_last: int  # every square but the last file
    # [k][b]: the squares set in byte value b at byte k of a bitboard (squares 8k..8k+7)
    byte_squares: tuple[tuple[tuple[int, ...], ...], ...] = ()


@cache
def _byte_squares(k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256))


@cache
def masks(n: int) -> Masks:
    full = (1 << (n * n)) - 1
    dark = sum(1 << i for i in range(n * n) if (i // n + i % n) % 2 == 0)
    h = n // 2
    centre = 0
    for sq in ((h - 1) * n + h - 1, (h - 1) * n + h, h * n + h - 1, h * n + h):
        centre |= 1 << sq
    file_a = sum(1 << (r * n) for r in range(n))
    by_byte = tuple(_byte_squares(k) for k in range((n * n + 7) // 8))
    return Masks(
        n, full, (dark, full ^ dark), centre, full & ~file_a, full & ~(file_a << (n - 1)), by_byte
    )


def squares(bits: int, m: Masks) -> tuple[int, ...]:
    """The squares set in ``bits``, lowest first: a table look-up per byte, not a loop per
    square (what a territory's squares cost, once the flood fill has found it)."""
    k = ((bits & -bits).bit_length() - 1) >> 3  # the lowest byte holding a square
    bits >>= 8 * k
    tables = m.byte_squares
    out: tuple[int, ...] = ()
    while bits:
        out += tables[k][bits & 255]
        bits >>= 8
        k += 1
    return out


def touching(bits: int, m: Masks) -> int:
    """Squares orthogonally next to any of ``bits`` (``bits`` included when they touch)."""
    n = m.n
    return (
        ((bits << 1) & m.not_a) | ((bits >> 1) & m.not_last) | (bits << n) | (bits >> n)
    ) & m.full  # fmt: skip


def neighbours(bits: int, m: Masks) -> int:
    """Squares orthogonally next to ``bits`` (``bits`` themselves not included)."""
    return touching(bits, m) & ~bits


def groups(members: int, m: Masks) -> list[int]:
    """The orthogonally connected groups of ``members``, as bitboards, in order of their lowest
    squares (scoring relies on it)."""
    n, not_a, not_last = m.n, m.not_a, m.not_last
    out = []
    rest = members
    while rest:
        group = rest & -rest
        while True:
            grown = (
                group | ((group << 1) & not_a) | ((group >> 1) & not_last) | (group << n)
                | (group >> n)
            ) & rest  # fmt: skip
            if grown == group:
                break
            group = grown
        rest ^= group
        out.append(group)
    return out


def joined_squares(pieces: int, empty_own: int, m: Masks) -> list[tuple[int, ...]]:
    """``territories(pieces, empty_own, m)`` (empty squares join groups) as square tuples, in
    the same order: the flood fill of ``groups`` and the look-ups of ``squares`` in one loop,
    which the scoring of every view and outcome runs (a call a group costs a tenth of it)."""
    n, not_a, not_last, tables = m.n, m.not_a, m.not_last, m.byte_squares
    members = pieces | empty_own
    rest = members & (
        (members << 1) & not_a | (members >> 1) & not_last | members << n | members >> n
    )
    out = []
    while rest:
        group = rest & -rest
        while True:
            grown = (
                group | ((group << 1) & not_a) | ((group >> 1) & not_last) | (group << n)
                | (group >> n)
            ) & rest  # fmt: skip
            if grown == group:
                break
            group = grown
        rest ^= group
        k = ((group & -group).bit_length() - 1) >> 3  # as in squares()
        group >>= 8 * k
        found: tuple[int, ...] = ()
        while group:
            found += tables[k][group & 255]
            group >>= 8
            k += 1
        out.append(found)
    return out


def territories(pieces: int, empty_own: int, m: Masks, empty_joins: bool = True) -> list[int]:
    """A player's territories as bitboards: groups of pieces and empty own-colour squares with
    a piece and at least two squares (``empty_joins`` False: each group of pieces with the
    empty own squares next to it, an empty square counted in every group it touches)."""
    n, not_a, not_last = m.n, m.not_a, m.not_last
    if empty_joins:
        # Two orthogonal neighbours differ in colour, so one of them is a piece: every group of
        # two or more squares holds a piece, and a square with no member next to it is alone.
        members = pieces | empty_own
        next_to = (members << 1) & not_a | (members >> 1) & not_last | members << n | members >> n
        return groups(members & next_to, m)
    out = []
    for g in groups(pieces, m):
        # the empty own squares next to the group (touching(), inlined: one call fewer a group)
        t = g | (((g << 1) & not_a | (g >> 1) & not_last | g << n | g >> n) & empty_own)
        if t & (t - 1):
            out.append(t)
    return out


def _table(piece: str) -> bytes:
    """A bytes.translate table: ``piece`` to ASCII 1, every other byte to ASCII 0."""
    return bytes(ord("1") if b == ord(piece) else ord("0") for b in range(256))


_BLACK, _WHITE, _EMPTY = _table("x"), _table("o"), _table(".")


def board_bits(cells: Sequence[str]) -> tuple[int, int, int]:
    """(Black's pieces, White's pieces, the empty squares) of ``cells`` (``x``, ``o``, ``.``;
    a1 first), read as three binary numbers in C rather than by a loop over the cells."""
    text = "".join(cells).encode()[::-1]  # the last square is the highest bit
    if len(text) != len(cells):  # a cell of another length, or not ASCII: square by square
        return tuple(sum(1 << i for i, c in enumerate(cells) if c == p) for p in "xo.")  # type: ignore[return-value]
    if not text:
        return 0, 0, 0
    black = int(text.translate(_BLACK), 2)
    white = int(text.translate(_WHITE), 2)
    if text.translate(None, b"xo."):  # some other character: the empty squares read apart
        return black, white, int(text.translate(_EMPTY), 2)
    return black, white, ((1 << len(text)) - 1) ^ black ^ white
