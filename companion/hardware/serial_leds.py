"""The LED frames sent to the sensor board over its serial link (protocol: docs/protocol.md)."""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Sequence
from typing import Protocol

from companion.hardware import link_protocol as lp
from companion.hardware.interfaces import RGB, LedStrip


class LedLink(Protocol):
    """What the LED sender needs of the serial board: its size, whether the link is up, how
    long an acknowledgement may take, and a way to write a whole line."""

    size: int
    ack_timeout: float

    @property
    def connected(self) -> bool: ...

    def _write(self, data: bytes) -> bool: ...


class SerialLeds(LedStrip):
    """The board's LED chain: sends only changed squares, a full frame when many changed or
    when acknowledgements went missing (then the board's frame is unknown)."""

    def __init__(self, board: LedLink) -> None:
        self._board = board
        self._lock = threading.Lock()
        self._desired: list[RGB] | None = None
        self._on_board: list[RGB] | None = None  # assuming every sent frame was applied
        self._pending: collections.OrderedDict[str, float] = collections.OrderedDict()
        self._counter = 0
        self.full_frames = 0
        self.delta_frames = 0
        self.acked = 0

    def next_id(self) -> str:
        self._counter = (self._counter + 1) % 1_000_000
        return str(self._counter)

    @property
    def frame(self) -> list[RGB] | None:
        return None if self._desired is None else list(self._desired)

    def show(self, frame: Sequence[RGB]) -> None:
        n2 = self._board.size * self._board.size
        if len(frame) != n2:
            raise ValueError(f"LED frame has {len(frame)} colours, the board has {n2} squares")
        clean = [tuple(max(0, min(255, int(v))) for v in rgb[:3]) for rgb in frame]
        with self._lock:
            self._desired = clean  # type: ignore[assignment]
            self._flush(time.monotonic())

    def close(self) -> None:
        if self._desired is not None:
            self.show([(0, 0, 0)] * len(self._desired))

    def _flush(self, now: float) -> None:
        """Send what the board lacks. Caller holds the lock."""
        if self._desired is None or not self._board.connected:
            return
        want = self._desired
        if self._on_board is None or len(self._on_board) != len(want):
            changed = list(range(len(want)))
            full = True
        else:
            changed = [i for i, (a, b) in enumerate(zip(self._on_board, want, strict=True))
                       if a != b]  # fmt: skip
            full = len(changed) > len(want) // 4
        if not changed:
            return
        ident = self.next_id()
        if full:
            data = lp.cmd_leds_full(ident, want)
            self.full_frames += 1
        else:
            data = lp.cmd_leds_delta(ident, [(i, want[i]) for i in changed])
            self.delta_frames += 1
        self._on_board = list(want)
        self._pending[ident] = now
        self._board._write(data)

    def _forget_board_frame(self) -> None:
        self._on_board = None
        self._pending.clear()

    def on_connect(self) -> None:
        with self._lock:
            self._forget_board_frame()
            self._flush(time.monotonic())

    def on_disconnect(self) -> None:
        with self._lock:
            self._forget_board_frame()

    def on_ack(self, ident: str, now: float) -> None:
        with self._lock:
            if ident not in self._pending:
                return
            self.acked += 1
            lost = False
            for key in list(self._pending):
                del self._pending[key]
                if key == ident:
                    break
                lost = True  # an older frame was never acknowledged
            if lost:
                self._forget_board_frame()
                self._flush(now)

    def on_board_error(self) -> None:
        with self._lock:
            if self._pending:  # maybe one of ours arrived damaged: make sure
                self._forget_board_frame()
                self._flush(time.monotonic())

    def tick(self, now: float) -> None:
        with self._lock:
            if self._pending and now - next(iter(self._pending.values())) > (
                self._board.ack_timeout
            ):
                self._forget_board_frame()
                self._flush(now)
