"""Binøme with paper sheets (option ``paper``), as the game's own voice assistant runs it: the
players keep their sheets on paper, so the companion never knows them. It rolls the die and
each player says when they have written (``Ann write``); it draws each postulate and the
players say in turn whether they claim (``Ann claim``) or pass (``Ann pass``), never their
number; once everybody has chosen it asks each claimant for their number (``Ann claim 44``,
said aloud), then resolves and scores from what was said. A number that does not meet the
postulate is out of the turn (the printed rules' eligibility note), with no confirmation.

Reuses the masked state's machinery (``masked.py``): a paper player's moves are ``Veiled``,
a claim is ``HIDDEN`` until its number is told, and the number is kept as the fact a remote
board would have disclosed (``claim <t>``), so the turn resolves the same way. The virtual
players of solo mode keep their sheets in the companion as usual."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..base import Refusal
from . import masked as masking
from .masked import BinomeState, choice_text
from .moves import Claim, Decline, Veiled, Write

NUMBERS = range(100)

# Functions over ``engine.BinomeState`` (its ``paper``, ``on_paper`` and ``asked_number``
# say who keeps a sheet on paper): the state's rules call them for a paper player's move.


def paper_moves(st: BinomeState, player: str) -> list[Any]:
    """A paper player's moves: written, claim or pass, or the number when asked."""
    if player not in st.to_act:
        return []
    if st.asked_number(player):
        return [Claim(n, player) for n in NUMBERS]
    if st.phase == "write":
        return [Veiled("write", player)]
    return [Veiled("claim", player), Decline(player)]


def paper_check(st: BinomeState, move: Any, who: str) -> Refusal | None:
    """The rules for a paper player's move: written, claim or pass in turn, then the
    number when asked (any two digits: the sheet is not known here)."""
    if isinstance(move, Write):
        return Refusal("paper", f"{who} writes on paper: say '{who} write' when done")
    if st.asked_number(who):
        if who not in st.to_act:
            return Refusal("not-your-turn", f"{st.turn}'s number first")
        if isinstance(move, Claim):
            n = move.number
            if isinstance(n, bool) or not isinstance(n, int) or n not in NUMBERS:
                return Refusal("bad-number", f"{n!r}: not a 2-digit number")
            return None
        return Refusal("paper-number", f"{who}: your number, please ('{who} claim 44')")
    if isinstance(move, Veiled) and move.verb == "write":
        if st.phase != "write":
            return Refusal("not-now", "no digit to write")
        if who in st.wrote:
            return Refusal("already-wrote", f"{who}: already wrote {st.rolls[-1]}")
        return None
    if st.phase != "claim":
        return Refusal("not-now", "no postulate to claim")
    if isinstance(move, Claim):
        return Refusal("paper-claim", f"{who}: say claim or pass; your number when asked")
    if isinstance(move, Veiled) and move.verb != "claim":
        return Refusal("not-a-move", f"{move.name}: claim or pass")
    if who not in st.to_act:
        if any(p == who for p, _ in st.decided):
            return Refusal("already-decided", f"{who}: already chose")
        return Refusal("not-your-turn", f"{st.turn}'s turn to claim")
    return None


def paper_play(st: BinomeState, move: Any, who: str, ply: int) -> BinomeState | None:
    """The state after a paper player's number (None: not a number; the engine plays it)."""
    if not (isinstance(move, Claim) and st.asked_number(who)):
        return None
    assert st.card is not None
    fact = (who, f"claim {len(st.history)}", choice_text(st.card, move.number))
    learned = tuple(sorted((*st.learned, fact), key=lambda f: f[:2]))
    return masking.settle(replace(st, learned=learned, _ply=ply))
