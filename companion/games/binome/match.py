"""A Binøme match: three games, victory points added. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

GAMES_PER_MATCH: Final = 3


@dataclass(frozen=True)
class MatchStanding:
    games: int  # games counted so far
    totals: tuple[tuple[str, int], ...]  # every player seen, in order of first appearance
    leaders: tuple[str, ...]  # the highest total(s)

    @property
    def complete(self) -> bool:
        return self.games == GAMES_PER_MATCH


def match_standing(games: Sequence[Mapping[str, int]]) -> MatchStanding:
    """Totals over the games' scores ({player: points} each); a player missing from a game
    scores 0 in it. ValueError for more than three games or a negative score."""
    if len(games) > GAMES_PER_MATCH:
        raise ValueError(f"a match is {GAMES_PER_MATCH} games, got {len(games)}")
    totals: dict[str, int] = {}
    for scores in games:
        for player, points in scores.items():
            if points < 0:
                raise ValueError(f"{player}: negative score {points}")
            totals[player] = totals.get(player, 0) + points
    top = max(totals.values(), default=0)
    leaders = tuple(p for p, t in totals.items() if t == top) if totals else ()
    return MatchStanding(len(games), tuple(totals.items()), leaders)
