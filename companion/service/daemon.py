"""The daemon: sensors and buttons in, refereed game, OLED and LEDs out.

    board driver -> debounce/settle -> game's interpreter (spec.on_press / on_board)
        -> session (rules + journal) -> OLED and LED views

Everything runs in the event loop's thread; drivers only post events. The loop sleeps until
an event or a timer (message expiry, blinking, board settle) is due.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.core.config import Config
from companion.core.events import BoardSnapshot, ButtonEvent, LinkStatus, SquareReading, UserCommand
from companion.core.loop import EventLoop
from companion.core.squares import square_name
from companion.games import game_names, get_spec
from companion.games.base import Differ, Panel, PanelRow, Play, Refusal, Refuse
from companion.hardware.interfaces import IDLE_READING, LedStrip, SensorBoard
from companion.journal.api import GameClosed, Journal, JournalError, NullJournal
from companion.referee.session import Session
from companion.sensing.debounce import BoardSettler, SwitchDebouncer
from companion.views.leds import GREEN, led_frame
from companion.views.oled import OledView, Screen

log = logging.getLogger("binaryon")

BLINK_SECONDS = 0.5


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
    ):
        self.config = config
        self.loop = EventLoop(self.handle, clock)
        if board is None:
            from companion.testing.mock_board import MockBoard

            board = MockBoard(config.board.size, config.board.kind, clock)
        self.board = board
        self.display = display if display is not None else dummy_display()
        self.oled = OledView(self.display)
        self.leds: LedStrip | None = board.leds() if leds is True else (leds or None)
        self.journal = journal or NullJournal()
        self.notifier = notifier
        self.buzzer = buzzer
        self.message = ""
        self.link_status = ""  # e.g. "board disconnected"
        self.board_problem = ""  # e.g. "binaryon can't use a presence board"
        self.differ: tuple[int, ...] = ()
        self._differ_hint = ""
        self.refused_square: int | None = None
        self.hint_squares: tuple[int, ...] = ()
        self.hint_colour = GREEN
        self._hint_step = 0
        self._message_timer = None
        self._blink_timer = None
        self._blink_on = True
        self._last_frame: list | None = None
        self._thread: threading.Thread | None = None
        self.menu: list[str] | None = None  # the new-game menu, when open
        self.menu_index = 0
        self.board_synced = False  # sensor boards: has the board matched the game yet?
        self.on_frame: Callable[[], None] | None = None  # benchmarks time frames with it

        session = None
        saved = self.journal.current()
        if saved is not None:
            try:
                session = Session.resume(saved, self.journal)
                self.set_message("resumed")
            except ValueError as e:
                log.error("cannot resume game %s: %s", saved.game_id, e)
        self.session = session or Session(
            config.game.name, config.rule_options(), self.journal, config.game.players
        )
        if getattr(self.journal, "recovery", None):
            self.set_message(("resumed; " if self.message else "") + "journal repaired")
        if getattr(self.journal, "read_only", False):  # say so before a move is refused
            self.set_message("journal read-only: moves cannot be saved", lasting=True)
        if self.session.state.is_over():  # resumed into a finished game (its passes replayed)
            outcome = self.session.state.outcome()
            self.set_message(outcome.summary if outcome else "game over", lasting=True)
        self._update_blink()
        self._check_board()
        n = self.board.size
        self.debouncer = SwitchDebouncer(
            n, config.board.debounce_ms / 1000, self.loop, self._on_switch
        )
        self.settler = BoardSettler(
            n,
            config.board.settle_ms / 1000,
            self.loop,
            self._on_settled,
            IDLE_READING.get(self.board.kind, "0"),
        )

    # --- lifecycle ---
    def start(self) -> None:
        """Run the loop in a background thread (tests, simulator)."""
        self.board.start(self.loop.post)
        self.loop.call_later(0, self.render)
        self._thread = threading.Thread(target=self._run_loop, name="binaryon-loop", daemon=True)
        self._thread.start()

    def run(self) -> None:
        """Run in this thread until stop() (the service)."""
        self.board.start(self.loop.post)
        self.loop.call_later(0, self.render)
        self._run_loop()

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
        self.render()

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
            self.board_synced = False  # the board may have changed while away:
            self.settler.known = False  # its next full reading is compared with the game
            self._check_board()
            self._last_frame = None  # a board that comes back gets the whole frame again
        else:
            self.link_status = event.detail or "board disconnected"

    def _check_board(self) -> None:
        """Can this game be played on this board? (Rechecked for every new game.)"""
        kind, size = self.board.kind, self.board.size
        spec = self.session.spec
        problem = ""
        if kind not in spec.sensor_kinds:
            problem = f"{spec.name} can't use a {kind} board"
        elif (game_size := spec.board_size(self.session.options)) and game_size != size:
            problem = f"board {size}x{size}, game {game_size}x{game_size}"
        if problem and problem != self.board_problem:
            log.error(problem)
        self.board_problem = problem

    # --- what readings mean ---
    def _on_switch(self, square: int, value: str) -> None:
        if value != "1" or self.status or self.menu is not None:
            return  # releases mean nothing; no play on a mismatched board or in the menu
        state = self.session.state
        if state.is_over():
            self.set_message("game over: hold menu for a new game")
            return
        self.apply(self.session.spec.on_press(state, square), square)
        self.render()

    def _on_settled(self, readings: tuple[str, ...]) -> None:
        if self.status or self.menu is not None:
            return  # looked at again when the menu closes
        if not self.board_synced and not self._sync(readings):
            self.render()
            return
        spec = self.session.spec
        for _ in range(len(readings) + 1):
            action = spec.on_board(self.session.state, readings)
            if isinstance(action, Play):
                illegal = self.session.state.check(action.move) is not None
                if illegal and self._board_took_back(readings):
                    continue  # a disc turned back: the board shows an earlier position
                if not self.apply(action, None, from_board=True):
                    break
                continue
            if isinstance(action, Differ) and self._board_took_back(readings):
                continue
            if isinstance(action, Refuse):
                self.apply(action, action.square)
            else:
                self.show_differ(action.squares if action else (), action.hint if action else "")
            break
        self.render()

    def _sync(self, readings: tuple[str, ...]) -> bool:
        """After the game changed without the board (start, resume, undo, new game, a
        reconnect) the board must first match the game; until then, show what differs."""
        expected = self.expected_readings()
        wrong = tuple(i for i, (a, b) in enumerate(zip(readings, expected, strict=True)) if a != b)
        if wrong:
            names = [square_name(i, self.board.size) for i in wrong]
            text = "fix " + " ".join(names) if len(names) <= 3 else f"{len(names)} squares differ"
            self.show_differ(wrong, text)
            return False
        self.board_synced = True
        if self.differ:
            self.show_differ((), "")
            self.set_message("board matches")
        return True

    def show_differ(self, squares: tuple[int, ...], hint: str) -> None:
        """Squares where the board does not match the game: they blink and the hint stays
        on the OLED until the board matches again."""
        self.differ = tuple(squares)
        if squares:
            self._differ_hint = hint
            self.set_message(hint, lasting=True)
        elif self._differ_hint:
            if self.message == self._differ_hint:
                self.set_message("")
            self._differ_hint = ""
        self._update_blink()

    def board_changed_elsewhere(self) -> None:
        """The game moved without the board (undo, new game): a sensor board must catch up."""
        if self.board.kind == "switch":
            return
        self.board_synced = False
        if self.settler.known:
            self._on_settled(tuple(self.settler.readings))
        else:
            self.board.request_snapshot()

    def _board_took_back(self, readings: tuple[str, ...]) -> bool:
        """A sensor board put back to an earlier position of this game is a takeback to it."""
        spec, kind = self.session.spec, self.board.kind
        seen = list(readings)
        for ply in range(len(self.session.moves) - 1, -1, -1):
            if spec.expected_readings(self.session.states[ply], kind) == seen:
                try:
                    taken = self.session.take_back_to(ply)
                except GameClosed:
                    self._closed_elsewhere()
                    return True
                except JournalError as e:
                    self.set_message(f"not saved: {e}")
                    return True
                self.show_differ((), "")
                self.set_message("took back " + " ".join(taken))
                return True
        return False

    def apply(self, action: Any, square: int | None, from_board: bool = False) -> bool:
        """Carry out what the interpreter made of a reading; True when a move was accepted."""
        if isinstance(action, Play):
            result = self.session.submit(action.move)
            if not result.accepted and self.session.closed_elsewhere:
                self._closed_elsewhere()
                return False
            if result.accepted:
                self.refused_square = None
                self.show_differ((), "")
                self._after_move(result.played)
                return True
            target = square if square is not None else _square_of(action.move)
            self.refuse(result.refusal, target)
            if from_board and target is not None:  # the piece stays wrong until put back
                self.show_differ((target,), self.message)
            return False
        if isinstance(action, Refuse):
            self.refuse(action.refusal, action.square)
        elif isinstance(action, Differ):
            self.show_differ(action.squares, action.hint)
        return False

    def _closed_elsewhere(self) -> None:
        """The journal says this game was ended from outside (e.g. `binaryon abandon`):
        start a fresh one rather than refuse every move."""
        old = self.session.game_id
        self.new_game()
        self.set_message(f"game {old} was closed: new game")

    def refuse(self, refusal: Refusal | None, square: int | None) -> None:
        reason = refusal.reason if refusal else "refused"
        log.info("refused: %s", reason)
        self.refused_square = square
        self.set_message(reason)
        if self.buzzer is not None:
            self.buzzer.refuse()

    def _clear_hint(self) -> None:
        self.hint_squares = ()
        self._hint_step = 0

    def _after_move(self, played: list[str]) -> None:
        log.info("played %s", " ".join(played))
        self._clear_hint()
        state = self.session.state
        spec = self.session.spec
        if state.is_over():
            outcome = state.outcome()
            self.set_message(outcome.summary if outcome else "game over", lasting=True)
        elif len(played) > 1:
            passed = [s for s in self.session.states[-len(played) : -1]]
            who = ", ".join(spec.player_label(s.turn) for s in passed if s.turn)
            self.set_message(f"{who} passes (no move)")
        else:
            self.set_message("")
        self._update_blink()

    # --- buttons and typed commands ---
    def button(self, name: str, long: bool = False) -> None:
        if self.menu is not None:
            self._menu_button(name, long)
            return
        spec = self.session.spec
        state = self.session.state
        if name == "confirm":
            if state.is_over():
                self.set_message("game over: hold menu for a new game")
            else:
                action = spec.on_button(state, "confirm")
                if action is None:
                    self.set_message("nothing to confirm")
                else:
                    self.apply(action, None)
        elif name == "undo":
            try:
                taken = self.session.undo_round() if long else self.session.undo()
            except GameClosed:
                self._closed_elsewhere()
                return
            except JournalError as e:
                self.set_message(f"not saved: {e}")
                return
            self.refused_square = None
            self._clear_hint()
            self.show_differ((), "")
            if taken:
                shown = [m for m in taken if m != "pass"] or taken
                self.set_message("took back " + " ".join(shown))
                self.board_changed_elsewhere()
            else:
                self.set_message("nothing to take back")
        elif name == "menu":
            if long:
                self.menu = game_names()
                self.menu_index = self.menu.index(self.session.game)
                self.set_message("menu: next, confirm: start, undo: back", lasting=True)
            else:
                squares, text = spec.hint(state, self._hint_step)
                self.hint_colour = spec.hint_colour(state, self._hint_step) or GREEN
                self._hint_step += 1
                self.hint_squares = tuple(squares)
                self.set_message(text or "no hint")
        else:
            log.warning("unknown button %r", name)

    def _menu_button(self, name: str, long: bool) -> None:
        """The new-game menu: menu steps through the games, confirm starts, undo goes back."""
        assert self.menu is not None
        if name == "menu" and not long:
            self.menu_index = (self.menu_index + 1) % len(self.menu)
            return
        chosen = self.menu[self.menu_index]
        self.menu = None
        if name == "confirm":
            self.new_game(chosen)
            return
        self.set_message("menu closed")
        if self.board.kind != "switch" and self.settler.known:
            self._on_settled(tuple(self.settler.readings))  # what happened on the board meanwhile

    def new_game(self, game: str | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game (another one, or this one afresh). A game switched to takes its rule
        options from the config; the same game keeps the options it had."""
        if options is None and game and game != self.session.game:
            options = dict(self.config.rules.get(game, {}))
        try:
            self.session.new_game(game, options)
        except (JournalError, ValueError) as e:
            self.set_message(f"not saved: {e}" if isinstance(e, JournalError) else str(e))
            return
        self.refused_square = None
        self._clear_hint()
        self.show_differ((), "")
        self._check_board()
        self.set_message(f"new game: {self.session.spec.title.lower()}")
        self.board_changed_elsewhere()

    def command(self, text: str) -> None:
        words = text.split()
        if not words:
            return
        verb, args = words[0].lower(), words[1:]
        if verb == "new":
            self.new_game(args[0] if args else None)
        elif verb in ("confirm", "undo", "menu"):
            self.button(verb, long=bool(args and args[0] == "long"))
        else:
            self.set_message(f"{verb}: unknown command")

    # --- views ---
    def set_message(self, text: str, lasting: bool = False) -> None:
        self.message = text
        if self._message_timer is not None:
            self._message_timer.cancel()
            self._message_timer = None
        if text and not lasting:
            self._message_timer = self.loop.call_later(
                self.config.display.message_seconds, self._clear_message
            )

    def _clear_message(self) -> None:
        self._message_timer = None
        self.message = ""
        self.refused_square = None
        self.hint_squares = ()
        if self.session.state.is_over():
            outcome = self.session.state.outcome()
            self.message = outcome.summary if outcome else ""
        self.render()

    def _update_blink(self) -> None:
        wanted = bool(self.differ) or self.session.state.is_over()
        if wanted and self._blink_timer is None:
            self._blink_timer = self.loop.call_later(BLINK_SECONDS, self._blink)
        elif not wanted and self._blink_timer is not None:
            self._blink_timer.cancel()
            self._blink_timer = None
            self._blink_on = True

    def _blink(self) -> None:
        self._blink_timer = None
        self._blink_on = not self._blink_on
        self._update_blink()
        self.render()

    def screen(self) -> Screen:
        state = self.session.state
        if self.menu is not None:
            first = max(0, min(self.menu_index - 1, len(self.menu) - 3))
            rows = tuple(
                PanelRow(get_spec(name).title, "", i == self.menu_index)
                for i, name in enumerate(self.menu)
            )[first : first + 3]
            return Screen(Panel("NEW GAME", 0, rows, corner="menu"), self.message)
        return Screen(
            panel=self.session.spec.panel(state),
            message=self.message,
            status=self.status,
            over=state.is_over(),
        )

    def render(self) -> None:
        sent = self.oled.show(self.screen())
        if self.leds is not None:
            spec, state = self.session.spec, self.session.state
            highlight = self.hint_squares or (spec.highlight(state) if state.is_over() else ())
            frame = led_frame(
                spec.leds(state),
                differ=self.differ,
                refused=self.refused_square,
                highlight=highlight,
                highlight_colour=self.hint_colour if self.hint_squares else GREEN,
                blink_on=self._blink_on,
            )
            if frame != self._last_frame:
                self.leds.show(frame)
                self._last_frame = frame
        if sent and self.on_frame is not None:
            self.on_frame()

    def _status_line(self) -> str:
        s = self.session
        return f"{s.spec.name}, move {len(s.moves)}"

    def expected_readings(self) -> list[str]:
        """What the board should read now, for the current game."""
        return self.session.spec.expected_readings(self.session.state, self.board.kind)


def _square_of(move: Any) -> int | None:
    return move if isinstance(move, int) else None
