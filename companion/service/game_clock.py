"""The daemon's side of the game clock: its timers, its buttons and what the table is told.

The session keeps the clock and switches it when a turn ends (``Session._clock_after``);
here, after every event, the loop gets two timers while a clock runs:

- the tick, at each change of the running player's time as shown (its whole seconds, its
  tenths under 10 s): the clock's state journaled once a second (one small row updated,
  ``Journal.clock_tick``) and the OLED and LEDs redrawn, only when the shown time changed
  (the OLED's tenths and the LEDs' pulse under 10 s, drawn from the clock's own time; the
  pages are not told: they count down by themselves from the clock's timestamp,
  ``ClockFace.api``);
- the flag, at the running player's ``due`` time: the game ends on time
  (``Session.flag_fall``), as the game's rules page says.

Buttons (``confirm``, long ``undo``) pause, resume and add time: see ``Controls``.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any

from companion import PROGRAM
from companion.referee.referee import result_line
from companion.timing.clock import clock_text

if TYPE_CHECKING:
    from companion.referee.session import Session

log = logging.getLogger(PROGRAM)

ADD_SECONDS = 10.0  # what each long press of undo gives the player on move, while paused


class ClockKeeper:
    def __init__(self, host: Any):
        self.host = host  # the daemon: its loop, session, render and say
        self._tick: Any = None
        self._flag: Any = None
        self._shown: tuple[str, ...] | None = None  # the times drawn last, as shown
        self._journaled: int | None = None  # the running player's whole seconds written last
        self._step: Any = None  # the step timer (a game that times its steps: Binøme)
        self._step_key: tuple[Any, ...] | None = None  # the step it times
        self._step_due = 0.0  # when that step's time runs out (the loop's clock)

    @property
    def session(self) -> Session:
        return self.host.session

    def shown(self) -> tuple[str, ...] | None:
        """The clock's times as the table shows them (``clock_text``: whole seconds, tenths
        under 10 s; None: no clock)."""
        clock = self.session.clock
        if clock is None:
            return None
        now = self.host.loop.clock()
        return tuple(clock_text(v) for v in clock.times(now).values())

    def drawn(self) -> None:
        """The table was drawn: remember the seconds it showed."""
        self._shown = self.shown()

    def update(self) -> None:
        """After every event: the flag looked at, the timers set for the clock as it is."""
        self._cancel()
        self._update_step()
        session = self.session
        clock = session.clock
        if clock is None or session.state.is_over():
            return
        now = self.host.loop.clock()
        if clock.flagged(now) is not None:
            self._flag_fell()
            return
        due = clock.due(now)
        if due is None:  # paused, or nothing runs
            return
        self._flag = self.host.loop.call_later(due, self._on_flag)
        left = clock.left(clock.running, now) if clock.running else 0.0
        unit = 0.1 if left <= 10 else 1.0  # tenths are shown under 10 s
        to_next = left - math.floor(left / unit) * unit  # the next change of the time shown
        self._tick = self.host.loop.call_later(to_next if to_next > 0.001 else unit, self._on_tick)

    def _cancel(self) -> None:
        for timer in (self._tick, self._flag):
            if timer is not None:
                timer.cancel()
        self._tick = self._flag = None

    def _on_tick(self) -> None:
        self._tick = None
        clock = self.session.clock
        if clock is not None and clock.running is not None and not clock.paused:
            whole = math.ceil(clock.left(clock.running, self.host.loop.clock()) - 1e-9)
            if whole != self._journaled:  # once a second, however often it is drawn
                self._journaled = whole
                self.session.clock_tick()
        over = self.session.state.is_over()
        self.update()  # the flag looked at, the next tick set
        if not over and self.session.state.is_over():  # the flag fell: everyone is told
            self.host.render()
        elif self.shown() != self._shown:  # the OLED and LEDs; the pages count by themselves
            self.host.render(pages=False)  # draws, then calls ``drawn``

    def _on_flag(self) -> None:
        self._flag = None
        self.update()  # the flag is looked at there (a clock added to meanwhile runs on)
        if self.session.state.is_over():
            self.host.render()

    def _flag_fell(self) -> None:
        remote = getattr(self.host, "remote", None)
        if remote is not None:  # a remote game: the flagged player's board says it
            if not remote.may_flag():
                return
            remote.before_flag()  # a move made at the other board and not here yet first
        session = self.session
        flagged = session.flag_fall()
        if flagged is None:
            return
        log.info("game %s: %s's flag fell", session.game_id, flagged)
        if remote is not None:
            remote.follow()  # the other board is told at once
        self.host.say(result_line(session.state), lasting=True)
        self.host.feedback.update_blink()
        if self.host.buzzer is not None:
            self.host.buzzer.refuse()

    # --- a game's per-step timer (Binøme's ``step_seconds``) ---
    def _update_step(self) -> None:
        """A step begins when the players to act change after a referee's step (a roll, a
        card) or when the turn passes to the next claimant: it gets ``step_seconds``. A
        paused clock stops it; it starts again in full when the clock resumes."""
        session = self.session
        seconds = session.spec.clock_rules().step_seconds(session.options)
        state = session.state
        paused = session.clock is not None and session.clock.paused
        if self._step is not None:
            self._step.cancel()
            self._step = None
        if not seconds or state.is_over() or not state.to_act or paused:
            self._step_key = None
            return
        last_referee = max((i for i, p in enumerate(session.played) if p.forced), default=-1)
        key = (session.game_id, last_referee, state.turn)
        now = self.host.loop.clock()
        if key != self._step_key:
            self._step_key, self._step_due = key, now + seconds
        self._step = self.host.loop.call_later(self._step_due - now, self._on_step)

    def step_left(self) -> float | None:
        """Seconds left in the timed step (None: no step is timed)."""
        if self._step_key is None:
            return None
        return max(0.0, self._step_due - self.host.loop.clock())

    def _on_step(self) -> None:
        """The step's time ran out: what the game plays for each player who did not act
        (``ClockRules.timed_out``), as if they had entered it."""
        self._step = None
        session = self.session
        spec, key = session.spec, self._step_key
        late = []
        for player in sorted(session.state.to_act):
            state = session.state
            if state.is_over() or player not in state.to_act:
                continue
            move = spec.clock_rules().timed_out(state, player)
            if move is None:
                continue
            self.host.submit(move.name, player)
            late.append(spec.player_label(player))
        if late:
            log.info("step time up (game %s): %s", session.game_id, ", ".join(late))
            self.host.say(f"time up: {', '.join(late)}")
        if self._step_key == key:  # nothing moved (nothing to play for them): no new step
            self._step_key = None
        self.host.render()

    # --- the buttons ---
    def toggle(self) -> bool:
        """Confirm with a clock: pause a running clock, resume a paused one (said on the
        table). False when the clock has nothing to pause or resume (not started yet)."""
        session = self.session
        clock = session.clock
        if clock is None or session.state.is_over():
            return False
        if clock.paused:
            session.resume_clock()
            self.host.say("clock running")
            return True
        if clock.running is None:
            return False
        session.pause_clock()
        self.host.say("clock paused: confirm resumes, hold undo: +10 s", lasting=True)
        return True

    def add(self, seconds: float = ADD_SECONDS, why: str = "correction") -> bool:
        """A long undo while paused: ``seconds`` more for the player on move (the arbiter's
        correction or the opponent's penalty), journaled as such."""
        session = self.session
        clock = session.clock
        if clock is None or not clock.paused or session.state.is_over():
            return False
        player = clock.running or session.state.turn
        if player is None or not session.add_time(player, seconds, why):
            return False
        label = session.spec.player_label(player)
        left = clock.left(player, self.host.loop.clock())
        self.host.say(f"{label} +{seconds:g} s: {_mm_ss(left)}", lasting=True)
        return True


def _mm_ss(seconds: float) -> str:
    from companion.timing.clock import clock_text

    return clock_text(seconds, tenths=False)
