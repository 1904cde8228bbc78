"""What a game gives the command line's positions: ``binaryon score``, ``legal`` and
``bestmove`` read a position (a text file, or a record's final state) and print it scored,
its legal moves, or hand it to the engine.

A game's spec returns its ``Positions`` from ``GameSpec.positions()``; every member has a
default that means "not offered", so the commands call them without asking. A bad position
or option raises ``ValueError`` with a one-line reason (the command prints it and exits 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from companion.games.state import GameState


class Positions:
    """Positions for the command line, for the game of ``spec``; the defaults read none."""

    # the players a position file may name as the mover (``--mover`` of `legal FILE` and
    # `bestmove`); () when the game reads no position files
    movers: ClassVar[tuple[str, ...]] = ()

    def __init__(self, spec: Any):
        self.spec = spec  # the game's GameSpec (unnamed here: base.py hands this facet out)

    def legal_record(self, state: GameState) -> dict[str, list[str]]:
        """`binaryon legal --record FILE --json`: the legal moves after a record's moves. By
        default the names of ``legal_moves()``, each once."""
        return {"moves": list(dict.fromkeys(m.name for m in state.legal_moves()))}

    def score_record(self, state: GameState) -> dict[str, Any] | None:
        """`binaryon score --record FILE --json` for a game that scores its own state (Wythe's
        stacks); None (the default): the final position's text is scored (``score``), or,
        for a game with no board position, the result."""
        return None

    def describe_record(self, state: GameState) -> str | None:
        """`binaryon score --record FILE` in words; None as for ``score_record``."""
        return None

    def score(self, text: str, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """`binaryon score FILE --json`: a position file scored with the ``options`` given;
        None: the game scores no positions (the default)."""
        return None

    def describe_score(self, text: str, options: Mapping[str, Any]) -> str | None:
        """`binaryon score FILE` in words; None as for ``score``."""
        return None

    def legal(
        self,
        text: str,
        mover: str,
        options: Mapping[str, Any] | None = None,
        last: str | None = None,
    ) -> dict[str, list[str]] | None:
        """`binaryon legal FILE --json`: ``{"moves": [...], ...}`` for ``mover`` (one of
        ``movers``) in a position file; ``last`` is what `--last` gave. None: the game reads
        no positions (the default)."""
        return None

    def describe_legal(self, result: dict[str, list[str]], mover: str) -> str:
        """`binaryon legal FILE` in words: the moves on one line (or that there are none),
        then one line for each other non-empty list of ``result``."""
        lines = [" ".join(result["moves"]) if result["moves"] else f"{mover} has no legal move"]
        lines += [f"{key}: {' '.join(v)}" for key, v in result.items() if key != "moves" and v]
        return "\n".join(lines)

    def state(self, text: str, mover: str, last: str | None = None) -> GameState | None:
        """`binaryon bestmove`: a position file as a state with ``mover`` (one of ``movers``)
        to play; None: the game reads no positions for the engine (the default)."""
        return None
