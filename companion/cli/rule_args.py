"""Rule options on the command line, one convention for every command that plays or scores:
``--rule NAME=VALUE``, repeatable (``--rule first=off --rule reach=ray``). NAME is the option's
key in ``[rules.GAME]`` of the config file; ``-`` and ``_`` in it are the same.

The per-game flags ``score`` and ``legal`` used to take (``--first off``, ``--empty-joins
false``) still work, unlisted in ``--help``, so existing scripts keep running.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.games.base import Option
from companion.games.options import parse_pairs, rule_pairs

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
    parser: argparse.ArgumentParser, options: list[Option], reserved: set[str]
) -> None:
    """The older ``--NAME VALUE`` flag of each option, hidden from --help."""
    for option in options:
        if option.name in reserved:
            continue
        flags = [f"--{option.name.replace('_', '-')}"]
        if "_" in option.name:
            flags.append(f"--{option.name}")
        parser.add_argument(
            *flags, dest=_LEGACY_PREFIX + option.name, default=None, help=argparse.SUPPRESS
        )


def given_rules(args: argparse.Namespace) -> dict[str, Any]:
    """Every rule option given on the command line: old flags, then ``--rule`` (which wins)."""
    given = {
        key[len(_LEGACY_PREFIX) :]: value
        for key, value in vars(args).items()
        if key.startswith(_LEGACY_PREFIX) and value is not None
    }
    given.update(rule_pairs(getattr(args, "rule", None) or []))
    return given
