"""The board's side of pairings (docs/club.md): the hub's pairing is shown on the board and its
game started with those names when the game on the board is over or has no move by a player
yet, never over a game in progress. Which game each pairing started is kept in the journal's
``meta`` table, so a pairing told again (a reconnection, a restart) is not started twice and
a finished game's result carries its pairing's id."""

from __future__ import annotations

import json
import logging
from typing import Any

from companion import PROGRAM
from companion.club.pairing import Pairing, parse_pairing
from companion.core.log_throttle import LogThrottle
from companion.journal.api import Journal, JournalError
from companion.journal.rows import PAUSED
from companion.referee.session import Session

log = logging.getLogger(PROGRAM)

PAIRING_GAME = "club.pairing."  # + pairing id: the game id it started
GAME_PAIRING = "club.game_pairing."  # + game id: the pairing it was started from (JSON)


def pairing_of(journal: Journal, game_id: int) -> str | None:
    """The id of the pairing game ``game_id`` was started from, or None."""
    value = journal.meta(f"{GAME_PAIRING}{game_id}")
    try:
        about = json.loads(value) if value else None
    except ValueError:
        return None
    return str(about["pairing"]) if isinstance(about, dict) and "pairing" in about else None


def has_player_moves(session: Session) -> bool:
    """Has a player moved (not only the referee: a first roll, forced passes)?"""
    return any(not p.forced for p in session.played)


class BoardPairings:
    """In the daemon's loop thread; ``host`` is the daemon (``BoardHost``)."""

    def __init__(self, host: Any, board: str = ""):
        self.host = host
        self.board = board  # this board's name: a pairing for another board is not its
        self.waiting: Pairing | None = None  # until the game in progress ends
        self.refused = LogThrottle()

    def told(self, message: dict[str, Any] | None) -> None:
        """The hub's retained pairing (None: withdrawn)."""
        if message is None:
            if self.waiting is not None:
                self.host.say(f"pairing withdrawn: {self.waiting.line()}")
            self.waiting = None
            return
        try:
            if self.board and message.get("board", self.board) != self.board:
                raise ValueError(f"a pairing for another board than {self.board} is refused")
            pairing = parse_pairing(message)
        except ValueError as e:  # logged once a minute at most (a flood is counted)
            more = self.refused.note("pairing")
            if more is not None:
                log.warning("club: %s%s", e, more)
            self.host.say(f"club: {e}", kind="warning")
            return
        started = self.host.journal.meta(f"{PAIRING_GAME}{pairing.id}")
        if started is not None:  # told again (a reconnection, a restart): started once
            self._started_again(pairing, int(started))
            return
        self.waiting = pairing
        self.start()

    def game_over(self) -> None:
        """The game on the board has ended: a waiting pairing starts (as its own event)."""
        if self.waiting is not None:
            self.host.post_call(self.start)

    def _started_again(self, pairing: Pairing, game_id: int) -> None:
        """A pairing already started: its game goes on. A restart that began another game
        (a config that names one) put it aside: it is taken up again, unless a player has
        moved in the game on the board since."""
        session = self.host.session
        if session.game_id != game_id:
            entry = self.host.journal.load(game_id)
            if entry is None or entry.status != PAUSED or has_player_moves(session):
                return
            self.host.resume_game(game_id)
        if not self.host.session.state.is_over():
            self.host.say(pairing.line())

    def start(self) -> None:
        """Start the waiting pairing's game when the game on the board is over or has no
        move by a player yet; else say that it waits."""
        pairing = self.waiting
        if pairing is None:
            return
        session = self.host.session
        if not session.state.is_over() and has_player_moves(session):
            self.host.say(f"{pairing.line()}: after this game")
            return
        self.waiting = None
        if pairing.clock_given:  # the event's time control (none: no clock)
            self.host.new_game(
                pairing.game, pairing.options, pairing.players, clock=pairing.clock or ""
            )
        else:
            self.host.new_game(pairing.game, pairing.options, pairing.players)
        game_id = self.host.session.game_id
        if game_id is None or self.host.session.game != pairing.game:
            return  # refused (said on the table)
        about = {"pairing": pairing.id, "event": pairing.event, "round": pairing.round}
        try:
            self.host.journal.set_meta(
                {
                    f"{PAIRING_GAME}{pairing.id}": str(game_id),
                    f"{GAME_PAIRING}{game_id}": json.dumps(about),
                }
            )
        except JournalError as e:
            log.warning("club: the pairing is not kept: %s", e)
        self.host.say(pairing.line())
