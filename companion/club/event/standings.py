"""Standings: points, then the event's tie-breaks in its order, by FIDE's tie-break
regulations (Handbook C.07, 2023; docs/club.md has a worked example of each):

- ``buchholz``: the opponents' scores (Art. 8.1).
- ``buchholz-cut-1``: the same less the least significant one (Art. 14.1); a round the
  player chose not to play (a forfeit loss, both forfeited, a requested bye) is cut first
  (Art. 16.5).
- ``sonneborn-berger``: each opponent's score times the points made against them (Art. 9.1).
- ``direct-encounter``: among the players still tied, the points they made against each
  other (Art. 6), applied again to those it leaves tied; in a Swiss where not every one met
  every other, a player is put ahead only when no other could have reached their points.
- ``wins``: the rounds won, a forfeit win and a bye worth a point included (Art. 7.1).

Unplayed rounds (Art. 16): in a Swiss, each round a player did not play over the board (a
bye, a forfeit won or lost) is a game against a dummy opponent with the player's own final
score; for the opponents' Buchholz, a player's rounds without an opponent after their last
round paired count as draws (Art. 16.3: a withdrawal). In a round robin a forfeit counts as
a game against the scheduled opponent and the round off (the dummy's round: no points) is
left out. Players still tied share the rank."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.club.event.spec import (
    BUCHHOLZ,
    BUCHHOLZ_CUT1,
    DIRECT_ENCOUNTER,
    ROUND_ROBIN,
    SONNEBORN_BERGER,
    WINS,
)
from companion.club.event.tournament import BYE, PLAYED, Tournament

DRAW = 0.5


@dataclass(frozen=True)
class Round:
    """One round of one player: the opponent (None: no opponent, a bye), the points made,
    whether the game was played over the board, and whether it was the pairing-allocated
    bye (else a bye without opponent is one the player asked for)."""

    opponent: str | None
    points: float
    played: bool = True
    pab: bool = False

    @property
    def voluntary(self) -> bool:
        """A round the player chose not to play (C.07 16.2.5): not played and not won, not
        the pairing-allocated bye: a forfeit loss, both forfeited, a half- or zero-point bye
        asked for."""
        return not self.played and not self.pab and self.points < 1.0


@dataclass
class Line:
    """One player's rounds."""

    name: str
    start: int  # starting rank, 1 first
    rounds: list[Round] = field(default_factory=list)

    @property
    def points(self) -> float:
        return sum(r.points for r in self.rounds)


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    points: float
    tiebreaks: dict[str, float]
    games: int  # rounds with a result
    number: int = 0  # pairing number (starting rank)
    colours: str = ""  # round by round: w, b (a forfeit: the colour it was paired with), - none

    def as_json(self) -> dict:
        return {
            "rank": self.rank,
            "number": self.number,
            "name": self.name,
            "points": self.points,
            "tiebreaks": self.tiebreaks,
            "games": self.games,
            "colours": self.colours,
        }


def lines_of(t: Tournament) -> dict[str, Line]:
    """Each player's rounds so far; a round robin's round off is left out (C.07 16: no
    points, in no tie-break)."""
    ranked = [p.name for p in t.event.ranked()]
    lines = {name: Line(name, i + 1) for i, name in enumerate(ranked)}
    round_robin = t.event.pairing == ROUND_ROBIN
    for g in t.live():
        if g.result is None:
            continue
        if g.result == BYE or g.black is None:
            if not round_robin:
                lines[g.white].rounds.append(Round(None, t.event.bye, played=False, pab=True))
            continue
        pw, pb = g.points()
        played = g.result in PLAYED
        lines[g.white].rounds.append(Round(g.black, pw, played))
        lines[g.black].rounds.append(Round(g.white, pb, played))
    return lines


def adjusted_score(line: Line, round_robin: bool = False) -> float:
    """A player's score as their opponents' Buchholz counts it (C.07 16.3): the rounds
    without an opponent that they chose not to play, after the last round they did not
    choose to miss (a withdrawal), count as draws in a Swiss, as nothing in a round robin."""
    last = max((i for i, r in enumerate(line.rounds) if not r.voluntary), default=-1)
    late = 0.0 if round_robin else DRAW
    return sum(
        r.points if i <= last or r.opponent is not None else late for i, r in enumerate(line.rounds)
    )


def _counted(r: Round, round_robin: bool) -> bool:
    """The round is a game against its opponent for the tie-breaks: played, or in a round
    robin a forfeit (C.07 16: the scheduled opponent)."""
    return r.opponent is not None and (r.played or round_robin)


def contributions(
    line: Line, lines: dict[str, Line], round_robin: bool = False
) -> list[tuple[float, float, bool]]:
    """Each round's (opponent's score, the player's points, chosen not to play) for the
    Buchholz family and Sonneborn-Berger: the opponent's adjusted score for a game; in a
    Swiss the dummy opponent (the player's own score) for a round not played; a round
    robin's round off left out."""
    out = []
    for r in line.rounds:
        if _counted(r, round_robin):
            out.append((adjusted_score(lines[r.opponent], round_robin), r.points, False))
        elif not round_robin:
            out.append((line.points, r.points, r.voluntary))
    return out


def buchholz_cut_1(parts: list[tuple[float, float, bool]]) -> float:
    """The opponents' scores less the least significant, a round the player chose not to
    play cut first (C.07 14.1, 16.5)."""
    if not parts:
        return 0.0
    scores = [s for s, _, _ in parts]
    chosen = [s for s, _, v in parts if v]
    return sum(scores) - (min(chosen) if chosen else min(scores))


def tiebreak(
    name: str, line: Line, lines: dict[str, Line], group: set[str], round_robin: bool = False
) -> float:
    """One tie-break's value for ``line`` (``group``: the players still tied with it, for
    direct encounter, applied once here; ``standings`` applies it again among those it
    leaves tied)."""
    parts = contributions(line, lines, round_robin)
    if name == BUCHHOLZ:
        return sum(s for s, _, _ in parts)
    if name == BUCHHOLZ_CUT1:
        return buchholz_cut_1(parts)
    if name == SONNEBORN_BERGER:
        return sum(s * p for s, p, _ in parts)
    if name == WINS:
        return float(sum(1 for r in line.rounds if r.points == 1.0))
    if name == DIRECT_ENCOUNTER:
        return _encounter_points(line, group, round_robin)[0]
    raise ValueError(f"unknown tie-break {name!r}")


def _encounter_points(line: Line, group: set[str], round_robin: bool) -> tuple[float, int]:
    """The points ``line`` made against the others of ``group`` (a pair who met more than
    once: the average of their games) and how many of them it met."""
    by_opponent: dict[str, list[float]] = {}
    for r in line.rounds:
        if r.opponent in group and r.opponent != line.name and _counted(r, round_robin):
            by_opponent.setdefault(r.opponent, []).append(r.points)
    return float(sum(sum(p) / len(p) for p in by_opponent.values())), len(by_opponent)


def direct_encounter(
    group: list[str], lines: dict[str, Line], round_robin: bool, values: dict[str, float]
) -> list[list[str]]:
    """``group`` (tied so far) split by direct encounter (C.07 6), applied again to each part
    it leaves tied until it separates nobody more; ``values`` gets each player's points
    against those tied with them at the last step."""
    if len(group) < 2:
        for name in group:
            values.setdefault(name, 0.0)
        return [group]
    members = set(group)
    got = {n: _encounter_points(lines[n], members, round_robin) for n in group}
    for n in group:
        values[n] = got[n][0]
    everyone = len(group) - 1
    if round_robin or all(met == everyone for _, met in got.values()):
        parts = _split([group], lambda n, g: got[n][0])
    else:
        # not everyone met: ahead only of those who could not have reached the points even
        # winning the games they did not play (C.07 6.2)
        best = {n: got[n][0] + (everyone - got[n][1]) for n in group}
        order = sorted(group, key=lambda n: (-got[n][0], -best[n], lines[n].start))
        parts = []
        for i, name in enumerate(order[:-1]):
            if got[name][0] > max(best[m] for m in order[i + 1 :]):
                parts.append([name])
            else:
                parts.append(order[i:])
                break
        else:
            parts.append([order[-1]])
    if len(parts) == 1:
        return parts
    out: list[list[str]] = []
    for part in parts:
        out.extend(direct_encounter(part, lines, round_robin, values) if len(part) > 1 else [part])
    return out


def standings(t: Tournament) -> list[Standing]:
    """Everyone, best first: points, then each tie-break in the event's order, each one
    computed among the players tied on everything before it."""
    lines = lines_of(t)
    round_robin = t.event.pairing == ROUND_ROBIN
    values: dict[str, dict[str, float]] = {name: {} for name in lines}
    order: list[list[str]] = _split(
        [sorted(lines, key=lambda n: lines[n].start)], lambda n, g: lines[n].points
    )
    for tb in t.event.tiebreaks:
        if tb == DIRECT_ENCOUNTER:
            found: dict[str, float] = {}
            order = [
                part
                for group in order
                for part in direct_encounter(group, lines, round_robin, found)
            ]
            for name, v in found.items():
                values[name][tb] = v
            continue
        # every player gets the value (shown in the table); ties are split by it
        for group in order:
            members = set(group)
            for name in group:
                values[name][tb] = tiebreak(tb, lines[name], lines, members, round_robin)
        order = _split(order, lambda n, g, tb=tb: values[n][tb])
    colours = colour_sequences(t)
    out: list[Standing] = []
    rank = 1
    for group in order:
        for name in sorted(group, key=lambda n: lines[n].start):
            line = lines[name]
            out.append(
                Standing(
                    rank,
                    name,
                    line.points,
                    values[name],
                    len(line.rounds),
                    line.start,
                    colours[name],
                )
            )
        rank += len(group)
    return out


def colour_sequences(t: Tournament) -> dict[str, str]:
    """Each player's colours round by round (``w``, ``b``; ``-``: a bye or no game)."""
    out = {p.name: ["-"] * t.round for p in t.event.players}
    for g in t.live():
        if g.black is not None:
            out[g.white][g.round - 1] = "w"
            out[g.black][g.round - 1] = "b"
    return {name: "".join(seq) for name, seq in out.items()}


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
