"""Binaryon scoring: each player's best line number, the tie-break, and its explanation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
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

    @property
    def tied(self) -> bool:
        return self.on_best == self.off_best

    def bits(self, value: int) -> str:
        return format(value, f"0{self.n}b")

    def remaining(self) -> dict[str, tuple[int, tuple[int, ...]]] | None:
        """After cancelling identical numbers: each player's largest remaining number and a
        line giving it. None unless the best numbers tied and something remains."""
        if not self.tied:
            return None
        top = (1 << self.n) - 1
        on = Counter(self.on_numbers)
        off = Counter(top - v for v in self.on_numbers)
        on_left, off_left = on - off, off - on
        if not on_left:
            return None
        on_v, off_v = max(on_left), max(off_left)
        nums = list(self.on_numbers)
        return {
            "on": (on_v, self.lines[nums.index(on_v)]),
            "off": (off_v, self.lines[nums.index(top - off_v)]),
        }


def score_bitboard(white: int, r: Rules) -> Score:
    """Score a full board given as the bitboard of its white pieces."""
    nums = r.numbers(white)
    top = r.top
    on_best = max(nums)
    low = min(nums)
    off_best = top - low
    lines = r.score_lines
    if on_best > off_best:
        winner: str | None = "on"
    elif off_best > on_best:
        winner = "off"
    else:
        # Cancel identical numbers one for one; the larger largest-remaining wins. Comparing
        # both collections sorted largest first, position by position, decides the same way.
        on_desc = sorted(nums, reverse=True)
        off_desc = [top - v for v in reversed(on_desc)]
        winner = "on" if on_desc > off_desc else "off" if off_desc > on_desc else None
    return Score(
        r.n, on_best, off_best, lines[nums.index(on_best)], lines[nums.index(low)], winner,
        lines, nums,
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
    return [square_name(s, n) for s in line]


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
