"""The adapter for a game by name, and the games the engines play."""

from __future__ import annotations

from typing import Any

from companion.engines.search import Adapter

ENGINE_GAMES = ("binaryon", "binary", "wythe")


def adapter_for(game: str) -> Adapter:
    """ValueError naming the games when ``game`` has no engine (chance/simultaneous games)."""
    if game == "binaryon":
        from companion.engines.binaryon import BinaryonAdapter

        return BinaryonAdapter()
    if game == "binary":
        from companion.engines.binary import BinaryAdapter

        return BinaryAdapter()
    if game == "wythe":
        from companion.engines.wythe import WytheAdapter

        return WytheAdapter()
    raise ValueError(f"no engine for {game!r} (engines: {', '.join(ENGINE_GAMES)})")


def new_state(game: str, options: dict[str, Any] | None = None) -> Any:
    """The starting position of ``game`` with ``options`` (the rules engine's state; an
    adapter's ``prepare`` turns it into what its search plays on)."""
    from importlib import import_module

    adapter_for(game)
    return import_module(f"companion.games.{game}.engine").new_game(**(options or {}))
