"""Each board's own stream of a remote game (docs/club.md, "Remote play").

When both players may act at once (Latent Binaries' setups, Binøme's writing), each board
plays its own player's move at once and the other's when it arrives, so the two boards can
hold the same moves in another order. So a board numbers only what comes from it: its own
seat's moves and, on the first seat's board, the chance steps it draws (``stream``). The peer
plays them in that order; forced passes are played by each board itself. At the end both
boards adopt one order, the first seat's board's (``canonical``), with every full name.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.referee.session import Played, Session


def from_seat(session: Session, k: int, seat: str) -> bool:
    """Did ply ``k`` come from ``seat``'s board: that seat's move, or a chance step drawn
    there (only the first seat's board draws)?"""
    p: Played = session.played[k]
    if p.player is None:
        first = session.states[0].players[0]
        return seat == first and p.forced and not p.passed  # a forced pass is each board's
    return session.states[k].seat_of(p.player) == seat


def stream(session: Session, seat: str) -> list[int]:
    """The plies of the game here that came from ``seat``'s board, in order."""
    return [k for k in range(len(session.played)) if from_seat(session, k, seat)]


def told_by(session: Session, seat: str) -> dict[str, Any]:
    """The facts ``seat``'s board told of its secrets in the game here (a copy; none outside
    a game with secrets)."""
    known = session.seat_knowledge
    return dict(known.told.get(seat, {})) if known is not None else {}


def canonical(
    order: Sequence[str], theirs: Sequence[int], stream_names: Sequence[str]
) -> list[str]:
    """The whole game in the first seat's board's order: ``order``, its names by ply, with
    the plies ``theirs`` (the other board's stream) given the other board's full names
    ``stream_names`` in turn. ValueError when they do not fit."""
    if len(theirs) != len(stream_names):
        raise ValueError(f"{len(stream_names)} moves for {len(theirs)} plies")
    full = list(order)
    for k, name in zip(theirs, stream_names, strict=True):
        if not 0 <= k < len(full):
            raise ValueError(f"ply {k} is not in the game")
        full[k] = name
    return full


def plain(value: Any) -> Any:
    """``value`` as it comes back from JSON (tuples become lists), to compare with a message."""
    return json.loads(json.dumps(value))
