"""Caps on open connections, sized to the process's file limit, so a crowd of idle sockets
can never take the file descriptors the journal, the serial port and the logs need.

Every accepted connection goes through ``ConnectionGate``: past the per-client or the total
cap it is closed at once (before aiohttp reads a byte of it), with one log line at most every
``NOTE_EVERY`` seconds saying how many were closed. The gate is also where a flood is cut
short and where the web thread gives way to the referee: before any bytes a client sent are
handled, ``yield_to`` (the daemon's "wait until idle", bounded) lets a press being refereed
finish first, and a client that was answered 429 and sends again before its Retry-After is
not read from until then (``holding``): its requests wait in the kernel's buffers, costing
the process nothing.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

BACKLOG = 32  # the listening socket's queue; also how many sockets one accept round may open
# Descriptors kept for everything but the web: the journal (file, -wal, -shm, lock), the serial
# port, the log, the event loops' selectors and wake-up pipes, worker threads, token files.
RESERVED_FDS = 64
MAX_PER_CLIENT = 32  # a browser opens about 6 connections per host, plus its WebSocket
NOTE_EVERY = 10.0  # seconds between two log lines about closed connections
YIELD_AT_MOST = 0.05  # seconds the web thread waits for the referee before going on


@dataclass(frozen=True)
class Limits:
    total: int
    per_client: int


def connection_limits(nofile: int | None = None) -> Limits:
    """The caps for a process whose soft RLIMIT_NOFILE is ``nofile`` (read when None): what
    is left after the reserve and a few accept rounds' worth of sockets not yet closed."""
    if nofile is None:
        nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if nofile == resource.RLIM_INFINITY:
            nofile = 1 << 16
    total = max(8, min(4096, nofile - RESERVED_FDS - 3 * BACKLOG))
    return Limits(total, max(4, min(MAX_PER_CLIENT, total // 4)))


class ConnectionGate:
    """Counts live connections per client address; used only from the web server's loop."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        yield_to: Callable[[float], object] | None = None,
        holding: Callable[[str], float] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.limits = limits or connection_limits()
        self.yield_to = yield_to
        self.holding = holding  # seconds a client told to wait (429) is not read
        self.held = 0  # times a connection was paused so
        self._clock = clock
        self.by_client: dict[str, int] = {}
        self.open = 0
        self.closed = 0  # refused since the last note
        self._noted = -NOTE_EVERY

    def protocol(self, factory: Callable[[], asyncio.Protocol]) -> asyncio.Protocol:
        return _Gated(self, factory)

    def admit(self, client: str) -> bool:
        mine = self.by_client.get(client, 0)
        if self.open >= self.limits.total or mine >= self.limits.per_client:
            self.closed += 1
            now = self._clock()
            if now - self._noted >= NOTE_EVERY:
                self._noted = now
                whose = "in all" if self.open >= self.limits.total else f"from {client}"
                cap = self.limits.total if whose == "in all" else self.limits.per_client
                log.warning(
                    "web: %d connection(s) closed at once: %d open %s is the limit "
                    "(sized to this process's file limit)",
                    self.closed,
                    cap,
                    whose,
                )
                self.closed = 0
            return False
        self.by_client[client] = mine + 1
        self.open += 1
        return True

    def release(self, client: str) -> None:
        left = self.by_client.get(client, 0) - 1
        if left > 0:
            self.by_client[client] = left
        else:
            self.by_client.pop(client, None)
        self.open = max(0, self.open - 1)


class _Gated(asyncio.Protocol):
    """aiohttp's protocol behind the gate: refused connections never reach it."""

    __slots__ = ("_gate", "_factory", "_inner", "_client", "_transport", "_held")

    def __init__(self, gate: ConnectionGate, factory: Callable[[], asyncio.Protocol]):
        self._gate = gate
        self._factory = factory  # aiohttp's handler is made only for an admitted connection
        self._inner: asyncio.Protocol | None = None
        self._client = ""
        self._transport: asyncio.BaseTransport | None = None
        self._held: list[bytes] = []  # bytes kept unread while the client must wait

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        gate = self._gate
        if gate.yield_to is not None:
            gate.yield_to(YIELD_AT_MOST)  # a storm of connections gives way to a press too
        peer = transport.get_extra_info("peername")
        self._client = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not gate.admit(self._client):
            transport.abort()  # the descriptor goes now, not after a timeout
            return
        self._inner = self._factory()
        self._transport = transport
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._inner is None:
            return
        gate = self._gate
        if gate.yield_to is not None:
            gate.yield_to(YIELD_AT_MOST)  # a press being refereed goes first
        if self._held:
            self._held.append(data)
            return
        wait = gate.holding(self._client) if gate.holding is not None else 0.0
        if wait > 0 and self._transport is not None:
            # told to wait (429) and sending anyway: this is kept unread, and nothing more is
            # read from the connection, until the wait is over
            gate.held += 1
            self._held.append(data)
            self._transport.pause_reading()  # type: ignore[attr-defined]
            asyncio.get_running_loop().call_later(wait, self._resume)
            return
        self._inner.data_received(data)

    def _resume(self) -> None:
        held, self._held = self._held, []
        transport, inner = self._transport, self._inner
        if inner is None or transport is None or transport.is_closing():
            return
        for data in held:
            inner.data_received(data)
        transport.resume_reading()  # type: ignore[attr-defined]

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        inner, self._inner = self._inner, None
        self._transport = None
        if inner is None:
            return
        self._gate.release(self._client)
        inner.connection_lost(exc)


class QuietErrors:
    """The web loop's exception handler: the same message (e.g. asyncio's "socket.accept()
    out of system resource") is logged once, then at most every ``NOTE_EVERY`` seconds with
    how many were left out."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._last: dict[str, tuple[float, int]] = {}

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        message = str(context.get("message") or "error")
        now = self._clock()
        when, skipped = self._last.get(message, (-NOTE_EVERY, 0))
        if now - when < NOTE_EVERY:
            self._last[message] = (when, skipped + 1)
            return
        self._last[message] = (now, 0)
        exc = context.get("exception")
        why = f": {exc}" if exc is not None else ""
        more = f" ({skipped} more like it not logged)" if skipped else ""
        log.error("web: %s%s%s", message, " ".join(why.split()), more)
