"""What Wythe's boards mean. Sensors cannot see heights or which half is which colour, so the
game keeps the stacks and the board only says where a piece goes.

- LED-switch board (and clicks on a web page): press the square for the black half, then the
  adjacent square for the white half; a second press on the first square cancels. A first
  square that no legal piece can use for its black half is refused at once.
- Presence board: a piece laid on two empty squares shows as two newly covered squares. The
  companion proposes black on the first of them (in square order); confirm plays it, a press
  (or click) on either square plays the piece with its black half there. Pieces on stacks
  cannot be seen: they are entered by presses or on a page.
- Confirm on White's first turn, with no piece being entered, takes the pie (``swap``).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.squares import square_name
from companion.games.base import Action, Differ, GameState, Interpreter, Pending, Play, Refuse
from companion.games.wythe.engine import WytheState
from companion.games.wythe.moves import BLACK, OLED_WIDTH, SWAP, Placement


def _fit(prefix: str, names: Sequence[str], width: int = 2 * OLED_WIDTH) -> str:
    text = prefix
    for k, name in enumerate(names):
        if len(text) + 1 + len(name) > width - 4 and k:
            return f"{text} +{len(names) - k}"
        text += f" {name}"
    return text


class WytheInput(Interpreter):
    def __init__(self, kind: str):
        super().__init__(kind)
        self._first: int | None = None  # the black half's square, pressed
        self._pair: tuple[int, int] | None = None  # two new squares seen on a presence board
        self._size = 8  # the board's size, for square names (taken from each state seen)

    def reset(self) -> None:
        self._first = None
        self._pair = None

    # ------------------------------------------------------------------ presses
    def press(self, state: GameState, cell: int) -> Action:
        st: WytheState = state  # type: ignore[assignment]
        n = self._size = st.n
        if not 0 <= cell < n * n or st.is_over():
            return None
        if self._pair is not None and cell in self._pair:
            a, b = self._pair
            return Play(Placement(cell, b if cell == a else a, n))
        first = self._first
        if first is None:
            refusal = st.check_half(cell, BLACK)
            if refusal is not None:
                return Refuse(refusal, cell)
            self._first = cell
            return self.pending()
        if cell == first:
            self._first = None
            return Pending((), "")
        move = Placement(first, cell, n)
        refusal = st.check(move)
        if refusal is not None:
            return Refuse(refusal, cell)  # the black half stays where it was pressed
        return Play(move)

    def pending(self) -> Pending | None:
        if self._first is not None:
            name = square_name(self._first, self._size)
            return Pending((self._first,), f"{name} black: now press the white half")
        if self._pair is not None:
            a, b = (square_name(x, self._size) for x in self._pair)
            return Pending(self._pair, f"{a}-{b}? confirm, or press the black half")
        return None

    # ------------------------------------------------------------------ buttons
    def button(self, state: GameState, name: str) -> Action:
        if name != "confirm" or state.is_over():
            return None
        if self._pair is not None:
            return Play(Placement(*self._pair, self._size))
        if self._first is None and state.check(SWAP) is None:
            return Play(SWAP)
        return None

    # ------------------------------------------------------------------ sensor boards
    def expected(self, state: GameState) -> list[str]:
        cells = state.cells()  # type: ignore[attr-defined]
        if self.kind == "presence":
            return ["0" if c == "." else "1" for c in cells]
        return ["0"] * len(cells)

    def board(self, state: GameState, readings: Sequence[str]) -> Action:
        """A settled presence board: two newly covered neighbouring squares are a piece."""
        st: WytheState = state  # type: ignore[assignment]
        n = self._size = st.n
        if self.kind != "presence":
            return None
        if len(readings) != n * n:
            return Differ((), f"board has {len(readings)} squares, not {n * n}")
        cells = st.cells()
        bad = [i for i, v in enumerate(readings) if v not in ("0", "1")]
        if bad:
            return Differ(tuple(bad), f"{square_name(bad[0], n)}: bad reading")
        missing = [i for i in range(n * n) if cells[i] != "." and readings[i] == "0"]
        if missing:
            return Differ(tuple(missing), _fit("put back", [square_name(i, n) for i in missing]))
        new = [i for i in range(n * n) if cells[i] == "." and readings[i] == "1"]
        if not new:
            self._pair = None
            return None
        names = [square_name(i, n) for i in new]
        if st.is_over():
            return Differ(tuple(new), _fit("game over: remove", names))
        if len(new) == 1:
            return Differ(tuple(new), f"{names[0]}: a piece covers 2 squares")
        if len(new) > 2:
            return Differ(tuple(new), _fit(f"{len(new)} new squares:", names))
        a, b = new
        fits = [m for m in (Placement(a, b, n), Placement(b, a, n)) if st.check(m) is None]
        if not fits:
            refusal = st.check(Placement(a, b, n))
            return Differ(tuple(new), refusal.reason if refusal else "no piece fits")
        if len(fits) == 1:
            return Play(fits[0])
        self._first = None
        self._pair = (a, b)
        return self.pending()
