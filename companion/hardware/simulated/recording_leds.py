"""An LED strip that only remembers what it was told: the simulator's and the tests' LEDs."""

from __future__ import annotations

from collections.abc import Sequence

from companion.hardware.interfaces import RGB

OFF: RGB = (0, 0, 0)


class RecordingLeds:
    """An LED strip that only remembers what it was told (the simulator and tests use it)."""

    def __init__(self, count: int = 64):
        self.frame: list[RGB] = [OFF] * count
        self.frames = 0

    def show(self, frame: Sequence[RGB]) -> None:
        self.frame = list(frame)
        self.frames += 1

    def close(self) -> None:
        self.frame = [OFF] * len(self.frame)

    def resize(self, count: int) -> None:
        self.frame = [OFF] * count
