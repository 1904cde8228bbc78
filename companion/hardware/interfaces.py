"""The interfaces the daemon talks to. Real drivers and mocks implement the same ones."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from companion.core.events import Event
from companion.core.sensors import IDLE_READING, SENSOR_KINDS

RGB = tuple[int, int, int]

__all__ = ["IDLE_READING", "SENSOR_KINDS", "HardwareError", "LedStrip", "SensorBoard"]


class HardwareError(RuntimeError):
    """A device that cannot be used as configured; the message is one line with the fix."""


class SensorBoard(ABC):
    """An n x n matrix of sensors. ``start(sink)`` makes it post events to ``sink`` (any thread).

    Drivers post SquareReading for each change, BoardSnapshot when they have a full reading
    (at start, on request, periodically) and LinkStatus when the link comes or goes.
    """

    size: int = 8
    kind: str = "switch"  # one of SENSOR_KINDS
    # True when readings arrive already debounced (the Pico does it); the host then skips it.
    debounced: bool = False
    # True for the simulated board: people play it in this terminal (``binaryon sim``).
    simulated: bool = False

    @abstractmethod
    def start(self, sink: Callable[[Event], None]) -> None: ...

    @abstractmethod
    def stop(self) -> None: ...

    def request_snapshot(self) -> None:  # noqa: B027 - optional for boards that push state
        """Ask for a full reading; it arrives as a BoardSnapshot event."""

    def leds(self) -> LedStrip | None:
        """The LED chain when this board drives it (the Pico does), else None."""
        return None


class LedStrip(ABC):
    """The n*n RGB LEDs under the squares, index a1 = 0."""

    @abstractmethod
    def show(self, frame: Sequence[RGB]) -> None: ...

    def close(self) -> None:  # noqa: B027 - turn everything off; optional
        """Turn the LEDs off and release them."""
