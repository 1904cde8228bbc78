"""Cuts a stream of samples into lines of speech by their loudness against the room's own
level (the quietest moment of the last few seconds: a fan or a crowd raises it within
``ROOM_FRAMES``, the pauses between words keep it down): a line starts after a tenth of a
second above it, keeps a little of what came before, and ends after half a second below. A
line's ``loudness`` is its level over the room's when it started. Pure."""

from __future__ import annotations

import math
from array import array
from collections import deque

FRAME = 480  # samples: 30 ms at 16 kHz
START_FRAMES = 3  # 90 ms loud: speech starts
END_FRAMES = 17  # 510 ms quiet: the line ends
BEFORE_FRAMES = 10  # 300 ms kept from before the start
LONGEST_FRAMES = 400  # 12 s: a line cut there whatever it is
FLOOR_LEVEL = 60.0  # the quietest room level assumed (RMS of 16-bit samples)
ROOM_FRAMES = 100  # 3 s: the room's level is the quietest of these frames...
ROOM_SHARE = 5  # ...leaving out the quietest fifth (a crowd's rare hush)


def level(frame: bytes) -> float:
    samples = array("h", frame)
    if not samples:
        return 0.0
    return math.sqrt(sum(s * s for s in samples) / len(samples))


class Segmenter:
    """Feed frames of ``FRAME`` samples; ``feed`` returns a finished line's samples or None."""

    def __init__(self, ratio: float = 3.0) -> None:
        self.ratio = ratio  # loud: this many times the room's level
        self._levels: deque[float] = deque(maxlen=ROOM_FRAMES)
        self._before: deque[bytes] = deque(maxlen=BEFORE_FRAMES)
        self._line: list[bytes] = []
        self._loud = 0
        self._quiet = 0
        self._room_at_start = FLOOR_LEVEL
        self.loudness = 0.0  # the last line's RMS over the room's level as it started

    @property
    def in_speech(self) -> bool:
        return bool(self._line)

    @property
    def room(self) -> float:
        if not self._levels:
            return FLOOR_LEVEL
        quietest = sorted(self._levels)[len(self._levels) // ROOM_SHARE]
        return max(FLOOR_LEVEL, quietest)

    def feed(self, frame: bytes) -> bytes | None:
        now = level(frame)
        self._levels.append(now)
        loud = now > self.ratio * self.room
        if not self._line:
            self._loud = self._loud + 1 if loud else 0
            self._before.append(frame)
            if self._loud >= START_FRAMES:
                self._room_at_start = self.room
                self._line = list(self._before)
                self._before.clear()
                self._quiet = 0
            return None
        self._line.append(frame)
        self._quiet = 0 if loud else self._quiet + 1
        if self._quiet >= END_FRAMES or len(self._line) >= LONGEST_FRAMES:
            return self.flush()
        return None

    def room_only(self, frame: bytes) -> None:
        """A frame heard with the microphone closed (push-to-talk not held): the room's level
        learns from it, and nothing of it is kept for a line."""
        self._levels.append(level(frame))
        self._before.clear()
        self._line = []
        self._loud = 0

    def flush(self) -> bytes | None:
        """The line being heard, if any, as the stream ends."""
        line, self._line = self._line, []
        self._loud = 0
        if not line:
            return None
        pcm = b"".join(line)
        self.loudness = level(pcm) / self._room_at_start
        return pcm
