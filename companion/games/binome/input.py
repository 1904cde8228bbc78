"""What the companion's inputs mean for Binøme: it has no board, so presses and sensor
readings mean nothing; every player writes and claims on their own page. The confirm button
steps through what the table may want to read again on the OLED: the last turn's resolution,
who the game waits for, the scores."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import Action, GameState, Interpreter, Pending
from companion.games.binome.engine import BinomeState
from companion.games.binome.postulates import number_text
from companion.games.binome.resolution import join_names


def confirm_pages(state: BinomeState) -> list[str]:
    """The texts confirm steps through, in order (each fits the OLED's two message lines
    as far as possible; the table page has the full explanation)."""
    pages = []
    last = state.last_resolution
    if last is not None:
        claims = ", ".join(f"{p} {number_text(n)}" for p, n in last.claims) or "no claims"
        pages.append(last.explanation)
        pages.append(f"claimed: {claims}")
    remote = [p for p in state.players if p in state.waiting]
    if remote:  # a board of a remote game waiting for the other board (masked.py)
        pages.append(f"waiting for {join_names(remote)}")
    waiting = [p for p in state.players if p in state.to_act]
    if waiting:
        verb = "write" if state.digit is not None else "choose"
        pages.append(f"to {verb}: {join_names(waiting)}")
    scores = sorted(zip(state.players, state.scores, strict=True), key=lambda ps: -ps[1])
    pages.append("score: " + ", ".join(f"{p} {s}" for p, s in scores))
    return pages


class BinomeInput(Interpreter):
    """No board: presses and readings mean nothing; confirm shows the next page of news."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.step = 0

    def reset(self) -> None:
        self.step = 0

    def press(self, state: GameState, cell: int) -> Action:
        return None

    def board(self, state: GameState, readings: Sequence[str]) -> Action:
        return None

    def expected(self, state: GameState) -> list[str]:
        return []

    def button(self, state: GameState, name: str) -> Action:
        if name != "confirm" or not isinstance(state, BinomeState):
            return None
        pages = confirm_pages(state)
        text = pages[self.step % len(pages)]
        self.step += 1
        return Pending((), text)
