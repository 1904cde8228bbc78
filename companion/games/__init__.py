"""Registry of games. Adding a game = a folder with a ``spec.py`` defining ``SPEC`` and one line
here (see docs/adding-a-game.md)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from companion.games.base import GameSpec

# The game played when none is named (the config's [game] name, --game).
DEFAULT_GAME = "binaryon"

_REGISTRY = {
    "binaryon": "companion.games.binaryon.spec",
    "binary": "companion.games.binary.spec",
    "wythe": "companion.games.wythe.spec",
    "binome": "companion.games.binome.spec",
    "latent-binaries": "companion.games.latent_binaries.spec",
}


def game_names() -> list[str]:
    return list(_REGISTRY)


def get_spec(name: str) -> GameSpec:
    try:
        module = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(_REGISTRY)})") from None
    return import_module(module).SPEC


def player_ids(game: str, options: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The player ids of ``game`` with ``options`` (the defaults' when they do not resolve)."""
    spec = get_spec(game)
    try:
        return tuple(spec.players(spec.resolve(dict(options or {}))))
    except ValueError:
        return tuple(spec.players(spec.resolve({})))


def register(name: str, module: str) -> None:
    """Add a game whose spec lives outside the package (tests' stub games)."""
    _REGISTRY[name] = module


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


def game_commands() -> dict[str, tuple[str, str]]:
    """Extra ``binaryon`` subcommands the games bring: name -> (module, one-line help)."""
    out: dict[str, tuple[str, str]] = {}
    for name in _REGISTRY:
        out.update(getattr(get_spec(name), "commands", {}))
    return out
