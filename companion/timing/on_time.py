"""A game ended by a flag fall (or agreed by the players): the position as it stood, over.

The state over is a small wrapper (``Over``) holding the position as it stood and the
outcome, whose ``ended`` says how the game ended (``"time"``: ``GameSpec.on_time``'s result).
It answers what an ended game answers (nobody acts, nothing is legal, ``outcome()`` is that
outcome) and hands everything else to the position, so what reads the game's state (its
views and their isinstance checks included) reads it as before. Taking the flag back (the
arbiter's correction) is the position again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.games.base import GameSpec, GameState, IllegalMove, Move, Outcome, Refusal, View


class Over:
    """``position`` over with ``result``; the rest of the game's state read from the
    position. A game's view takes it as its own state through ``games.state.own_state``."""

    __slots__ = ("position", "result")

    def __init__(self, position: GameState, result: Outcome) -> None:
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "result", result)

    def __getattr__(self, name: str) -> Any:
        if name in Over.__slots__:  # not set yet (never past __init__)
            raise AttributeError(name)
        return getattr(self.position, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{name}: a state over is immutable")

    def __repr__(self) -> str:
        return f"Over({self.position!r}, ended={self.result.ended!r})"

    @property
    def turn(self) -> str | None:
        return None

    @property
    def to_act(self) -> frozenset[str]:
        return frozenset()

    def is_over(self) -> bool:
        return True

    def outcome(self) -> Outcome | None:
        return self.result

    def legal_moves(self, player: str | None = None) -> Sequence[Move]:
        return []

    def check(self, move: Move, player: str | None = None) -> Refusal | None:
        return Refusal("game-over", self._why)

    def play(self, move: Move, player: str | None = None) -> GameState:
        raise IllegalMove(Refusal("game-over", self._why))

    def as_it_stood(self) -> GameState:
        return self.position

    def own_turn(self, player: str | None) -> Refusal | None:
        return None if player is None else Refusal("game-over", "game is over")

    def forced_move(self) -> Move | None:
        return None

    def chance(self) -> Any:
        return None

    def revealed(self) -> bool:
        return True

    @property
    def _why(self) -> str:
        return "game over on time" if self.result.ended == "time" else "game over: agreed"


def ended_on_time(state: GameState, outcome: Outcome) -> GameState:
    """``state``, over, its result ``outcome`` (``GameSpec.on_time``), which says it ended
    on time."""
    if outcome.ended != "time":
        outcome = replace(outcome, ended="time")
    return Over(state.as_it_stood(), outcome)  # type: ignore[return-value]


def on_time(state: GameState) -> Outcome | None:
    """The on-time result of a state that ended on time, else None."""
    if type(state) is Over and state.result.ended == "time":  # type: ignore[attr-defined]
        return state.result  # type: ignore[attr-defined]
    return None


def view_of(spec: GameSpec, state: GameState, viewer: str | None = None) -> View:
    """``spec.view(state, viewer)``; of a game that ended on time, the result as its note
    (the OLED's line) and first line of its explanation, then the position explained as it
    stood (who led), never as if the board had decided it (a tie, the board's winner)."""
    view = spec.view(state, viewer)
    outcome = on_time(state)
    if outcome is None:
        return view
    line = f"{outcome.summary}: {outcome.reason}" if outcome.reason else outcome.summary
    stood = spec.view(state.as_it_stood(), viewer).explanation
    return replace(view, panel=replace(view.panel, note=line), explanation=(line, *stood))


def win_cells(spec: GameSpec, state: GameState) -> tuple[int, ...]:
    """The cells a finished game highlights as won (``GameSpec.highlight``): none when the
    time decided it, not the board."""
    return () if on_time(state) is not None else spec.highlight(state)
