"""Binaryon in a player's words, for the engine hint's reason: a line by its name ("the
f-file", "rank 3", "the a1-h8 diagonal", "the d8-a5-e1 line"), what the engine's expected line
comes to (the race for the best line), and what a move does."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.squares import FILES, square_name
from companion.games.base import Move
from companion.games.binaryon.engine import BinaryonState
from companion.games.binaryon.scoring import Score


def line_label(line: Sequence[int], n: int, short: bool = False) -> str:
    """A scoring line by the name a player would give it: a file, a rank, a straight diagonal
    by its ends, a reflecting line by its ends and the squares it reflects on (``short``: a
    diagonal or reflecting line by its squares alone, 'e2-h5-e8-d7')."""
    files = {s % n for s in line}
    ranks = {s // n for s in line}
    if len(files) == 1:
        return f"the {FILES[line[0] % n]}-file"
    if len(ranks) == 1:
        return f"rank {line[0] // n + 1}"
    turns = [
        line[k]
        for k in range(1, len(line) - 1)
        if _step(line[k - 1], line[k], n) != _step(line[k], line[k + 1], n)
    ]
    path = "-".join(square_name(s, n) for s in (line[0], *turns, line[-1]))
    return path if short else f"the {path} {'line' if turns else 'diagonal'}"


def _step(a: int, b: int, n: int) -> tuple[int, int]:
    return (b // n - a // n, b % n - a % n)


def _best(sc: Score, player: str) -> tuple[int, tuple[int, ...]]:
    return (sc.on_best, sc.on_line) if player == "on" else (sc.off_best, sc.off_line)


def line_effect(before: BinaryonState, end: BinaryonState) -> list[str]:
    """Where the expected line leaves the race for the best number: the mover wins the
    opponent's best line, takes or keeps the lead on a line, or holds the opponent down."""
    me = before.mover
    them = "off" if me == "on" else "on"
    s0, s1 = before.score(), end.score()
    _, my_line = _best(s1, me)
    theirs_now, their_line_now = _best(s0, them)
    theirs, _ = _best(s1, them)
    name, short = line_label(my_line, end.n), line_label(my_line, end.n, short=True)
    if s1.winner == me and s1.tied:  # equal best numbers: the largest left after cancelling
        verb = "takes" if s0.winner != me else "keeps"
        left = s1.remaining()
        rest = []
        if left is not None:
            line = left[me][1]
            rest = [
                f"{verb} the lead: {line_label(line, end.n)} breaks the tie",
                f"wins the tie with {line_label(line, end.n)}",
                f"wins the tie with {line_label(line, end.n, short=True)}",
            ]
        return rest + [f"{verb} the lead on the tie-break", f"{verb} the lead"]
    if s1.winner == me:
        if set(my_line) == set(their_line_now):
            return [f"wins the race for {name}", f"wins the race for {short}", "wins the race"]
        verb = "takes" if s0.winner != me else "keeps"
        return [f"{verb} the lead on {name}", f"{verb} the lead on {short}", f"{verb} the lead"]
    if s1.winner == them and theirs < theirs_now:
        return [f"holds {them.upper()} to {s1.bits(theirs)}", f"holds {them.upper()} back"]
    if s1.winner is None and s0.winner == them:
        return ["draws level"]
    return []


def move_words(before: BinaryonState, move: Move) -> str:
    """'turns it white' (ON) or 'turns it black' (OFF); a pass says nothing more."""
    if move.is_pass:
        return ""
    return "turns it white" if before.mover == "on" else "turns it black"
