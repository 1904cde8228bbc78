"""Binary's scoring: territories, scores and the tie-break between two players' territories."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.squares import orthogonal_groups, orthogonal_neighbours
from companion.games.binary.board import BLACK, EMPTY, PIECE, PLAYERS, WHITE, square_owner


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
    piece = PIECE[player]

    def own_empty(i: int) -> bool:
        return cells[i] == EMPTY and square_owner(i, n) == player

    if empty_joins:
        members = [i for i in range(n * n) if cells[i] == piece or own_empty(i)]
        found = [g for g in orthogonal_groups(members, n) if any(cells[i] == piece for i in g)]
    else:
        found = []
        for group in orthogonal_groups([i for i in range(n * n) if cells[i] == piece], n):
            empties = {nb for i in group for nb in orthogonal_neighbours(i, n) if own_empty(nb)}
            found.append(sorted(set(group) | empties))
    kept = [tuple(g) for g in found if len(g) >= 2]
    return sorted(kept, key=lambda g: (-len(g), g))


def score_of(sizes: Sequence[int]) -> int:
    """2 x the largest territory + the sum of all the others."""
    return sum(sizes) + max(sizes, default=0)


def score_cells(
    cells: Sequence[str], n: int, options: Mapping[str, Any] | None = None
) -> dict[str, dict[str, Any]]:
    """Score any position: per colour, score, territory sizes (largest first) and squares."""
    if len(cells) != n * n:
        raise ValueError(f"expected {n * n} cells, got {len(cells)}")
    empty_joins = bool((options or {}).get("empty_joins", True))
    out = {}
    for player in PLAYERS:
        terrs = territories(cells, n, player, empty_joins)
        sizes = [len(t) for t in terrs]
        out[player] = {"score": score_of(sizes), "territories": sizes, "squares": terrs}
    return out


def compare(black: Sequence[int], white: Sequence[int]) -> tuple[str | None, str | None]:
    """(winner or None for a draw, tie-break explanation or None when the score decided).

    Sizes are sorted largest first. Equal scores compare sizes position by position.
    """
    sb, sw = score_of(black), score_of(white)
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


def _deciding(tie_break: str) -> str:
    """'tie 15-15: black's largest territory 6 > 5' -> 'largest terr 6>5' (short for the OLED)."""
    words = tie_break.split(": ", 1)[-1].split()  # black's largest territory 6 > 5
    return f"{words[1]} terr {words[3]}>{words[5]}"
