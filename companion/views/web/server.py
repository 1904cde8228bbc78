"""The web server in its own thread with its own asyncio loop, beside the daemon.

server = WebServer(backend, "0.0.0.0:8080")
server.start()          # raises WebError with a one-line reason (e.g. port in use)
...
server.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket
import threading
from collections.abc import Callable, Iterable

from aiohttp import web

from .address import Listen, ListenError, parse_listen
from .app import make_app
from .backend import WebBackend
from .connections import BACKLOG, ConnectionGate, Limits, QuietErrors
from .hosts import HostCheck
from .hub import Hub
from .invite import base_url
from .ratelimit import RateLimiter

log = logging.getLogger(__name__)


class WebError(RuntimeError):
    """The web server could not start; the message is one line for the user, ``short`` a
    few words for the OLED."""

    def __init__(self, message: str, short: str = ""):
        super().__init__(message)
        self.short = short or "cannot start"


class GatedRunner(web.AppRunner):
    """An AppRunner whose sites hand every new connection to the gate first."""

    def __init__(self, app: web.Application, gate: ConnectionGate, **kwargs):
        super().__init__(app, **kwargs)
        self.gate = gate

    @property
    def server(self):  # the protocol factory a TCPSite listens with
        inner = super().server
        if inner is None:
            return None
        return lambda: self.gate.protocol(inner)


def _no_socket_reason(host: str) -> tuple[str, str]:
    """Why no listening socket could be made for ``host``: (the reason, a short form)."""
    families = [socket.AF_INET6] if ":" in host else [socket.AF_INET]
    if host in ("", "::"):
        families = [socket.AF_INET, socket.AF_INET6]
    for family in families:
        try:
            socket.socket(family, socket.SOCK_STREAM).close()
        except OSError as e:
            if e.errno == errno.EAFNOSUPPORT:
                name = "AF_INET6" if family == socket.AF_INET6 else "AF_INET"
                return (
                    f"{os.strerror(e.errno)} ({name} sockets are not allowed to this process: "
                    "the service unit's RestrictAddressFamilies must list it; reinstall the "
                    "unit with: sudo binaryon install-service)",
                    "network blocked",
                )
            return (e.strerror or str(e), "no socket")
    return ("no listening socket could be opened", "no socket")


class WebServer:
    def __init__(
        self,
        backend: WebBackend,
        listen: str | Listen = "127.0.0.1:8080",
        *,
        limiter: RateLimiter | None = None,
        hosts: Iterable[str] = (),
        yield_to: Callable[[float], object] | None = None,
        limits: Limits | None = None,
    ):
        try:
            self.listen = listen if isinstance(listen, Listen) else parse_listen(listen)
        except ListenError as e:
            raise WebError(str(e)) from None
        self.backend = backend
        self._limiter = limiter
        self._hosts = tuple(hosts)
        self._yield_to = yield_to
        self._limits = limits
        self.gate: ConnectionGate | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.port: int | None = None
        self.hub: Hub | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def url(self) -> str:
        """Where this machine reaches the server (loopback for a wildcard address)."""
        host = self.listen.host
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}"

    def base_url(self) -> str:
        """Where other devices reach the server: for invites and QR codes."""
        return base_url(Listen(self.listen.host, self.port or self.listen.port))

    def start(self, timeout: float = 10.0) -> None:
        if self.running:
            return
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise WebError(f"web server on {self.listen} did not start in {timeout:.0f} s")
        if self._error is not None:
            self._thread.join(timeout)
            self._thread = None
            err = self._error
            if isinstance(err, WebError):
                raise err
            reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            in_use = isinstance(err, OSError) and err.errno == errno.EADDRINUSE
            short = "port in use" if in_use else "no socket"
            raise WebError(f"web: cannot listen on {self.listen}: {reason}", short)
        log.info("web: serving on %s", self.url)

    def stop(self, timeout: float = 10.0) -> None:
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        with contextlib.suppress(RuntimeError):  # already closed
            loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        self._thread = None

    # --- the web thread ---
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._start())
        except BaseException as e:  # noqa: BLE001 - reported to start()
            self._error = e
            self._ready.set()
            loop.run_until_complete(self._cleanup())
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._cleanup())
            loop.close()

    async def _start(self) -> None:
        asyncio.get_running_loop().set_exception_handler(QuietErrors())
        self.hub = Hub(self.backend)
        hosts = HostCheck.for_machine(self.listen.host, self._hosts)
        limiter = self._limiter or RateLimiter()
        app = make_app(self.backend, self.hub, limiter, hosts)
        self.gate = ConnectionGate(self._limits, yield_to=self._yield_to, holding=limiter.holding)
        self._runner = GatedRunner(
            app,
            self.gate,
            access_log=None,
            handle_signals=False,
            shutdown_timeout=1.0,
            keepalive_timeout=15,
        )
        await self._runner.setup()
        site = web.TCPSite(
            self._runner, self.listen.host, self.listen.port, reuse_address=True, backlog=BACKLOG
        )
        await site.start()
        addresses = self._runner.addresses  # (host, port, ...) of every bound socket
        if not addresses:  # asyncio skips a socket() that fails (e.g. a blocked family)
            reason, short = _no_socket_reason(self.listen.host)
            raise WebError(f"web: cannot listen on {self.listen}: {reason}", short)
        self.port = addresses[0][1]

    async def _cleanup(self) -> None:
        if self._runner is not None:
            try:
                await self._runner.cleanup()
            except Exception:
                log.exception("web: shutdown failed")
            self._runner = None
