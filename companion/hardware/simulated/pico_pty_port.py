"""The simulated Pico's side of the USB cable: the pseudo-terminal master the firmware reads
and writes, damaged on the way when the simulation is asked to (see ``pico_sim``)."""

from __future__ import annotations

import contextlib
import os
from typing import Protocol


class PicoWire(Protocol):
    """What the port asks of the simulated Pico: bytes injected towards the firmware, the
    filters that lose or damage lines, and the count of bytes sent."""

    bytes_out: int

    def _take_injected_input(self) -> bytes: ...

    def _filter_incoming(self, data: bytes) -> bytes: ...

    def _filter_outgoing(self, data: bytes) -> bytes: ...


class PtyPort:
    """The firmware's side of the cable: non-blocking reads/writes on the pty master, with the
    interface of boardfw.usbio.UsbPort (read_into, write -> sent?, drain)."""

    def __init__(self, pico: PicoWire, fd: int) -> None:
        self._pico = pico
        self._fd = fd
        self._pending = b""

    def read_into(self, buf) -> int:
        data = self._pending + self._pico._take_injected_input()
        if len(data) < len(buf):
            # nothing waiting (EAGAIN), or the cable is gone (EIO)
            with contextlib.suppress(OSError):
                data += self._pico._filter_incoming(os.read(self._fd, len(buf) - len(data)))
        n = min(len(buf), len(data))
        buf[:n] = data[:n]
        self._pending = data[n:]
        return n

    def write(self, data: bytes) -> bool:
        data = self._pico._filter_outgoing(bytes(data))
        if not data:
            return True  # lost on the wire, not refused by the port
        try:
            self._pico.bytes_out += os.write(self._fd, data)
            return True
        except OSError:  # nobody reading and the buffer full, or unplugged
            return False

    def drain(self, ms: int, feed=None) -> None:
        pass
