"""Wythe's group-size score: group tables, each player's score, who leads and why, in words
that fit the OLED."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import NamedTuple

from .moves import BLACK, WHITE, other


def group_sizes(mask: int, n: int) -> list[int]:
    """Sizes of the orthogonally connected groups of the squares in ``mask`` (any order).

    Each row is cut into runs of set bits; runs touching a run of the row below join its group
    (union-find over runs).
    """
    row_mask = (1 << n) - 1
    parent: list[int] = []
    size: list[int] = []
    prev: list[tuple[int, int]] = []  # (run mask, label) of the row below
    shift = 0
    while mask >> shift:
        row = (mask >> shift) & row_mask
        shift += n
        cur: list[tuple[int, int]] = []
        while row:
            run = row & ~(row + (row & -row))
            row ^= run
            label = -1
            for pm, pl in prev:
                if pm & run:
                    while parent[pl] != pl:
                        pl = parent[pl]
                    if label < 0:
                        label = pl
                    elif pl != label:
                        if size[pl] > size[label]:
                            pl, label = label, pl
                        parent[pl] = label
                        size[label] += size[pl]
            c = run.bit_count()
            if label < 0:
                label = len(parent)
                parent.append(label)
                size.append(c)
            else:
                size[label] += c
            cur.append((run, label))
        prev = cur
    return [s for i, s in enumerate(size) if parent[i] == i]


def group_table(mask: int, n: int) -> dict[int, int]:
    """{group size: number of groups of that size} for the squares in ``mask``."""
    return dict(Counter(group_sizes(mask, n)))


def scores_of(black: Mapping[int, int], white: Mapping[int, int]) -> tuple[int, int]:
    """Each player's score: the largest size at which they have strictly more groups."""
    sb = sw = 0
    for s in sorted(black.keys() | white.keys(), reverse=True):
        b, w = black.get(s, 0), white.get(s, 0)
        if b > w and not sb:
            sb = s
        elif w > b and not sw:
            sw = s
        if sb and sw:
            break
    return sb, sw


class Score(NamedTuple):
    """A scored position: group tables ({size: count}, shared with the state's cache: read
    only), scores, and who leads (None before any placement)."""

    black_groups: dict[int, int]
    white_groups: dict[int, int]
    black: int
    white: int
    leader: str | None
    reason: str  # "score", "last-mover" (the 0-0 rule), or "empty" (no placement yet)

    def groups(self, player: str) -> dict[int, int]:
        return self.black_groups if player == BLACK else self.white_groups

    def of(self, player: str) -> int:
        return self.black if player == BLACK else self.white


def score_masks(black_tops: int, white_tops: int, n: int, last_placer: str | None) -> Score:
    """Score a position from its top colours. ``last_placer`` is the colour that made the last
    placement (None: no placement yet); at 0-0 that player loses."""
    bg = group_table(black_tops, n)
    wg = group_table(white_tops, n)
    sb, sw = scores_of(bg, wg)
    if sb != sw:
        return Score(bg, wg, sb, sw, BLACK if sb > sw else WHITE, "score")
    if last_placer is None:
        return Score(bg, wg, 0, 0, None, "empty")
    return Score(bg, wg, 0, 0, other(last_placer), "last-mover")


_NUMBER_WORDS = (
    "none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
)  # fmt: skip


def count_word(k: int) -> str:
    return _NUMBER_WORDS[k] if 0 <= k < len(_NUMBER_WORDS) else str(k)


def reason_line(sc: Score) -> str:
    """Why the leader leads, short enough for two OLED lines, e.g.
    'Black 5: three groups of 5 to two', '0-0: White placed last'."""
    if sc.leader is None:
        return "no piece placed yet"
    if sc.reason == "last-mover":
        return f"0-0: {other(sc.leader).capitalize()} placed last"
    s = sc.of(sc.leader)
    mine = sc.groups(sc.leader).get(s, 0)
    theirs = sc.groups(other(sc.leader)).get(s, 0)
    noun = "group" if mine == 1 else "groups"
    return f"{sc.leader.capitalize()} {s}: {count_word(mine)} {noun} of {s} to {count_word(theirs)}"


def result_reason(sc: Score) -> str:
    """Why the leader wins, without the scores (the summary has them), for the OLED's result
    line: 'three groups of 5 to two', 'White placed last' (the 0-0 rule)."""
    if sc.leader is None:
        return ""
    if sc.reason == "last-mover":
        return f"{other(sc.leader).capitalize()} placed last"
    return reason_line(sc).split(": ", 1)[1]
