"""A plain Binary scorer: a list-of-lists board and a flood fill, written the straightforward
way from docs/rules/binary.md ("Territories and score").

The yardstick for ``bench_binary.py``: it shares no code with ``companion.games.binary`` and
uses no bit tricks. A board is n rows of n characters, rank 1 first (``x`` Black, ``o`` White,
``.`` empty); a1 is dark, and dark squares are Black's colour.

- A territory of a colour: a connected group (orthogonal steps) of that colour's pieces and
  empty squares of that colour, holding a piece, of at least two squares.
- ``empty_joins=False``: each group of pieces with the empty own-colour squares next to it (an
  empty square touching two groups counts in both).
- Score: twice the largest territory plus all the others. Higher score wins; on a tie the
  sizes, largest first, are compared one by one; all equal is a draw.
"""

from __future__ import annotations

PIECES = {"black": "x", "white": "o"}
STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def colour_of(rank: int, file: int) -> str:
    """The player whose colour the square is (a1, rank 0 file 0, is dark: Black's)."""
    return "black" if (rank + file) % 2 == 0 else "white"


def flood(board: list[list[str]], start: tuple[int, int], belongs) -> list[tuple[int, int]]:
    """The squares reachable from ``start`` through squares for which ``belongs`` holds."""
    n = len(board)
    seen = {start}
    todo = [start]
    while todo:
        r, f = todo.pop()
        for dr, df in STEPS:
            nr, nf = r + dr, f + df
            if 0 <= nr < n and 0 <= nf < n and (nr, nf) not in seen and belongs(nr, nf):
                seen.add((nr, nf))
                todo.append((nr, nf))
    return list(seen)


def territories(
    board: list[list[str]], player: str, empty_joins: bool = True
) -> list[list[tuple[int, int]]]:
    """The player's territories, each a list of (rank, file) squares."""
    n = len(board)
    piece = PIECES[player]

    def own_empty(r: int, f: int) -> bool:
        return board[r][f] == "." and colour_of(r, f) == player

    def is_piece(r: int, f: int) -> bool:
        return board[r][f] == piece

    def member(r: int, f: int) -> bool:
        return is_piece(r, f) or own_empty(r, f)

    found = []
    done: set[tuple[int, int]] = set()
    for r in range(n):
        for f in range(n):
            if (r, f) in done or not is_piece(r, f):
                continue
            if empty_joins:
                group = flood(board, (r, f), member)
                territory = group
            else:
                group = flood(board, (r, f), is_piece)
                empties = set()
                for gr, gf in group:
                    for dr, df in STEPS:
                        nr, nf = gr + dr, gf + df
                        if 0 <= nr < n and 0 <= nf < n and own_empty(nr, nf):
                            empties.add((nr, nf))
                territory = group + list(empties)
            done.update(group)
            if len(territory) >= 2:
                found.append(territory)
    return found


def territory_sizes(board: list[list[str]], player: str, empty_joins: bool = True) -> list[int]:
    """The player's territory sizes, largest first."""
    return sorted((len(t) for t in territories(board, player, empty_joins)), reverse=True)


def score(sizes: list[int]) -> int:
    """Twice the largest territory plus the sum of the others."""
    if not sizes:
        return 0
    return 2 * sizes[0] + sum(sizes[1:])


def winner(black: list[int], white: list[int]) -> str | None:
    """The higher score; on a tie, the first larger territory, largest first; else None."""
    if score(black) != score(white):
        return "black" if score(black) > score(white) else "white"
    for k in range(max(len(black), len(white))):
        b = black[k] if k < len(black) else 0
        w = white[k] if k < len(white) else 0
        if b != w:
            return "black" if b > w else "white"
    return None


def result(cells: str, n: int, empty_joins: bool = True) -> tuple:
    """Score a position given as n * n characters, a1 first (index = rank * n + file):
    (Black's score, White's score, Black's sizes, White's sizes, the winner or None)."""
    board = [list(cells[r * n : r * n + n]) for r in range(n)]
    black = territory_sizes(board, "black", empty_joins)
    white = territory_sizes(board, "white", empty_joins)
    return score(black), score(white), black, white, winner(black, white)
