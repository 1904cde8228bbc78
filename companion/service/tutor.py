"""The tutor during play (``--tutor``, ``[game] tutor``, or a seat's switch on its player's
page; docs/review.md): before a move the engine judges a blunder is played, the table is told
why (the OLED, the pages, the voice, as any refusal) and the move is held; the same move
again (the square pressed again, the confirm button, the page's "play it anyway") plays it,
another move clears the warning. ``--tutor`` is on for every seat; a page's switch turns it
on or off for its own seat only.

The judgement (``engines/tutor.py``: one search for every move of the position) runs in a
thread of its own at a lower priority, started as soon as a person is to move; a press never
waits for it: a move made before it is ready is played as it would be without a tutor. It
judges only for the people at this board: never while the engine opponent is to move, never
in a remote game (refused at start) or a club event's game (said once, then off)."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable
from typing import Any, Protocol

from companion import PROGRAM
from companion.games.base import Refusal
from companion.referee.session import Session
from companion.referee.verdict import Verdict

log = logging.getLogger(PROGRAM)

HELD = "tutor-blunder"  # the refusal's code: a move held until confirmed
NICE = 10  # the judging thread's niceness: the referee's thread goes first

Judge = Callable[[Any], dict[Any, Any]]  # state -> {move: Caution} (engines.tutor.cautions)


class TutorHost(Protocol):
    """What the tutor uses of the daemon."""

    journal: Any  # a club event's games are known by the pairing kept in its meta table

    @property
    def session(self) -> Session: ...

    def post_call(self, fn: Callable[[], None], render: bool = True) -> None: ...

    def say(self, text: str, lasting: bool = False, kind: str = "news") -> None: ...


class Tutor:
    """``judge`` is ``engines.tutor.cautions`` unless a test gives another (one it can hold
    back); ``engine_to_move`` says when the companion's opponent is to move (no judgement
    then: it would be for the engine's benefit, or wasted)."""

    def __init__(
        self,
        host: TutorHost,
        engine_to_move: Callable[[], bool] = lambda: False,
        judge: Judge | None = None,
        seats: set[str] | None = None,
    ):
        self.host = host
        self.engine_to_move = engine_to_move
        self.judge = judge
        # the seats it judges for (None: every seat, ``--tutor``); a page's switch changes
        # its own seat's, for the game on the board (a new game starts again from ``start``)
        self.start: frozenset[str] | None = None if seats is None else frozenset(seats)
        self.seats: set[str] | None = None if seats is None else set(seats)
        self.judged: Any = None  # the state the cautions are of
        self.cautions: dict[Any, Any] = {}
        self.held: Any = None  # the move held in ``judged``, played when made again
        self.asked: Any = None  # the state being judged (None: no judgement running)
        self._serial = 0
        self.thread: threading.Thread | None = None  # the last judgement's (tests wait for it)
        self._off: dict[int | None, bool] = {}  # game id -> a club event's game (no tutor)

    # --- after every event (the loop's thread) ---
    def update(self) -> None:
        """Judge the position when a person is to move in it and it is not judged yet."""
        state = self.host.session.state
        if state is self.judged or state is self.asked:
            return
        self.cancel()
        if self.applies():
            self._start(state)

    def applies(self) -> bool:
        session = self.host.session
        state = session.state
        if state.is_over() or session.spec.engine() is None or self.engine_to_move():
            return False
        if not self._for_mover(state):
            return False
        return not self._event_game(session.game_id)

    def _for_mover(self, state: Any) -> bool:
        """Is a seat it judges for to move? (A seat is the page's: ``player_of`` says which
        player it holds now.)"""
        if self.seats is None:
            return True
        tutored = {state.player_of(seat) for seat in self.seats}
        return bool(tutored & set(state.to_act))

    def on_for(self, seat: str) -> bool:
        """Does it judge for ``seat``?"""
        return self.seats is None or seat in self.seats

    def switch(self, seat: str, on: bool, seats: tuple[str, ...]) -> None:
        """A page's switch: on or off for ``seat`` alone (``seats``: every seat of the game,
        the others keep theirs); the position is judged again for the seats on now."""
        if self.seats is None:
            if on:
                return
            self.seats = set(seats)
        if on:
            self.seats.add(seat)
        else:
            self.seats.discard(seat)
        self.cancel()

    def new_game(self) -> None:
        """Another game on the board: the seats as at the start (``--tutor``: every one)."""
        self.seats = None if self.start is None else set(self.start)
        self.cancel()

    def refusal_for(self, game_id: int | None, remote: bool) -> str | None:
        """Why a page may not turn it on (one line), or None: with a remote opponent or in a
        club event's game, as ``--tutor`` is refused, and in a game no engine judges."""
        from companion.engines.tutor import refusal

        session = self.host.session
        if session.spec.engine() is None:
            return f"no tutor for {session.spec.heading()}: no engine judges its moves"
        if remote:
            return refusal(remote=True, rated=False)
        if self._event_game(game_id):
            return refusal(remote=False, rated=True)
        if session.state.is_over():
            return "no tutor: the game is over"
        return None

    def _event_game(self, game_id: int | None) -> bool:
        """Is the game a club event's (a pairing started it)? Said once when it is."""
        if game_id not in self._off:
            from companion.club.board_pairings import pairing_of
            from companion.engines.tutor import refusal

            try:
                rated = game_id is not None and pairing_of(self.host.journal, game_id) is not None
            except Exception as e:  # a journal that cannot be read: no judgement
                log.warning("tutor: %s", e)
                rated = True
            self._off[game_id] = rated
            if rated:
                self.host.say(refusal(remote=False, rated=True), kind="warning")
        return self._off[game_id]

    def cancel(self) -> None:
        """Forget the judgement in progress and the one made (the game moved on)."""
        self._serial += 1
        self.asked = self.judged = self.held = None
        self.cautions = {}

    @property
    def busy(self) -> bool:
        return self.asked is not None

    def _start(self, state: Any) -> None:
        if self.judge is None:
            from companion.engines.tutor import cautions

            self.judge = cautions
        judge, serial = self.judge, self._serial
        self.asked = state

        def think() -> None:
            with contextlib.suppress(OSError, AttributeError):  # a press goes first
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
            try:
                found: dict[Any, Any] | None = judge(state)
            except Exception:  # an engine fault must never stop the referee
                log.exception("tutor: the judgement failed")
                found = None
            self.host.post_call(lambda: self._answered(serial, state, found), render=False)

        self.thread = threading.Thread(target=think, name="tutor", daemon=True)
        self.thread.start()

    def _answered(self, serial: int, state: Any, found: dict[Any, Any] | None) -> None:
        if serial != self._serial:
            return  # cancelled, or the game moved on
        self.asked = None
        if state is not self.host.session.state:
            return
        self.judged, self.cautions = state, found or {}

    # --- the referee asks before it plays a move ---
    def gate(self, move: Any) -> Refusal | None:
        """Hold a move judged a blunder, once: the same move again is played; any other
        clears the warning. Not judged yet: played."""
        if self.host.session.state is not self.judged:
            return None
        caution = self.cautions.get(move)
        if caution is None or self.held == move:
            self.held = None
            return None
        self.held = move
        return Refusal(HELD, f"{caution.line}; again: play it", confirm=move.name)

    def held_move(self) -> Any:
        """The move held now (the confirm button plays it), or None."""
        return self.held if self.host.session.state is self.judged else None

    def page_note(self, verdict: Verdict) -> Verdict:
        """A held move's verdict with a line for the mover's page and its button that plays
        the move anyway."""
        refusal = verdict.refusal
        if refusal is None or refusal.code != HELD or verdict.page is not None:
            return verdict
        state = self.host.session.state
        actor = state.actor(self.held) if self.held is not None else None
        page = state.page_of(actor or state.turn) if (actor or state.turn) else None
        if page is None:
            return verdict
        action = ((refusal.confirm, f"play {refusal.confirm} anyway"),)
        from dataclasses import replace

        return replace(verdict, page=(page, refusal.reason, action))
