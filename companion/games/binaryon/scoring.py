"""Binaryon scoring: each player's best line number, the tie-break, and its explanation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from companion.core.squares import square_name
from companion.games.binaryon.board import cells_to_white
from companion.games.binaryon.tables import Rules, rules


@dataclass(frozen=True, slots=True)
class Score:
    """A scored board. Best lines are square indices in reading order.

    When several lines give a player's best number, the first in ``all_lines`` order is named.
    ``winner`` is 'on', 'off', or None for a draw.
    """

    n: int
    on_best: int
    off_best: int
    on_line: tuple[int, ...]
    off_line: tuple[int, ...]
    winner: str | None
    lines: tuple[tuple[int, ...], ...] = field(repr=False)
    on_numbers: Sequence[int] = field(repr=False)
    # When the best numbers tie: the smallest and largest of ON's numbers left after cancelling
    # (see ``left_after_cancelling``), None if nothing is left.
    left: tuple[int, int] | None = field(default=None, repr=False, compare=False)

    @property
    def tied(self) -> bool:
        return self.on_best == self.off_best

    def bits(self, value: int) -> str:
        return format(value, f"0{self.n}b")

    def remaining(self) -> dict[str, tuple[int, tuple[int, ...]]] | None:
        """After cancelling identical numbers: each player's largest remaining number and a
        line giving it. None unless the best numbers tied and something remains."""
        if not self.tied or self.left is None:
            return None
        low, high = self.left
        nums = self.on_numbers
        return {
            "on": (high, self.lines[nums.index(high)]),
            "off": ((1 << self.n) - 1 - low, self.lines[nums.index(low)]),
        }


def left_after_cancelling(nums: Sequence[int], top: int) -> tuple[int, int] | None:
    """Cancel identical numbers of ON (``nums``) and OFF (``top - v`` for each): the smallest and
    largest of ON's numbers left, or None when every number cancels.

    OFF's numbers are ON's complemented, so ON keeps a copy of ``v`` exactly where ``v`` is more
    frequent in ``nums`` than ``top - v``, and OFF keeps ``top - v`` for each of those: OFF's
    largest left is ``top`` minus ON's smallest left. Both ends are found by walking the values
    in from either end, which stops after a few steps on real boards.
    """
    values = sorted(set(nums))
    count = nums.count
    for high in reversed(values):
        if count(high) > count(top - high):
            break
    else:
        return None
    low = next(v for v in values if count(v) > count(top - v))  # ``high`` at the latest
    return low, high


def _largest(nums: Sequence[int], top: int) -> int:
    """max(nums): with 2n lines or more, some line almost always reads within 32 of ``top``, and
    a membership test runs in C where max() steps through every number."""
    for v in range(top, max(top - 32, -1), -1):
        if v in nums:
            return v
    return max(nums)


def _smallest(nums: Sequence[int], top: int) -> int:
    """min(nums), the same way from 0."""
    for v in range(min(32, top + 1)):
        if v in nums:
            return v
    return min(nums)


def score_bitboard(white: int, r: Rules) -> Score:
    """Score a full board given as the bitboard of its white pieces."""
    nums = r.numbers(white)
    top = r.top
    on_best = _largest(nums, top)
    low = _smallest(nums, top)
    off_best = top - low
    lines = r.score_lines
    left = None
    if on_best > off_best:
        winner: str | None = "on"
    elif off_best > on_best:
        winner = "off"
    else:
        # Cancel identical numbers one for one; the larger largest-remaining wins (never equal:
        # ON's largest left ``high`` = OFF's ``top - low`` would need both ``high`` and
        # ``top - high`` to be more frequent than the other).
        left = left_after_cancelling(nums, top)
        winner = None if left is None else "on" if left[1] > top - left[0] else "off"
    return Score(
        r.n, on_best, off_best, lines[nums.index(on_best)], lines[nums.index(low)], winner,
        lines, nums, left,
    )  # fmt: skip


def score_cells(cells: Sequence[str], n: int, options: Mapping[str, Any] | None = None) -> Score:
    """Score a position given as cells ('x'/'o', index a1 = 0)."""
    r = rules({**(options or {}), "size": n})
    return score_bitboard(cells_to_white(cells, n), r)


def tie_reason(sc: Score) -> str:
    """Why a tie of best numbers was decided, in one line, e.g. 'tie at 11110000: equal
    numbers cancel; ON's next is higher' ('' when the best numbers differ)."""
    if not sc.tied:
        return ""
    at = f"tie at {sc.bits(sc.on_best)}"
    if sc.winner is None:
        return f"{at}: every number cancels"
    return f"{at}: equal numbers cancel; {sc.winner.upper()}'s next is higher"


def line_names(line: Iterable[int], n: int) -> list[str]:
    if isinstance(line, tuple):
        return list(_tuple_names(line, n))
    return [square_name(s, n) for s in line]


@lru_cache(maxsize=8192)
def _tuple_names(line: tuple[int, ...], n: int) -> tuple[str, ...]:
    """The names along a line (a board has a few hundred lines: they all fit)."""
    return tuple(square_name(s, n) for s in line)


def score_detail(sc: Score) -> dict[str, Any]:
    """JSON-able explanation: each player's best number and line, the winner, the tie-break."""
    n = sc.n
    detail: dict[str, Any] = {
        "on": {"best": sc.bits(sc.on_best), "line": line_names(sc.on_line, n)},
        "off": {"best": sc.bits(sc.off_best), "line": line_names(sc.off_line, n)},
        "winner": sc.winner or "draw",
    }
    rem = sc.remaining()
    if rem is not None:
        detail["tiebreak"] = {
            p: {"best": sc.bits(v), "line": line_names(line, n)} for p, (v, line) in rem.items()
        }
    return detail
