"""One game in progress: validates moves, journals them, plays forced moves and chance steps,
takes back.

Pure game logic plus the journal; no hardware, no threads. Every accepted move is committed
to the journal before the session's state changes, so what is shown is always what is saved.
A move and the forced passes, chance steps and finish it brings are one journal commit.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion import PROGRAM
from companion.games import get_spec
from companion.games.base import (
    GameSpec,
    GameState,
    IllegalMove,
    Move,
    Outcome,
    Refusal,
    credited,
)
from companion.journal.api import (
    ClockEvent,
    GameClosed,
    Journal,
    JournalError,
    Masked,
    MoveEntry,
    NullJournal,
    SavedGame,
)
from companion.referee import masked_play
from companion.referee.masked_play import LocalSeat
from companion.referee.played import Played, played_move, replayed_move
from companion.timing.clock import Clock, TimeControl
from companion.timing.on_time import ended_on_time, on_time

log = logging.getLogger(PROGRAM)

# a move on a paused clock: the player would think for free (the confirm button resumes it)
CLOCK_PAUSED = Refusal("clock-paused", "clock paused: confirm resumes")


def _notreplayed_move(saved: SavedGame, k: int, error: ValueError) -> str:
    """Why move ``k`` of a saved game does not replay, without its secret: a move that holds
    one is named by its public name, without the reason (which may quote the secret)."""
    entry = saved.entries[k] if k < len(saved.entries) else None
    if entry is not None and entry.public is not None and entry.public != entry.name:
        return f"move {k + 1} {entry.public!r} (a secret move) does not replay"
    return f"move {k + 1} {saved.moves[k]!r} does not replay ({error})"


def carried_options(spec: GameSpec, options: dict[str, Any]) -> dict[str, Any]:
    """The options a new game of the same kind keeps: all but the secret ones (drawn
    afresh: the last game's seed is public once it ended)."""
    return {k: v for k, v in options.items() if k not in spec.secret_options}


@dataclass
class Submitted:
    accepted: bool
    refusal: Refusal | None = None
    played: list[Played] = field(default_factory=list)  # the move, then forced moves

    @property
    def names(self) -> list[str]:
        """Public names of what was played (what the table may be told)."""
        return [p.public for p in self.played]


class Session:
    """One game in progress. With a time control (``time_control``) it keeps the game clock
    (``clock``): the clock switches when a player's move ends their turn (see
    ``_clock_after``), each move is journaled with the clock's snapshot, and ``timer`` (a
    monotonic clock: the daemon's) says what time it is. ``first_move_free``: the casual
    rule (nothing runs until the first move is made, and it earns no increment); False:
    FIDE's (the first player's time runs from the game's start, increments from move 1)."""

    closed_elsewhere = False  # the journal said the game was ended from outside
    clock: Clock | None = None
    time_control: TimeControl | None = None
    first_move_free = True
    timer: Callable[[], float] = staticmethod(time.monotonic)
    # a remote game with secrets (referee/masked_play.py): the seat a new game's board knows
    # alone, set by the daemon; and what this board knows of the game in progress (the
    # journal's row: the seat, the facts the other board told), None: all of it
    local_seat: LocalSeat | None = None
    seat_knowledge: Masked | None = None

    def __init__(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        journal: Journal | None = None,
        players: dict[str, str] | None = None,
        rng: random.Random | None = None,
        time_control: TimeControl | None = None,
        timer: Callable[[], float] | None = None,
        local_seat: LocalSeat | None = None,
        first_move_free: bool = True,
    ):
        self.journal: Journal = journal or NullJournal()
        self.local_seat = local_seat
        self.people = dict(players or {})
        self.rng = rng or random.Random()
        self.drawn: dict[int, str] = {}  # ply -> a chance step's outcome drawn there before
        self.blocked: Played | None = None  # the move that stopped the last undo
        self.time_control = time_control
        self.first_move_free = first_move_free
        if timer is not None:
            self.timer = timer
        self._start(get_spec(game), options or {})

    def _start(self, spec: GameSpec, options: dict[str, Any]) -> None:
        self.spec = spec
        self.options = spec.resolve(options)
        first, self.seat_knowledge = masked_play.first_state(
            spec, self.options, spec.new(**self.options), self.local_seat
        )
        self.states: list[GameState] = [first]
        self.played: list[Played] = []
        self._scan = (0, 0, False)  # undo_floor's work so far: (moves seen, floor, secret)
        self.closed_elsewhere = False
        self.game_id: int | None = None
        self.clock = self._new_clock()
        if self._begin() is None:
            self._save(self._referee_steps())
            if self._run_first():
                self.clock_tick()  # a restart finds the running clock of the start

    def _new_clock(self) -> Clock | None:
        """A fresh clock for the game's players: with the first move free nothing runs
        until the first turn ends, as online clocks have it; else (FIDE) ``_run_first``
        starts it. None: no control, or one that does not suit the game (an hourglass with
        more than two players)."""
        if self.time_control is None:
            return None
        try:
            timed = not self.first_move_free
            return Clock(self.time_control, self.states[0].players, first_move_timed=timed)
        except ValueError as e:  # checked at start for the configured game; another one:
            log.warning("%s is played without a clock: %s", self.spec.name, e)
            return None

    def _run_first(self) -> bool:
        """FIDE's rule: the first player's time runs from the game's start (the clock of a
        game whose first move is free waits for it). True when it started."""
        clock = self.clock
        if clock is None or not clock.first_move_timed or clock.running is not None:
            return False
        to = clock_player(self.state)
        if to is None:  # several choose at once, or the referee's step: nobody's time yet
            return False
        clock.run(to, self.timer())
        return True

    def _begin(self) -> str | None:
        """Record the game's start; on failure the next move tries again (and is refused
        if it still cannot be saved). Returns why it failed, or None."""
        control = self.time_control if self.clock is not None else None  # None: no clock kept
        try:
            self.game_id = self.journal.begin(
                self.spec.name,
                self.options,
                self.seat_names(),
                time_control=control.text() if control is not None else None,
            )
            self._keep_masked()
        except JournalError as e:
            return str(e)
        return None

    def seat_names(self) -> dict[str, str]:
        """Seat -> person's name, for the seats of this game only: who sat where at the
        start, as the journal and records keep it."""
        return {p: name for p, name in self.people.items() if p in self.state.players}

    def players_named(self) -> dict[str, str]:
        """Player id -> the name of the person who plays it now (after a swap in Wythe the
        people have exchanged colours)."""
        state = self.state
        return {state.player_of(seat): name for seat, name in self.seat_names().items()}

    def credited(self, state: GameState, outcome: Outcome) -> Outcome:
        """``outcome`` with who played which player at the end, when a swap moved people."""
        return credited(state, outcome, self.seat_names())

    @classmethod
    def resume(
        cls,
        saved: SavedGame,
        journal: Journal,
        rng: random.Random | None = None,
        timer: Callable[[], float] | None = None,
    ) -> Session:
        """Rebuild a saved game by replaying its moves; journals the forced moves or the
        finish that a crash left out. A game with a clock gets it back as last journaled
        (``_resumed_clock``): paused, the player on move charged up to the last tick."""
        self = cls.__new__(cls)
        if timer is not None:
            self.timer = timer
        self.journal = journal
        self.people = dict(saved.players)
        self.rng = rng or random.Random()
        self.spec = get_spec(saved.game)
        self.drawn = {}
        self.blocked = None
        self._scan = (0, 0, False)
        self.options = self.spec.resolve(saved.options)
        self.seat_knowledge = saved.masked
        if saved.masked is not None:  # a remote game with secrets, as this board knows it
            told = saved.masked.told
            start = self.spec.remote().start(self.spec, self.options, saved.masked.seat, told)
            self.states = [start]
        else:
            self.states = [self.spec.new(**self.options)]
        self.played = []
        self.game_id = saved.game_id
        try:
            for after, move, before in self.spec.steps_from(self.states[0], saved.moves):
                self.states.append(after)
                k = len(self.played)
                entry = saved.entries[k] if k < len(saved.entries) else None
                # a chance step drawn at the other board of a remote game: the referee's
                drawn = saved.masked is not None and entry is not None and entry.player is None
                snap = entry.clock if entry is not None else None
                p = replayed_move(before, move, drawn)
                self.played.append(dataclasses.replace(p, clock=snap))
        except ValueError as e:
            raise ValueError(_notreplayed_move(saved, len(self.played), e)) from None
        self.time_control, self.clock = None, None
        self.first_move_free = True  # unless the clock saved says otherwise
        if saved.time_control:
            try:
                self.time_control = TimeControl.parse(saved.time_control)
                self.clock = self._resumed_clock(saved)
                self.first_move_free = self.clock is None or not self.clock.first_move_timed
            except ValueError as e:  # a damaged clock: the game goes on without one
                log.warning("game %s: its clock is not restored (%s)", saved.game_id, e)
                self.time_control, self.clock = None, None
        if any(p.forced and p.reveals for p in self.played):  # a game of chance
            self.drawn = _drawn_before(journal, saved.game_id)
        with contextlib.suppress(JournalError):  # the next move or start tries again
            self._save(self._referee_steps())
        self._finish_if_over()  # the crash may have come before the finish was journaled
        return self

    def _resumed_clock(self, saved: SavedGame) -> Clock | None:
        """The clock as last journaled at the live moves: the clock row (the last tick or
        clock event) when it is of this position, else the last move's snapshot, else a
        fresh clock. It waits paused when a turn was running: the player on move was
        charged up to the last tick, never the time the companion was off."""
        now = self.timer()
        ply = len(self.played)
        snap: dict[str, Any] | None = None
        if saved.clock is not None and saved.clock.ply == ply:
            snap = saved.clock.state
        elif ply and self.played[-1].clock is not None:
            snap = self.played[-1].clock
        if snap is None:
            return self._new_clock()
        clock = Clock.restore(snap, now)
        if clock.running is not None and not clock.paused and not self.state.is_over():
            clock.pause(now)
            with contextlib.suppress(JournalError):
                event = ClockEvent("pause", ply, why="restart", state=clock.snapshot(now))
                self.journal.clock_event(saved.game_id, event)
        return clock

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def game(self) -> str:
        return self.spec.name

    @property
    def moves(self) -> list[str]:
        """Full names of every move played (what the journal holds)."""
        return [p.name for p in self.played]

    def moves_seen_by(self, viewer: str | None) -> list[str]:
        """The move list as ``viewer`` (None: the table) may see it."""
        if self.state.revealed():
            return self.moves
        return [p.name if viewer is not None and p.player == viewer else p.public
                for p in self.played]  # fmt: skip

    # ------------------------------------------------------------------ playing
    def submit(self, move: Move, player: str | None = None) -> Submitted:
        state = self.state
        move = _as_player(move, player)
        if self.clock is not None and self.clock.paused and not state.is_over():
            return Submitted(False, CLOCK_PAUSED)  # nobody thinks for free on a paused clock
        refusal = state.check(move, player)
        if refusal is not None:
            return Submitted(False, refusal)
        if self.game_id is None and (problem := self._begin()):
            return Submitted(False, Refusal("cannot-save", f"not saved: {problem}"))
        try:
            after = state.play(move, player)
        except IllegalMove as e:  # check() and play() disagree: trust play()
            return Submitted(False, e.refusal)
        try:
            pending = [(played_move(state, move, False, player), after)]
        except ValueError as e:  # a move the game cannot name: refused, never a traceback
            return Submitted(False, Refusal("bad-notation", str(e)))
        try:
            pending += self._referee_steps(after, len(self.played) + 1)
            self._save(pending)
        except GameClosed as e:
            self.closed_elsewhere = True
            return Submitted(False, Refusal("game-closed", str(e)))
        except JournalError as e:
            return Submitted(False, Refusal("cannot-save", f"not saved: {e}"))
        return Submitted(True, None, [p for p, _ in pending])

    def submit_name(self, name: str, player: str | None = None) -> Submitted:
        """A move given in the game's notation (the web page, a typed command)."""
        try:
            move = self.state.parse_move(name)
        except ValueError as e:
            return Submitted(False, Refusal("bad-notation", str(e)))
        return self.submit(move, player)

    def _referee_steps(
        self, state: GameState | None = None, ply: int | None = None
    ) -> list[tuple[Played, GameState]]:
        """The forced moves and chance steps that follow ``state`` (the current one), the
        first of them at ``ply``. A chance step drawn before at the same ply (then taken back
        by agreement) comes out the same: undo and redo never draw a die again."""
        out: list[tuple[Played, GameState]] = []
        state = state or self.state
        ply = len(self.played) if ply is None else ply
        while not state.is_over():
            move = state.forced_move()
            if move is None and (chance := state.chance()) is not None:
                known = self.drawn.get(ply + len(out))
                drawn = known if known in chance.outcomes else self.rng.choice(chance.outcomes)
                move = state.parse_move(drawn)
            if move is None:
                break
            after = state.play(move)
            out.append((played_move(state, move, True), after))
            state = after
        return out

    def _save(self, steps: Sequence[tuple[Played, GameState]]) -> None:
        """Journal ``steps`` (and the finish, if the last one ends the game) as one commit,
        then adopt them. JournalError leaves the session as it was."""
        if not steps or self.game_id is None:
            return
        first = len(self.played)
        final = steps[-1][1]
        outcome = final.outcome() if final.is_over() else None
        if outcome is not None:
            outcome = self.credited(final, outcome)
        clock = self._clock_after(steps)
        if clock is not None:
            snap = clock.snapshot(self.timer())
            steps = [(dataclasses.replace(p, clock=snap), after) for p, after in steps]
        self.journal.commit_turn(self.game_id, first, [p for p, _ in steps], outcome)
        if clock is not None:
            self.clock = clock
        for p, after in steps:
            self.played.append(p)
            self.states.append(after)

    def _clock_after(self, steps: Sequence[tuple[Played, GameState]]) -> Clock | None:
        """The clock after ``steps`` (a copy: the session's changes only once they are
        saved). The clock switches when a player's move ends that player's turn: the state
        after it is another player's turn, several players' (simultaneous choices), the
        referee's or the end. Then the time of ``clock_player`` of the last state runs
        (the first turn's end starts the clock). Forced passes and chance steps are the
        referee's and cost nobody anything; a move that leaves its player on turn (the
        first press of a several-press turn) switches nothing, nor does one whose switch is
        done already (a remote game: the board where the move was made stamped it,
        ``adopt_clock``, before it is made here)."""
        if self.clock is None:
            return None
        clock = copy.deepcopy(self.clock)
        now = self.timer()
        state = self.state
        ended = False
        for p, after in steps:
            if p.player is not None and not p.forced:
                ended = ended or after.is_over() or after.turn != p.player
            state = after
        if ended:
            to = clock_player(state)
            if clock.ahead:  # switched already, where the move was made (adopt_clock)
                clock.ahead = False
                return clock
            if clock.running is None:
                clock.run(to, now)
            else:
                clock.switch(to, now)
        return clock

    # ------------------------------------------------------------------ taking back
    def undo_floor(self) -> int:
        """How many moves must stay: up to the last one whose answer revealed something (a
        guess answered, claims resolved, a chance step drawn, the end of a game with
        secrets). Those can be taken back only by every player's agreement (``agreed``)."""
        seen, floor, secret = self._scan
        if seen > len(self.played):  # only after a takeback, which resets it
            seen, floor, secret = 0, 0, False
        for i in range(seen, len(self.played)):
            p = self.played[i]
            secret = secret or p.public != p.name
            ended = secret and self.states[i + 1].revealed() and not self.states[i].revealed()
            if p.reveals or ended:
                floor = i + 1
        self._scan = (len(self.played), floor, secret)
        return floor

    def _blocked_at(self, target: int, floor: int) -> int:
        """``target``, or ``floor`` when it lies below it (then ``blocked`` names why)."""
        self.blocked = None
        if target < floor:
            self.blocked = self.played[floor - 1]
            return floor
        return target

    def undo(self, count: int = 1) -> list[str]:
        """Take back ``count`` player moves (and the referee's moves around them), never past
        the undo floor. After a flag fall it takes back the flag alone (``take_back_flag``)."""
        if self.take_back_flag():
            return []
        target = self._undo_target(count)
        return self.take_back_to(self._blocked_at(target, self.undo_floor()))

    def agreed_target(self) -> int | None:
        """Where an undo agreed by every player goes (one player move back, past the floor
        if need be), or None when there is nothing to take back."""
        target = self._undo_target(1)
        return target if target < len(self.played) else None

    def _undo_target(self, count: int) -> int:
        target = len(self.played)
        for _ in range(count):
            while target and self.played[target - 1].forced:
                target -= 1
            if target == 0:
                break
            target -= 1
        # moves the referee made right at the start of the game stay
        opening = next((k for k, p in enumerate(self.played) if not p.forced), len(self.played))
        return max(target, opening)

    def undo_round(self) -> list[str]:
        """The long undo: the unconfirmed part of the turn in progress if there is one (e.g. a
        first Binary piece), else a full round: back to the start of the previous turn of the
        player now on turn (two turns with two players, one per player with more)."""
        if self.take_back_flag():
            return []
        n = len(self.played)
        turn = self.state.turn
        start = n if turn is None else self._turn_start(n, turn)
        floor = self.undo_floor()
        if start < n:
            return self.take_back_to(self._blocked_at(start, floor))
        # walk back over whole turns until one of the player now on turn has been taken back
        target = n
        seen_turns = 0
        while target:
            while target and self.played[target - 1].forced:
                target -= 1
            if target == 0:
                break
            player = self.played[target - 1].player
            target = self._turn_start(target, player)
            seen_turns += 1
            if (turn is not None and player == turn) or seen_turns >= len(self.state.players):
                break
        return self.take_back_to(self._blocked_at(target, floor))

    def _turn_start(self, end: int, player: str | None) -> int:
        """Where the run of ``player``'s own (not forced) moves that ends at ply ``end``
        starts."""
        while end and not self.played[end - 1].forced and self.played[end - 1].player == player:
            end -= 1
        return end

    def take_back_to(self, ply: int, agreed: bool = False) -> list[str]:
        """Go back to the position after ``ply`` moves; the journal records the takeback
        first (JournalError leaves the game as it was). Returns the public names taken back.
        Below the undo floor only when every player ``agreed``; the chance steps taken back
        are remembered, so the same ones come again."""
        if not 0 <= ply < len(self.played):
            return []
        if not agreed and ply < self.undo_floor():
            return []
        self.journal.takeback(self.game_id, ply)
        for i in range(ply, len(self.played)):
            if self.played[i].forced and self.states[i].chance() is not None:
                self.drawn.setdefault(i, self.played[i].name)
        taken = [p.public for p in self.played[ply:]]
        flag_taken_back = on_time(self.state) is not None
        self._scan = (0, 0, False)
        del self.states[ply + 1 :]
        del self.played[ply:]
        self._clock_back()
        clock = self.clock
        if flag_taken_back and clock is not None and clock.running and not clock.paused:
            self.pause_clock("flag taken back")  # the arbiter's correction: they resume it
        return taken

    def take_back_flag(self) -> bool:
        """The arbiter's correction of a flag fall: the game goes on from the position as it
        stood, no move taken back (the flagged player made none), the clock as it was right
        after the last move, paused until confirm resumes it (a long undo adds time first).
        The journal reopens the game first (JournalError leaves it over). False when no
        flag fell."""
        if on_time(self.state) is None or self.game_id is None:
            return False
        self.journal.takeback(self.game_id, len(self.played))
        self.states[-1] = self.states[-1].as_it_stood()
        self._clock_back()
        self.pause_clock("flag taken back")
        return True

    def _clock_back(self) -> None:
        """After a takeback: the clock as it was right after the last move kept (its
        snapshot; a fresh clock at the start), paused or not as it is now; journaled."""
        if self.clock is None:
            return
        now = self.timer()
        paused = self.clock.paused
        snap = self.played[-1].clock if self.played else None
        if snap:
            self.clock = Clock.restore(snap, now, paused=paused)
        else:  # back to the start: a fresh clock, FIDE's running again
            self.clock = self._new_clock()
            self._run_first()
        if self.clock is not None and self.clock.paused != paused:
            (self.clock.pause if paused else self.clock.resume)(now)
        self.clock_tick()

    # ------------------------------------------------------------------ the clock
    def clock_tick(self) -> None:
        """Journal the clock's state now (the cheap write made about once a second while
        it runs); a failure waits for the next tick."""
        if self.clock is None or self.game_id is None:
            return
        try:
            self.journal.clock_tick(
                self.game_id, len(self.played), self.clock.snapshot(self.timer())
            )
        except JournalError as e:
            log.debug("clock tick not saved: %s", e)

    def adopt_clock(self, snapshot: dict[str, Any], ahead: bool = False) -> bool:
        """Take the clock another board of a remote game sent (``Clock.snapshot``: its times
        at a move made there, or at a pause, a resume, time added, a restart), running from
        now; journaled as the clock's state. ``ahead``: it holds the switch of a move made
        there and not here yet (the move, when it is made here, switches nothing). False
        (nothing changed) for a damaged one or without a clock."""
        if self.clock is None or self.state.is_over():
            return False
        try:
            clock = Clock.restore(snapshot, self.timer())
        except ValueError as e:
            log.warning("game %s: the other board's clock is not taken: %s", self.game_id, e)
            return False
        if set(clock.players) != set(self.clock.players):
            return False
        clock.ahead = ahead
        self.clock = clock
        self.clock_tick()
        return True

    def flag_fall(self) -> str | None:
        """When the running player's time is gone: the game ends on time (the game's
        ``ClockRules.on_time`` says the result), journaled as a flag event and the game's
        finish. Returns the player whose flag fell, or None."""
        clock, state = self.clock, self.state
        if clock is None or state.is_over() or self.game_id is None:
            return None
        now = self.timer()
        flagged = clock.flagged(now)
        if flagged is None:
            return None
        outcome = self.credited(state, self.spec.clock_rules().on_time(state, flagged))
        clock.switch(None, now)  # nothing runs any more
        clock.add(flagged, -min(0.0, clock.left(flagged, now)))  # shown as 0, not below
        self.clock_event("flag", flagged)
        try:
            self.journal.commit_turn(self.game_id, len(self.played), [], outcome)
        except GameClosed:
            self.closed_elsewhere = True
        except JournalError as e:  # the time is gone all the same: the table says so
            log.warning("game %s: its end on time is not saved: %s", self.game_id, e)
        self.states[-1] = ended_on_time(state, outcome)
        return flagged

    def pause_clock(self, why: str = "") -> bool:
        """Pause the running clock (journaled); False when there is nothing to pause."""
        clock = self.clock
        if clock is None or clock.paused or self.state.is_over():
            return False
        clock.pause(self.timer())
        self.clock_event("pause", why=why)
        return True

    def resume_clock(self) -> bool:
        """Resume a paused clock (journaled); False when it is not paused."""
        clock = self.clock
        if clock is None or not clock.paused or self.state.is_over():
            return False
        clock.resume(self.timer())
        self.clock_event("resume")
        return True

    def add_time(self, player: str, seconds: float, why: str) -> bool:
        """Give ``player`` ``seconds`` more (negative: take them), ``why`` 'penalty' or
        'correction'; journaled as such. False without a clock or for no such player."""
        clock = self.clock
        if clock is None or player not in clock.players or self.state.is_over():
            return False
        clock.add(player, seconds)
        self.clock_event("add", player, seconds, why)
        return True

    def clock_event(
        self, kind: str, player: str | None = None, seconds: float | None = None, why: str = ""
    ) -> None:
        """Journal a clock event (the clock as it is now, after it)."""
        if self.clock is None or self.game_id is None:
            return
        with contextlib.suppress(JournalError):
            snapshot = self.clock.snapshot(self.timer())
            event = ClockEvent(kind, len(self.played), player, seconds, why or None, snapshot)
            self.journal.clock_event(self.game_id, event)

    # ------------------------------------------------------------------ games
    def new_game(
        self,
        game: str | None = None,
        options: dict[str, Any] | None = None,
        players: dict[str, str] | None = None,
    ) -> None:
        """Start another game; one not finished stays in the journal as abandoned.
        ``players`` (player id -> name) replaces the names; None keeps them."""
        spec = get_spec(game) if game else self.spec  # a bad name or option changes nothing
        if options is None:
            options = carried_options(spec, self.options) if spec is self.spec else {}
        options = spec.resolve(options)
        self.abandon()
        if players is not None:
            self.people = dict(players)
        self.drawn = {}
        self._start(spec, options)

    def pause(self) -> bool:
        """Put the game in progress aside, to be taken up again (``binaryon resume``, the
        menu): True when paused; one with no moves is abandoned, a finished one stays."""
        if self.game_id is None or self.state.is_over():
            return False
        try:
            return bool(self.journal.pause(self.game_id))
        except GameClosed:  # already ended elsewhere: nothing to keep
            return False

    def replay_draws(self, names: Sequence[str]) -> None:
        """Start this game afresh, its chance steps drawn as ``names`` has them at the same
        plies (a record replayed move by move)."""
        self.drawn = dict(enumerate(names))
        self._start(self.spec, self.options)

    # ------------------------------------------------------------------ masked play
    def _keep_masked(self) -> None:
        if self.seat_knowledge is not None and self.game_id is not None:
            self.journal.keep_masked(self.game_id, self.seat_knowledge)

    def learn(self, seat: str, facts: Mapping[str, Any]) -> bool:
        """Facts the board of ``seat`` disclosed about its secrets: kept, journaled and
        learned (a waiting state goes on; the forced moves and chance steps that follow are
        played). True when something new was learned. ValueError (one line): facts that
        contradict the game here; JournalError: they could not be kept (nothing changes)."""
        if self.seat_knowledge is None or self.game_id is None:
            return False
        was_over = self.state.is_over()
        found = masked_play.learned(self.spec, self.state, self.seat_knowledge, seat, facts)
        if found is None:
            return False
        state, known = found
        self.journal.keep_masked(self.game_id, known)
        self.seat_knowledge = known
        self.states[-1] = state
        with contextlib.suppress(JournalError):  # the next move tries again
            self._save(self._referee_steps())
        if not was_over:
            self._finish_if_over()
        return True

    def reveal(self, full: Sequence[str]) -> str | None:
        """The whole game with every full name, at the end (``masked_play.revealed_game``):
        then it is the game, and the journal reads it so. Why not, in one line, or None."""
        if self.seat_knowledge is None or not self.state.is_over():
            return None
        game = masked_play.revealed_game(
            self.spec, self.options, full, self.state, len(self.played)
        )
        if isinstance(game, str):
            return game
        entries = [MoveEntry(k, p.name, p.player, p.public) for k, p in enumerate(game.played)]
        end = game.states[-1]
        self.journal.reveal(self.game_id or 0, entries, self.credited(end, game.outcome))
        self.played, self.states, self.seat_knowledge = game.played, game.states, None
        return None

    def play_drawn(self, move: Move) -> bool:
        """A chance step drawn at the other board (only the first seat's board draws), played
        here as the referee's, with the forced moves after it. False: not its turn here."""
        step = masked_play.drawn_step(self.state, move)
        if step is None:
            return False
        self._save([step, *self._referee_steps(step[1], len(self.played) + 1)])
        return True

    def _finish_if_over(self) -> None:
        """Journal the finish of a game that is over (learning ended it, or a restart found it
        over); a move that ends the game journals it in its own commit."""
        state = self.state
        if self.game_id is None or not state.is_over() or (outcome := state.outcome()) is None:
            return
        with contextlib.suppress(JournalError):
            self.journal.commit_turn(
                self.game_id, len(self.played), [], self.credited(state, outcome)
            )

    def abandon(self) -> None:
        """File the game in progress as abandoned (a finished one stays finished)."""
        if self.game_id is not None and not self.state.is_over():
            with contextlib.suppress(GameClosed):  # already ended elsewhere: fine
                self.journal.abandon(self.game_id)

    def outcome(self) -> Outcome | None:
        return self.state.outcome()


def clock_player(state: GameState) -> str | None:
    """Whose time runs in ``state``: the single player on turn. Nobody's when several
    choose at once (simultaneous secret choices: a game bounds those steps by its own
    timer, e.g. Binøme's ``step_seconds``), at a referee's step, or at the end."""
    if state.is_over():
        return None
    return state.turn


def _as_player(move: Move, player: str | None) -> Move:
    """A move typed without its player (``move claim 69 as Cy``) is the entering player's,
    for games whose moves name their player (Binøme)."""
    return move if player is None else move.by(player)


def _drawn_before(journal: Journal, game_id: int) -> dict[int, str]:
    """Every move a journal ever held for this game, by ply, the first at each (taken back
    ones included): what a chance step drew there, so a restart does not draw it again."""
    out: dict[int, str] = {}
    with contextlib.suppress(JournalError):
        for kind, ply, name, *_ in journal.events(game_id):
            if kind == "move" and name is not None:
                out.setdefault(ply, name)
    return out
