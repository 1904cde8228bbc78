"""The companion as an opponent: it plays one side of a two-player board game.

It thinks in its own thread (the referee keeps answering the board), then lights the squares
of its move and says it; a person makes the move on the board (presses it, or turns or places
the piece on a sensor board) and anything else is refused ("press e5 for my move").
"""

from __future__ import annotations

import logging
import re
import threading
import time
from typing import TYPE_CHECKING, Any

from companion.games.base import Refusal

if TYPE_CHECKING:
    from companion.service.daemon import Daemon

log = logging.getLogger("binaryon")

THINK_SECONDS = 1.0
SHOW_AFTER = 0.5  # a search longer than this shows "thinking" with a progress bar


def parse_opponent(text: str) -> str | None:
    """'engine' or 'engine:LEVEL' -> the level; '' -> None; ValueError with one line."""
    from companion.engines.search import LEVELS

    text = text.strip()
    if not text:
        return None
    kind, _, level = text.partition(":")
    if kind != "engine":
        raise ValueError(f"opponent {text!r}: use engine or engine:LEVEL")
    level = level or "default"
    if level not in LEVELS:
        raise ValueError(f"opponent {text!r}: levels are {', '.join(LEVELS)}")
    return level


class EngineOpponent:
    def __init__(self, daemon: Daemon, level: str, side: str = ""):
        self.daemon = daemon
        self.level = level
        self.side_wanted = side  # "" = the second player of whatever game is played
        self.wanted: Any = None  # the move it made, waiting to be played on the board
        self._job: tuple[Any, ...] | None = None  # the position it is thinking about
        self._started = 0.0
        self._timer = None

    # --- which side, which position ---
    def side(self) -> str | None:
        """The player the companion plays in the game in progress (None: it cannot play it)."""
        from companion.engines.adapters import ENGINE_GAMES

        session = self.daemon.session
        players = tuple(session.state.players)
        if session.game not in ENGINE_GAMES or len(players) != 2:
            return None
        if self.side_wanted in players:
            return self.side_wanted
        return players[1]

    def _position(self) -> tuple[Any, ...]:
        s = self.daemon.session
        return (s.game_id, len(s.played))

    def to_move(self) -> bool:
        state = self.daemon.session.state
        side = self.side()
        return side is not None and not state.is_over() and state.turn == side

    # --- after every event (the daemon's thread) ---
    def update(self) -> None:
        if not self.to_move():
            self.wanted, self._job = None, None
            return
        position = self._position()
        if self._job == position:
            return  # thinking about it, or its move is waiting to be made
        self._job, self.wanted = position, None
        state = self.daemon.session.state
        self._started = time.monotonic()
        self._timer = self.daemon.loop.call_later(SHOW_AFTER, self._progress)
        threading.Thread(
            target=self._think, args=(state, position), name="engine", daemon=True
        ).start()

    def _think(self, state: Any, position: tuple[Any, ...]) -> None:
        from companion.engines.adapters import adapter_for
        from companion.engines.search import choose

        try:
            result = choose(adapter_for(state.game), state, self.level, THINK_SECONDS)
            move = result.move
        except Exception:  # an engine fault must never stop the referee
            log.exception("engine failed")
            move = None
        self.daemon.post_call(lambda: self._ready(position, move))

    def _ready(self, position: tuple[Any, ...], move: Any) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if position != self._position() or self._job != position:
            return  # the game moved on meanwhile (an undo, a new game)
        state = self.daemon.session.state
        if move is None:
            move = state.forced_move()
            if move is None:
                return
        self.wanted = move
        name = state.move_name(move)
        cells = self._cells(name)
        kind = self.daemon.board.kind
        how = "press" if kind == "switch" else ("turn" if kind == "polarity" else "place")
        self.daemon.feedback.entering(cells, f"my move: {name}: {how} it")
        self.daemon.set_message(f"my move: {name}: {how} it", lasting=True)

    def _progress(self) -> None:
        """'thinking' with a bar that fills over the time it may take."""
        self._timer = None
        if self.wanted is not None or self._job != self._position():
            return
        share = min(1.0, (time.monotonic() - self._started) / THINK_SECONDS)
        filled = int(share * 10)
        self.daemon.set_message("thinking " + "#" * filled + "." * (10 - filled), lasting=True)
        self._timer = self.daemon.loop.call_later(0.1, self._progress)
        self.daemon.render()

    def _cells(self, name: str) -> tuple[int, ...]:
        layout = self.daemon.session.spec.layout(self.daemon.session.options)
        if layout is None:
            return ()
        from companion.core.squares import FILES

        names = {
            f"{FILES[c % layout.files]}{c // layout.files + 1}": c for c in range(layout.cells)
        }
        return tuple(names[w] for w in re.split(r"[^a-z0-9]+", name.lower()) if w in names)

    @property
    def thinking(self) -> bool:
        return self._job is not None and self.wanted is None and self.to_move()

    # --- the referee asks before it plays a move on the board ---
    def gate(self, move: Any) -> Refusal | None:
        """Refuse anything but the companion's own move while it is its turn."""
        if not self.to_move():
            return None
        state = self.daemon.session.state
        if self.wanted is None:
            return Refusal("engine-thinking", "wait: I am thinking")
        if move != self.wanted:
            name = state.move_name(self.wanted)
            kind = self.daemon.board.kind
            verb = "press" if kind == "switch" else ("turn" if kind == "polarity" else "place")
            return Refusal("engine-move", f"{verb} {name} for my move")
        return None
