"""The table's voice: another view beside the OLED, the LEDs and the pages. It turns what the
table is told (the referee's verdicts, the daemon's messages, the clock) into lines said by
``companion.voice`` and hands them to the speech queue only after the OLED frame is out, so
speech never delays a press's frame. What is heard (``voice.listener``) acts through the same
paths as the buttons (``voice_commands``).

Everything said comes from what the table shows: moves by their public names, the public view,
the table's own messages; a secret never reaches it before the table page shows it."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion import PROGRAM
from companion.referee.referee import result_line
from companion.referee.verdict import Verdict
from companion.voice import queue as prio
from companion.voice.words import (
    clock_words,
    fix_words,
    move_words,
    name_words,
    refusal_words,
    result_words,
    turn_words,
    worth_saying,
)

log = logging.getLogger(PROGRAM)

WARN_SECONDS = 10  # the clock's warning: "ten seconds, black."

# a message's kind on the table -> the kind of line it is for the [voice] speak level
MESSAGE_KINDS = {"refused": "refusal", "warning": "fix", "hint": "hint", "news": "news"}
PRIORITY = {
    "move": prio.MOVE,
    "opponent": prio.MOVE,
    "refusal": prio.REFUSAL,
    "fix": prio.REFUSAL,
    "clock": prio.REFUSAL,
    "result": prio.URGENT,
}


@dataclass(frozen=True)
class Line:
    text: str
    kind: str  # a kind of words.worth_saying ("move", "refusal", ...; "answer": asked for)
    still: Callable[[], bool] | None = None  # whether it is still true when its turn comes


class TableVoice:
    """Lines gathered while the daemon handles an event, said once its frame is drawn."""

    def __init__(self, host: Any, speak: str, queue: Any) -> None:
        self.host = host  # the daemon: its session, map, opponent, frame
        self.speak = speak  # the [voice] speak level: "off", "moves" or "all"
        self.queue = queue  # a voice.queue.SpeechQueue (anything with its say)
        self.lines: list[Line] = []  # this event's, not yet handed to the queue
        self._told: list[Callable[[], None]] = []  # this event's news, put in words after
        # the frame (a verdict with the states it was played in, a message)
        self.last = ""  # the last line said (``repeat``)
        self.asked = False  # acting on a command heard: its answers are said at any level
        self.commands: Any = None  # voice_commands.VoiceCommands when listening
        self._warned: tuple[Any, ...] | None = None  # the clock turn already warned
        self._differ: tuple[int, ...] = ()  # the squares to put back, said once
        self._result_said: Any = None  # the game whose result was said
        self._status = ""  # the lasting condition said last (a board disconnected)

    # --- what the table is told (the loop's thread) ---
    def add(self, text: str, kind: str, still: Callable[[], bool] | None = None) -> None:
        if text and (self.asked or kind == "answer" or worth_saying(self.speak, kind)):
            self.lines.append(Line(text, kind, still))

    def _turn(self, state: Any) -> None:
        """Whose turn it is in ``state``: said only while it still is (a line waiting behind
        others is passed over once a move is made or the game ends)."""
        session = self.host.session
        game, ply = session.game_id, len(session.played)

        def still() -> bool:
            now = self.host.session
            return now.game_id == game and len(now.played) == ply and not now.state.is_over()

        self.add(turn_words(session.spec, state), "turn", still)

    def verdict(self, verdict: Verdict) -> None:
        """A verdict the table is told (the daemon's ``tell``): put in words once the frame
        is out, from the states it was played in, kept now."""
        session = self.host.session
        states = tuple(session.states[-len(verdict.played) - 1 :]) if verdict.played else ()
        asked = self.asked

        def words() -> None:
            was, self.asked = self.asked, asked
            try:
                self._words(verdict, states)
            finally:
                self.asked = was

        self._told.append(words)
        if verdict.played or verdict.changed:
            self._warned = None
            if self.commands is not None:
                self.commands.moved()

    def _words(self, verdict: Verdict, states: tuple[Any, ...]) -> None:
        session = self.host.session
        if verdict.played:
            self._played(verdict, states)
        elif verdict.refusal is not None and not verdict.quiet:
            self.add(refusal_words(verdict.refusal), "refusal")
        elif verdict.pending is not None and verdict.say:
            self.add(self._opponent_line(verdict.say), "opponent")
        elif verdict.say:
            self.add(verdict.say, "refusal" if verdict.refusal is not None else "news")
        if verdict.hint is not None:
            self.add(verdict.hint.text or "No hint.", "hint")
        if verdict.pending is not None and not verdict.say and verdict.pending.cells:
            cell = verdict.pending.cells[-1]
            square = session.spec.cell_name(cell, session.options)
            self.add(
                f"{square}: {verdict.pending.text}" if verdict.pending.text else square, "move"
            )
        if verdict.differ is not None:
            self._put_back(verdict.differ)

    def _played(self, verdict: Verdict, states: tuple[Any, ...]) -> None:
        session = self.host.session
        if len(states) != len(verdict.played) + 1:  # never: the session keeps every state
            self.add(" ".join(name_words(p.public) for p in verdict.played), "move")
            return
        for played, before, after in zip(verdict.played, states, states[1:], strict=False):
            try:
                move = before.parse_move(played.name)
            except ValueError:  # a masked state: the other board's secret move
                self.add(f"{name_words(played.public)}.", "move")
                continue
            over = after.is_over() and not before.is_over()
            if over:
                self._result_said = session.game_id
            self.add(move_words(session.spec, before, move, after), "result" if over else "move")
        state = states[-1] if states else session.state
        if not state.is_over() and not self.asked:
            self._turn(state)

    def started(self) -> None:
        """The voice starts on a game already under way: the referee's steps since the last
        person's move (a die rolled at the start) and whose turn it is."""
        session = self.host.session
        steps = 0
        for played in reversed(session.played):
            if not played.forced:
                break
            steps += 1
        if steps:
            self._played(
                Verdict(played=tuple(session.played[-steps:])), tuple(session.states[-steps - 1 :])
            )
        elif not session.state.is_over():
            self._turn(session.state)

    def _opponent_line(self, told: str) -> str:
        """The engine's or the remote board's move for someone here to make."""
        opponent = getattr(self.host, "opponent", None)
        wanted = getattr(opponent, "wanted", None)
        if wanted is None:
            return told
        session = self.host.session
        player = session.state.turn or ""
        label = session.spec.player_label(player).lower() if player else "the opponent"
        how = told.rsplit(": ", 1)[-1] if ": " in told else "make it"  # "press it"
        return f"{label} plays {name_words(session.state.public_name(wanted))}: {how}."

    def _put_back(self, cells: tuple[int, ...]) -> None:
        if tuple(cells) == self._differ:
            return
        self._differ = tuple(cells)
        if not cells:
            return
        names = [self.host.session.spec.cell_name(c, self.host.session.options) for c in cells]
        self.add(fix_words(names), "fix")

    def message(self, text: str, kind: str) -> None:
        """A message the table shows that no verdict brought (the clock, the club, the board)."""
        state = self.host.session.state
        if state.is_over() and text == result_line(state):
            return  # said as the result, once (``_result``)
        asked = self.asked

        def words() -> None:
            if asked or worth_saying(self.speak, MESSAGE_KINDS.get(kind, "news")):
                self.lines.append(Line(text, MESSAGE_KINDS.get(kind, "news")))

        self._told.append(words)

    # --- after the frame ---
    def drawn(self) -> None:
        """The OLED frame is out: this event's news put in words, the clock's warning looked
        at, and the lines queued."""
        told, self._told = self._told, []
        for words in told:
            words()
        self._clock_warning()
        self._result()
        status = getattr(self.host, "status", "")
        if status != self._status:  # a condition that stops play, and its end
            self.add(status or "Play goes on.", "fix")
            self._status = status
        lines, self.lines = self.lines, []
        # one event's lines keep their order (a move, then the pass it forced, then the
        # result): all go at the most urgent one's priority
        priority = max((PRIORITY.get(line.kind, prio.CHAT) for line in lines), default=0)
        for line in lines:
            self.last = line.text
            self.queue.say(line.text, priority, line.still)

    def _clock_warning(self) -> None:
        session = self.host.session
        clock = session.clock
        if clock is None or clock.running is None or clock.paused or session.state.is_over():
            return
        left = clock.left(clock.running, self.host.loop.clock())
        key = (session.game_id, len(session.played), clock.running)
        if 0 < left <= WARN_SECONDS and self._warned != key:
            self._warned = key
            self.add(clock_words(session.spec, clock.running, math.ceil(left)), "clock")
        elif left > WARN_SECONDS and self._warned == key:
            self._warned = None  # time added: it warns again

    def _result(self) -> None:
        """A game that ended without a move (a flag fell, a game resumed over) is said once."""
        session = self.host.session
        if not session.state.is_over() or self._result_said == session.game_id:
            return
        self._result_said = session.game_id
        outcome = session.state.outcome()
        if outcome is not None:
            self.add(result_words(outcome), "result")

    def close(self) -> None:
        self.queue.close()
