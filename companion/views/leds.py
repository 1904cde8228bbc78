"""The colour of every square's LED: the game's own colours, with what needs attention on top.

- squares that differ from the game (a disc to turn back, a piece to put back): blink red;
- a refused square: red until the refusal message goes;
- at the end: the winning squares (e.g. the best line) blink green.
"""

from __future__ import annotations

from collections.abc import Sequence

RGB = tuple[int, int, int]
RED: RGB = (200, 0, 0)
GREEN: RGB = (0, 180, 0)
OFF: RGB = (0, 0, 0)


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
