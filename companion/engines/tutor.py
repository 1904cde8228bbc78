"""The tutor (issue 40, item 4): before a move the engine judges a blunder is played, one line
that says so and why, with the better move in the words of the hints, for the companion to
show and ask a confirmation; and the one-line refusal where a tutor would help one side
against another who has none (a remote game, a rated one). Pure: the daemon asks it off its
event loop (a search of ``nodes``) and decides what a confirmation is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engines.adapters import adapter_for
from companion.engines.explain import hint_line
from companion.engines.review import BLUNDER, NODES, judged

REFUSAL = "no tutor in a remote or rated game: it would help one side only"


@dataclass(frozen=True)
class Caution:
    """A move judged a blunder: ``move`` and ``better`` by name, ``reason`` the better move's
    line as a hint says it ("better d2: holds a draw")."""

    move: str
    better: str | None
    reason: str

    @property
    def line(self) -> str:
        """What the table is told: the move, the word, the better move and why."""
        return (
            f"{self.move}: a blunder; {self.reason}" if self.reason else f"{self.move}: a blunder"
        )


def warning(state: Any, move: Any, nodes: int = NODES) -> Caution | None:
    """A ``Caution`` when the engine judges ``move`` (legal in ``state``) a blunder; None for
    any other move, a game no engine plays, or a finished game."""
    return cautions(state, nodes).get(move)


def cautions(state: Any, nodes: int = NODES) -> dict[Any, Caution]:
    """Every move of ``state`` the engine judges a blunder, with its ``Caution``: one search
    for them all (what the daemon asks once per position, off its loop); empty for a game no
    engine plays or a finished game."""
    if state.is_over():
        return {}
    try:
        adapter = adapter_for(state.game)
    except ValueError:
        return {}
    labels, result = judged(adapter, state, nodes)
    if result is None or result.move is None:
        return {}
    blunders = [move for move, label in labels.items() if label == BLUNDER]
    if not blunders:
        return {}
    reason = hint_line(state, result, word="better")
    return {move: Caution(move.name, result.move.name, reason) for move in blunders}


def refusal(remote: bool, rated: bool) -> str | None:
    """Why the tutor may not be on in this game (one line), or None."""
    return REFUSAL if remote or rated else None
