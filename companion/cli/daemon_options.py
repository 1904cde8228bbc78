"""Options shared by ``binaryon run`` and ``binaryon sim``: config file and overrides."""

from __future__ import annotations

import argparse
import logging
import sys

from companion.core.config import Config, ConfigError


def add_daemon_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="TOML config (default: none needed)")
    p.add_argument("--game", help="game to play, e.g. binaryon or binary")
    p.add_argument("--board", help="auto, mock, gpio or serial:PORT")
    p.add_argument("--kind", choices=("switch", "presence", "polarity"), help="sensor kind")
    p.add_argument("--size", type=int, help="board size (squares per side)")
    p.add_argument(
        "--display", help="auto, terminal, emulator (a window), ssd1306, sh1106, dummy, none"
    )
    p.add_argument("--journal", metavar="PATH", help="journal file, or 'none'")
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option of the game, e.g. --rule first=off (repeatable)",
    )
    p.add_argument(
        "--player", action="append", default=[], metavar="ID=NAME", help="e.g. --player on=Ana"
    )
    p.add_argument(
        "--web",
        metavar="HOST:PORT",
        help="serve the table page and players' pages, e.g. 0.0.0.0:8080 (default: off)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="log every event")


def setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.DEBUG if verbose else logging.INFO,
        format="binaryon: %(message)s",
    )


def quiet_while_simulating(verbose: bool) -> None:
    """The simulator draws in the terminal: only warnings go to stderr then (unless -v)."""
    if not verbose:
        logging.getLogger().setLevel(logging.WARNING)


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ConfigError(f"{what} {item!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def config_from_args(args: argparse.Namespace) -> Config:
    from companion.service.app import load_config

    config = load_config(args.config)
    game = {}
    if args.game:
        game["name"] = args.game
    if args.player:
        game["players"] = _pairs(args.player, "--player")
    board = {k: v for k, v in (("driver", args.board), ("kind", args.kind), ("size", args.size))
             if v is not None}  # fmt: skip
    display = {"driver": args.display} if args.display else {}
    journal = {"path": args.journal} if args.journal else {}
    web = {"listen": args.web} if args.web else {}
    config = config.with_overrides(
        game=game, board=board, display=display, journal=journal, web=web
    )
    if args.rule:
        config = config.with_overrides(rules={config.game.name: _pairs(args.rule, "--rule")})
    if args.size is not None:  # a board size is also the game's size unless a rule says not
        from companion.games import get_spec

        spec = get_spec(config.game.name)
        if any(o.name == "size" for o in spec.options):
            rules = config.rules.get(config.game.name, {})
            if "size" not in rules:
                config = config.with_overrides(rules={config.game.name: {"size": args.size}})
    config.rule_options()  # validate now: one line, before anything starts
    return config
