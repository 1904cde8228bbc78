"""Which game the daemon starts with: the one in progress in the journal, unless the config
names another (then that one starts and the other is filed as abandoned); always one that
fits the board."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from companion.core.config import Config
from companion.games import get_spec
from companion.games.base import GameSpec
from companion.journal.api import Journal
from companion.referee.session import Session

log = logging.getLogger("binaryon")


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
) -> Session:
    saved = journal.current()
    session = None
    if saved is not None:
        try:
            session = Session.resume(saved, journal, rng)
            say("resumed")
        except ValueError as e:
            log.error("cannot resume game %s: %s", saved.game_id, e)
    wanted = config.game.name
    if session is not None and config.game.chosen and session.game != wanted:
        old = f"{session.game} game {session.game_id}"
        session.abandon()
        session = None
        say(f"{old} abandoned: new {wanted}")
    if session is None:
        options = fitting_options(get_spec(wanted), config.rule_options(), board_size)
        session = Session(wanted, options, journal, config.game.players, rng)
    return session
