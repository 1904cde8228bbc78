"""Standings: points, then the event's tie-breaks in its order, after FIDE's tie-break
regulations (Handbook C.07):

- ``buchholz``: the sum of the opponents' scores.
- ``buchholz-cut-1``: the same less the lowest of them.
- ``sonneborn-berger``: each opponent's score times the points made against them.
- ``direct-encounter``: among the players still tied, the points they made against each
  other, when every one of them met every other (else it separates nobody).
- ``wins``: the rounds won (a forfeit win and a bye worth a win count).

Unplayed rounds: a forfeit counts as a game against the scheduled opponent (as C.07 has it
for round robins); a bye counts as a game against a dummy with the player's own final score
(the opponent a bye stands for). Players still tied share the rank."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.club.event.spec import (
    BUCHHOLZ,
    BUCHHOLZ_CUT1,
    DIRECT_ENCOUNTER,
    SONNEBORN_BERGER,
    WINS,
)
from companion.club.event.tournament import BYE, Tournament


@dataclass
class Line:
    """One player's rounds: (opponent or None for a bye, points made)."""

    name: str
    start: int  # starting rank, 1 first
    rounds: list[tuple[str | None, float]] = field(default_factory=list)

    @property
    def points(self) -> float:
        return sum(p for _, p in self.rounds)


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    points: float
    tiebreaks: dict[str, float]
    games: int  # rounds with a result

    def as_json(self) -> dict:
        return {
            "rank": self.rank,
            "name": self.name,
            "points": self.points,
            "tiebreaks": self.tiebreaks,
            "games": self.games,
        }


def lines_of(t: Tournament) -> dict[str, Line]:
    ranked = [p.name for p in t.event.ranked()]
    lines = {name: Line(name, i + 1) for i, name in enumerate(ranked)}
    for g in t.live():
        if g.result is None:
            continue
        if g.result == BYE or g.black is None:
            lines[g.white].rounds.append((None, t.event.bye))
            continue
        pw, pb = g.points()
        lines[g.white].rounds.append((g.black, pw))
        lines[g.black].rounds.append((g.white, pb))
    return lines


def _opponent_scores(line: Line, lines: dict[str, Line]) -> list[float]:
    return [lines[o].points if o is not None else line.points for o, _ in line.rounds]


def tiebreak(name: str, line: Line, lines: dict[str, Line], group: set[str]) -> float:
    """One tie-break's value for ``line`` among the players ``group`` still tied with it."""
    if name == BUCHHOLZ:
        return sum(_opponent_scores(line, lines))
    if name == BUCHHOLZ_CUT1:
        scores = _opponent_scores(line, lines)
        return sum(scores) - min(scores) if scores else 0.0
    if name == SONNEBORN_BERGER:
        return sum((lines[o].points if o is not None else line.points) * p for o, p in line.rounds)
    if name == WINS:
        return float(sum(1 for _, p in line.rounds if p == 1.0))
    if name == DIRECT_ENCOUNTER:
        if len(group) < 2 or not _all_met(group, lines):
            return 0.0
        return sum(p for o, p in line.rounds if o in group)
    raise ValueError(f"unknown tie-break {name!r}")


def _all_met(group: set[str], lines: dict[str, Line]) -> bool:
    return all(group - {name} <= {o for o, _ in lines[name].rounds} for name in group)


def standings(t: Tournament) -> list[Standing]:
    """Everyone, best first: points, then each tie-break in the event's order, each one
    computed among the players tied on everything before it."""
    lines = lines_of(t)
    values: dict[str, dict[str, float]] = {name: {} for name in lines}
    order: list[list[str]] = _split(
        [sorted(lines, key=lambda n: lines[n].start)], lambda n, g: lines[n].points
    )
    for tb in t.event.tiebreaks:
        # every player gets the value (shown in the table); ties are split by it
        for group in order:
            members = set(group)
            for name in group:
                values[name][tb] = tiebreak(tb, lines[name], lines, members)
        order = _split(order, lambda n, g, tb=tb: values[n][tb])
    out: list[Standing] = []
    rank = 1
    for group in order:
        for name in sorted(group, key=lambda n: lines[n].start):
            out.append(
                Standing(rank, name, lines[name].points, values[name], len(lines[name].rounds))
            )
        rank += len(group)
    return out


def _split(groups: list[list[str]], key) -> list[list[str]]:
    """Each group sorted by ``key`` (highest first) and cut where it changes."""
    out: list[list[str]] = []
    for group in groups:
        ranked = sorted(group, key=lambda n: -key(n, group))
        current: list[str] = []
        for name in ranked:
            if current and key(name, group) != key(current[-1], group):
                out.append(current)
                current = []
            current.append(name)
        out.append(current)
    return out
