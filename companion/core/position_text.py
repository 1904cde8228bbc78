"""The plain-text position format shared by every board game.

One line per rank, rank n first; ``x`` black, ``o`` white, ``.`` empty. Spaces, ``|`` and
rank/file labels are ignored, so a diagram copied from a rules sheet is read as it is::

    | x | x | o | ... | 8
    a b c d e f g h

Text above or below the diagram (a title, a caption) is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class _Line:
    """One line of a position text, read."""

    number: int
    cells: str = ""  # the squares of a rank line
    bad: str = ""  # the first character that is not a square, on a line that is not a rank
    row_like: bool = False  # mostly squares: a rank with a typo, not a caption


def _read_line(number: int, raw: str) -> _Line | None:
    """A rank line, a line of other text, or None for a blank, a comment or the file letters."""
    line = raw.split("#", 1)[0].strip()
    tokens = line.replace("|", " ").split()
    if not tokens or _is_file_footer(tokens):
        return None
    body = "".join(t.strip("0123456789") for t in tokens)  # rank labels are ASCII digits
    if not body:
        return None
    bad = next((ch for ch in body if ch not in _CELLS), "")
    if not bad:
        return _Line(number, "".join(_CELLS[ch] for ch in body))
    squares = sum(ch in _CELLS for ch in body)
    return _Line(number, bad=bad, row_like=2 * squares >= len(body))


def parse_position(text: str, size: int | None = None) -> tuple[int, list[str]]:
    """Read a position. Returns (n, cells) with cells[index] in 'x', 'o', '.', index a1 = 0.

    The diagram is the block of rank lines; text above or below it (a title, a caption) is
    ignored, so a figure copied with its caption reads as it is. Raises PositionError naming
    the line and what is wrong.
    """
    text = text.removeprefix("\ufeff")  # a UTF-8 byte-order mark, as some editors write
    lines = [ln for i, raw in enumerate(text.splitlines(), 1) if (ln := _read_line(i, raw))]
    ranks = [i for i, ln in enumerate(lines) if not ln.bad or ln.row_like]
    if not ranks:
        if lines:
            first = lines[0]
            raise PositionError(f"no position found (line {first.number}: {first.bad!r} is not "
                                "x, o or .)")  # fmt: skip
        raise PositionError("no position found")
    diagram = lines[ranks[0] : ranks[-1] + 1]
    for ln in diagram:
        if ln.bad:
            raise PositionError(f"line {ln.number}: {ln.bad!r} is not x, o or .")
    rows = [ln.cells for ln in diagram]
    first = diagram[0]
    for ln in diagram[1:]:
        if len(ln.cells) != len(first.cells):
            raise PositionError(
                f"line {ln.number} has {len(ln.cells)} squares but line {first.number} has "
                f"{len(first.cells)}: every rank needs the same number"
            )
    n = size if size is not None else len(rows)
    if len(rows) != n:
        raise PositionError(f"expected {n} ranks, found {len(rows)}")
    if len(first.cells) != n:
        raise PositionError(f"{n} ranks of {len(first.cells)} squares: a board is square")
    if not MIN_SIZE <= n <= MAX_SIZE or n % 2:
        raise PositionError(f"board size must be even, {MIN_SIZE}..{MAX_SIZE}, got {n}")
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
