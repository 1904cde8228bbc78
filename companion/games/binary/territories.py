"""Binary's scoring: territories, scores and the tie-break between two players' territories."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.binary.bits import Masks, board_bits, joined_squares, masks, squares
from companion.games.binary.bits import territories as bit_territories
from companion.games.binary.board import BLACK, WHITE


def _ordinal(k: int) -> str:
    if 10 <= k % 100 <= 20:
        return f"{k}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def territories(
    cells: Sequence[str], n: int, player: str, empty_joins: bool = True
) -> list[tuple[int, ...]]:
    """The player's territories as sorted square tuples, largest first (ties: lowest square).

    A territory is a connected group of the player's pieces and empty squares of the player's
    colour, holding at least one piece, of at least two squares. With ``empty_joins`` False,
    each group of pieces is a territory with the empty own-colour squares next to it, so an
    empty square touching two groups counts in both.
    """
    return scores(cells, n, empty_joins)[player]["squares"]


def _territory_bits(cells: Sequence[str], m: Masks, empty_joins: bool) -> tuple[list[int], ...]:
    """Black's and White's territories as bitboards, by flood fills on integers (bits.py): a
    Python loop over the cells, as this scoring once was, costs several times as much."""
    black, white, empty = board_bits(cells)
    full, (dark, light) = m.full, m.own
    return (
        bit_territories(black & full, empty & dark, m, empty_joins),
        bit_territories(white & full, empty & light, m, empty_joins),
    )


def _largest_first(squares: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return -len(squares), squares


def territory_sizes(
    cells: Sequence[str], n: int, empty_joins: bool = True
) -> tuple[list[int], list[int]]:
    """Black's and White's territory sizes, largest first: what shows only the sizes and the
    scores needs no squares."""
    black, white = _territory_bits(cells, masks(n), empty_joins)
    b = [t.bit_count() for t in black]
    w = [t.bit_count() for t in white]
    b.sort(reverse=True)
    w.sort(reverse=True)
    return b, w


def score_of(sizes: Sequence[int]) -> int:
    """2 x the largest territory + the sum of all the others."""
    return sum(sizes) + max(sizes, default=0)


def score_cells(
    cells: Sequence[str], n: int, options: Mapping[str, Any] | None = None
) -> dict[str, dict[str, Any]]:
    """Score any position: per colour, score, territory sizes (largest first) and squares."""
    if len(cells) != n * n:
        raise ValueError(f"expected {n * n} cells, got {len(cells)}")
    return scores(cells, n, bool((options or {}).get("empty_joins", True)))


def scores(cells: Sequence[str], n: int, empty_joins: bool) -> dict[str, dict[str, Any]]:
    """``score_cells`` of n * n cells (unchecked: a state's cells are)."""
    m = masks(n)
    black, white, empty = board_bits(cells)
    full, (dark, light) = m.full, m.own
    out = {}
    for player, pieces, own in ((BLACK, black & full, dark), (WHITE, white & full, light)):
        if empty_joins:  # disjoint, found in order of their lowest squares: a stable sort
            terrs = joined_squares(pieces, empty & own, m)
            terrs.sort(key=len, reverse=True)  # by size keeps them so among equals
        else:
            terrs = [squares(t, m) for t in bit_territories(pieces, empty & own, m, False)]
            terrs.sort(key=_largest_first)
        sizes = [len(t) for t in terrs]
        score = sum(sizes) + sizes[0] if sizes else 0
        out[player] = {"score": score, "territories": sizes, "squares": terrs}
    return out


def compare(
    black: Sequence[int], white: Sequence[int], scores: tuple[int, int] | None = None
) -> tuple[str | None, str | None]:
    """(winner or None for a draw, tie-break explanation or None when the score decided).

    Sizes are sorted largest first. Equal scores compare sizes position by position.
    ``scores``: the two scores when the caller has them already.
    """
    sb, sw = scores or (score_of(black), score_of(white))
    if sb != sw:
        return (BLACK if sb > sw else WHITE), None
    for k in range(max(len(black), len(white))):
        b = black[k] if k < len(black) else 0
        w = white[k] if k < len(white) else 0
        if b != w:
            winner, hi, lo = (BLACK, b, w) if b > w else (WHITE, w, b)
            which = "largest" if k == 0 else _ordinal(k + 1)
            return winner, f"tie {sb}-{sw}: {winner}'s {which} territory {hi} > {lo or 'none'}"
    return None, f"tie {sb}-{sw}: same territories, draw"


def deciding(tie_break: str) -> str:
    """'tie 15-15: black's largest territory 6 > 5' -> 'largest territory 6>5' (one OLED
    line; 'none' is 0 there)."""
    words = tie_break.split(": ", 1)[-1].split()  # black's largest territory 6 > 5
    lo = "0" if words[5] == "none" else words[5]
    return f"{words[1]} territory {words[3]}>{lo}"
