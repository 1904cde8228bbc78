"""A two-player game on a 4x3 board set in the 8x8 board's lower-left corner: players take
turns to place a piece on an empty cell; when the board is full, whoever holds more cells of
rank 1 wins. Playable on a switch or a presence board."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import (
    Action,
    Cell,
    Differ,
    GameSpec,
    GameState,
    IllegalMove,
    Interpreter,
    Layout,
    Move,
    Outcome,
    Panel,
    PanelRow,
    Play,
    Refusal,
    View,
)

FILES, RANKS = 4, 3
PLAYERS = ("black", "white")
NAMES = [f"{'abcd'[c % FILES]}{c // FILES + 1}" for c in range(FILES * RANKS)]


@dataclass(frozen=True)
class Put(Move):
    """A piece on ``cell`` of the 4x3 board."""

    cell: int

    @property
    def name(self) -> str:
        return NAMES[self.cell]

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)


PUTS = tuple(Put(c) for c in range(FILES * RANKS))


@dataclass(frozen=True)
class SmallState(GameState):
    game = "small"
    players = PLAYERS
    board: tuple[str, ...] = ("",) * (FILES * RANKS)
    plies: int = 0

    @property
    def turn(self) -> str | None:
        return None if self.is_over() else PLAYERS[self.plies % 2]

    @property
    def ply(self) -> int:
        return self.plies

    def is_over(self) -> bool:
        return all(self.board)

    def legal_moves(self, player: str | None = None) -> list[Any]:
        if self.is_over() or player not in (None, self.turn):
            return []
        return [PUTS[c] for c, v in enumerate(self.board) if not v]

    def check(self, move: Any, player: str | None = None) -> Refusal | None:
        if self.is_over():
            return Refusal("game-over", "game is over")
        if (refusal := self.own_turn(player)) is not None:
            return refusal
        if not isinstance(move, Put) or not 0 <= move.cell < FILES * RANKS:
            return Refusal("not-a-cell", f"{move!r}: not a cell")
        if self.board[move.cell]:
            return Refusal("occupied", f"{move.name}: occupied")
        return None

    def play(self, move: Any, player: str | None = None) -> SmallState:
        if (refusal := self.check(move, player)) is not None:
            raise IllegalMove(refusal)
        board = list(self.board)
        board[move.cell] = "x" if self.turn == "black" else "o"
        return replace(self, board=tuple(board), plies=self.plies + 1)

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        b = sum(1 for v in self.board[:FILES] if v == "x")
        w = FILES - b
        if b == w:
            return Outcome(summary=f"draw {b}-{w}")
        win = "black" if b > w else "white"
        return Outcome((win,), f"{win.upper()} wins {max(b, w)}-{min(b, w)}")

    def parse_move(self, text: str) -> Any:
        try:
            return PUTS[NAMES.index(text.strip().lower())]
        except ValueError:
            raise ValueError(f"{text!r}: not a cell") from None

    def cells(self) -> list[str]:
        return [v or "." for v in self.board]


class SmallInput(Interpreter):
    """A press, or one new piece on a presence board, is that move; anything else is shown
    to fix."""

    def press(self, state: GameState, cell: int) -> Action:
        return Play(PUTS[cell])

    def board(self, state: GameState, readings) -> Action:
        expected = self.expected(state)
        diff = tuple(i for i, (a, b) in enumerate(zip(readings, expected, strict=True)) if a != b)
        if not diff:
            return None
        if len(diff) == 1 and readings[diff[0]] == "1":
            return Play(PUTS[diff[0]])
        return Differ(diff, f"fix {' '.join(NAMES[i] for i in diff)}")


class SmallSpec(GameSpec):
    name = "small"
    title = "SMALL"
    options = ()
    sensor_kinds = ("switch", "presence")

    def new(self, **options: Any) -> SmallState:
        return SmallState()

    def layout(self, options: dict[str, Any]) -> Layout:
        return Layout(FILES, RANKS, origin=(0, 0), board=8)

    def interpreter(self, kind: str) -> Interpreter:
        return SmallInput(kind)

    def view(self, state: GameState, viewer: str | None = None) -> View:
        st: SmallState = state  # type: ignore[assignment]
        rows = tuple(
            PanelRow(p.upper(), str(sum(1 for v in st.board if v == "xo"[k])), st.turn == p)
            for k, p in enumerate(PLAYERS)
        )
        leds = tuple({"x": (0, 0, 200), "o": (200, 150, 0)}.get(v, (8, 8, 8)) for v in st.board)
        return View(
            Panel(self.title, st.ply + 1, rows), tuple(Cell(piece=v) for v in st.board), leds
        )


SPEC = SmallSpec()
