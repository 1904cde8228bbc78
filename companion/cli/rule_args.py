"""Rule options on the command line, one convention for every command that plays or scores:
``--rule NAME=VALUE``, repeatable (``--rule first=off --rule reach=ray``). NAME is the option's
key in ``[rules.GAME]`` of the config file; ``-`` and ``_`` in it are the same.

The per-game flags ``score`` and ``legal`` used to take (``--first off``, ``--empty-joins
false``) still work, unlisted in ``--help``, so existing scripts keep running.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from companion.games.options import parse_pairs, rule_pairs

if TYPE_CHECKING:
    from companion.games.base import Option

__all__ = ["add_rule_argument", "parse_pairs", "rule_pairs", "add_legacy_rule_flags"]

_LEGACY_PREFIX = "legacy_rule_"


def add_rule_argument(parser: argparse.ArgumentParser, example: str = "first=off") -> None:
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a rule option of the game, e.g. --rule {example} (repeatable; see the README)",
    )


def add_legacy_rule_flags(
    parser: argparse.ArgumentParser, argv: list[str], reserved: set[str]
) -> None:
    """The older ``--NAME VALUE`` flag of each option, hidden from --help: only when ``argv``
    holds a flag the parser does not know, so that a command given none loads no game for it
    (those of ``--game``, else of every game: a record names its own)."""
    known = parser._option_string_actions  # argparse keeps no public list of its flags
    if all(a.split("=", 1)[0] in known for a in argv if a.startswith("--")):
        return
    from companion.games import game_names

    named = [a.split("=", 1)[1] for a in argv if a.startswith("--game=")]
    named += [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--game"]
    games = [g for g in named if g in game_names()] or game_names()
    for option in game_options(games):
        if option.name in reserved:
            continue
        flags = [f"--{option.name.replace('_', '-')}"]
        if "_" in option.name:
            flags.append(f"--{option.name}")
        parser.add_argument(
            *flags, dest=_LEGACY_PREFIX + option.name, default=None, help=argparse.SUPPRESS
        )


def game_options(names: list[str]) -> list[Option]:
    """Every rule option of the given games, deduplicated by name (first one wins).

    A game whose module is missing or broken is skipped here: its options simply have no flag,
    and choosing that game reports the problem when it is loaded.
    """
    from companion.games import get_spec

    seen: dict[str, Option] = {}
    for name in names:
        try:
            spec = get_spec(name)
        except (ImportError, AttributeError, SyntaxError):
            continue
        for option in spec.options:
            seen.setdefault(option.name, option)
    return list(seen.values())


def given_rules(args: argparse.Namespace) -> dict[str, Any]:
    """Every rule option given on the command line: old flags, then ``--rule`` (which wins)."""
    given = {
        key[len(_LEGACY_PREFIX) :]: value
        for key, value in vars(args).items()
        if key.startswith(_LEGACY_PREFIX) and value is not None
    }
    given.update(rule_pairs(getattr(args, "rule", None) or []))
    return given
