"""Events that reach the daemon's loop from sensors, buttons, links and timers.

Drivers post these from any thread; the loop handles them one at a time in its own thread.
Square readings are strings so every sensor kind fits one shape:
switch "1"/"0" (pressed/released), presence "1"/"0" (occupied/empty),
polarity "x"/"o"/"." (black up / white up / no disc).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SquareReading:
    square: int
    value: str
    at: float  # monotonic seconds
    debounced: bool = False  # True when the board already debounced it (Pico firmware)


@dataclass(frozen=True)
class BoardSnapshot:
    values: tuple[str, ...]  # one reading per square, index a1 = 0
    at: float


@dataclass(frozen=True)
class LinkStatus:
    connected: bool
    detail: str  # one line, e.g. "board disconnected" or "Pico fw 1.0, 8x8 switch"


@dataclass(frozen=True)
class ButtonEvent:
    button: str  # "confirm", "undo" or "menu"
    long: bool = False


@dataclass(frozen=True)
class UserCommand:
    """A command typed in the simulator or sent by a local client (e.g. "new", "quit")."""

    text: str


Event = SquareReading | BoardSnapshot | LinkStatus | ButtonEvent | UserCommand
