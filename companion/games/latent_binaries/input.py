"""What the board means for Latent Binaries. Cells are the 5x7 frame's (a1 = 0).

- Presses (LED-switch board, or a cell clicked on a page): in the move step, press one of
  your nests, then the empty square it goes to; in the marker step, press the marker that
  jumps (a marker has at most one jump). Setups and guesses are made on the players' pages
  (their colours are not on the board); pressing a nest in sight during the challenge
  points at it. The confirm button ends a challenge after a guess.
- Presence board: a nest lifted and put down elsewhere is a nest move; a marker lifted and
  put down is a marker jump. A nest lifted and not yet put down (to peek under it) is input
  in progress; anything else differs from the game and is shown until fixed.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import (
    Action,
    Differ,
    GameState,
    Interpreter,
    Pending,
    Play,
    Refusal,
    Refuse,
)
from companion.games.latent_binaries.engine import LatentState
from companion.games.latent_binaries.geometry import SQUARES, STEPS, square_name, squares_of
from companion.games.latent_binaries.moves import END, Marker, Step
from companion.games.latent_binaries.phases import CHALLENGE, MARKER, MOVE, PROMPTS, SETUP

OLED_WIDTH = 21


def marker_cells(state: LatentState) -> set[int]:
    return {*state.base("rainbow"), *state.base("xeno")}


def occupied_cells(state: LatentState) -> set[int]:
    """Cells a presence sensor reads as taken: nests and goal markers."""
    return {n.square for n in state.nests} | marker_cells(state)


def fit(prefix: str, cells: Sequence[int], width: int = OLED_WIDTH) -> str:
    """``prefix`` and as many cell names as fit in ``width``, then ``+k`` for the rest."""
    text = prefix
    for k, c in enumerate(cells):
        rest = len(cells) - k - 1
        if len(text) + 3 + (len(f" +{rest}") if rest else 0) > width:
            return f"{text} +{rest + 1}"
        text += f" {square_name(c)}"
    return text


class LatentInput(Interpreter):
    def __init__(self, kind: str):
        super().__init__(kind)
        self.selected: int | None = None

    def reset(self) -> None:
        self.selected = None

    def pending(self) -> Pending | None:
        if self.selected is None:
            return None
        return Pending((self.selected,), f"{square_name(self.selected)}: where to?")

    # ----------------------------------------------------------------- presses
    def press(self, state: GameState, cell: int) -> Action:
        st: LatentState = state  # type: ignore[assignment]
        if not 0 <= cell < SQUARES or st.is_over():
            return None
        name = square_name(cell)
        if st.waiting:  # remote play: the other board has yet to tell a fact
            refusal = st.check(END)
            assert refusal is not None
            return Refuse(refusal, cell)
        if st.phase == SETUP:
            return Refuse(Refusal("use-page", "setup: on your own page"), cell)
        if st.phase == MOVE:
            return self._press_move(st, cell)
        if st.phase == MARKER:
            jumps = [m for m in st.legal_moves() if isinstance(m, Marker) and m.src == cell]
            if len(jumps) == 1:
                return Play(jumps[0])
            return Refuse(Refusal("not-a-jump", f"{name}: no marker jump"), cell)
        # the challenge: point at a nest in sight; the guess itself is made on a page
        assert st.mover is not None
        if cell in {n.square for n in st.in_sight(st.mover)}:
            return Pending((cell,), f"{name}: guess on your page")
        return Refuse(Refusal("not-in-sight", f"{name}: not a nest in sight"), cell)

    def _press_move(self, st: LatentState, cell: int) -> Action:
        name = square_name(cell)
        nest = st.nest_at(cell)
        if nest is not None and nest.owner == st.mover:
            if self.selected == cell:  # pressed again: let go
                self.selected = None
                return Pending((), PROMPTS[MOVE])
            self.selected = cell
            dests = tuple(squares_of(STEPS[cell] & ~st.occupied()))
            return Pending((cell, *dests), f"{name}: where to?")
        if self.selected is None:
            return Refuse(Refusal("no-nest", f"{name}: press your nest first"), cell)
        return Play(Step(self.selected, cell))

    def button(self, state: GameState, name: str) -> Action:
        st: LatentState = state  # type: ignore[assignment]
        if name == "confirm" and st.phase == CHALLENGE and st.check(END) is None:
            return Play(END)
        return None

    # ----------------------------------------------------------------- sensor boards
    def expected(self, state: GameState) -> list[str]:
        st: LatentState = state  # type: ignore[assignment]
        if self.kind != "presence":
            return ["0"] * SQUARES
        taken = occupied_cells(st)
        return ["1" if c in taken else "0" for c in range(SQUARES)]

    def board(self, state: GameState, readings: Sequence[str]) -> Action:
        st: LatentState = state  # type: ignore[assignment]
        if len(readings) != SQUARES:
            return Differ((), f"board has {len(readings)} cells, not {SQUARES}")
        bad = [c for c, v in enumerate(readings) if v not in ("0", "1")]
        if bad:
            return Differ(tuple(bad), f"{square_name(bad[0])}: bad reading")
        taken = occupied_cells(st)
        now = {c for c, v in enumerate(readings) if v == "1"}
        lifted, placed = sorted(taken - now), sorted(now - taken)
        if not lifted and not placed:
            return None
        if len(lifted) == 1 and len(placed) == 1:
            src, dst = lifted[0], placed[0]
            if st.phase == MOVE and st.nest_at(src) is not None:
                return Play(Step(src, dst))
            if st.phase == MARKER and src in marker_cells(st):
                return Play(Marker(src, dst))
            return Differ((src, dst), f"back to {square_name(src)}: {PROMPTS[st.phase]}"[:42])
        if lifted and not placed:  # lifted, maybe to peek: not a move yet
            return Pending(tuple(lifted), fit("lifted", lifted))
        if placed and not lifted:  # e.g. a removed nest still on the board
            return Differ(tuple(placed), fit("take off", placed))
        return Differ(tuple(lifted + placed), fit("fix", lifted + placed))
