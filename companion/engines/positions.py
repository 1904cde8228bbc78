"""States for analysis from a game's plain-text position file (``bestmove``): the game's
``GameSpec.positions().state``."""

from __future__ import annotations

from typing import Any

from companion.engines.adapters import has_engine
from companion.games import game_names, get_spec


def position_games() -> list[str]:
    """The games whose position files an engine analyses."""
    return [g for g in game_names() if has_engine(g) and get_spec(g).positions().movers]


def state_from_text(game: str, text: str, mover: str, last: str | None = None) -> Any:
    """The position ``text`` of ``game`` with ``mover`` to play (``last``: what the game
    reads from ``--last``, e.g. the square turned last); ValueError with a one-line reason."""
    readers = position_games()
    if game not in readers:
        raise ValueError(f"{game}: bestmove reads {' or '.join(readers)} positions")
    spec = get_spec(game)
    positions = spec.positions()
    if mover not in positions.movers:
        raise ValueError(f"--mover must be {' or '.join(positions.movers)} for {game}")
    state = positions.state(text, mover, last)
    if state is None:
        raise ValueError(f"{game}: bestmove reads {' or '.join(readers)} positions")
    return state
