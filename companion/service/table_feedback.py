"""What the table is told, and for how long: the referee's feedback (refusals, passes, the
result, squares to fix, a move being entered) as messages with their timers, blinking, and
the menu button's hints (the game's own steps, then in an engine game the engine's move).
The presenter draws it all from ``notices``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from companion.games.base import Hint, Refusal
from companion.referee.session import Played
from companion.service.engine_hint import EngineHint
from companion.views.presenter import Notices

if TYPE_CHECKING:
    from companion.service.daemon import Daemon

log = logging.getLogger("binaryon")

BLINK_SECONDS = 0.5


class TableFeedback:
    """The daemon's side of ``referee.Feedback``; squares here are physical board squares."""

    def __init__(self, daemon: Daemon):
        self.daemon = daemon
        self.notices = Notices()
        self._differ_hint = ""
        self._hint_step = 0
        self._message_timer = None
        self._blink_timer = None
        self.last_refusal: Refusal | None = None  # the last one told (a web click's answer)
        self.engine_hint = EngineHint(daemon)  # the last hint step in an engine game

    # --- Feedback ---
    def say(self, text: str, lasting: bool = False) -> None:
        self.set_message(text, lasting)

    def refuse(self, refusal: Refusal | None, cell: int | None) -> None:
        reason = refusal.reason if refusal else "refused"
        log.info("refused: %s", reason)
        self.last_refusal = refusal or Refusal("refused", reason)
        squares = self.daemon.map.squares
        mapped = cell is not None and 0 <= cell < len(squares)
        self.notices.refused = squares[cell] if mapped else None
        self.set_message(reason)
        if self.daemon.buzzer is not None:
            self.daemon.buzzer.refuse()

    def to_page(self, page: str, text: str, actions: tuple[tuple[str, str], ...] = ()) -> None:
        """A line (and actions) for one player's page only, until the game moves on."""
        ply = self.daemon.session.state.ply
        self.notices.page_notes[page] = (ply, text, actions)

    def mismatch(self, cells: tuple[int, ...], hint: str) -> None:
        self.show_differ(self.daemon.map.to_squares(cells) if cells else (), hint)

    def entering(self, cells: tuple[int, ...], text: str) -> None:
        self.notices.pending = self.daemon.map.to_squares(cells)
        self.notices.pending_text = text

    def moved(self, played: list[Played]) -> None:
        log.info("played %s", " ".join(p.public for p in played))
        self._clear_input()
        session = self.daemon.session
        if session.state.is_over():
            self.set_message(self.result_line(), lasting=True)
        else:
            made_in = session.states[-len(played) - 1 : -1]  # the state each was played in
            passed = [
                session.spec.player_label(s.turn)
                for s, p in zip(made_in, played, strict=True)
                if p.forced and p.name == "pass" and s.turn
            ]
            told = session.spec.announce(made_in[0], session.state)
            if passed:
                told = f"{', '.join(passed)} passes (no move)" + (f"; {told}" if told else "")
            self.set_message(told)
        self.update_blink()

    def game_changed(self, board_too: bool) -> None:
        self._clear_input()
        if board_too:
            self.daemon.game_replaced()
            self.set_message(f"new game: {self.daemon.session.spec.title.lower()}")
        self.update_blink()
        self.daemon.board_changed_elsewhere()

    def _clear_input(self) -> None:
        self.clear_hint()
        self.notices.page_notes.clear()
        self.notices.refused = None
        self.notices.pending, self.notices.pending_text = (), ""

    def result_line(self) -> str:
        outcome = self.daemon.session.state.outcome()
        if outcome is None:
            return "game over"
        return f"{outcome.summary}: {outcome.reason}" if outcome.reason else outcome.summary

    # --- hints (the menu button) ---
    def next_hint(self) -> None:
        """The game's own hint steps, then (engine games) the engine's move, and round again."""
        opponent = self.daemon.opponent
        if opponent is not None and opponent.thinking:
            self.set_message("thinking: wait")
            return
        session = self.daemon.session
        self.engine_hint.cancel()
        own = self.engine_hint.own_steps()
        step = self._hint_step if own is None else self._hint_step % (own + 1)
        self._hint_step += 1
        if step == own:
            self.notices.hint, self.notices.hint_squares = None, ()
            self.set_message("")
            self.engine_hint.start()
            return
        self.show_hint(session.spec.hint(session.state, step))

    def show_hint(self, hint: Hint) -> None:
        self.notices.hint = hint
        self.notices.hint_squares = self.daemon.map.to_squares(hint.cells)
        self.set_message(hint.text or "no hint")

    def clear_hint(self) -> None:
        self.engine_hint.cancel()
        self.notices.hint_squares = ()
        self.notices.hint = None
        self._hint_step = 0

    # --- messages, squares to fix, blinking ---
    def set_message(self, text: str, lasting: bool = False) -> None:
        self.notices.message = text
        if self._message_timer is not None:
            self._message_timer.cancel()
            self._message_timer = None
        if text and not lasting:
            self._message_timer = self.daemon.loop.call_later(
                self.daemon.config.display.message_seconds, self._clear_message
            )

    def _clear_message(self) -> None:
        self._message_timer = None
        self.notices.message = ""
        self.notices.refused = None
        self.notices.hint_squares = ()
        self.notices.hint = None
        if self.daemon.session.state.is_over():
            self.notices.message = self.result_line()
        self.daemon.render()

    def show_differ(self, squares: tuple[int, ...], hint: str) -> None:
        """Squares where the board does not match the game: they blink and the hint stays
        on the OLED until the board matches again."""
        self.notices.differ = tuple(squares)
        if squares:
            self._differ_hint = hint
            self.set_message(hint, lasting=True)
        elif self._differ_hint:
            if self.notices.message == self._differ_hint:
                self.set_message("")
            self._differ_hint = ""
        self.update_blink()

    def update_blink(self) -> None:
        wanted = bool(self.notices.differ) or self.daemon.session.state.is_over()
        if wanted and self._blink_timer is None:
            self._blink_timer = self.daemon.loop.call_later(BLINK_SECONDS, self._blink)
        elif not wanted and self._blink_timer is not None:
            self._blink_timer.cancel()
            self._blink_timer = None
            self.notices.blink_on = True

    def _blink(self) -> None:
        self._blink_timer = None
        self.notices.blink_on = not self.notices.blink_on
        self.update_blink()
        self.daemon.render()
