"""Registry of games. Adding a game = a folder with a ``spec.py`` defining ``SPEC`` and one line
here (see docs/adding-a-game.md).

The registry holds names and module paths only: a game's modules are imported when that game is
asked for (``get_spec``), so ``binaryon --version``, ``--help`` and a command about one game
never load the others (tests/project/test_import_cost.py holds it)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Extra ``binaryon`` subcommands a game brings: name -> (module with add_arguments/run, one-line
# help). Written here, not in the spec, so that ``binaryon --help`` lists them without loading
# the game; the module lives in the game's folder.
_COMMANDS: dict[str, tuple[str, str]] = {
    "lines": ("companion.games.binaryon.lines_cli", "list every line of the Binaryon board"),
    "binome": (
        "companion.games.binome.resolve_cli",
        "Binøme tools: resolve one turn (who wins a postulate and why)",
    ),
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


def register(name: str, module: str, commands: dict[str, tuple[str, str]] | None = None) -> None:
    """Add a game whose spec lives outside the package (tests' stub games), with the commands
    it brings (as ``_COMMANDS``)."""
    _REGISTRY[name] = module
    _COMMANDS.update(commands or {})


def unregister(name: str) -> None:
    module = _REGISTRY.pop(name, None)
    if module is not None:
        folder = module.rpartition(".")[0] + "."
        for command in [k for k, (m, _) in _COMMANDS.items() if m.startswith(folder)]:
            del _COMMANDS[command]


def game_commands() -> dict[str, tuple[str, str]]:
    """Extra ``binaryon`` subcommands the games bring: name -> (module, one-line help)."""
    return dict(_COMMANDS)
