"""What Binaryon's boards mean: a press turns that square; on a colour (hall) board, one disc
turned to the mover's colour is that move."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.position_text import BLACK, WHITE
from companion.core.squares import square_name
from companion.games.base import Action, Differ, GameState, Interpreter, Play, places


class BinaryonInput(Interpreter):
    def press(self, state: GameState, cell: int) -> Action:
        return Play(places(state.n)[cell])  # type: ignore[attr-defined]

    def board(self, state: GameState, readings: Sequence[str]) -> Action:
        n = state.n  # type: ignore[attr-defined]
        if len(readings) != n * n:
            return Differ((), f"board has {len(readings)} squares, need {n * n}")
        expected = state.cells()  # type: ignore[attr-defined]
        diff = tuple(i for i in range(n * n) if readings[i] != expected[i])
        if not diff:
            return None
        if len(diff) == 1:
            sq = diff[0]
            mover_colour = WHITE if state.turn == "on" else BLACK
            if not state.is_over() and readings[sq] == mover_colour:
                return Play(places(n)[sq])
            name = square_name(sq, n)
            if readings[sq] == ".":
                return Differ(diff, f"put a disc on {name}")
            if state.is_over():
                return Differ(diff, f"{name}: the game is over; turn it back")
            # the switch board's reason ("already white"), said as the rule and the fix
            return Differ(diff, f"{name}: {state.turn.upper()} turns {_rule(state)}; turn back")
        return Differ(diff, f"{len(diff)} squares differ")


def _rule(state: GameState) -> str:
    return "black to white" if state.turn == "on" else "white to black"
