"""What the board's sensors and the buttons mean for a game (``Interpreter``) and what it
makes of them (an ``Action``): a leaf of the game protocol (companion/games/base.py names
them too)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.games.state import GameState, Move, Refusal


@dataclass(frozen=True)
class Play:
    """The input amounts to this move (by ``player`` when several may act)."""

    move: Move
    player: str | None = None


@dataclass(frozen=True)
class Refuse:
    """The input is refused (``cell``: where, for the LEDs)."""

    refusal: Refusal
    cell: int | None = None


@dataclass(frozen=True)
class Differ:
    """The board does not match the game: these cells need fixing. ``hint`` fits the OLED."""

    cells: tuple[int, ...]
    hint: str


@dataclass(frozen=True)
class Pending:
    """Input in progress (e.g. the first half of a piece): the cells to light and a line
    that says what comes next."""

    cells: tuple[int, ...]
    text: str


Action = Play | Refuse | Differ | Pending | None


class Interpreter:
    """What the board's sensors and the buttons mean for one game on one kind of board.

    Cells are the game's own (the daemon maps the physical board through the layout). The
    interpreter may keep input state across calls (``reset`` clears it); the rules never do.
    Games whose moves are cells read a press as the move of that cell (``press``); sensor
    boards need ``board`` and ``expected``.
    """

    def __init__(self, kind: str):
        self.kind = kind

    def reset(self) -> None:
        """The game changed under the input (a move, a takeback, a new game)."""

    def press(self, state: GameState, cell: int) -> Action:
        """What a press on ``cell`` means (by default nothing)."""
        return None

    def board(self, state: GameState, readings: Sequence[str]) -> Action:
        """A settled reading of every cell (presence '1'/'0', polarity 'x'/'o'/'.')."""
        return None

    def button(self, state: GameState, name: str) -> Action:
        return None

    def expected(self, state: GameState) -> list[str]:
        """What a board of this kind reads, cell by cell, when it matches ``state``."""
        cells = state.cells()  # type: ignore[attr-defined]
        if self.kind == "polarity":
            return list(cells)
        if self.kind == "presence":
            return ["0" if c == "." else "1" for c in cells]
        return ["0"] * len(cells)

    def pending(self) -> Pending | None:
        """Input in progress, to show on the LEDs and the OLED."""
        return None
