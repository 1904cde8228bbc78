"""The companion as an opponent: it plays one side of a two-player board game.

It thinks in its own thread (the referee keeps answering the board), then lights the squares
of its move and says it; a person makes the move on the board (presses it, or turns or places
the piece on a sensor board) and anything else is refused ("press e5 for my move").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engines.search import Result
from companion.games.base import Pending, Refusal
from companion.referee.verdict import Verdict
from companion.service.background_search import BackgroundSearch
from companion.service.engine_time import engine_seconds
from companion.service.host import Host


class EngineOpponent:
    def __init__(self, host: Host, level: str, side: str = "", kind: Callable[[], str] = str):
        self.host = host
        self.kind = kind  # the board's kind now ("switch", "polarity"...): how a move is made
        self.level = level
        self.side_wanted = side  # "" = the second player of whatever game is played
        self.wanted: Any = None  # the move it made, waiting to be played on the board
        self._job: tuple[Any, ...] | None = None  # the position it is thinking about
        self.search = BackgroundSearch(host)

    # --- which side, which position ---
    def side(self) -> str | None:
        """The seat the companion holds in the game in progress (None: it cannot play it).
        A seat is a player as the game started; a swap may give it another player."""
        session = self.host.session
        players = tuple(session.state.players)
        if session.spec.engine() is None or len(players) != 2:
            return None
        if self.side_wanted in players:
            return self.side_wanted
        return players[1]

    def _position(self) -> tuple[Any, ...]:
        return self.search.position()

    def playing(self) -> str | None:
        """The player the companion's seat plays now (a swap changes it)."""
        side = self.side()
        return None if side is None else self.host.session.state.player_of(side)

    def to_move(self) -> bool:
        state = self.host.session.state
        playing = self.playing()
        return playing is not None and not state.is_over() and state.turn == playing

    # --- after every verdict and event (the daemon's thread) ---
    def update(self) -> None:
        """Think when it is the companion's turn; forget a search the game left behind."""
        if not self.to_move():
            if self._job is not None:
                self.search.cancel()
            self.wanted, self._job = None, None
            return
        position = self._position()
        if self._job == position:
            return  # thinking about it, or its move is waiting to be made
        self._job, self.wanted = position, None
        self.search.start(self.level, self._ready, engine_seconds(self.host.session))

    def _ready(self, state: Any, result: Result | None) -> None:
        move = None if result is None else result.move
        if move is None:
            move = state.forced_move()
            if move is None:
                return
        self.wanted = move
        name = move.name
        cells = move.cells
        kind = self.kind()
        how = "press" if kind == "switch" else ("turn" if kind == "polarity" else "place")
        told = f"my move: {name}: {how} it"
        self.host.tell(Verdict(pending=Pending(cells, told), say=told, lasting=True))

    @property
    def thinking(self) -> bool:
        return self._job is not None and self.wanted is None and self.to_move()

    # --- the referee asks before it plays a move on the board ---
    def gate(self, move: Any) -> Refusal | None:
        """Refuse anything but the companion's own move while it is its turn."""
        if not self.to_move():
            return None
        if self.wanted is None:
            return Refusal("engine-thinking", "wait: I am thinking")
        if move != self.wanted:
            name = self.wanted.name
            kind = self.kind()
            verb = "press" if kind == "switch" else ("turn" if kind == "polarity" else "place")
            return Refusal("engine-move", f"{verb} {name} for my move")
        return None
