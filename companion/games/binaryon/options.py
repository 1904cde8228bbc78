"""Binaryon game options and their validation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from companion.core.squares import parse_square, square_name
from companion.games.base import Option, resolve_options


def _check_through(value: str) -> str | None:
    if value == "":
        return None
    try:
        parse_square(value, 16)
    except ValueError as exc:
        return str(exc)
    return None


def _check_size(value: int) -> str | None:
    return None if value % 2 == 0 else f"{value} is odd, the board size must be even"


PLAYERS: Final = ("on", "off")  # the first player first

OPTIONS: Final = (
    Option("first", "on", "who moves first", choices=("on", "off")),
    Option(
        "opening",
        "free",
        "first move: free (any opposing piece) or majority (neighbour rule applies)",
        choices=("free", "majority"),
    ),
    Option(
        "reach",
        "line",
        "in-line rule: line (share an n-square line) or ray (any square an unbounded ray hits)",
        choices=("line", "ray"),
    ),
    Option("size", 8, "board size n (even)", kind=int, minimum=4, maximum=16, check=_check_size),
    Option(
        "scoring",
        "all",
        "lines that score: all, or orthogonal (rows and columns only)",
        choices=("all", "orthogonal"),
    ),
    Option("through", "", "score only lines through this square ('' = any)", check=_check_through),
)


def resolve(given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Defaults overlaid with ``given``, validated (``through`` must be on the board)."""
    out = resolve_options(OPTIONS, dict(given or {}))
    if out["through"]:
        try:
            out["through"] = square_name(parse_square(out["through"], out["size"]), out["size"])
        except ValueError as exc:
            raise ValueError(f"through: {exc}") from None
    return out
