"""The plain-text position format shared by every board game.

One line per rank, rank n first; ``x`` black, ``o`` white, ``.`` empty. Spaces, ``|`` and
rank/file labels are ignored, so a diagram copied from a rules sheet is read as it is::

    | x | x | o | ... | 8
    a b c d e f g h
"""

from __future__ import annotations

from companion.core.squares import FILES, MAX_SIZE, MIN_SIZE

BLACK, WHITE, EMPTY = "x", "o", "."
_CELLS = {"x": BLACK, "X": BLACK, "o": WHITE, "O": WHITE, ".": EMPTY}


class PositionError(ValueError):
    """A position text that cannot be read; the message is one line for the user."""


def _is_file_footer(tokens: list[str]) -> bool:
    return (
        bool(tokens)
        and all(len(t) == 1 for t in tokens)
        and "".join(tokens) == FILES[: len(tokens)]
    )


def parse_position(text: str, size: int | None = None) -> tuple[int, list[str]]:
    """Read a position. Returns (n, cells) with cells[index] in 'x', 'o', '.', index a1 = 0.

    Raises PositionError naming the line and what is wrong.
    """
    rows: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        tokens = line.replace("|", " ").split()
        if _is_file_footer(tokens):
            continue
        cells = []
        for token in tokens:
            body = token.strip("0123456789")
            if not body:  # a rank label
                continue
            for ch in body:
                if ch not in _CELLS:
                    raise PositionError(f"line {lineno}: {ch!r} is not x, o or .")
                cells.append(_CELLS[ch])
        if cells:
            rows.append("".join(cells))
    if not rows:
        raise PositionError("no position found")
    n = size if size is not None else len(rows)
    if len(rows) != n:
        raise PositionError(f"expected {n} ranks, found {len(rows)}")
    if not MIN_SIZE <= n <= MAX_SIZE or n % 2:
        raise PositionError(f"board size must be even, {MIN_SIZE}..{MAX_SIZE}, got {n}")
    for i, row in enumerate(rows):
        if len(row) != n:
            raise PositionError(f"rank {n - i} has {len(row)} squares, expected {n}")
    cells = []
    for row in reversed(rows):  # rank 1 first
        cells.extend(row)
    return n, cells


def format_position(cells: list[str], n: int, labels: bool = True) -> str:
    """Draw a position as the rules sheets do: ``| x | o | ... | 8`` then the file letters."""
    lines = []
    for rank in range(n - 1, -1, -1):
        row = cells[rank * n : rank * n + n]
        if labels:
            lines.append("| " + " | ".join(row) + f" | {rank + 1}")
        else:
            lines.append("".join(row))
    if labels:
        lines.append("  " + "   ".join(FILES[:n]))
    return "\n".join(lines) + "\n"
