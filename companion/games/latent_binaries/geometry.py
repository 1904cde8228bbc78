"""The Latent Binaries frame: 5 files (a-e) x 7 ranks, squares, steps and lines of sight.

Index = (rank - 1) * 5 + file, so a1 = 0, e1 = 4, a2 = 5, e7 = 34. Rank 1 and rank 7 are the
goal rows (only goal markers stand there); ranks 2-6 are the play area where nests move.
Sets of squares are bitmasks (bit i = square i). Lines of sight run orthogonally or
diagonally and are blocked by any nest on a square strictly between the two ends; markers never
stand between two play-area squares or between a nest and a goal row, so only nests block.
Every table is built once at import.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from companion.core.squares import squares_of as squares_of  # the game's modules read it here

WIDTH: Final = 5
HEIGHT: Final = 7
SQUARES: Final = WIDTH * HEIGHT
FILES: Final = "abcde"

ORTHOGONAL: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))  # (rank step, file step)
DIAGONAL: Final = ((1, 1), (1, -1), (-1, 1), (-1, -1))
DIRECTIONS: Final = ORTHOGONAL + DIAGONAL


def index(file: int, rank: int) -> int:
    """Square index of a 0-based file and a 0-based rank."""
    return rank * WIDTH + file


def square_name(square: int) -> str:
    return f"{FILES[square % WIDTH]}{square // WIDTH + 1}"


def parse_square(text: str) -> int:
    """'c3' -> index; ValueError with a short reason for anything else."""
    s = text.strip().lower()
    if len(s) != 2 or s[0] not in FILES or not s[1].isdigit() or not 1 <= int(s[1]) <= HEIGHT:
        raise ValueError(f"{text.strip() or '?'}: not a square (a1..e7)")
    return index(FILES.index(s[0]), int(s[1]) - 1)


def bit(square: int) -> int:
    return 1 << square


def mask_of(squares: Iterable[int]) -> int:
    m = 0
    for s in squares:
        m |= 1 << s
    return m


def _row(rank: int) -> int:
    return mask_of(index(f, rank) for f in range(WIDTH))


RANK_1: Final = _row(0)  # Rainbow's goal row: Rainbow's base markers stand here
RANK_7: Final = _row(HEIGHT - 1)  # Xeno's goal row
GOAL_ROWS: Final = RANK_1 | RANK_7
PLAY_AREA: Final = ((1 << SQUARES) - 1) & ~GOAL_ROWS


def _on_frame(rank: int, file: int) -> bool:
    return 0 <= rank < HEIGHT and 0 <= file < WIDTH


def _ray(square: int, dr: int, df: int) -> tuple[int, ...]:
    r, f = divmod(square, WIDTH)
    out = []
    while _on_frame(r + dr, f + df):
        r, f = r + dr, f + df
        out.append(index(f, r))
    return tuple(out)


# RAYS[s] = the eight rays from s (may be empty), nearest square first.
RAYS: Final = tuple(tuple(_ray(s, dr, df) for dr, df in DIRECTIONS) for s in range(SQUARES))

# STEPS[s] = mask of the play-area squares one orthogonal step from s.
STEPS: Final = tuple(
    mask_of(ray[0] for ray in RAYS[s][: len(ORTHOGONAL)] if ray) & PLAY_AREA for s in range(SQUARES)
)


def _between_table() -> dict[tuple[int, int], int]:
    table: dict[tuple[int, int], int] = {}
    for s in range(SQUARES):
        for ray in RAYS[s]:
            inner = 0
            for t in ray:
                table[(s, t)] = inner
                inner |= 1 << t
    return table


# BETWEEN[(s, t)] = mask of the squares strictly between s and t, for every aligned pair.
BETWEEN: Final = _between_table()


def aligned(a: int, b: int) -> bool:
    """True when a straight orthogonal or diagonal line joins a and b (a != b)."""
    return (a, b) in BETWEEN


def sees(a: int, b: int, nests: int) -> bool:
    """True when a and b are aligned and no nest in ``nests`` stands strictly between them."""
    inner = BETWEEN.get((a, b))
    return inner is not None and not inner & nests


def sight(square: int, nests: int) -> int:
    """Mask of the first nest met along each of the eight rays from ``square``."""
    found = 0
    for ray in RAYS[square]:
        for t in ray:
            if nests >> t & 1:
                found |= 1 << t
                break
    return found


def steps(square: int, nests: int) -> int:
    """Mask of the empty play-area squares one orthogonal step from ``square``."""
    return STEPS[square] & ~nests
