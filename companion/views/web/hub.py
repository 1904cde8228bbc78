"""The web server's link to the backend: cached views, backend calls off the event loop, and the
WebSocket clients that get a fresh view after every change.

Lives in the web server's event loop. The backend's change callback may come from any thread;
it only bumps a counter through ``call_soon_threadsafe``, so the daemon never waits for the web.
Changes that come while a broadcast is under way are folded into one more broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSCloseCode, web

from .backend import WebBackend

log = logging.getLogger(__name__)
T = TypeVar("T")

CALL_TIMEOUT = 5.0  # seconds the web waits for the daemon before answering 503
SEND_TIMEOUT = 5.0  # seconds a client may take to take a message before it is dropped
GONE = 4001  # WebSocket close code: the player's token is not for the game in progress


class BackendUnavailable(Exception):
    """The backend raised or did not answer in time."""


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(eq=False)
class Client:
    ws: web.WebSocketResponse
    remote: str
    player: str | None = None
    token: str | None = None
    last_sent: str | None = field(default=None, repr=False)
    sent_version: int = -1  # the change count the last view sent was at least as new as
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)


class Hub:
    def __init__(self, backend: WebBackend):
        self.backend = backend
        # views and lookups (cheap) and actions (may wait for the daemon) on separate workers,
        # so a slow move never holds up the pages
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="web-views")
        self.actions = ThreadPoolExecutor(max_workers=1, thread_name_prefix="web-actions")
        self.loop: asyncio.AbstractEventLoop | None = None
        self.version = 0
        self._public: tuple[int, str] | None = None  # (version, JSON)
        self.clients: set[Client] = set()
        self._broadcasting: asyncio.Task | None = None
        self._again = False
        self._closed = False

    # --- from any thread ---
    def notify(self) -> None:
        """The backend changed (called from any thread)."""
        loop = self.loop
        if loop is None or self._closed:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closing
            loop.call_soon_threadsafe(self._changed)

    # --- in the loop ---
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    async def call(
        self, fn: Callable[..., T], *args: Any, timeout: float = CALL_TIMEOUT, action: bool = False
    ) -> T:
        """Run a backend method in a worker thread, never on the event loop."""
        loop = asyncio.get_running_loop()
        pool = self.actions if action else self.executor
        try:
            return await asyncio.wait_for(loop.run_in_executor(pool, fn, *args), timeout)
        except TimeoutError:
            log.warning("web: the backend did not answer %s in %.0f s", fn.__name__, timeout)
            raise BackendUnavailable("the referee did not answer in time") from None
        except Exception as e:  # one line: a client must not be able to fill the log
            why = f"{type(e).__name__}: {' '.join(str(e).split())}"[:200]
            log.error("web: backend %s failed: %s", getattr(fn, "__name__", fn), why)
            raise BackendUnavailable("the referee could not answer") from e

    async def public_json(self) -> str:
        """The public view as JSON, computed once per change however many ask for it."""
        return (await self._public_snapshot())[1]

    async def _public_snapshot(self) -> tuple[int, str]:
        """(change count, view): the view is at least as new as that count."""
        version = self.version
        cached = self._public
        if cached is not None and cached[0] == version:
            return cached
        text = self._dumps(await self.call(self.backend.public_view))
        if self._public is None or self._public[0] <= version:
            self._public = (version, text)
        return version, text

    async def current_player(self, token: str | None) -> str | None:
        """The player ``token`` belongs to if they play the game in progress, else None."""
        if not token:
            return None
        player = await self.call(self.backend.token_player, token)
        if player is None:
            return None
        players = await self.call(self.backend.players)
        return player if player in players else None

    async def player_json(self, player: str) -> str:
        return self._dumps(await self.call(self.backend.player_view, player))

    @staticmethod
    def _dumps(view: Any) -> str:
        try:
            return dumps(view)
        except (TypeError, ValueError) as e:
            log.error("web: the backend's view is not JSON: %s", e)
            raise BackendUnavailable("the referee's view could not be sent") from e

    def _changed(self) -> None:
        self.version += 1
        if self._broadcasting is not None and not self._broadcasting.done():
            self._again = True
            return
        self._broadcasting = asyncio.ensure_future(self._broadcast())

    async def _broadcast(self) -> None:
        self._again = True
        while self._again and not self._closed:
            self._again = False
            try:
                await self._send_all()
            except BackendUnavailable:
                pass  # logged; the next change tries again
            except Exception:
                log.exception("web: broadcast failed")

    async def _send_all(self) -> None:
        clients = list(self.clients)
        if not clients:
            return
        version, public = await self._public_snapshot()
        views: dict[str | None, str | None] = {}
        targets: list[tuple[Client, str | None]] = []  # every view first: a backend that
        for client in clients:  # fails midway then leaves no send coroutine unawaited
            if client.player is None:
                targets.append((client, public))
                continue
            if client.token not in views:
                player = await self.current_player(client.token)
                views[client.token] = await self.player_json(player) if player else None
            targets.append((client, views[client.token]))
        await asyncio.gather(  # together: a slow client holds up nobody
            *(
                self.send_gone(client) if text is None else self.send_view(client, text, version)
                for client, text in targets
            )
        )

    async def welcome(self, client: Client) -> None:
        """Register a new WebSocket client and send it the current view. Registered first, so
        a change while its view is computed is sent to it too, and never older than this."""
        self.clients.add(client)
        if client.player is None:
            version, text = await self._public_snapshot()
            await self.send_view(client, text, version)
            return
        version = self.version
        player = await self.current_player(client.token)
        if player is None:
            await self.send_gone(client)
        else:
            await self.send_view(client, await self.player_json(player), version)

    async def send_view(self, client: Client, view_json: str, version: int) -> None:
        """Send a view unless the client has it or already has a newer one."""
        async with client.lock:
            if client.ws.closed or version < client.sent_version or view_json == client.last_sent:
                return
            client.sent_version, client.last_sent = version, view_json
            try:
                await asyncio.wait_for(
                    client.ws.send_str('{"type":"state","view":' + view_json + "}"), SEND_TIMEOUT
                )
            except (ConnectionError, RuntimeError, TimeoutError):
                self.clients.discard(client)
                with contextlib.suppress(Exception):
                    await client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"too slow")

    async def send_gone(self, client: Client) -> None:
        self.clients.discard(client)
        try:
            await client.ws.send_str(
                dumps({"type": "gone", "reason": "this link is not for the game in progress"})
            )
            await client.ws.close(code=GONE, message=b"not a player of this game")
        except (ConnectionError, RuntimeError):
            pass

    async def close(self) -> None:
        """Tell every WebSocket client the server is going away (they reconnect)."""
        self._closed = True
        for client in list(self.clients):
            with contextlib.suppress(ConnectionError, RuntimeError):
                await client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server restarting")
        self.clients.clear()
        if self._broadcasting is not None:
            self._broadcasting.cancel()

    def shutdown_executor(self) -> None:
        for pool in (self.executor, self.actions):
            pool.shutdown(wait=False, cancel_futures=True)
