"""Binary's game options (board size, how empty squares join groups, a stuck player)."""

from __future__ import annotations

from companion.games.base import Option


def _even(value: int) -> str | None:
    return None if value % 2 == 0 else "must be even"


OPTIONS: tuple[Option, ...] = (
    Option("size", 8, "squares per side (even, 4..16)", kind=int, minimum=4, maximum=16,
           check=_even),
    Option("empty_joins", True, "an empty square next to two groups joins them", kind=bool),
    Option("stuck", "pass", "a player with pieces but no legal placement: pass or end the game",
           choices=("pass", "end")),
)  # fmt: skip
