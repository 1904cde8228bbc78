"""States for analysis from the plain-text position format (``binaryon bestmove``)."""

from __future__ import annotations

from typing import Any

from companion.core.position_text import parse_position
from companion.core.squares import parse_square

MOVERS = {"binaryon": ("on", "off"), "binary": ("black", "white")}


def state_from_text(game: str, text: str, mover: str, last: str | None = None) -> Any:
    """The position ``text`` with ``mover`` to play; ValueError with a one-line reason.

    Binaryon: ``last`` is the square turned last (none: the opening move is to be made).
    Binary: the mover is at the start of a turn, hands are what the board leaves.
    """
    if game not in MOVERS:
        raise ValueError(f"{game}: bestmove reads binaryon or binary positions")
    if mover not in MOVERS[game]:
        raise ValueError(f"--mover must be {' or '.join(MOVERS[game])} for {game}")
    n, cells = parse_position(text)
    if game == "binaryon":
        from companion.games.binaryon.engine import BinaryonState

        last_sq = None if last is None else parse_square(last, n)
        return BinaryonState.from_cells(cells, n, mover, last_sq)
    if last is not None:
        raise ValueError("--last is for binaryon only")
    from companion.games.binary.engine import BinaryState

    return BinaryState.from_position(cells, n, mover)
