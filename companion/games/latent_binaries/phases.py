"""The phases of a Latent Binaries turn, what the referee asks for in each, and which
phase each kind of move belongs to (see the phase list in ``engine``)."""

from __future__ import annotations

from typing import Any, Final

from .moves import END, PASS, Challenge, Marker, Order, PublicSetup, Setup, Step

SETUP, MOVE, CHALLENGE, MARKER, OVER = "setup", "move", "challenge", "marker", "over"
# What the referee asks for in each phase (also the reason when a move comes at the wrong time).
PROMPTS: Final = {
    SETUP: "set up your nests first",
    MOVE: "move a nest first",
    CHALLENGE: "guess, or end the challenge",
    MARKER: "move a goal marker",
    OVER: "game over",
}


def phase_of(move: Any) -> str | None:
    """The phase in which ``move`` may be played, or None for something that is no move."""
    if isinstance(move, Setup | PublicSetup):
        return SETUP
    if isinstance(move, Step) or move == PASS:
        return MOVE
    if isinstance(move, Challenge | Order) or move == END:
        return CHALLENGE
    if isinstance(move, Marker):
        return MARKER
    return None
