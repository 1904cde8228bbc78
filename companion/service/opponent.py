"""The other side of a two-player board game, played by someone who is not at this board: the
companion's engine, or a player at another board (remote play, docs/club.md).

``Opponent`` is what both share: when it is the opponent's turn it asks its ``MoveSource``
for the move (the engine thinks in its own thread, a remote board sends it), lights the
squares of that move and says it; a person here makes it on the board (presses it, or turns or
places the piece on a sensor board) and anything else is refused ("press e5 for my move").
The source is small: where the move comes from, and what this board's moves mean to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from companion.games.base import Pending, Refusal
from companion.referee.session import Session
from companion.referee.verdict import Verdict
from companion.service.background_search import BackgroundSearch
from companion.service.engine_time import engine_seconds
from companion.service.host import Host

if TYPE_CHECKING:
    from companion.engines.search import Result

Deliver = Callable[[Any], None]  # the opponent's move, in the loop's thread


class MoveSource(Protocol):
    """Where the opponent's moves come from."""

    whose: str  # "my" (the companion), "t4's" (a remote board): "press e5 for my move"
    by: str  # "the companion", "t4": "xeno is played by t4"
    unknown_move: Refusal  # the refusal while its move is not known yet
    moved: str  # the refusal code for a move other than its own

    def plays(self, session: Session) -> bool:
        """Can it play the game in progress?"""

    def ask(self, deliver: Deliver) -> None:
        """The opponent is to move where the game is now: call ``deliver(move)`` (in the
        loop's thread) once the move is known, unless ``cancel`` came first."""

    def cancel(self) -> None:
        """Forget what was asked: the game moved on."""

    def follow(self) -> None:
        """After every event: the game may have changed (a remote source sends this board's
        new moves)."""

    @property
    def busy(self) -> bool:
        """Working on it here (an engine thinking), as opposed to waiting on a person."""


class Opponent:
    def __init__(
        self, host: Host, source: MoveSource, side: str = "", kind: Callable[[], str] = str
    ):
        self.host = host
        self.source = source
        self.kind = kind  # the board's kind now ("switch", "polarity"...): how a move is made
        self.side_wanted = side  # "" = the second player of whatever game is played
        self.wanted: Any = None  # its move, waiting to be played on the board
        self.level: str | None = None  # the engine's level (None: no engine plays)
        self._job: tuple[Any, ...] | None = None  # the position its move was asked for

    # --- which side, which position ---
    def side(self) -> str | None:
        """The seat the opponent holds in the game in progress (None: it cannot play it).
        A seat is a player as the game started; a swap may give it another player."""
        session = self.host.session
        players = tuple(session.state.players)
        if not self.source.plays(session) or len(players) != 2:  # plays() says why not
            return None
        if self.side_wanted in players:
            return self.side_wanted
        return players[1]

    def _position(self) -> tuple[Any, ...]:
        s = self.host.session
        return (s.game_id, len(s.played))

    def playing(self) -> str | None:
        """The player the opponent's seat plays now (a swap changes it)."""
        side = self.side()
        return None if side is None else self.host.session.state.player_of(side)

    def to_move(self) -> bool:
        state = self.host.session.state
        playing = self.playing()
        return playing is not None and not state.is_over() and state.turn == playing

    # --- after every verdict and event (the daemon's thread) ---
    def update(self) -> None:
        """Ask for its move when it is its turn; forget a question the game left behind."""
        self.source.follow()
        if not self.to_move():
            if self._job is not None:
                self.source.cancel()
            self.wanted, self._job = None, None
            return
        position = self._position()
        if self._job == position:
            return  # asked already: coming, or its move is waiting to be made
        self._job, self.wanted = position, None
        self.source.ask(self._ready)

    def _ready(self, move: Any) -> None:
        if not self.to_move() or self._job != self._position():
            return  # the game moved on meanwhile
        self.wanted = move
        how = f"{self._verb()} it" if move.cells else "press confirm"  # Binary's "end"
        told = f"{self.source.whose} move: {move.name}: {how}"
        self.host.tell(Verdict(pending=Pending(move.cells, told), say=told, lasting=True))

    def _verb(self) -> str:
        kind = self.kind()
        return "press" if kind == "switch" else ("turn" if kind == "polarity" else "place")

    @property
    def thinking(self) -> bool:
        return self._job is not None and self.wanted is None and self.to_move() and self.source.busy

    # --- the referee asks before it plays a move on the board ---
    def gate(self, move: Any) -> Refusal | None:
        """Refuse anything but the opponent's own move while it is its turn, and a move of
        the opponent's player entered here while both players choose at once (a remote
        board's setup or claim is made at that board)."""
        if not self.to_move():
            playing = self.playing()
            state = self.host.session.state
            if playing is not None and playing in state.to_act and state.actor(move) == playing:
                return Refusal(self.source.moved, f"{playing} is played by {self.source.by}")
            return None
        if self.wanted is None:
            return self.source.unknown_move
        if move != self.wanted:
            name = self.wanted.name
            how = f"{self._verb()} {name}" if self.wanted.cells else f"press confirm ({name})"
            return Refusal(self.source.moved, f"{how} for {self.source.whose} move")
        return None


class EngineSource:
    """The companion's engine: a search in its own thread, at ``level``."""

    whose = "my"
    by = "the companion"
    unknown_move = Refusal("engine-thinking", "wait: I am thinking")
    moved = "engine-move"

    def __init__(self, host: Host, level: str):
        self.host = host
        self.level = level
        self.search = BackgroundSearch(host)

    def plays(self, session: Session) -> bool:
        return session.spec.engine() is not None

    def ask(self, deliver: Deliver) -> None:
        def ready(state: Any, result: Result | None) -> None:
            move = None if result is None else result.move
            if move is None:
                move = state.forced_move()
                if move is None:
                    return
            deliver(move)

        self.search.start(self.level, ready, engine_seconds(self.host.session))

    def cancel(self) -> None:
        self.search.cancel()

    def follow(self) -> None:
        return None

    @property
    def busy(self) -> bool:
        return True  # between the question and its answer, it is thinking


class EngineOpponent(Opponent):
    """The companion plays one side at ``level``."""

    def __init__(self, host: Host, level: str, side: str = "", kind: Callable[[], str] = str):
        self.engine = EngineSource(host, level)
        super().__init__(host, self.engine, side, kind)
        self.level = level

    @property
    def search(self) -> BackgroundSearch:
        """The engine's search (tests hold it back to press while it thinks)."""
        return self.engine.search
