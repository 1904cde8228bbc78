"""A game ended by a flag fall: the position as it stood, over, with the game's on-time result.

The state that ended on time is a copy of the last position whose class is a subclass of
the game's own (so everything that reads the game's state, its views and its isinstance
checks included, reads it as before) where the game is over: nobody acts, nothing is legal,
``outcome()`` is the game's ``GameSpec.on_time`` result. Taking a move back (the arbiter's
correction) drops it with the position it stood for.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.games.base import GameSpec, GameState, IllegalMove, Move, Outcome, Refusal, View


class _OnTime:
    """What a state that ended on time answers differently (its methods are copied into a
    subclass of the game's own state class, made for each flag fall: they are rare)."""

    __slots__ = ()

    @property
    def turn(self) -> str | None:
        return None

    @property
    def to_act(self) -> frozenset[str]:
        return frozenset()

    def is_over(self) -> bool:
        return True

    def outcome(self) -> Outcome | None:
        return type(self)._on_time

    def legal_moves(self, player: str | None = None) -> Sequence[Move]:
        return []

    def check(self, move: Move, player: str | None = None) -> Refusal | None:
        return Refusal("game-over", "game over on time")

    def play(self, move: Move, player: str | None = None) -> GameState:
        raise IllegalMove(Refusal("game-over", "game over on time"))

    def forced_move(self) -> Move | None:
        return None

    def chance(self) -> Any:
        return None

    def revealed(self) -> bool:
        return True


def ended_on_time(state: GameState, outcome: Outcome) -> GameState:
    """``state``, over, its result ``outcome`` (``GameSpec.on_time``)."""
    base = getattr(type(state), "_game_class", type(state))
    body: dict[str, Any] = {
        k: v for k, v in vars(_OnTime).items() if not k.startswith("__") or k == "__doc__"
    }
    body["_on_time"] = outcome
    body["_game_class"] = base
    if not hasattr(state, "__dict__"):  # a state with slots only: the same layout
        body["__slots__"] = ()
    made = type(f"{base.__name__}OnTime", (base,), body)
    out = copy.copy(state)
    object.__setattr__(out, "__class__", made)
    return out


def on_time(state: GameState) -> Outcome | None:
    """The on-time result of a state that ended on time, else None."""
    return getattr(type(state), "_on_time", None)


def as_it_stood(state: GameState) -> GameState:
    """The game's own state of a state that ended on time: the position in progress when
    the flag fell (``state`` itself otherwise)."""
    base = getattr(type(state), "_game_class", None)
    if base is None:
        return state
    out = copy.copy(state)
    object.__setattr__(out, "__class__", base)
    return out


def view_of(spec: GameSpec, state: GameState, viewer: str | None = None) -> View:
    """``spec.view(state, viewer)``; of a game that ended on time, the result as its note
    (the OLED's line) and first line of its explanation, then the position explained as it
    stood (who led), never as if the board had decided it (a tie, the board's winner)."""
    view = spec.view(state, viewer)
    outcome = on_time(state)
    if outcome is None:
        return view
    line = f"{outcome.summary}: {outcome.reason}" if outcome.reason else outcome.summary
    stood = spec.view(as_it_stood(state), viewer).explanation
    return replace(view, panel=replace(view.panel, note=line), explanation=(line, *stood))


def win_cells(spec: GameSpec, state: GameState) -> tuple[int, ...]:
    """The cells a finished game highlights as won (``GameSpec.highlight``): none when the
    time decided it, not the board."""
    return () if on_time(state) is not None else spec.highlight(state)
