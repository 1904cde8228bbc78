"""Options shared by ``binaryon run`` and ``binaryon sim``: config file and overrides."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace
from pathlib import Path

from companion.cli.rule_args import add_rule_argument, parse_pairs, rule_pairs
from companion.core.config import Config, ConfigError
from companion.games import DEFAULT_GAME, game_names, player_ids
from companion.service.config_check import (
    REMOTE,
    board_kind_problem,
    check_config,
    game_name,
    rule_options,
    time_control,
)


def add_daemon_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="TOML config (default: none needed)")
    p.add_argument("--game", help=f"game to play: {', '.join(game_names())}")
    p.add_argument("--board", help="auto, mock, gpio or serial:PORT")
    p.add_argument("--kind", choices=("switch", "presence", "polarity"), help="sensor kind")
    p.add_argument("--size", type=int, help="board size (squares per side)")
    p.add_argument(
        "--display", help="auto, terminal, emulator (a window), ssd1306, sh1106, dummy, none"
    )
    p.add_argument("--journal", metavar="PATH", help="journal file, or 'none'")
    add_rule_argument(p)
    p.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="ID=NAME",
        help=f"a player's name by the game's player id, e.g. --player "
        f"{player_ids(DEFAULT_GAME)[0]}=Ana (each game's ids: docs/rules/)",
    )
    p.add_argument(
        "--opponent",
        metavar="engine[:LEVEL]|remote:BOARD",
        help="the other side is played by the companion (engine, or "
        "engine:novice|beginner|casual|default|strongest) or by a player at another board "
        "(remote:BOARD, with --club and --board-name)",
    )
    p.add_argument(
        "--opponent-side",
        "--engine-side",  # its old spelling
        dest="opponent_side",
        metavar="PLAYER",
        help="the side the opponent plays (default: the second player)",
    )
    p.add_argument(
        "--tutor",
        action="store_true",
        help="warn before a move the engine judges a blunder: the move is played once "
        "confirmed (the same square again, or confirm); never in a remote or rated game",
    )
    p.add_argument(
        "--clock",
        metavar="M:SS+INC",
        help="a game clock: 5:00+3 (increment), 0:30+0 (sudden death), 5:00d2 (delay), "
        "1:00h (hourglass), default (the game's rules page suggests one) or none",
    )
    p.add_argument(
        "--first-move",
        choices=("free", "timed"),
        help="a casual game's first move on the clock: free (the default: the clock starts "
        "when it is made) or timed (FIDE: it runs from the start, increments from move 1)",
    )
    p.add_argument(
        "--web",
        metavar="HOST:PORT",
        help="serve the table page and players' pages, e.g. 0.0.0.0:8080 (default: off)",
    )
    p.add_argument(
        "--club",
        metavar="mqtt://HOST:PORT",
        help="publish this board to a club's MQTT broker (user and password: the config's "
        "[club] table, never here)",
    )
    p.add_argument("--board-name", metavar="NAME", help="this board's name on the club's broker")
    p.add_argument(
        "--voice",
        action="store_true",
        help='speak: moves, refusals, the clock, results ([voice] speak, "all" when it is off)',
    )
    p.add_argument(
        "--voice-to",
        metavar="DIR",
        help="speak into DIR instead of the sound card: numbered WAV files and said.txt",
    )
    p.add_argument(
        "--listen-from",
        metavar="FILE.wav|DIR",
        help="hear commands from a WAV file (or a folder's, in name order) instead of the "
        "microphone ([voice] wake word first; with push_to_talk, heard while it is held: the "
        "simulator's talk)",
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


def _players(items: list[str], game: str, options: dict) -> dict[str, str]:
    """The ``--player ID=NAME`` items, each ID checked against the game's players."""
    ids = player_ids(game, options)
    players = {}
    for pid, name in parse_pairs(items, "--player").items():
        key = pid.lower()
        if key not in ids:
            raise ConfigError(
                f"--player {pid}={name}: {game} has no player {pid!r} (its players: "
                f"{', '.join(ids)})"
            )
        if not name:
            raise ConfigError(f"--player {pid}=: give a name")
        players[key] = name
    return players


def club_args(args: argparse.Namespace, config: Config) -> dict[str, str]:
    """``--club URL`` and ``--board-name NAME``, each checked alone: one line naming the
    option (a URL holding a user or password is refused without echoing it)."""
    from companion.club.topics import BOARD_NAME_RULE, valid_board_name
    from companion.core.broker_url import parse_broker_url

    club: dict[str, str] = {}
    url = getattr(args, "club", None)
    name = getattr(args, "board_name", None)
    if url is not None:
        try:
            parse_broker_url(url)
        except ValueError as e:
            raise ConfigError(f"--club {e}") from None
        club["broker"] = url.strip()
    if name is not None:
        if not valid_board_name(name):
            raise ConfigError(f"--board-name {name!r}: {BOARD_NAME_RULE}")
        club["board"] = name
    if name is not None and not (url or config.club.broker):
        raise ConfigError("--board-name needs --club mqtt://HOST:PORT (or [club] broker)")
    if url is not None and not (name or config.club.board):
        raise ConfigError("--club needs --board-name NAME (or [club] board in the config)")
    return club


def config_from_args(args: argparse.Namespace) -> Config:
    """The config file with the command line's overrides, fully checked: one line on the first
    problem (ConfigError), before anything starts."""
    from companion.games import game_names, get_spec
    from companion.service.app import load_config

    given_club = getattr(args, "club", None) is not None or getattr(args, "board_name", None)
    config = load_config(args.config, club=not given_club)
    try:
        rules = rule_pairs(args.rule)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    game: dict = {}
    if args.game and args.game not in game_names():  # the option's fault, not the config's
        raise ConfigError(f"--game {args.game!r} is not one of {', '.join(game_names())}")
    if args.game:
        game["name"] = args.game
        if args.game != game_name(config):
            game["players"] = {}  # the file's names are for another game's sides
    if getattr(args, "opponent", None):
        game["opponent"] = args.opponent
    if getattr(args, "tutor", False):
        game["tutor"] = True
    if getattr(args, "opponent_side", None):
        game["opponent_side"] = args.opponent_side
    board = {k: v for k, v in (("driver", args.board), ("kind", args.kind), ("size", args.size))
             if v is not None}  # fmt: skip
    display = {"driver": args.display} if args.display else {}
    journal = {"path": args.journal} if args.journal else {}
    web = {"listen": args.web} if args.web else {}
    clock = {"control": args.clock} if getattr(args, "clock", None) is not None else {}
    if getattr(args, "first_move", None):
        clock["first_move"] = args.first_move
    voice: dict = {}
    if getattr(args, "voice", False) or getattr(args, "voice_to", None):
        voice["speak"] = config.voice.speak if config.voice.speak != "off" else "all"
    if getattr(args, "listen_from", None):
        voice["listen"] = True
    config = config.with_overrides(
        game=game,
        board=board,
        display=display,
        journal=journal,
        web=web,
        clock=clock,
        club=club_args(args, config),
        voice=voice,
    )
    if config.game.tutor and config.game.opponent.startswith(REMOTE):
        from companion.engines.tutor import refusal

        source = "--tutor" if getattr(args, "tutor", False) else "[game] tutor"
        raise ConfigError(f"{source}: {refusal(remote=True, rated=False)}")
    name = game_name(config)
    if name not in game_names():
        check_config(config)  # says which games there are
    spec = get_spec(name)
    if rules:
        try:
            spec.resolve(rules)
        except ValueError as e:
            raise ConfigError(f"--rule {e}") from None
        config = config.with_overrides(rules={name: rules})
    # a board size is also the game's size (over the config file's) unless --rule says not
    sized = any(o.name == "size" for o in spec.options) and args.size is not None
    if sized and "size" not in rules:
        config = config.with_overrides(rules={name: {"size": args.size}})
    options = rule_options(config)  # validate now: one line, before anything starts
    given = [*rules, *(["size"] if sized and "size" not in rules else [])]
    if args.player:
        players = _players(args.player, name, options)
        config = config.with_overrides(game={"players": players})
        given.append("players")
    if "control" in clock:
        try:
            time_control(config, name)
        except ValueError as e:
            raise ConfigError(f"--clock {str(e).removeprefix('clock ')}") from None
        given.append("clock")
    config = replace(config, game=replace(config.game, given=tuple(given)))
    check_config(config)
    if not config.board.driver.startswith("serial:") and (why := board_kind_problem(config)):
        source = f"--kind {config.board.kind}" if args.kind else f"[board] kind {config.board.kind}"
        raise ConfigError(f"{source}: {why}")
    return config


def voice_paths(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    """``--voice-to DIR`` and ``--listen-from FILE|DIR``, checked: one line naming the option."""
    to = Path(args.voice_to) if getattr(args, "voice_to", None) else None
    heard = Path(args.listen_from) if getattr(args, "listen_from", None) else None
    if to is not None and to.exists() and not to.is_dir():
        raise ConfigError(f"--voice-to {to}: not a folder")
    if heard is not None:
        from companion.voice.microphone import WavSource

        try:
            WavSource.of(heard).check()
        except ValueError as e:
            raise ConfigError(f"--listen-from {e}") from None
    return to, heard
