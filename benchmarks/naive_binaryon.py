"""A plain Binaryon: a list-of-lists board and loops, written the straightforward way.

The yardstick for ``bench_rules.py``: the same rules as ``companion.games.binaryon`` (see
docs/rules/binaryon.md), shares no code with it, and uses no bit tricks. The lines are
walked once per board size (the board's geometry); a move checks the piece's colour, the
in-line rule and its neighbours one by one; scoring reads every line as a string of 0s and 1s.

Two ways to apply the in-line rule:
- plain (the default, the benchmark's reference): once a move, scan the list of lines for the
  ones through the last square turned, then test each square against them;
- ``indexed=True`` (a faster, stricter yardstick): each square's partners in line are kept in a
  set once per board size, so the scan disappears.

Moves are square indices (a1 = 0, index = rank * n + file) or "pass", listed in index order,
so a game driven by the same random choices is the same game in both implementations.
Options: ``size`` (even, 4..16), ``first`` ("on"/"off") and ``opening`` ("free"/"majority").
"""

from __future__ import annotations

from collections import Counter
from functools import cache

PASS = "pass"
BLACK, WHITE = "x", "o"
KING_STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
# East, north, west, south, then the diagonals.
LINE_DIRECTIONS = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]


class IllegalMove(ValueError):
    pass


def walk_line(n: int, r: int, f: int, dr: int, df: int) -> list[tuple[int, int]] | None:
    """The n squares from (r, f) heading (dr, df), diagonals reflecting off an edge; None if
    the walk meets an edge square-on (a row or column) or leaves through a corner."""
    squares = [(r, f)]
    while len(squares) < n:
        nr, nf = r + dr, f + df
        off_r = nr < 0 or nr >= n
        off_f = nf < 0 or nf >= n
        if off_r and off_f:
            return None
        if (off_r or off_f) and (dr == 0 or df == 0):
            return None
        if off_r:
            dr = -dr
            nr = r + dr
        if off_f:
            df = -df
            nf = f + df
        r, f = nr, nf
        squares.append((r, f))
    return squares


@cache
def board_lines(n: int) -> tuple[list[tuple[int, int]], ...]:
    """Every line of the board, each reading direction once."""
    lines = []
    seen = set()
    for r in range(n):
        for f in range(n):
            for dr, df in LINE_DIRECTIONS:
                line = walk_line(n, r, f, dr, df)
                if line is not None and tuple(line) not in seen:
                    seen.add(tuple(line))
                    lines.append(line)
    return tuple(lines)


@cache
def in_line_with(n: int) -> dict[tuple[int, int], set[tuple[int, int]]]:
    """For each square, the other squares sharing a line with it."""
    partners: dict[tuple[int, int], set[tuple[int, int]]] = {
        (r, f): set() for r in range(n) for f in range(n)
    }
    for line in board_lines(n):
        for square in line:
            partners[square].update(line)
    for square, others in partners.items():
        others.discard(square)
    return partners


class NaiveGame:
    """One game in progress; ``play`` changes it in place."""

    def __init__(
        self, size: int = 8, first: str = "on", opening: str = "free", indexed: bool = False
    ):
        self.n = size
        # board[rank][file]; ranks 1..n/2 white, the rest black
        self.board = [[WHITE if r < size // 2 else BLACK] * size for r in range(size)]
        self.mover = first
        self.last: tuple[int, int] | None = None
        self.passes = 0
        self.opening_majority = opening == "majority"
        self.lines = board_lines(size)
        self.indexed = indexed
        self.partners = in_line_with(size) if indexed else {}
        self.in_line: tuple[tuple[int, int] | None, set[tuple[int, int]]] = (None, set())

    def is_over(self) -> bool:
        return self.passes >= 2

    def colour_turned(self) -> str:
        """ON turns black pieces white, OFF white pieces black."""
        return BLACK if self.mover == "on" else WHITE

    def has_majority(self, r: int, f: int) -> bool:
        """Strictly more of the piece's neighbours are its own colour than the other."""
        colour = self.board[r][f]
        same = other = 0
        for dr, df in KING_STEPS:
            nr, nf = r + dr, f + df
            if 0 <= nr < self.n and 0 <= nf < self.n:
                if self.board[nr][nf] == colour:
                    same += 1
                else:
                    other += 1
        return same > other

    def is_legal(self, r: int, f: int) -> bool:
        if self.board[r][f] != self.colour_turned():
            return False
        if self.last is None:
            return not self.opening_majority or self.has_majority(r, f)
        if (r, f) not in self.in_line_with_last():
            return False
        return self.has_majority(r, f)

    def in_line_with_last(self) -> set[tuple[int, int]]:
        """The squares sharing a line with the last square turned (found once a move)."""
        last = self.last
        if self.indexed:
            return self.partners[last]
        if self.in_line[0] != last:
            found = set()
            for line in self.lines:
                if last in line:
                    found.update(line)
            found.discard(last)
            self.in_line = (last, found)
        return self.in_line[1]

    def legal_moves(self) -> list:
        if self.is_over():
            return []
        n = self.n
        moves = [r * n + f for r in range(n) for f in range(n) if self.is_legal(r, f)]
        return moves or [PASS]

    def play(self, move) -> None:
        if self.is_over():
            raise IllegalMove("game over")
        if move == PASS:
            if self.legal_moves() != [PASS]:
                raise IllegalMove("pass: you have a move")
            self.passes += 1
        else:
            r, f = divmod(move, self.n)
            if not self.is_legal(r, f):
                raise IllegalMove(f"{move}: not legal")
            self.board[r][f] = WHITE if self.board[r][f] == BLACK else BLACK
            self.last = (r, f)
            self.passes = 0
        self.mover = "off" if self.mover == "on" else "on"

    def numbers(self, colour: str) -> list[int]:
        """The number read along every line, ``colour`` being the 1s."""
        out = []
        for line in self.lines:
            digits = "".join("1" if self.board[r][f] == colour else "0" for r, f in line)
            out.append(int(digits, 2))
        return out

    def result(self) -> tuple[str | None, int, int]:
        """(winner 'on'/'off' or None for a draw, ON's best number, OFF's best number)."""
        on = self.numbers(WHITE)
        off = self.numbers(BLACK)
        on_best, off_best = max(on), max(off)
        if on_best != off_best:
            return ("on" if on_best > off_best else "off"), on_best, off_best
        # identical numbers cancel one for one; the larger largest remaining wins
        on_left = Counter(on) - Counter(off)
        off_left = Counter(off) - Counter(on)
        if not on_left:
            return None, on_best, off_best
        return ("on" if max(on_left) > max(off_left) else "off"), on_best, off_best


def random_game(
    rng, size: int = 8, indexed: bool = False
) -> tuple[int, tuple[str | None, int, int]]:
    """One game of random legal moves (``rng.choice``) to the end: (plies, result)."""
    game = NaiveGame(size, indexed=indexed)
    plies = 0
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
        plies += 1
    return plies, game.result()
