"""What the table is told, and for how long: the referee's verdicts (refusals, passes, the
result, cells to fix, a move being entered, hints) as notices, with the messages' timers and
blinking. The presenter draws it all from ``notices``; cells stay the game's own."""

from __future__ import annotations

import logging
from collections.abc import Callable

from companion import PROGRAM
from companion.games.base import Hint
from companion.referee.referee import result_line
from companion.referee.verdict import Change, Verdict
from companion.service.host import Host
from companion.views.presenter import Notices

log = logging.getLogger(PROGRAM)

BLINK_SECONDS = 0.5


class TableFeedback:
    def __init__(self, host: Host, message_seconds: float):
        self.host = host
        self.message_seconds = message_seconds
        self.notices = Notices()
        self._differ_hint = ""
        self._message_timer = None
        self._blink_timer = None
        # told each message set outside ``apply`` (the voice; a verdict it hears whole)
        self.on_message: Callable[[str, str], None] | None = None
        self._applying = False

    @property
    def blinking(self) -> bool:
        return self._blink_timer is not None

    def apply(self, verdict: Verdict) -> None:
        """Show ``verdict``: what the game became first, then what is said about it, then
        the refusal and the cells to fix (which stay on the OLED)."""
        self._applying = True
        try:
            self._apply(verdict)
        finally:
            self._applying = False

    def _apply(self, verdict: Verdict) -> None:
        if verdict.differ == ():
            self.show_differ((), (), "")
        if verdict.changed is not Change.NONE or verdict.played:
            if verdict.played:
                log.info("played %s", " ".join(p.public for p in verdict.played))
            self._clear_input()
            self.update_blink()
        if verdict.hint is not None:
            self.show_hint(verdict.hint)
        if verdict.say is not None:
            kind = "refused" if verdict.refusal is not None else "news"
            self.set_message(verdict.say, verdict.lasting, kind)
        if verdict.refusal is not None and not verdict.quiet:
            log.info("refused: %s", verdict.refusal.reason)
            self.notices.refused = verdict.refused
            self.set_message(verdict.refusal.reason, kind="refused")
        elif verdict.pending is not None and self.notices.message_kind == "refused":
            self.set_message("")  # a good press after a refused one: the refusal is old news
            self.notices.refused = None
        if verdict.differ:
            self.show_differ(verdict.differ, (), verdict.fix)
        if verdict.pending is not None:
            self.notices.pending = verdict.pending.cells
            self.notices.pending_text = verdict.pending.text
        if verdict.page is not None:
            page, text, actions = verdict.page
            self.notices.page_notes[page] = (self.host.session.state.ply, text, actions)

    def _clear_input(self) -> None:
        self.notices.hint = None
        self.notices.page_notes.clear()
        self.notices.refused = None
        self.notices.pending, self.notices.pending_text = (), ""

    def show_hint(self, hint: Hint) -> None:
        self.notices.hint = hint
        self.set_message(hint.text or "no hint", kind="hint")

    # --- messages, cells to fix, blinking ---
    def set_message(self, text: str, lasting: bool = False, kind: str = "news") -> None:
        """Say ``text`` (``kind``: news, refused, warning or hint; the pages style it so)."""
        self.notices.message = text
        self.notices.message_kind = kind if text else ""
        if text and not self._applying and self.on_message is not None:
            self.on_message(text, kind)
        self.notices.expected = False  # a recovery's plain position lasts its own message
        if self._message_timer is not None:
            self._message_timer.cancel()
            self._message_timer = None
        if text and not lasting:
            self._message_timer = self.host.loop.call_later(
                self.message_seconds, self._clear_message
            )

    def _clear_message(self) -> None:
        self._message_timer = None
        self.notices.message, self.notices.message_kind = "", ""
        self.notices.refused = None
        self.notices.hint = None
        self.notices.expected = False
        state = self.host.session.state
        if state.is_over():
            self.notices.message, self.notices.message_kind = result_line(state), "news"
        elif (self.notices.differ or self.notices.strays) and self._differ_hint:
            self.notices.message, self.notices.message_kind = self._differ_hint, "warning"
        self.host.render()

    def show_differ(self, cells: tuple[int, ...], strays: tuple[int, ...], hint: str) -> None:
        """Cells where the board does not match the game (and squares outside its area that
        hold something): they blink and the hint stays on the OLED until the board matches."""
        self.notices.differ, self.notices.strays = tuple(cells), tuple(strays)
        if cells or strays:
            self._differ_hint = hint
            self.set_message(hint, lasting=True, kind="warning")
        elif self._differ_hint:
            if self.notices.message == self._differ_hint:
                self.set_message("")
            self._differ_hint = ""
        self.update_blink()

    def update_blink(self) -> None:
        differ = self.notices.differ or self.notices.strays
        wanted = bool(differ) or self.host.session.state.is_over()
        if wanted and self._blink_timer is None:
            self._blink_timer = self.host.loop.call_later(BLINK_SECONDS, self._blink)
        elif not wanted and self._blink_timer is not None:
            self._blink_timer.cancel()
            self._blink_timer = None
            self.notices.blink_on = True

    def _blink(self) -> None:
        self._blink_timer = None
        self.notices.blink_on = not self.notices.blink_on
        self.update_blink()
        self.host.render()
