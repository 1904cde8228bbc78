"""Registry of games. Adding a game = a folder with a ``spec.py`` defining ``SPEC`` and one line
here (see docs/adding-a-game.md)."""

from __future__ import annotations

from importlib import import_module

from companion.games.base import GameSpec

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
