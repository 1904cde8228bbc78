"""One journaled action as the session keeps it (``Played``), and how a move played in a state
becomes one: shared by the session and its masked play, below both."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.base import GameState, Move


@dataclass(frozen=True)
class Played:
    """One journaled action: its full notation, what other players see of it until the
    game reveals its secrets, who played it (None: the referee) and whether the referee
    played it by itself (a forced pass, a die roll)."""

    name: str
    public: str
    player: str | None
    forced: bool = False
    reveals: bool = False  # its answer told something hidden (a guess, a die): see undo_floor
    passed: bool = False  # a pass: the player had nothing to play (``Move.is_pass``)
    # the game clock's snapshot right after this move's switch (everyone's time left as the
    # next turn begins; ``Clock.snapshot``), None in a game without a clock
    clock: dict[str, Any] | None = None


def played_move(state: GameState, move: Move, referee: bool, player: str | None = None) -> Played:
    """How ``move``, played in ``state``, is journaled and shown."""
    who = None if referee else (state.actor(move) or player)  # the chair may enter for another
    reveals = (referee and state.chance() is not None) or state.reveals(move)
    return Played(move.name, state.public_name(move), who, referee, reveals, move.is_pass)


def replayed_move(before: GameState, move: Move, referee: bool = False) -> Played:
    """How a move replayed from names is journaled: the referee's when ``before`` forced it
    or drew it (or ``referee`` says so)."""
    referee = referee or before.forced_move() is not None or before.chance() is not None
    return played_move(before, move, referee)
