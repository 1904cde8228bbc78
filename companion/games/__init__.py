"""Registry of games. Adding a game = one module with a ``SPEC`` and one line here."""

from __future__ import annotations

from importlib import import_module

from companion.games.base import GameSpec

_REGISTRY = {
    "binaryon": "companion.games.binaryon.spec",
    "binary": "companion.games.binary.spec",
}


def game_names() -> list[str]:
    return list(_REGISTRY)


def get_spec(name: str) -> GameSpec:
    try:
        module = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(_REGISTRY)})") from None
    return import_module(module).SPEC
