"""The web server in its own thread with its own asyncio loop, beside the daemon.

server = WebServer(backend, "0.0.0.0:8080")
server.start()          # raises WebError with a one-line reason (e.g. port in use)
...
server.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading

from aiohttp import web

from .address import Listen, ListenError, parse_listen
from .app import make_app
from .backend import WebBackend
from .hub import Hub
from .invite import base_url
from .ratelimit import RateLimiter

log = logging.getLogger(__name__)


class WebError(RuntimeError):
    """The web server could not start; the message is one line for the user."""


class WebServer:
    def __init__(
        self,
        backend: WebBackend,
        listen: str | Listen = "127.0.0.1:8080",
        *,
        limiter: RateLimiter | None = None,
    ):
        try:
            self.listen = listen if isinstance(listen, Listen) else parse_listen(listen)
        except ListenError as e:
            raise WebError(str(e)) from None
        self.backend = backend
        self._limiter = limiter
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
            reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            raise WebError(f"web: cannot listen on {self.listen}: {reason}")
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
        self.hub = Hub(self.backend)
        app = make_app(self.backend, self.hub, self._limiter)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=1.0, keepalive_timeout=15
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.listen.host, self.listen.port, reuse_address=True)
        await site.start()
        addresses = self._runner.addresses  # (host, port, ...) of every bound socket
        self.port = addresses[0][1] if addresses else self.listen.port

    async def _cleanup(self) -> None:
        if self._runner is not None:
            try:
                await self._runner.cleanup()
            except Exception:
                log.exception("web: shutdown failed")
            self._runner = None
