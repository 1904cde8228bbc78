"""The colour of every square's LED: the game's own colours, with what needs attention on top.

- squares that differ from the game (a disc to turn back, a piece to put back): blink red;
- a refused square: red until the refusal message goes;
- at the end: the winning squares (e.g. the best line) blink green;
- the player on move has under 10 s on the clock: the board's edge pulses twice a second
  (an empty edge square lights amber, a lit one dims), so no square ever loses its colour.
"""

from __future__ import annotations

from collections.abc import Sequence

RGB = tuple[int, int, int]
RED: RGB = (200, 0, 0)
GREEN: RGB = (0, 180, 0)
OFF: RGB = (0, 0, 0)
WARN: RGB = (220, 110, 0)  # amber: the time is nearly gone
WARN_SECONDS = 10.0
DIM = 0.3  # a lit edge square's brightness in the warning's dark half


def edge(n: int) -> list[int]:
    """The squares on the edge of an ``n`` x ``n`` board (square = rank * n + file)."""
    return [r * n + f for r in range(n) for f in range(n) if r in (0, n - 1) or f in (0, n - 1)]


def dim(rgb: RGB) -> RGB:
    """``rgb`` darker, its hue kept: a lit channel never drops to 0."""
    return tuple(max(1, int(c * DIM)) if c else 0 for c in rgb)  # type: ignore[return-value]


def clock_warning(base: Sequence[RGB], n: int, lit: bool) -> list[RGB]:
    """``base`` with the edge in the warning's ``lit`` or dark half: the state of every
    square stays readable in both (a colour is only dimmed, never replaced)."""
    frame = list(base)
    for sq in edge(n):
        rgb = frame[sq]
        if rgb == OFF:
            frame[sq] = WARN if lit else OFF
        elif not lit:
            frame[sq] = dim(rgb)
    return frame


def warning_lit(seconds: float, running: bool) -> bool | None:
    """The warning for a player with ``seconds`` left: None (no warning: enough time, or the
    flag is down), else its half now: it turns every half second as the time runs (a
    paused clock keeps it lit), so the pulse follows the clock and needs no timer of its
    own."""
    if seconds <= 0 or seconds >= WARN_SECONDS:
        return None
    return not running or int(seconds * 2) % 2 == 1


def led_frame(
    base: Sequence[RGB],
    *,
    differ: Sequence[int] = (),
    refused: int | None = None,
    highlight: Sequence[int] = (),
    highlight_colour: RGB = GREEN,
    blink_on: bool = True,
) -> list[RGB]:
    frame = list(base)
    for sq in highlight:
        frame[sq] = highlight_colour if blink_on else base[sq]
    if refused is not None:
        frame[refused] = RED
    for sq in differ:
        frame[sq] = RED if blink_on else OFF
    return frame
