"""The config's checks that need more than core: the games (the name, its players, its rules
and sensor kinds), the engines (an opponent), the Pi's pins, the boards and the web address.

``companion.core.config`` reads the file into typed values and checks each value alone; a
config from the file or the command line is then checked here before anything starts
(``check_config``), with one line naming the key (ConfigError).
"""

from __future__ import annotations

from typing import Any

from companion.core.config import Config, ConfigError, club_without_broker
from companion.core.sensors import SENSOR_KINDS
from companion.games import DEFAULT_GAME, game_names, get_spec, player_ids
from companion.timing.clock import HOURGLASS, TimeControl

REMOTE = "remote:"  # an opponent played at another board (``[game] opponent = "remote:t4"``)


def game_name(config: Config) -> str:
    """The game the config plays: ``[game] name``, else the default game."""
    return config.game.name or DEFAULT_GAME


def rule_options(config: Config) -> dict[str, Any]:
    """The validated rule options of the configured game."""
    name = game_name(config)
    try:
        return get_spec(name).resolve(config.rules.get(name, {}))
    except ValueError as e:
        raise ConfigError(f"[rules.{name}] {e}") from None


def sensor_kinds(game: str) -> tuple[str, ...]:
    """The sensor kinds a game can be played on (all of them when the game does not say)."""
    return tuple(getattr(get_spec(game), "sensor_kinds", None) or SENSOR_KINDS)


def board_kind_problem(config: Config) -> str | None:
    """Why the configured sensor kind cannot play the configured game, or None. Checked
    at start for boards built from the config (a Pico reports its own kind)."""
    name = game_name(config)
    kinds = sensor_kinds(name)
    if config.board.kind in kinds:
        return None
    return f"{name} is played on {' or '.join(kinds)} boards"


def remote_config_problem(config: Config) -> str | None:
    """Why ``[game] opponent = "remote:BOARD"`` cannot be played with this config, or None."""
    from companion.club.remote import parse_remote, remote_problem

    try:
        peer = parse_remote(config.game.opponent)
    except ValueError as e:
        return f"[game] {e}"
    club = config.club
    if not club.broker or not club.board:
        return f"[game] opponent {config.game.opponent!r}: needs --club URL and --board-name NAME"
    if peer == club.board:  # (the broker's address is checked with the [club] table)
        return f"[game] opponent {config.game.opponent!r}: that is this board's own name"
    name = game_name(config)
    return remote_problem(get_spec(name), rule_options(config))


def check_config(config: Config, source: str = "", club: bool = True) -> Config:
    """``config`` when everything in it can be used, else ConfigError on the first problem
    (prefixed with ``source``, e.g. the file's name). ``club`` False: the club's keys taken
    together (a broker and a board's name, a remote opponent) are left to the check after
    the command line's ``--club`` and ``--board-name``, which complete the file's table."""
    from companion.club.topics import BOARD_NAME_RULE, valid_board_name
    from companion.engines.players import parse_opponent
    from companion.hardware.boards import driver_problem
    from companion.hardware.pinout import pin_claims, pin_conflict
    from companion.views.web.address import ListenError, parse_listen

    def bad(msg: str) -> ConfigError:
        return ConfigError(f"{source}: {msg}" if source else msg)

    game = config.game
    name = game_name(config)
    if name not in game_names():
        raise bad(f"[game] name {name!r} is not one of {', '.join(game_names())}")
    for rules_of, options in config.rules.items():
        if rules_of not in game_names():
            raise bad(f"[rules.{rules_of}]: no such game ({', '.join(game_names())})")
        try:
            get_spec(rules_of).resolve(dict(options))
        except ValueError as e:
            raise bad(f"[rules.{rules_of}] {e}") from None
    ids = player_ids(name, config.rules.get(name)) if game.players else ()
    for player in game.players:
        if player not in ids:
            raise bad(f"[game] players: {player!r} is not a player of {name} ({', '.join(ids)})")
    if problem := driver_problem(config.board.driver):
        raise bad(f"[board] {problem}")
    if problem := pin_conflict(pin_claims(config)):
        raise bad(problem)
    if game.tutor and game.opponent.startswith(REMOTE):
        from companion.engines.tutor import refusal

        raise bad(f"[game] tutor: {refusal(remote=True, rated=False)}")
    if game.opponent.startswith(REMOTE) and club:
        if problem := remote_config_problem(config):
            raise bad(problem)
    elif game.opponent:
        try:
            parse_opponent(game.opponent)
        except ValueError as e:
            raise bad(f"[game] {e}") from None
        if get_spec(name).engine() is None:
            engines = [g for g in game_names() if get_spec(g).engine() is not None]
            raise bad(
                f"[game] opponent {game.opponent!r}: no engine plays {name} "
                f"(engines: {', '.join(engines)})"
            )
    if game.opponent_side:
        sides = player_ids(name, config.rules.get(name))
        if game.opponent_side not in sides:
            raise bad(
                f"[game] opponent_side {game.opponent_side!r}: not a player of "
                f"{name} ({', '.join(sides)})"
            )
    if config.web.listen:
        try:
            parse_listen(config.web.listen)
        except ListenError as e:
            raise bad(f"[web] listen: {e}") from None
    try:
        time_control(config, name)
    except ValueError as e:
        raise bad(f"[clock] control {str(e).removeprefix('clock ')}") from None
    if club and (problem := club_without_broker(config.club)):
        raise bad(problem)
    if club and config.club.broker and not config.club.board:
        raise bad('[club] board: give this board a name on the broker (board = "t1")')
    if config.club.broker and config.club.board and not valid_board_name(config.club.board):
        raise bad(f"[club] board {config.club.board!r}: {BOARD_NAME_RULE}")
    if club and config.club.broker and config.journal_path() is None:
        raise bad("[club] needs a journal: the results a hub has not stored are kept there")
    return config


def time_control(config: Config, game: str, control: str | None = None) -> TimeControl | None:
    """The game clock ``game`` is played with: ``[clock] control`` (``--clock``) as typed,
    or ``control`` when given (an event's pairing), the game's suggestion for "default"
    (``ClockRules.default``), None for none. ValueError (one line) for a control that
    cannot be read or does not suit the game (an hourglass needs two players)."""
    text = (config.clock.control if control is None else control).strip()
    if text.lower() in ("", "none", "off"):
        return None
    spec = get_spec(game)
    if text.lower() == "default":
        if not spec.clock_rules().default:
            raise ValueError(f"'default': {game}'s rules suggest no clock")
        text = spec.clock_rules().default
    control = TimeControl.parse(text)
    players = player_ids(game, config.rules.get(game))
    if control.kind == HOURGLASS and len(players) != 2:
        raise ValueError(f"{text!r}: an hourglass needs two players ({game} has {len(players)})")
    return control
