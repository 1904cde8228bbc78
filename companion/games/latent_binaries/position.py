"""The public position text of Latent Binaries and the ``legal`` command's function.

A position is 7 lines, rank 7 first, 5 cells each: ``R`` a Rainbow nest, ``X`` a Xeno nest,
``g`` a goal marker, ``.`` empty. Spaces, ``|``, rank numbers, a file footer (``a b c d e``),
blank lines and ``#`` comments are ignored. It holds no hidden pawn, so it says which nest
moves are legal and which of them win, nothing about challenges.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import base_squares, step_moves, winning_line
from .engine import LatentState
from .geometry import FILES, HEIGHT, WIDTH, index, square_name
from .moves import PASS
from .options import PLAYERS, other

RAINBOW_NEST, XENO_NEST, MARKER, EMPTY = "R", "X", "g", "."
_CELLS = {"R": RAINBOW_NEST, "r": RAINBOW_NEST, "X": XENO_NEST, "x": XENO_NEST}
_CELLS |= {"g": MARKER, "G": MARKER, ".": EMPTY}


class PositionError(ValueError):
    """A position that cannot be read or cannot happen; the message is one line."""


@dataclass(frozen=True)
class Position:
    """Nests as masks by player index; markers as the first file of each pair (rank 1, 7)."""

    nests: tuple[int, int]
    markers: tuple[int, int]

    def nests_of(self, player: str) -> int:
        return self.nests[PLAYERS.index(player)]

    @property
    def occupied(self) -> int:
        return self.nests[0] | self.nests[1]

    def base(self, player: str) -> tuple[int, int]:
        return base_squares(self.markers, player)


def _rows(text: str) -> list[str]:
    rows = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0]
        body = "".join(line.replace("|", " ").split())
        if not body or body == FILES:
            continue
        cells = []
        for ch in body.rstrip("0123456789"):
            if ch not in _CELLS:
                raise PositionError(f"line {lineno}: {ch!r} is not R, X, g or .")
            cells.append(_CELLS[ch])
        rows.append("".join(cells))
    return rows


def _pair(markers: list[int], rank: int) -> int:
    name = f"rank {rank + 1}"
    if len(markers) != 2:
        raise PositionError(f"{name}: {len(markers)} markers, expected 2")
    a, b = markers
    if b != a + 1:
        raise PositionError(f"{name}: markers {square_name(a)} and {square_name(b)} not adjacent")
    return a % WIDTH


def parse_position(text: str) -> Position:
    """Read a public position; PositionError (one line) for anything impossible."""
    rows = _rows(text)
    if len(rows) != HEIGHT:
        raise PositionError(f"expected {HEIGHT} ranks, found {len(rows)}")
    for i, row in enumerate(rows):
        if len(row) != WIDTH:
            raise PositionError(f"rank {HEIGHT - i} has {len(row)} squares, expected {WIDTH}")
    cells = "".join(reversed(rows))  # index a1 = 0
    nests = [0, 0]
    markers: dict[int, list[int]] = {0: [], HEIGHT - 1: []}
    for sq, c in enumerate(cells):
        rank = sq // WIDTH
        if c == MARKER:
            if rank not in markers:
                raise PositionError(f"{square_name(sq)}: marker off the goal rows")
            markers[rank].append(sq)
        elif c in (RAINBOW_NEST, XENO_NEST):
            if rank in markers:
                raise PositionError(f"{square_name(sq)}: nest on a goal row")
            nests[0 if c == RAINBOW_NEST else 1] |= 1 << sq
    return Position(
        (nests[0], nests[1]), (_pair(markers[0], 0), _pair(markers[HEIGHT - 1], HEIGHT - 1))
    )


def position_of(state: LatentState) -> Position:
    """The public position of a game state (what the board shows)."""
    return Position(
        (state.own_mask(PLAYERS[0]), state.own_mask(PLAYERS[1])),
        (state.markers[0], state.markers[1]),
    )


def format_position(pos: Position) -> str:
    """The 7 lines of a position, rank 7 first."""
    marks = {*pos.base(PLAYERS[0]), *pos.base(PLAYERS[1])}
    lines = []
    for rank in range(HEIGHT - 1, -1, -1):
        row = []
        for f in range(WIDTH):
            sq = index(f, rank)
            if pos.nests[0] >> sq & 1:
                row.append(RAINBOW_NEST)
            elif pos.nests[1] >> sq & 1:
                row.append(XENO_NEST)
            else:
                row.append(MARKER if sq in marks else EMPTY)
        lines.append("".join(row))
    return "\n".join(lines) + "\n"


def legal(pos: Position, mover: str) -> dict[str, list[str]]:
    """The mover's nest moves at the start of their turn, and those after which they have won
    (``pass`` when no nest can move; nothing when the mover has no nest)."""
    if mover not in PLAYERS:
        raise ValueError(f"mover must be rainbow or xeno, got {mover!r}")
    own, occ = pos.nests_of(mover), pos.occupied
    target = pos.base(other(mover))
    steps = step_moves(own, occ)
    if not steps:
        if not own:
            return {"moves": [], "winning": []}
        won = winning_line(own, occ, target) is not None
        return {"moves": [PASS.name], "winning": [PASS.name] if won else []}
    moves, winning = [], []
    for st in steps:
        name = st.name
        moves.append(name)
        after = own & ~(1 << st.src) | (1 << st.dst)
        if winning_line(after, occ & ~(1 << st.src) | (1 << st.dst), target) is not None:
            winning.append(name)
    return {"moves": moves, "winning": winning}
