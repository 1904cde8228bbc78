"""The voice's queue: ``say`` never blocks the caller; one thread speaks. A more urgent line
(higher priority) cuts the one being said; the queue holds at most ``bound`` lines, dropping
the least urgent, oldest first, so it never grows without bound. A line may come with a test
of whether it is still true ("black to play"): when its turn to be said comes and it no longer
is, it is passed over."""

from __future__ import annotations

import contextlib
import heapq
import itertools
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from companion import PROGRAM

log = logging.getLogger(PROGRAM)

# priorities: the larger, the more urgent
CHAT = 0  # answers, hints, whose turn
MOVE = 1  # a move played
REFUSAL = 2  # a refusal, the clock's ten seconds
URGENT = 3  # a flag, the result


NICE = 10  # the voice thread's (and so espeak-ng's) niceness: the referee's thread goes first


def lower_priority() -> None:
    """Make the calling thread, and the processes it starts, yield the CPU to the daemon's
    loop (Linux: a thread's niceness is its own, and children inherit it)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


@dataclass(order=True)
class _Item:
    key: tuple[int, int]  # (-priority, arrival): the most urgent, then the oldest first
    text: str = field(compare=False)
    priority: int = field(compare=False)
    still: Callable[[], bool] | None = field(compare=False, default=None)


class SpeechQueue:
    """Lines for a ``say(text, cut)`` function (``Speaker.say``) spoken in its own thread."""

    def __init__(
        self,
        say: Callable[[str, threading.Event], bool],
        bound: int = 8,
        prepare: Callable[[], None] | None = None,
    ) -> None:
        if bound < 1:
            raise ValueError("the queue must hold at least one line")
        self._say = say
        self._prepare = prepare  # run first in the queue's thread (a speaker's process started)
        self.bound = bound
        self._heap: list[_Item] = []
        self._arrival = itertools.count()
        self._cond = threading.Condition()
        self._speaking: _Item | None = None
        self._cut = threading.Event()
        self._closed = False
        self.dropped: list[str] = []  # lines never said: the queue was full of more urgent ones
        self.cut: list[str] = []  # lines stopped partway by a more urgent one
        self.stale: list[str] = []  # lines passed over: no longer true when their turn came
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def say(self, text: str, priority: int = CHAT, still: Callable[[], bool] | None = None) -> None:
        """Queue ``text``; returns at once. ``still``: called (in the queue's thread) just before
        the line is said; False passes it over."""
        text = text.strip()
        if not text:
            return
        with self._cond:
            if self._closed:
                return
            item = _Item((-priority, next(self._arrival)), text, priority, still)
            heapq.heappush(self._heap, item)
            if len(self._heap) > self.bound:
                least = max(self._heap)  # the least urgent; among equals, the newest
                least = min(
                    (i for i in self._heap if i.priority == least.priority),
                    key=lambda i: i.key[1],
                )  # the oldest of the least urgent
                self._heap.remove(least)
                heapq.heapify(self._heap)
                self.dropped.append(least.text)
            speaking = self._speaking
            if speaking is not None and priority > speaking.priority:
                self._cut.set()
            self._cond.notify_all()

    def pending(self) -> list[str]:
        """The lines waiting, in the order they will be said."""
        with self._cond:
            return [i.text for i in sorted(self._heap)]

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until nothing is queued or being said (tests, ``binaryon say``)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._heap and self._speaking is None, timeout=timeout
            )

    def close(self, timeout: float | None = 5.0) -> None:
        """Stop after the line being said is cut; what is queued is dropped."""
        with self._cond:
            self._closed = True
            self._heap.clear()
            self._cut.set()
            self._cond.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        lower_priority()
        if self._prepare is not None:
            try:
                self._prepare()
            except OSError as e:  # said again at the first line, which tries once more
                log.warning("voice: %s", e)
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._heap or self._closed)
                if self._closed:
                    self._speaking = None
                    self._cond.notify_all()
                    return
                item = heapq.heappop(self._heap)
                self._speaking = item
                self._cut.clear()
            if item.still is not None and not item.still():
                with self._cond:
                    self.stale.append(item.text)
                    self._speaking = None
                    self._cond.notify_all()
                continue
            try:
                whole = self._say(item.text, self._cut)
            except (OSError, ValueError) as e:
                log.warning("voice: cannot say %r: %s", item.text, e)
                whole = True
            with self._cond:
                if not whole:
                    self.cut.append(item.text)
                self._speaking = None
                self._cond.notify_all()
