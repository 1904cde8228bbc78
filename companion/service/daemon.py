"""The daemon: sensors and buttons in, refereed game, OLED and LEDs out.

    board driver -> debounce/settle -> board map (squares -> the game's cells)
        -> referee (interpreter, session: rules + journal) -> presenter -> LEDs, OLED, pages

Everything runs in the event loop's thread; drivers only post events. The loop sleeps until
an event or a timer (message expiry, blinking, board settle) is due. The referee answers each
input with a ``Verdict``, which the table feedback shows; then the opponent (the engine, or
a player at a remote board), if one plays, looks whether it is its turn. Each event ends in
one render: one ``Frame`` of the presenter, the LED frame sent first (a few bytes), then the
slower OLED frame.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from companion import PROGRAM
from companion.core.config import Config
from companion.core.events import BoardSnapshot, ButtonEvent, LinkStatus, SquareReading, UserCommand
from companion.core.loop import EventLoop
from companion.engines.players import parse_opponent
from companion.games import game_names, get_spec
from companion.games.base import Play, Refusal
from companion.hardware.interfaces import IDLE_READING, LedStrip, SensorBoard
from companion.journal.api import Journal, JournalError, NullJournal
from companion.journal.rows import PAUSED
from companion.referee.referee import Referee, result_line
from companion.referee.session import Session
from companion.referee.verdict import Change, Verdict
from companion.sensing.board_sync import BoardMap
from companion.sensing.debounce import BoardSettler, SwitchDebouncer
from companion.service.config_check import REMOTE, time_control
from companion.service.controls import CLUB, PAGES, Controls
from companion.service.engine_hint import EngineHint
from companion.service.game_clock import ClockKeeper
from companion.service.game_start import first_move_free, first_session, fitting_options
from companion.service.hints import Hints
from companion.service.menu import NewGameMenu
from companion.service.opponent import EngineOpponent, Opponent
from companion.service.recovery import way_out
from companion.service.review_steps import ReviewSteps
from companion.service.table_feedback import TableFeedback
from companion.service.tutor import Tutor
from companion.timing.clock import ClockFace
from companion.views.oled import OledView, Screen
from companion.views.presenter import MOVES_SHOWN, Frame, Marks, Table, follows, marks

log = logging.getLogger(PROGRAM)


def dummy_display():
    from luma.core.device import dummy

    return dummy(width=128, height=64, mode="1")


class Daemon:
    def __init__(
        self,
        config: Config,
        *,
        board: SensorBoard | None = None,
        display: Any = None,
        leds: LedStrip | None | bool = True,
        journal: Journal | None = None,
        clock: Callable[[], float] = time.monotonic,
        notifier: Any = None,
        buzzer: Any = None,
        rng: random.Random | None = None,
    ):
        self.config = config
        self.loop = EventLoop(self.handle, clock)
        if board is None:
            from dataclasses import replace

            from companion.hardware.boards import make_board

            board = make_board(replace(config.board, driver="mock"), clock)
        self.board = board
        self.display = display if display is not None else dummy_display()
        self.oled = OledView(self.display)
        self.leds: LedStrip | None = board.leds() if leds is True else (leds or None)
        self.journal = journal or NullJournal()
        self.notifier = notifier
        self.buzzer = buzzer
        self.feedback = TableFeedback(self, config.display.message_seconds)
        self.notices = self.feedback.notices
        self.link_status = ""  # e.g. "board disconnected"
        self.board_problem = ""  # e.g. "binaryon can't use a presence board"
        self._last_frame: list | None = None
        self._thread: threading.Thread | None = None
        self.menu = NewGameMenu(game_names())
        self.controls = Controls(self)
        self.review_steps = ReviewSteps(self)  # a finished game's review on the board
        self.board_synced = False  # sensor boards: has the board matched the game yet?
        self.on_frame: Callable[[], None] | None = None  # benchmarks time frames with it
        self.listeners: list[Callable[[], None]] = []  # told after every render (web pages)
        self.frame: Frame | None = None  # the last one drawn
        self._clock_shown: tuple[ClockFace, dict[str, Any]] | None = None  # the pages' clock
        self._in_event = False  # handling an event: it is drawn when done
        self._redraw: Any = None  # a timer's verdict waits to be drawn
        self.web: Any = None  # the web server, when the pages are served
        self.after_first_frame: list[Callable[[], None]] = []  # called once, in the loop
        self.web_backend: Any = None
        self.web_problem = ""  # why the pages are off when they should be served (OLED, menu)
        self.club: Any = None  # the link to a club's broker (companion.club.board_link)
        self.club_status = ""  # its state in one line, for the menu ("" with no club)
        self.voice: Any = None  # the table's voice (service/table_voice.py), when it speaks
        self.push_to_talk: Any = None  # voice/push_to_talk.py's, while listening with one

        session = first_session(config, self.journal, board.size, self.say, rng, clock)
        self.referee = Referee(session, board.kind)
        self.game_clock = ClockKeeper(self)
        self.opponent: Opponent | None = None
        self.remote: Any = None  # the remote board's link, in a remote game (docs/club.md)
        if config.game.opponent:
            self.opponent = self._opponent(config)
            self.referee.gate = self.opponent.gate
        opponent = self.opponent
        self.tutor: Tutor | None = None  # --tutor: a blunder held until confirmed
        if config.game.tutor:
            self.tutor = Tutor(self, lambda: opponent is not None and opponent.to_move())
            self.referee.gate = self._gate
        self.hints = Hints(
            self, EngineHint(self, opponent), lambda: opponent is not None and opponent.thinking
        )
        if self.journal.recovery:
            self.say(("resumed; " if self.message else "") + "journal repaired")
        elif self.journal.loss:  # said at every start until accepted
            self.say("journal lost moves: see binaryon history", kind="warning")
        if self.journal.read_only:  # said before a move is refused: "disk full"...
            why = f"{self.journal.read_only}: moves cannot be saved"
            self.say(why, lasting=True, kind="warning")
        if self.session.state.is_over():  # resumed into a finished game (its passes replayed)
            self.say(result_line(self.session.state), lasting=True)
        self._sensing()
        self._check_board()
        self.feedback.update_blink()

    def _opponent(self, config: Config) -> Opponent:
        """The engine, or a player at another board (``remote:BOARD``)."""
        side, kind = config.game.opponent_side, lambda: self.board.kind
        if config.game.opponent.startswith(REMOTE):
            from companion.club.remote import RemoteSource, parse_remote

            peer = parse_remote(config.game.opponent)
            self.remote = RemoteSource(self, config.club.board, peer, side)
            self.remote.reveal_timeout = config.club.reveal_timeout
            self.referee.takebacks = self.remote.no_takebacks
            return Opponent(self, self.remote, side, kind)
        level = parse_opponent(config.game.opponent)
        return EngineOpponent(self, level or "default", side, kind)

    # --- the game and its board ---
    @property
    def session(self) -> Session:
        return self.referee.session

    def _sensing(self) -> None:
        """Debounce, settle and the square -> cell map for the board and the game in play."""
        spec = self.session.spec
        layout = spec.layout(self.session.options)
        resize = getattr(self.board, "resize", None)
        if resize is not None and layout is not None and layout.natural_board != self.board.size:
            resize(layout.natural_board)  # a simulated board takes the game's size
        n, kind = self.board.size, self.board.kind
        current = getattr(self, "map", None)
        if current is None or (current.size, current.kind, current.layout) != (n, kind, layout):
            self.map = BoardMap(n, kind, layout)
        if getattr(self, "debouncer", None) is None or self.settler_size != n:
            self.settler_size = n
            self.debouncer = SwitchDebouncer(
                n, self.config.board.debounce_ms / 1000, self.loop, self._on_switch
            )
            self.settler = BoardSettler(
                n,
                self.config.board.settle_ms / 1000,
                self.loop,
                self.board_settled,
                IDLE_READING.get(self.board.kind, "0"),
            )

    def _check_board(self) -> None:
        """Can this game be played on this board? (Rechecked for every new game.)"""
        kind, size = self.board.kind, self.board.size
        spec = self.session.spec
        layout = spec.layout(self.session.options)
        problem = ""
        if layout is not None and kind not in spec.sensor_kinds:
            problem = f"{spec.name} can't use a {kind} board: hold menu for another game"
        elif layout is not None and not layout.fits(size):
            problem = (
                f"{spec.name} {layout.describe()} does not fit the {size}x{size} board: "
                "hold menu for a new game"
            )
        if problem and problem != self.board_problem:
            log.error(problem)
        self.board_problem = problem

    # --- lifecycle ---
    def start(self) -> None:
        """Run the loop in a background thread (tests, simulator)."""
        self.board.start(self.loop.post)
        self.loop.call_later(0, self._first_frame)
        self._thread = threading.Thread(target=self._run_loop, name="binaryon-loop", daemon=True)
        self._thread.start()

    def run(self) -> None:
        """Run in this thread until stop() (the service)."""
        self.board.start(self.loop.post)
        self.loop.call_later(0, self._first_frame)
        self._run_loop()

    def _first_frame(self) -> None:
        self._engine()
        self.render()
        started, self.after_first_frame = self.after_first_frame, []
        for fn in started:  # what may come once the table is up (the optional parts)
            fn()

    def _run_loop(self) -> None:
        if self.notifier is not None:
            self.notifier.ready(self._status_line())
            interval = self.notifier.interval()
            if interval:
                self._schedule_watchdog(interval)
        try:
            self.loop.run()
        finally:
            if self.notifier is not None:
                self.notifier.stopping()

    def _schedule_watchdog(self, interval: float) -> None:
        def ping() -> None:
            self.notifier.watchdog()
            self.loop.call_later(interval, ping)

        self.loop.call_later(interval, ping)

    def post(self, event: Any) -> None:
        self.loop.post(event)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        return self.loop.wait_idle(timeout)

    def call(self, fn: Callable[[], Any], timeout: float = 5.0, *, render: bool = True) -> Any:
        """Run ``fn`` in the loop's thread (from another thread, e.g. the web server) and
        return its result; the table is rendered after it like after any event, unless
        ``render`` is False: a question that changes nothing (a page's view), whose render
        would tell the pages of a change that is none, and they would ask again."""
        if self.loop.thread is None or self.loop.thread is threading.current_thread():
            value = self._event(fn)  # no loop thread (stepped by hand), or already in it
            if render:
                self._engine()
                self.render()
            return value
        done = threading.Event()
        box: dict[str, Any] = {}

        def task() -> None:
            try:
                box["value"] = fn()
            except Exception as e:  # handed back to the caller's thread
                box["error"] = e
            finally:
                done.set()

        self.loop.post(_Call(task, render))
        if not done.wait(timeout):
            raise TimeoutError("the referee is busy")
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def post_call(self, fn: Callable[[], None], render: bool = True) -> None:
        """Run ``fn`` in the loop's thread soon (from any thread), then render (unless
        ``render`` is False: bookkeeping that changes nothing shown)."""
        self.loop.post(_Call(fn, render))

    def stop(self) -> None:
        self.loop.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            self.board.stop()
        finally:
            if self.leds is not None:
                self.leds.close()

    # --- events ---
    def handle(self, event: Any) -> None:
        self._event(lambda: self._dispatch(event))
        if isinstance(event, _Call) and not event.render:
            return  # a question: nothing changed
        self._engine()
        self.render()

    def _event(self, fn: Callable[[], Any]) -> Any:
        was, self._in_event = self._in_event, True
        try:
            return fn()
        finally:
            self._in_event = was

    def _dispatch(self, event: Any) -> None:
        if isinstance(event, SquareReading):
            self._reading(event)
        elif isinstance(event, BoardSnapshot):
            self._snapshot(event)
        elif isinstance(event, LinkStatus):
            self._link(event)
        elif isinstance(event, ButtonEvent):
            self.button(event.button, event.long)
        elif isinstance(event, UserCommand):
            self.command(event.text)
        elif isinstance(event, _Call):
            event.fn()

    def _reading(self, event: SquareReading) -> None:
        if not 0 <= event.square < self.board.size**2:
            log.warning("reading for square %d ignored: not on the board", event.square)
            return
        if self.board.kind == "switch":
            self.debouncer.reading(event.square, event.value, event.at, event.debounced)
        else:
            self.settler.reading(event.square, event.value)

    def _snapshot(self, event: BoardSnapshot) -> None:
        if len(event.values) != self.board.size**2:
            log.warning("snapshot of %d squares ignored", len(event.values))
            return
        if self.board.kind == "switch":
            self.debouncer.reset(event.values)
        else:
            self.settler.snapshot(event.values)

    @property
    def status(self) -> str:
        """A lasting condition that stops play, shown instead of messages."""
        return self.link_status or self.board_problem

    def _link(self, event: LinkStatus) -> None:
        log.info("board link: %s", event.detail)
        if event.connected:
            self.link_status = ""
            if self.board.kind != self.referee.kind:  # a serial board says its kind on hello
                self.referee.kind = self.board.kind
                self.referee.interpreter = self.session.spec.interpreter(self.board.kind)
                self._sensing()
            self.board_synced = False  # the board may have changed while away:
            self.settler.known = False  # its next full reading is compared with the game
            self._check_board()
            self._last_frame = None  # a board that comes back gets the whole frame again
        else:
            self.link_status = event.detail or "board disconnected"

    # --- what readings mean ---
    def _on_switch(self, square: int, value: str) -> None:
        if value != "1" or self.status or self.menu.is_open:
            return  # releases mean nothing; no play on a mismatched board or in the menu
        cell = self.map.cell(square)
        if cell is None:
            if self.map.squares:
                self.say("outside the game's area", kind="warning")
            return
        self.tell(self.referee.press(cell))

    def board_settled(self, readings: tuple[str, ...]) -> None:
        if self.status or self.menu.is_open or not self.map.squares:
            return  # looked at again when the menu closes
        strays = self.map.strays(readings)
        if strays:
            hint = self.map.fix_hint(strays).replace("fix", "clear", 1)
            self.feedback.show_differ((), strays, hint)
            return
        cells = self.map.cells(readings)
        if not self.board_synced and not self._sync(cells):
            return
        self.tell(self.referee.settled(cells))

    def _sync(self, cells: list[str]) -> bool:
        """After the game changed without the board (start, resume, undo, new game, a
        reconnect) the board must first match the game; until then, show what differs."""
        wrong = tuple(self.referee.matches(cells))
        if wrong:
            self.feedback.show_differ(wrong, (), self.map.fix_hint(self.map.to_squares(wrong)))
            return False
        self.board_synced = True
        if self.notices.differ or self.notices.strays:
            self.feedback.show_differ((), (), "")
            self.say("board matches")
        return True

    def board_changed_elsewhere(self) -> None:
        """The game moved without the board (undo, new game): a sensor board must catch up."""
        if self.board.kind == "switch":
            return
        self.board_synced = False
        if self.settler.known:
            self.board_settled(tuple(self.settler.readings))
        else:
            self.board.request_snapshot()

    def expected_readings(self) -> list[str]:
        """What the whole board should read now, for the current game."""
        if not self.map.squares:
            return [IDLE_READING.get(self.board.kind, "0")] * (self.board.size**2)
        return self.map.expected(self.referee.expected())

    def game_replaced(self) -> None:
        """Another game is on the board: its layout, its sensing, a fresh LED frame."""
        self._sensing()
        self._check_board()
        self._last_frame = None
        self.review_steps.stop()
        if self.tutor is not None:
            self.tutor.new_game()

    def recheck_board(self) -> None:
        """A sensor board whose readings were set aside (the menu was open) is looked at."""
        if self.board.kind != "switch" and self.settler.known:
            self.board_settled(tuple(self.settler.readings))

    def say(self, text: str, lasting: bool = False, kind: str = "news") -> None:
        self.feedback.set_message(text, lasting, kind)

    def tell(self, verdict: Verdict) -> None:
        """Show a verdict of the referee (or a hint, the companion's move) on the table, and
        follow what it changed: another game's layout and sensing, a sensor board that must
        catch up, the hints' round, the buzzer."""
        if self.tutor is not None:  # a move held: its page offers to play it anyway
            verdict = self.tutor.page_note(verdict)
        if self.voice is not None:  # its lines are said after the frame
            self.voice.verdict(verdict)
        self.feedback.apply(verdict)
        if verdict.played or verdict.changed is not Change.NONE:
            self.hints.reset()
        if verdict.refusal is not None and not verdict.quiet and self.buzzer is not None:
            self.buzzer.refuse()
        if verdict.changed is Change.NEW:
            self.game_replaced()
        if verdict.changed is not Change.NONE:
            self.board_changed_elsewhere()
        if not self._in_event and self._redraw is None:  # from a timer (a board settled)
            self._redraw = self.loop.call_later(0, self._redrawn)

    def _redrawn(self) -> None:
        self._redraw = None
        self._engine()
        self.render()

    def _engine(self) -> None:
        """After every event: the companion thinks when it is its turn, the tutor judges when
        a person is to move (never while drawing)."""
        if self.opponent is not None:
            self.opponent.update()
        if self.tutor is not None:
            self.tutor.update()

    def tutor_switch(self, seat: str, on: bool) -> str | None:
        """A player's page turns the tutor on or off for its own seat (docs/review.md); the
        reason in one line when it may not be on (a remote opponent, a club event's game, a
        game no engine judges), else None."""
        if self.tutor is None:  # no seat judged for yet: one for none, the pages' to switch
            opponent = self.opponent
            self.tutor = Tutor(
                self, lambda: opponent is not None and opponent.to_move(), seats=set()
            )
            self.referee.gate = self._gate
        remote = self.config.game.opponent.startswith(REMOTE)
        if on and (why := self.tutor.refusal_for(self.session.game_id, remote)):
            return why
        self.tutor.switch(seat, on, tuple(self.session.state.players))
        self.say(f"tutor {'on' if on else 'off'} for {self.session.spec.player_label(seat)}")
        return None

    def _gate(self, move: Any) -> Refusal | None:
        """Before a move is played: the opponent's own move awaited, then the tutor."""
        if self.opponent is not None and (refusal := self.opponent.gate(move)) is not None:
            return refusal
        return self.tutor.gate(move) if self.tutor is not None else None

    # --- what the buttons and the pages do (in the loop's thread) ---
    def confirm(self) -> bool:
        """The game's confirm; with a clock, when no turn is half entered, the clock's
        pause and resume (README, "Game clock"); a move the tutor holds is played."""
        if self.tutor is not None and (held := self.tutor.held_move()) is not None:
            self.tell(self.referee.act(Play(held), None))
            return True
        if not self.turn_pending() and self.game_clock.toggle():
            return True
        verdict = self.referee.button("confirm")
        if verdict is not None:
            self.tell(verdict)
        return verdict is not None

    def recover(self) -> None:
        """Hold confirm (``service/recovery.py``): for one message's time the LEDs show the
        position as the game has it, and the OLED says what the table waits for and the
        button out of it."""
        self.say(way_out(self))
        self.notices.expected = True

    def undo(self, long: bool) -> None:
        if long and self.game_clock.add():  # a paused clock: time added, not a takeback
            return
        if self.remote is not None and (asked := self.remote.undo_button()) is not None:
            self.tell(asked)  # a remote game: a takeback both players agree to
            return
        self.tell(self.referee.undo(long))

    def turn_pending(self) -> bool:
        """Is a turn of several presses half entered (presses the game waits to complete,
        or a move of the player still on turn, e.g. Binary's first piece of two)?"""
        if self.referee.interpreter.pending() is not None:
            return True
        s = self.session
        last = s.played[-1] if s.played else None
        return last is not None and not last.forced and last.player == s.state.turn is not None

    def hint(self) -> None:
        self.hints.next()

    def submit(self, name: str, player: str | None) -> Verdict:
        """A move named on a page (or typed) by ``player``."""
        verdict = self.referee.submit_name(name, player)
        self.tell(verdict)
        return verdict

    def play_remote(self, move: Any, player: str | None) -> Verdict:
        """The other board's move in a remote game, played here at once (docs/club.md)."""
        verdict = self.referee.play_remote(move, player)
        self.tell(verdict)
        return verdict

    def press_cell(self, cell: int) -> Verdict:
        """A cell pressed on a page, as if on the board."""
        verdict = self.referee.press(cell)
        self.tell(verdict)
        return verdict

    def ask_undo(self, player: str) -> Verdict:
        remote = self.remote.ask_undo(player) if self.remote is not None else None
        verdict = remote if remote is not None else self.referee.ask_undo(player)
        self.tell(verdict)
        return verdict

    def answer_undo(self, player: str, accept: bool) -> Verdict:
        verdict = self.referee.answer_undo(player, accept)
        self.tell(verdict)
        return verdict

    def new_game(
        self,
        game: str | None = None,
        options: dict[str, Any] | None = None,
        players: dict[str, str] | None = None,
        clock: str | None = None,
        keep: bool = False,
    ) -> None:
        """Start a game (another one, or this one afresh) that fits the board, with the rule
        options and player names of the command line and the config (never those of the game
        that was resumed); ``options`` set some of them, ``players`` (a club's pairing) names
        the players instead, and ``clock`` (an event's time control, "" for none) is played
        instead of the configured clock, under FIDE's rules: the first player's time runs
        from the start (a casual game's first move is as ``[clock] first_move`` says).
        ``keep`` (a person's new game: typed, or the menu): the game in progress is paused, as
        when the command line names another game, to be taken up again; otherwise it is
        abandoned."""
        if self.menu.is_open:
            self.menu.close()
        try:
            spec = get_spec(game) if game else self.session.spec
            base = {**self.config.rules.get(spec.name, {}), **(options or {})}
            options = spec.resolve(base)
            if getattr(self.board, "resize", None) is None:  # a simulated board takes any size
                options = fitting_options(spec, options, self.board.size)
        except ValueError as e:
            self.say(str(e), kind="refused")
            return
        try:  # the configured clock; "default": the one this game's rules page suggests
            self.session.time_control = time_control(self.config, spec.name, clock)
        except ValueError as e:
            log.warning("%s is played without a clock: %s", spec.name, e)
            self.session.time_control = None
        self.session.first_move_free = clock is None and first_move_free(self.config)
        names = self.config.game.players if players is None else players
        old = self.session.game_id
        kept = keep and self.session.pause()
        verdict = self.referee.new_game(spec.name, options, dict(names))
        if kept and verdict.changed is not Change.NEW and old is not None:
            with contextlib.suppress(JournalError):  # not started: the game goes on as it was
                self.journal.resume(old)
        self.tell(verdict)
        if kept and verdict.changed is Change.NEW:
            self.say(f"{verdict.say}; #{old} paused")

    def resume_game(self, game_id: int) -> None:
        """Take a paused game up again; the game in progress is paused (no moves: abandoned)."""
        if self.menu.is_open:
            self.menu.close()
        current = self.session
        try:
            entry = self.journal.load(game_id)
            if entry is None or entry.status != PAUSED:
                self.journal.resume(game_id)  # refuses, saying why in one line
                raise JournalError(f"game {game_id} cannot be taken up")
            Session.resume(entry.saved(), NullJournal())  # its moves replay: checked first
            self.journal.resume(game_id)
            session = Session.resume(entry.saved(), self.journal, current.rng, self.loop.clock)
        except (JournalError, ValueError) as e:
            self.say(str(e), kind="refused")
            return
        paused = current.played and not current.state.is_over()
        self.tell(self.referee.take_up(session))
        self.say(f"resumed #{game_id}" + (f"; #{current.game_id} paused" if paused else ""))

    def button(self, name: str, long: bool = False) -> None:
        self.controls.button(name, long)

    def button_level(self, name: str, down: bool) -> None:
        """A button went down or up, told at once in the buttons' thread (not the loop's):
        push-to-talk opens and closes the microphone with it."""
        if (ptt := self.push_to_talk) is not None:
            ptt.level(name, down)

    def command(self, text: str) -> None:
        self.controls.command(text)

    @property
    def message(self) -> str:
        return self.notices.message

    def marks(self) -> Marks:
        """The squares the table marks now (the notices' cells on the board)."""
        return marks(self.notices, self.map.squares)

    def quiet(self) -> bool:
        """Nothing left to handle: no event queued, no board settling, no engine thinking."""
        thinking = self.opponent is not None and self.opponent.thinking
        thinking = thinking or self.hints.engine.busy
        thinking = thinking or (self.tutor is not None and self.tutor.busy)
        thinking = thinking or self.review_steps.busy
        return self.loop.wait_idle(0) and self.settler._timer is None and not thinking

    # --- views ---
    def table(self) -> Table:
        s = self.session
        stepped = self.review_steps.state()  # a reviewed move's position, stepping through
        return Table(
            spec=s.spec,
            state=s.state if stepped is None else stepped,
            options=s.options,
            layout=self.map.layout if self.map.squares else None,
            board_size=self.board.size,
            played=tuple(s.played[-MOVES_SHOWN:]),  # the views list the recent moves only
            game_id=s.game_id,
            people=s.players_named(),
            first_ply=max(0, len(s.played) - MOVES_SHOWN),
            clock=s.clock.face(self.loop.clock()) if s.clock is not None else None,
        )

    def present(self) -> Frame:
        """One frame of the table as it is now."""
        self.notices.status = self.status
        self.notices.menu = self.menu.shown()
        return Frame(self.table(), self.notices, self._titles(), self.frame)

    def screen(self) -> Screen:
        return self.present().screen

    def web_view(self, viewer: str | None = None, frame: Frame | None = None) -> dict[str, Any]:
        """The table page's view (``viewer`` None) or a seat's page: derived from ``frame``
        (the web backend keeps the last one drawn), else from the table as it is now."""
        frame = frame if frame is not None else self.present()
        view = dict(frame.web_for(viewer))
        view["undo"] = self.referee.undo_view()  # a takeback asked, waiting for agreement
        view["clock"] = self._web_clock(frame.table.clock)
        if viewer is not None:  # the seat's tutor switch, in a game an engine judges
            on = self.tutor is not None and self.tutor.on_for(viewer)
            view["tutor"] = {"on": on} if self.session.spec.engine() is not None else None
        return view

    def _web_clock(self, face: ClockFace | None) -> dict[str, Any] | None:
        """The views' ``clock``: the same one for as long as the clock runs as it said (a
        switch, a pause, a resume or time added changes it), so the pages, which tick by
        themselves from its ``as_of``, are sent nothing new while a clock just runs."""
        if face is None:
            self._clock_shown = None
            return None
        kept = self._clock_shown
        if kept is not None and follows(kept[0], face):
            return kept[1]
        # its times as they were at ``face.at`` (this loop's clock), at the server's time then
        shown = face.api(time.time() - (self.loop.clock() - face.at))
        self._clock_shown = (face, shown)
        return shown

    def render(self, pages: bool = True) -> None:
        """Draw every view from one frame: LEDs first (fast), then the OLED, then the pages
        are told (unless ``pages`` is False: the clock's tick, which the pages count down by
        themselves from the clock's timestamp). The game clock's timers are set for the
        clock as it is first (its flag looked at)."""
        self.game_clock.update()
        self.frame = frame = self.present()
        if self.leds is not None:
            lit = frame.leds
            if lit != self._last_frame:
                self.leds.show(lit)
                self._last_frame = lit
        sent = self.oled.show(frame.screen)
        if sent and self.on_frame is not None:
            self.on_frame()
        if self.voice is not None:  # speech starts once the frame is out
            self.voice.drawn()
        self.game_clock.drawn()
        if not pages:
            return
        for listener in list(self.listeners):
            listener()

    def _titles(self) -> dict[str, str]:
        titles = {g: get_spec(g).title for g in self.menu.games}
        return {**titles, **self.controls.titles, PAGES: "PLAYER PAGES", CLUB: "CLUB"}

    def _status_line(self) -> str:
        s = self.session
        return f"{s.spec.name}, move {len(s.played)}"


class _Call:
    """A function to run in the loop's thread (see Daemon.call); ``render``: the table is
    drawn again after it."""

    def __init__(self, fn: Callable[[], None], render: bool = True):
        self.fn = fn
        self.render = render
