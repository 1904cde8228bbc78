"""What a game gives the engines (``companion/engines/``): the search adapter.

A game with engine play returns an adapter from ``GameSpec.engine()``; the game-agnostic
search, the players, ``bestmove``, ``solve``, ``match``, the opponent and the menu's engine hint
all play through it. The adapter lives in the game's own folder (``games/<game>/adapter.py``)
and imports nothing from ``companion/engines/``: the protocol and ``WIN`` are here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final, Protocol

WIN: Final = 1_000_000  # a won game's value; evaluations of unfinished games stay well below


class Adapter(Protocol):
    """What the search needs from a game. States are whatever the search plays on (the rules
    engine's state, or a faster copy made by ``prepare``); players are seats."""

    def prepare(self, state: Any) -> Any: ...  # the game's state as the search plays it
    def moves(self, state: Any) -> list[Any]: ...
    def play(self, state: Any, move: Any) -> Any: ...
    def is_over(self, state: Any) -> bool: ...
    def mover(self, state: Any) -> str: ...
    def evaluate(self, state: Any, player: str) -> int: ...
    def key(self, state: Any) -> Hashable: ...
    def score_difference(self, state: Any, player: str) -> int: ...  # the greedy player's
    def winner(self, state: Any) -> str | None: ...  # a finished game's winning seat
    def solving(self, state: Any) -> tuple[type, dict[str, Any]] | None: ...

    # evaluation points that move a review's expected result from 50 % to 73 % (one logistic
    # unit): the game's own scale, what a move's drop is measured in (docs/review.md)
    review_scale: int


class BaseAdapter:
    """Defaults for an adapter: the rules engine's state as is, the greedy player maximising
    the evaluation, the exact solver's generic path."""

    review_scale: int = 16  # four points of score at four evaluation points each

    def prepare(self, state: Any) -> Any:
        return state

    def evaluate(self, state: Any, player: str) -> int:
        raise NotImplementedError

    def score_difference(self, state: Any, player: str) -> int:
        """What the greedy player maximises: the evaluation right after a move."""
        return self.evaluate(state, player)

    def solving(self, state: Any) -> tuple[type, dict[str, Any]] | None:
        """A faster exact solver for ``state`` (prepared): a class mixed in before
        ``engines.solve.Solver`` overriding its hooks (``table_key``, ``children``, ``is_over``,
        ``mover``, ``final``) and the keyword arguments its ``__init__`` takes; None for the
        generic solver."""
        return None


def score_change(
    who: str,
    other: str,
    mine: tuple[int, int],
    theirs: tuple[int, int],
    shown: Callable[[int], str] = str,
    word: str = "best",
) -> list[str]:
    """Wordings of what a move did to the score, for a hint's reason (``GameSpec.move_effect``):
    the mover's own score up ("raises ON's best to 1101"), else the opponent's down ("cuts
    WHITE's score to 10"); the same without the value when that is too long to show."""
    (mine0, mine1), (theirs0, theirs1) = mine, theirs
    if mine1 > mine0:
        return [f"raises {who}'s {word} to {shown(mine1)}", f"raises {who}'s {word}"]
    if theirs1 < theirs0:
        return [f"cuts {other}'s {word} to {shown(theirs1)}", f"cuts {other}'s {word}"]
    return []
