"""Wythe in a player's words, for the engine hint's reason: the race for the group size that
scores, where the engine's expected line leaves it, and what a placement does to the stacks.

The person asking keeps their seat along the line: after a swap they play the other colour."""

from __future__ import annotations

from companion.games.base import Move
from companion.games.wythe.engine import WytheState
from companion.games.wythe.moves import SWAP, Placement, other


def line_effect(before: WytheState, end: WytheState) -> list[str]:
    """Who leads where the line ends and with which size of groups, or the opponent's score
    held down."""
    if before.mover is None:
        return []
    me = end.player_of(before.seat_of(before.mover))  # the colour the asker plays at the end
    them = other(me)
    was_me = before.player_of(before.seat_of(before.mover))
    s0, s1 = before.score(), end.score()
    if s1.leader == me:
        verb = "keeps" if s0.leader == was_me else "takes"
        if s1.reason == "last-mover":
            return [  # nobody leads "at 0-0": the 0-0 rule decides it
                f"{verb} the lead: 0-0 and {them.capitalize()} placed last",
                f"{verb} the lead on the 0-0 rule",
            ]
        size = s1.of(me)
        mine, theirs = s1.groups(me).get(size, 0), s1.groups(them).get(size, 0)
        return [
            f"{verb} the lead: {mine} group{'s' if mine > 1 else ''} of {size} to {theirs}",
            f"{verb} the lead with groups of {size}",
            f"{verb} the lead at size {size}",
            f"{verb} the lead",
        ]
    if s1.leader == them and s1.of(them) < s0.of(other(was_me)):
        if s1.of(them) == 0:  # not "groups of 0"
            return [f"keeps {them.capitalize()} from scoring", "holds the lead down"]
        return [f"holds {them.capitalize()} to groups of {s1.of(them)}", "holds the lead down"]
    return []


def move_words(before: WytheState, move: Move) -> str:
    """'lays a new domino', 'stacks it 3 high', 'takes Black's seat' (the swap)."""
    if move == SWAP:
        return "takes over Black's position"
    if not isinstance(move, Placement):
        return ""
    height = before.height(move.black)
    return "lays a new domino" if height == 0 else f"stacks it {height + 1} high"
