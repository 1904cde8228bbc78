"""A simulated sensor board: the simulator and tests press squares or place discs on it and it
posts the same raw events a real matrix scan would (bounce included, when asked)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from companion.core.events import BoardSnapshot, Event, LinkStatus, SquareReading
from companion.hardware.interfaces import IDLE_READING, SensorBoard
from companion.hardware.simulated.recording_leds import RecordingLeds


class MockBoard(SensorBoard):
    debounced = False
    simulated = True

    def __init__(
        self,
        size: int = 8,
        kind: str = "switch",
        clock: Callable[[], float] = time.monotonic,
        initial: Sequence[str] | None = None,
        has_leds: bool = True,
    ):
        self.size = size
        self.kind = kind
        self.clock = clock
        self.readings = (
            list(initial) if initial is not None else [IDLE_READING[kind]] * (size * size)
        )
        self._sink: Callable[[Event], None] | None = None
        self._leds = RecordingLeds(size * size) if has_leds else None

    def start(self, sink: Callable[[Event], None]) -> None:
        self._sink = sink
        sink(LinkStatus(True, f"simulated {self.size}x{self.size} {self.kind} board"))
        self.request_snapshot()

    def stop(self) -> None:
        self._sink = None

    def request_snapshot(self) -> None:
        if self._sink:
            self._sink(BoardSnapshot(tuple(self.readings), self.clock()))

    def leds(self) -> RecordingLeds | None:
        return self._leds

    def resize(self, size: int) -> None:
        """A simulated board takes the size of the game put on it (a real one cannot)."""
        if size == self.size:
            return
        self.size = size
        self.readings = [IDLE_READING[self.kind]] * (size * size)
        if self._leds is not None:
            self._leds.resize(size * size)
        if self._sink:
            self._sink(LinkStatus(True, f"simulated {size}x{size} {self.kind} board"))
            self.request_snapshot()

    # --- what a person (or a test) does to the board ---
    def set_reading(self, square: int, value: str, clean: bool = False) -> None:
        """``clean``: a bounce-free change, reported as already debounced."""
        self.readings[square] = value
        if self._sink:
            self._sink(SquareReading(square, value, self.clock(), debounced=clean))

    def press(self, square: int) -> None:
        self.set_reading(square, "1")

    def release(self, square: int) -> None:
        self.set_reading(square, "0")

    def tap(self, square: int, clean: bool = False) -> None:
        """A press and release; ``clean`` ones count exactly once however fast they come."""
        self.set_reading(square, "1", clean)
        self.set_reading(square, "0", clean)

    def bounce(self, square: int, value: str, edges: int = 4) -> None:
        """Chatter between the old and new value ``edges`` times, ending on ``value``."""
        old = self.readings[square]
        for i in range(edges):
            self.set_reading(square, value if i % 2 == 0 else old)
        self.set_reading(square, value)

    def unplug(self) -> None:
        if self._sink:
            self._sink(LinkStatus(False, "board disconnected"))

    def replug(self) -> None:
        if self._sink:
            self._sink(LinkStatus(True, "board reconnected"))
            self.request_snapshot()
