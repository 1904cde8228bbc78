"""Which game the daemon starts with: the one in progress in the journal, unless the command
line or the config names another game, option value or player name (then that one starts and
the other is paused, to be taken up again); always one that fits the board."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from companion import PROGRAM
from companion.core.config import Config
from companion.games import get_spec
from companion.games.base import GameSpec
from companion.journal.api import Journal, JournalError
from companion.referee.masked_play import LocalSeat
from companion.referee.session import Session
from companion.service.config_check import REMOTE, game_name, rule_options, time_control
from companion.views.oled import CHARS

log = logging.getLogger(PROGRAM)


def fitting_options(spec: GameSpec, options: dict[str, Any], board: int) -> dict[str, Any]:
    """``options`` with the game's size brought down to what the board holds, when the game
    has a size option and does not fit as asked (e.g. a 10x10 game on the 8x8 board)."""
    layout = spec.layout(options)
    if layout is None or layout.fits(board) or not any(o.name == "size" for o in spec.options):
        return options
    for size in range(min(board, int(options.get("size", board))), 0, -1):
        try:
            candidate = spec.resolve({**options, "size": size})
        except ValueError:
            continue
        if (lay := spec.layout(candidate)) is not None and lay.fits(board):
            return candidate
    return options


def first_session(
    config: Config,
    journal: Journal,
    board_size: int,
    say: Callable[[str], None],
    rng: random.Random | None = None,
    timer: Callable[[], float] | None = None,
) -> Session:
    """The game in progress, resumed; or the configured game when there is none, or when the
    command line (or the config's ``[game] name``) asks for another: the one in progress is
    then paused, to be taken up again, and one OLED line says so."""
    try:
        saved = journal.current()
    except JournalError as e:  # a damaged journal opened read-only: start a fresh game
        log.error("journal: the game in progress cannot be read: %s", e)
        saved = None
    session = None
    if saved is not None:
        try:
            session = Session.resume(saved, journal, rng, timer)
            session.local_seat = remote_local_seat(config)
            say("resumed")
        except ValueError as e:
            log.error("cannot resume game %s: %s", saved.game_id, e)
    wanted = game_name(config)
    options = fitting_options(get_spec(wanted), rule_options(config), board_size)
    if session is not None and (why := asks_for_another(config, options, session)):
        old = session.game_id
        paused = session.pause()
        log.info("game %s %s: %s", old, "paused" if paused else "closed", why)
        if paused:
            say(paused_line(session.game, old))
        session = None
    if session is None:
        session = Session(
            wanted,
            options,
            journal,
            config.game.players,
            rng,
            time_control=time_control(config, wanted),
            timer=timer,
            local_seat=remote_local_seat(config),
            first_move_free=first_move_free(config),
        )
    return session


def first_move_free(config: Config) -> bool:
    """A casual game's first move on the clock, as ``[clock] first_move`` says; free in a
    remote game whatever it says: the two boards start the game at different moments, so
    its clock starts with the first move, stamped where it is made."""
    return config.clock.first_move == "free" or config.game.opponent.startswith(REMOTE)


def remote_local_seat(config: Config) -> LocalSeat | None:
    """In a remote game (``remote:BOARD``), the seat a new game's board knows alone."""
    if not config.game.opponent.startswith(REMOTE):
        return None
    from companion.club.remote import local_seat_of

    return local_seat_of(config.game.opponent_side)


def asks_for_another(config: Config, options: dict[str, Any], session: Session) -> str:
    """What the command line (or ``[game] name``) asks for that the game in progress is not
    ('' when it is that game): another game, another value of a rule option given by name,
    another name for a player."""
    wanted = game_name(config)
    if session.game != wanted:
        return f"{wanted} asked for" if config.game.chosen or config.game.given else ""
    for name in config.game.given:
        if name == "clock":
            asked = time_control(config, wanted)
            if session.time_control != asked:
                return f"clock {asked.text() if asked else 'none'} asked for"
        elif name == "players":
            for player, person in config.game.players.items():
                if session.people.get(player, "") != person:
                    return f"{player} is {person}"
        elif session.options.get(name) != options.get(name):
            return f"{name}={options.get(name)} asked for"
    return ""


def paused_line(game: str, game_id: int | None) -> str:
    """One OLED line (21 characters) saying which game was paused."""
    line = f"paused {game} #{game_id}"
    return line if len(line) <= CHARS else f"paused game #{game_id}"
