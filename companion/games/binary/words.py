"""Binary in a player's words, for the engine hint's reason: the territory the engine's expected
line builds or cuts, and what a move does."""

from __future__ import annotations

from companion.games.base import Move
from companion.games.binary.board import PIECE, other
from companion.games.binary.engine import END, BinaryState
from companion.games.binary.territories import compare


def line_effect(before: BinaryState, end: BinaryState) -> list[str]:
    """The territory the mover's new pieces make or grow along the line, the opponent's score
    cut, and who leads where the line ends (or how far behind, when that is less than now)."""
    me = before.mover
    if me is None:
        return []
    them = other(me)
    s0, s1 = before.score(), end.score()
    piece = PIECE[me]
    new = {i for i, c in enumerate(end.cells) if c == piece and before.cells[i] != piece}
    built = [len(t) for t in s1[me]["squares"] if new.intersection(t)]
    largest_now = max(s0[me]["territories"], default=0)
    out = []
    if built and max(built) > largest_now:
        size = max(built)
        if largest_now:
            out.append(f"grows its territory to {size}")
        else:
            out.append(f"makes a territory of {size}")
    if s1[them]["score"] < s0[them]["score"]:
        out.append(f"cuts {them.upper()}'s score to {s1[them]['score']}")
    winner, _ = compare(s1["black"]["territories"], s1["white"]["territories"])
    score = f"by {s1[me]['score']}-{s1[them]['score']}"
    if s1[me]["score"] == s1[them]["score"]:
        score = "on the tie-break"
    if winner == me and compare(s0["black"]["territories"], s0["white"]["territories"])[0] != me:
        out.append(f"takes the lead {score}")
    elif winner == me:
        out.append(f"keeps the lead {score}")
    elif s1[them]["score"] - s1[me]["score"] < s0[them]["score"] - s0[me]["score"]:
        out.append(f"narrows the gap to {s1[me]['score']}-{s1[them]['score']}")
    if built and not out:
        out.append(f"builds a territory of {max(built)}")
    return out


def move_words(before: BinaryState, move: Move) -> str:
    """'places a black piece'; ending a turn after one piece 'keeps a piece in hand'."""
    if move == END:
        return "keeps a piece in hand"
    if move.is_pass or before.mover is None:
        return ""
    return f"places a {before.mover} piece"
