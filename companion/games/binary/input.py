"""What Binary's boards mean: a press places the mover's piece; confirm ends a turn after one
piece (or passes); a presence or colour board is compared with the game once it settles."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from companion.core.squares import square_name
from companion.games.base import Action, Differ, GameState, Interpreter, Play, Refusal, places
from companion.games.binary.board import EMPTY, OLED_WIDTH, PIECE
from companion.games.binary.engine import END, PASS, BinaryState

# Reading values: switch/presence "1"/"0", polarity "x"/"o"/".". "?" = a piece, colour unknown.
_READING = {"1": "?", "0": EMPTY, "x": "x", "o": "o", ".": EMPTY}


def fit(prefix: str, names: Sequence[str], width: int = OLED_WIDTH) -> str:
    """``prefix`` and as many square names as fit, then ``+k`` for the rest."""
    text = prefix
    for k, name in enumerate(names):
        rest = len(names) - k - 1
        tail = f" +{rest}" if rest else ""
        if len(text) + 1 + len(name) + len(tail) > width and k:
            return f"{text} +{len(names) - k}"
        text += f" {name}"
    return text


class BinaryInput(Interpreter):
    def press(self, state: GameState, cell: int) -> Action:
        if not 0 <= cell < state.n * state.n:  # type: ignore[attr-defined]
            return None
        return Play(places(state.n)[cell])  # type: ignore[attr-defined]

    def button(self, state: GameState, name: str) -> Action:
        if name != "confirm":
            return None
        for move in (END, PASS):
            if state.check(move) is None:
                return Play(move)
        return None

    def expected(self, state: GameState) -> list[str]:
        cells = state.cells  # type: ignore[attr-defined]
        if self.kind == "polarity":
            return list(cells)
        if self.kind == "presence":
            return ["0" if c == EMPTY else "1" for c in cells]
        return ["0"] * len(cells)  # switches read released

    def board(self, state: BinaryState, readings: Sequence[str]) -> Action:  # type: ignore[override]
        """Compare a settled board (presence '1'/'0' or polarity 'x'/'o'/'.') with the game."""
        n = state.n
        if len(readings) != n * n:
            return Differ((), f"board has {len(readings)} squares, not {n * n}")
        seen = [_READING.get(v) for v in readings]
        bad = [i for i, v in enumerate(seen) if v is None]
        if bad:
            return Differ(tuple(bad), f"{square_name(bad[0], n)}: bad reading")
        cells = state.cells
        missing = [i for i in range(n * n) if cells[i] != EMPTY and seen[i] == EMPTY]
        if missing:
            return Differ(tuple(missing), fit("put back", [square_name(i, n) for i in missing]))
        flipped = [
            i for i in range(n * n) if cells[i] != EMPTY and seen[i] in "xo" and seen[i] != cells[i]
        ]
        if flipped:
            first = flipped[0]
            was = "black" if cells[first] == "x" else "white"
            return Differ(tuple(flipped), f"{square_name(first, n)}: was {was}; turn it back")
        new = [i for i in range(n * n) if cells[i] == EMPTY and seen[i] != EMPTY]
        if not new:
            return None
        names = [square_name(i, n) for i in new]
        if state.turn is None:
            return Differ(tuple(new), fit("remove", names))
        mine = PIECE[state.turn]
        theirs = [i for i in new if seen[i] in "xo" and seen[i] != mine]
        if theirs:
            if len(theirs) == len(new) and self._ends_turn_to_other(state):
                return Play(END)  # the opponent placed: the mover's turn is over
            who = state.turn.upper()
            name = square_name(theirs[0], n)
            return Differ(tuple(theirs), f"{name}: {who} to place; wrong colour")
        if len(new) == 1:
            return Play(places(n)[new[0]])  # the engine accepts or refuses it
        order, refusal = self._order(state, new)
        if order is not None:
            return Play(places(n)[order[0]])
        assert refusal is not None
        return Differ(tuple(new), refusal.reason)

    @staticmethod
    def _ends_turn_to_other(state: BinaryState) -> bool:
        if state.check(END) is not None:
            return False
        return state.play(END).turn not in (None, state.turn)

    @staticmethod
    def _order(state: BinaryState, new: list[int]) -> tuple[tuple[int, ...] | None, Refusal | None]:
        """An order in which the mover can place all ``new`` pieces within this turn, or the
        refusal met by the attempt that got furthest."""
        best: tuple[int, Refusal] | None = None
        if len(new) > 2:
            return None, Refusal("too-many", f"{len(new)} new pieces, max 2")
        for order in permutations(new):
            s, ok = state, 0
            refusal: Refusal | None = None
            for sq in order:
                if s.turn != state.turn:
                    refusal = Refusal("turn-over", f"{square_name(sq, s.n)}: turn is over")
                    break
                move = places(s.n)[sq]
                refusal = s.check(move)
                if refusal is not None:
                    break
                s, ok = s.play(move), ok + 1
            if refusal is None:
                return order, None
            if best is None or ok > best[0]:
                best = (ok, refusal)
        assert best is not None
        return None, best[1]
