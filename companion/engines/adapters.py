"""The engine adapter of a game by name (``GameSpec.engine()``), and the games it plays."""

from __future__ import annotations

from typing import Any

from companion.engines.search import Adapter
from companion.games import game_names, get_spec


def engine_games() -> list[str]:
    """The registered games an engine plays, in registry order."""
    return [name for name in game_names() if has_engine(name)]


def has_engine(game: str) -> bool:
    """Does an engine play ``game`` (False for an unknown game)?"""
    try:
        return get_spec(game).engine() is not None
    except ValueError:
        return False


def adapter_for(game: str) -> Adapter:
    """A new adapter for ``game``; ValueError naming the games with an engine when ``game``
    has none (chance and simultaneous games) or is unknown."""
    adapter = get_spec(game).engine() if game in game_names() else None
    if adapter is None:
        raise ValueError(f"no engine for {game!r} (engines: {', '.join(engine_games())})")
    return adapter


def new_state(game: str, options: dict[str, Any] | None = None) -> Any:
    """The starting position of ``game`` (one an engine plays) with ``options`` (the rules
    engine's state; an adapter's ``prepare`` turns it into what its search plays on)."""
    adapter_for(game)
    return get_spec(game).new(**(options or {}))
