"""The rules: three in a row on an n x n board (n 3 or 4), Cross first; a full board with no
row of three is a draw. Moves are ``Place``s of the board (``b2``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from companion.games.base import (
    GameState,
    IllegalMove,
    Outcome,
    Place,
    Refusal,
    parse_place,
    places,
)

GAME = "noughts"
PLAYERS = ("cross", "nought")
MARKS = {"cross": "x", "nought": "o"}
SIZES = (3, 4)


@cache
def lines_of(n: int) -> tuple[tuple[int, int, int], ...]:
    """Every row of three cells: along files, ranks and both diagonals."""
    out = []
    for r in range(n):
        for f in range(n):
            for df, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                ends = (f + 2 * df, r + 2 * dr)
                if 0 <= ends[0] < n and ends[1] < n:
                    out.append(tuple((r + k * dr) * n + f + k * df for k in range(3)))
    return tuple(out)  # type: ignore[return-value]


def cell_name(cell: int, n: int) -> str:
    return f"{'abcd'[cell % n]}{cell // n + 1}"


def other(player: str) -> str:
    return PLAYERS[1 - PLAYERS.index(player)]


@dataclass(frozen=True)
class NoughtsState(GameState):
    game = GAME
    players = PLAYERS
    n: int = 3
    board: tuple[str, ...] = ("",) * 9  # '', 'x' or 'o' per cell
    mover: str = "cross"
    plies: int = 0

    @classmethod
    def start(cls, size: int = 3) -> NoughtsState:
        if size not in SIZES:
            raise ValueError(f"size: must be 3 or 4, got {size!r}")
        return cls(size, ("",) * (size * size))

    @classmethod
    def from_cells(cls, cells: list[str], n: int, mover: str) -> NoughtsState:
        """A position ('x', 'o', '.' per cell) with ``mover`` to play."""
        board = tuple("" if c == "." else c for c in cells)
        return cls(n, board, mover, sum(1 for c in board if c))

    @property
    def turn(self) -> str | None:
        return None if self.is_over() else self.mover

    @property
    def ply(self) -> int:
        return self.plies

    def winning_line(self) -> tuple[int, int, int] | None:
        b = self.board
        for line in lines_of(self.n):
            if b[line[0]] and b[line[0]] == b[line[1]] == b[line[2]]:
                return line
        return None

    def is_over(self) -> bool:
        return self.winning_line() is not None or all(self.board)

    def legal_moves(self, player: str | None = None) -> list[Place]:
        if self.is_over() or player not in (None, self.mover):
            return []
        cells = places(self.n)
        return [cells[c] for c, v in enumerate(self.board) if not v]

    def check(self, move: Any, player: str | None = None) -> Refusal | None:
        if (refusal := self.own_turn(player)) is not None:
            return refusal
        if self.is_over():
            return Refusal("game-over", "game is over")
        if not isinstance(move, Place) or move.size != self.n:
            return Refusal("not-a-cell", f"{move!r}: not a cell")
        if self.board[move.cell]:
            return Refusal("occupied", f"{move.name}: taken")
        return None

    def play(self, move: Any, player: str | None = None) -> NoughtsState:
        if (refusal := self.check(move, player)) is not None:
            raise IllegalMove(refusal)
        board = list(self.board)
        board[move.cell] = MARKS[self.mover]
        return replace(self, board=tuple(board), mover=other(self.mover), plies=self.plies + 1)

    def winner(self) -> str | None:
        line = self.winning_line()
        return None if line is None else ("cross" if self.board[line[0]] == "x" else "nought")

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        won = self.winner()
        if won is None:
            return Outcome(winners=(), summary="draw", reason="the board is full")
        line = "-".join(cell_name(c, self.n) for c in self.winning_line() or ())
        return Outcome(winners=(won,), summary=f"{won.upper()} wins", reason=f"three on {line}")

    def parse_move(self, text: str) -> Place:
        return parse_place(text, self.n)

    def cells(self) -> list[str]:
        return [v or "." for v in self.board]

    def can_still_win(self, player: str) -> bool:
        """Is there a row without the other player's mark (one ``player`` could still make)?"""
        theirs = MARKS[other(player)]
        return any(all(self.board[c] != theirs for c in line) for line in lines_of(self.n))

    def open_twos(self, player: str) -> int:
        """Rows with two of ``player``'s marks and an empty cell: threats to win."""
        mark, b = MARKS[player], self.board
        return sum(1 for line in lines_of(self.n) if sorted(b[c] for c in line) == ["", mark, mark])


def parse_text(text: str) -> tuple[int, list[str]]:
    """A position: one line per rank, the top rank first, of 'x', 'o' and '.'; blank lines
    and '#' comments skipped. ValueError with a one-line reason."""
    rows = [line.split("#", 1)[0].replace(" ", "") for line in text.splitlines()]
    rows = [r for r in rows if r]
    n = len(rows)
    if n not in SIZES or any(len(r) != n for r in rows):
        raise ValueError("a noughts position is 3 or 4 rows of as many cells")
    if bad := next((c for r in rows for c in r if c not in "xo."), ""):
        raise ValueError(f"{bad!r}: not x, o or .")
    return n, [c for r in reversed(rows) for c in r]
