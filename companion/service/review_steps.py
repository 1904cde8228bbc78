"""Stepping through a finished game's review on the board (docs/review.md): chosen in the
menu once the game on the board is over, the review runs in a process of its own at a lower
priority (``views/web/reviews.py``, as the table page's), its progress on the OLED; then the
buttons step through it: menu the next move, undo the one before, confirm back to the game.
Each step shows the position the move was played in with the move lit, at an inaccuracy or
worse the better move in another colour, and the OLED says the label and the reason."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from companion import PROGRAM
from companion.referee.session import Session
from companion.sensing.debounce import Scheduler
from companion.views.presenter import Notices, ReviewStep

log = logging.getLogger(PROGRAM)

POLL_SECONDS = 0.2  # how often the review's progress is looked at while it runs
EXPLAINED = ("inaccuracy", "mistake", "blunder")  # the labels whose better move is shown
BUTTONS = "menu: next, undo: back, confirm: done"


class StepsHost(Protocol):
    notices: Notices

    @property
    def session(self) -> Session: ...

    @property
    def loop(self) -> Scheduler: ...

    def say(self, text: str, lasting: bool = False, kind: str = "news") -> None: ...

    def render(self) -> None: ...


class ReviewSteps:
    """``reviews`` is a ``views.web.reviews.Reviews`` (made when first used unless given: a
    test may give one whose ``run`` is the review itself, in its thread)."""

    def __init__(self, host: StepsHost, reviews: Any = None):
        self.host = host
        self.reviews = reviews
        self.running: tuple[int, str, dict[str, Any], list[str]] | None = None
        self.moves: list[dict[str, Any]] = []
        self.labels: dict[str, str] = {}
        self.states: list[Any] = []  # the position each move (by its ply) was played in
        self.index: int | None = None  # the move shown (None: not stepping)
        self._timer: Any = None
        self._serial = 0  # the game ids of the reviews asked (``Reviews`` keys them)

    @property
    def active(self) -> bool:
        return self.running is not None or self.index is not None

    @property
    def busy(self) -> bool:
        return self.running is not None

    def offered(self) -> bool:
        """Is there a finished game on the board the engine (or the game's own rules,
        ``review()``) can review?"""
        session = self.host.session
        spec = session.spec
        reviewed = spec.engine() is not None or spec.review() is not None
        return session.state.is_over() and reviewed and bool(session.played)

    def start(self) -> None:
        """Review the game on the board (over) and step through it once done."""
        session = self.host.session
        if not self.offered():
            self.host.say("review: only a finished game that can be reviewed")
            return
        if self.reviews is None:
            from companion.views.web.reviews import Reviews

            self.reviews = Reviews()
        names = [p.name for p in session.played]
        self._serial -= 1  # an id of its own (the journal's may be none): never one of a page
        key = session.game_id if session.game_id is not None else self._serial
        self.running = (key, session.game, dict(session.options), names)
        self.states = list(session.states[: len(names)])
        self._ask(start=True)

    def _ask(self, start: bool = False) -> None:
        self._timer = None
        if self.running is None:
            return
        key, game, options, names = self.running
        answer = self.reviews.ask(key, game, options, names, start=start)
        state = answer.get("state")
        if state == "running" or (state == "idle" and start):
            done, total = answer.get("done", 0), answer.get("total", len(names))
            self.host.say(f"reviewing {done}/{total}; confirm: stop", lasting=True)
            self._timer = self.host.loop.call_later(POLL_SECONDS, self._polled)
            return
        self.running = None
        if state != "done":
            self.host.say(f"review: {answer.get('reason', 'refused')}", kind="refused")
            return
        review = answer["review"]
        self.moves, self.labels = list(review["moves"]), dict(review.get("labels", {}))
        # a game's own review steps through its choices only (Binøme's claims, Latent
        # Binaries' guesses): each move by its ply
        if not self.moves or any(not 1 <= m["ply"] <= len(self.states) for m in self.moves):
            self.host.say("review: no moves to step through")
            return
        self.index = 0
        self.show()

    def _polled(self) -> None:
        self._ask()
        self.host.render()

    def show(self) -> None:
        """The move at ``index`` on the board and the OLED."""
        if self.index is None:
            self.host.notices.review = None
            return
        m = self.moves[self.index]
        state = self.states[m["ply"] - 1]
        who = self.labels.get(m["player"], m["player"])
        played = _cells(state, m["move"])
        better = _cells(state, m["better"]) if m["label"] in EXPLAINED and m["better"] else ()
        reason = m["reason"] if m["label"] in EXPLAINED else ""
        shown = ReviewStep(
            ply=self.index + 1,  # the step (a game's own review steps its choices only)
            total=len(self.moves),
            move=f"{m['ply']}. {who} {m['move']}",
            label=m["label"],
            reason=reason,
            played=played,
            better=better,
            buttons=BUTTONS,
        )
        self.host.notices.review = shown
        self.host.say(shown.said, lasting=True)  # the voice says it, when it speaks

    def state(self) -> Any:
        """The position the table shows while stepping (None: the game's own)."""
        if self.index is None:
            return None
        return self.states[self.moves[self.index]["ply"] - 1]

    def button(self, name: str, long: bool = False) -> None:
        """While stepping: menu next, undo back, confirm done; while it runs, confirm or undo
        stops it (the review goes on in its process, its answer kept for the page)."""
        if self.index is None:
            if name in ("confirm", "undo"):
                self.stop()
                self.host.say("review stopped")
            return
        if name == "menu" and not long:
            self.index = min(self.index + 1, len(self.moves) - 1)
        elif name == "undo":
            self.index = max(self.index - 1, 0)
        elif name == "confirm":
            self.stop()
            self.host.say("review closed")
            return
        self.show()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.running = None
        self.index = None
        self.host.notices.review = None


def _cells(state: Any, name: str) -> tuple[int, ...]:
    try:
        return tuple(state.parse_move(name).cells)
    except ValueError:
        return ()
