"""The game clock of a remote game (docs/club.md, "Remote play"): one clock, kept on both
boards.

The board where a move is made stamps its time: its clock switches as the move is made
there, and the move goes to the peer with the clock as it stands then (``stamp``). The peer
takes that clock as the message arrives (``Session.adopt_clock``, marked ``ahead``: the
move, when the player there makes it on the board, switches nothing), so the player who is
to move there is charged from the moment the move could be seen, and both boards show the
same times, but for the broker's delay. What changes the clock without a move (a pause, a
resume, time added, the pause of a restart) is sent as it happens (``follow``), and once on
every (re)connection; the board that is behind by the peer's last move takes the peer's
clock, never the other way round. A player's flag falls on their own board (a board cut
off from the broker runs the clock as it last knew it: the player at the other board may
have moved in time there); it is sent, and ends the game on the other board too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.timing.on_time import on_time

if TYPE_CHECKING:
    from companion.referee.session import Session
    from companion.timing.clock import Clock

Send = Callable[[dict[str, Any]], None]
MAX_LATE = 2.0  # seconds: a message's time on the way, counted when the boards' clocks agree


def clock_key(snapshot: dict[str, Any]) -> tuple[Any, ...]:
    """What two boards must agree on (the running turn's use apart): who runs, paused or
    not, each player's time at the start of the turn."""
    left = snapshot.get("left")
    times = (
        tuple(sorted((str(p), round(float(v), 2)) for p, v in left.items()))
        if isinstance(left, dict)
        else ()
    )
    return (snapshot.get("running"), bool(snapshot.get("paused")), times)


def _arrived(snap: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """``snap`` as it is now, when it came: a running turn has used its time on the way too
    (the message's ``sent``, by the sender's wall clock; ignored beyond ``MAX_LATE``: the
    boards' clocks disagree)."""
    try:
        late = time.time() - float(message.get("sent", 0.0))
        used = float(snap.get("used", 0.0))
    except (TypeError, ValueError):
        return snap
    if snap.get("running") is None or snap.get("paused") or not 0.0 < late <= MAX_LATE:
        return snap
    return {**snap, "used": used + late}


def clock_now(session: Session) -> dict[str, Any] | None:
    """The game's clock as it stands now (None: the game has none)."""
    clock: Clock | None = session.clock
    return None if clock is None else clock.snapshot(session.timer())


class RemoteClock:
    """This board's side of the remote game's clock; ``send`` publishes to the peer (the
    sender's identity added)."""

    def __init__(self, send: Send):
        self.send = send
        self.known: tuple[Any, ...] | None = None  # (game id, ply, clock_key) both know
        self.flag_sent: int | None = None  # the game whose flag was sent
        self.flag_heard: tuple[Any, ...] | None = None  # (game id, player) the peer flagged

    # --- what this board sends ---
    def stamp(self, session: Session, ply: int) -> dict[str, Any] | None:
        """The clock to send with this board's move at ``ply``: as it is now when the move
        is the last one (the peer's player charged from now on), else as it was after it."""
        if session.clock is None:
            return None
        if ply == len(session.played) - 1:
            return clock_now(session)
        return session.played[ply].clock

    def follow(self, session: Session, again: bool) -> None:
        """After every event: a change of the clock that no move made is sent to the peer
        (``again``: all of it, on a new game or a (re)connection); a flag that fell here
        is sent once."""
        snap = clock_now(session)
        if snap is None:
            return
        if session.state.is_over():
            self._flag(session)
            return
        ply = len(session.played)
        now = (session.game_id, ply, clock_key(snap))
        known = self.known
        moved = known is None or known[:2] != now[:2]  # a move's stamp travels with it
        if again or (not moved and known is not None and known[2] != now[2]):
            self.send({"kind": "clock", "ply": ply, "clock": snap})
        self.known = now

    def _flag(self, session: Session) -> None:
        ended = on_time(session.state)
        flagged = ended.detail.get("on_time") if ended is not None else None
        if flagged is None or self.flag_sent == session.game_id:
            return
        self.flag_sent = session.game_id
        self.send({"kind": "flag", "ply": len(session.played), "player": flagged})

    # --- what the peer sent ---
    def heard_move(self, session: Session, message: dict[str, Any]) -> None:
        """The peer's next move has come, with its clock: taken now, ahead of the move (unless
        the peer's clock of after it came first: a message sent later)."""
        snap = message.get("clock")
        if session.clock is not None and session.clock.ahead:
            return
        if isinstance(snap, dict) and session.adopt_clock(_arrived(snap, message), ahead=True):
            self._known(session)

    def heard_clock(self, session: Session, message: dict[str, Any], theirs_last: bool) -> None:
        """The peer's clock changed without a move (or it came back): taken when the peer
        is where this board is or one move ahead (its clock holding the switch of a move
        this board has not made yet counts as that move). The same clock but for what the
        running turn has used is taken from the board whose move began the turn
        (``theirs_last``: the peer's, as after the broker was gone)."""
        snap = message.get("clock")
        if not isinstance(snap, dict) or session.clock is None or session.state.is_over():
            return
        ply = int(message["ply"]) + (1 if snap.get("ahead") is True else 0)
        here = len(session.played) + (1 if session.clock.ahead else 0)
        mine = clock_now(session)
        if ply < here or ply > len(session.played) + 1 or mine is None:
            return  # this board is ahead: the peer takes this board's clock
        if clock_key(snap) == clock_key(mine) and ply == here and not theirs_last:
            return  # the same clock: this board began the running turn, its use is right
        if session.adopt_clock(_arrived(snap, message), ahead=ply > len(session.played)):
            self._known(session)

    def heard_flag(self, session: Session, message: dict[str, Any]) -> None:
        """The peer's flag fell: the player's time is gone here too (the clock's keeper ends
        the game on time as the table is drawn next)."""
        clock, player = session.clock, message.get("player")
        if clock is None or session.state.is_over() or clock.running != player:
            return
        now = session.timer()
        clock.add(player, -max(0.0, clock.left(player, now)))
        self.flag_sent = session.game_id  # the peer knows
        self.flag_heard = (session.game_id, player)

    def heard_flag_of(self, session: Session, player: str | None) -> bool:
        """Did the peer say ``player``'s flag fell in this game?"""
        return self.flag_heard == (session.game_id, player)

    def _known(self, session: Session) -> None:
        snap = clock_now(session)
        if snap is not None:
            self.known = (session.game_id, len(session.played), clock_key(snap))
