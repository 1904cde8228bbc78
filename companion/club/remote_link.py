"""What the parts of a board's remote play share (docs/club.md, "Remote play"): the host it
plays for, the two boards' names, the broker, and the line it last said. A leaf of the remote
modules: ``remote.py`` (the move source), ``remote_checks.py`` (the peer held to what it
said) and ``remote_secrets.py`` (the secrets of a masked game) each hold one ``RemoteLink``
and import nothing of one another's but what they are given."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from companion import PROGRAM
from companion.club import topics
from companion.club.transport import Transport
from companion.games.base import GameState
from companion.referee.referee import Referee
from companion.referee.session import Session
from companion.referee.verdict import Verdict

log = logging.getLogger(PROGRAM)


class RemoteHost(Protocol):
    @property
    def session(self) -> Session: ...

    @property
    def referee(self) -> Referee: ...

    def say(self, text: str, lasting: bool = False) -> None: ...

    def tell(self, verdict: Verdict) -> None: ...

    def play_remote(self, move: Any, player: str | None) -> Verdict:
        """Play the peer's move here at once (no gate); None ``player``: a drawn chance step."""
        ...


def local_seat(players: tuple[str, ...], remote_side: str) -> str:
    """The seat played at this board: the one the peer does not play (``remote_side``, or
    the second player when it names none of them)."""
    remote = remote_side if remote_side in players else players[1]
    return next(p for p in players if p != remote)


class RemoteLink:
    """This board (``board``) playing with board ``peer``, which plays the seat ``side``
    ("": the second player)."""

    def __init__(self, host: RemoteHost, board: str, peer: str, side: str = ""):
        self.host = host
        self.board = board
        self.peer = peer
        self.side_wanted = side
        self.transport: Transport | None = None
        self.said = ""  # the last problem said (each is said once)

    @property
    def session(self) -> Session:
        return self.host.session

    def seats(self, state: GameState) -> tuple[str, str]:
        """(the seat played here, the seat played at the peer)."""
        players = tuple(state.players)
        mine = local_seat(players, self.side_wanted)
        return mine, next(p for p in players if p != mine)

    def publish(self, message: dict[str, Any]) -> None:
        """To the peer, as it is (the sender's identity already in it)."""
        if self.transport is not None:
            self.transport.publish(topics.remote(self.board, self.peer), message)

    def problem(self, line: str) -> None:
        """Say a problem once (the same line again is not said again)."""
        if line != self.said:
            self.announce(line)

    def announce(self, line: str) -> None:
        """A line that lasts on the table and goes to the log."""
        self.said = line
        log.warning("remote play: %s", line)
        self.host.say(line, lasting=True)
