"""The web server's link to the backend: cached views, backend calls off the event loop, and the
WebSocket clients that get a fresh view after every change.

Lives in the web server's event loop. The backend's change callback may come from any thread;
it only bumps a counter through ``call_soon_threadsafe``, so the daemon never waits for the web.
Changes that come while a broadcast is under way are folded into one more broadcast.

Fan-out: each distinct view is serialised once per change (``Hub.serialise``): the table's
view once for every table page and ``/api/state``, a player's view once for all of that
player's sockets and ``/api/me``. The same bytes object then goes to every socket that shows
it, uncompressed (``send_frame``: no per-socket encoding or deflate), written at once when the
socket's buffer has room; a client that is behind gets its messages in a task of its own,
only the newest waiting, so it holds up nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from .backend import WebBackend

log = logging.getLogger(__name__)
T = TypeVar("T")

CALL_TIMEOUT = 5.0  # seconds the web waits for the daemon before answering 503
SEND_TIMEOUT = 5.0  # seconds a client may take to take a message before it is dropped
GONE = 4001  # WebSocket close code: the player's token is not for the game in progress
FRAME_HEADER = 14  # bytes a WebSocket frame's header may add to its message
MAX_PLAYERS_KEPT = 16  # players' views kept between changes (older games' are let go)
STALE = 0.25  # seconds after which a view's message is stamped again for a new socket


class BackendUnavailable(Exception):
    """The backend raised or did not answer in time."""


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, eq=False)
class Serialised:
    """One view as sent: its JSON (``/api/state``, ``/api/me``) and the WebSocket message
    holding it, made once for everyone who is shown that view. ``version``: the change count
    the view is at least as new as."""

    version: int
    json: bytes
    message: bytes
    at: float = 0.0  # the server's time in the message (``now``): unix time, in seconds


def state_message(text: bytes, now: float) -> bytes:
    """The WebSocket message of a view: with the server's time, from which a page reckons
    its clock's offset from the server's (the game clock ticks from the view's ``as_of``)."""
    return b'{"type":"state","now":%.3f,"view":%s}' % (now, text)


@dataclass(eq=False)
class Client:
    ws: web.WebSocketResponse
    remote: str
    player: str | None = None
    token: str | None = None
    transport: asyncio.Transport | None = field(default=None, repr=False)  # the request's
    sent: bytes | None = field(default=None, repr=False)  # the last message sent (shared)
    sent_json: bytes | None = field(default=None, repr=False)  # the view in it (shared)
    sent_version: int = -1  # the change count the last view sent was at least as new as
    sending: asyncio.Future | None = field(default=None, repr=False)  # a slow send under way
    queued: Serialised | None = field(default=None, repr=False)  # the newest, waiting for it


class Hub:
    def __init__(self, backend: WebBackend):
        self.backend = backend
        # views and lookups (cheap) and actions (may wait for the daemon) on separate workers,
        # so a slow move never holds up the pages
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="web-views")
        self.actions = ThreadPoolExecutor(max_workers=1, thread_name_prefix="web-actions")
        self.loop: asyncio.AbstractEventLoop | None = None
        self.version = 0
        self._public: Serialised | None = None
        self._players: dict[str, Serialised] = {}  # player -> their view, this change's
        self.clients: set[Client] = set()
        self._broadcasting: asyncio.Task | None = None
        self._closing: set[asyncio.Task] = set()  # clients being closed (kept till done)
        self._again = False
        self._closed = False
        self.wall: Callable[[], float] = time.time  # the server's time in the messages

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

    def _read(self, fn: Callable[[], T]) -> T:
        """A view method that returns the snapshot the daemon keeps (backend.py: cheap), read
        here in the loop: a move reaches the table pages without two more thread hops."""
        try:
            return fn()
        except Exception as e:  # one line, as for call()
            why = f"{type(e).__name__}: {' '.join(str(e).split())}"[:200]
            log.error("web: backend %s failed: %s", getattr(fn, "__name__", fn), why)
            raise BackendUnavailable("the referee could not answer") from e

    def serialise(self, view: Any) -> bytes:
        """A view as JSON: the one place a view is serialised (once per change and view)."""
        try:
            return dumps(view).encode()
        except (TypeError, ValueError) as e:
            log.error("web: the backend's view is not JSON: %s", e)
            raise BackendUnavailable("the referee's view could not be sent") from e

    def _made(self, version: int, view: Any, before: Serialised | None) -> Serialised:
        text = self.serialise(view)
        if before is not None and before.json == text:  # unchanged: the same bytes again,
            return Serialised(version, before.json, before.message, before.at)  # not resent
        now = self.wall()
        return Serialised(version, text, state_message(text, now), now)

    def stamped(self, view: Serialised) -> Serialised:
        """``view`` for a socket that just opened: its message stamped with the time now
        when it was made a while ago (the same view: its ``json`` is the same object)."""
        now = self.wall()
        if abs(now - view.at) <= STALE:
            return view
        return Serialised(view.version, view.json, state_message(view.json, now), now)

    async def public(self) -> Serialised:
        """The table's view, serialised once per change however many ask for it."""
        version = self.version
        cached = self._public
        if cached is not None and cached.version == version:
            return cached
        made = self._made(version, self._read(self.backend.public_view), cached)
        if self._public is None or self._public.version <= version:
            self._public = made
        return made

    async def player(self, player: str) -> Serialised:
        """``player``'s own view, serialised once per change for all their sockets."""
        version = self.version
        cached = self._players.get(player)
        if cached is not None and cached.version == version:
            return cached
        made = self._made(version, await self.call(self.backend.player_view, player), cached)
        latest = self._players.get(player)
        if latest is None or latest.version <= version:
            if len(self._players) >= MAX_PLAYERS_KEPT:  # players of games gone by
                self._players = {p: v for p, v in self._players.items() if v.version >= version}
            self._players[player] = made
        return made

    async def current_player(self, token: str | None) -> str | None:
        """The player ``token`` belongs to if they play the game in progress, else None."""
        if not token:
            return None
        player = await self.call(self.backend.token_player, token)
        if player is None:
            return None
        players = await self.call(self.backend.players)
        return player if player in players else None

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
        pages: dict[str, list[Client]] = {}  # a player's token -> its sockets
        table = []
        for client in clients:
            if client.player is None:
                table.append(client)
            else:
                pages.setdefault(client.token or "", []).append(client)
        if table:  # the table's view first: it needs nothing more from the backend
            public = await self.public()
            for client in table:
                await self.deliver(client, public)
        for token, group in pages.items():
            player = await self.current_player(token)
            if player is None:
                await asyncio.gather(*(self.send_gone(client) for client in group))
                continue
            view = await self.player(player)
            for client in group:
                await self.deliver(client, view)

    async def welcome(self, client: Client) -> None:
        """Register a new WebSocket client and send it the current view. Registered first, so
        a change while its view is computed is sent to it too, and never older than this."""
        self.clients.add(client)
        if client.player is None:
            await self.deliver(client, self.stamped(await self.public()))
            return
        player = await self.current_player(client.token)
        if player is None:
            await self.send_gone(client)
        else:
            await self.deliver(client, self.stamped(await self.player(player)))

    async def deliver(self, client: Client, view: Serialised) -> None:
        """Send ``view`` unless the client has it or a newer one. Written to the socket at
        once when its buffer has room for it (this never waits); else sent by a task of the
        client's own, which sends the newest view queued meanwhile when it is done."""
        if client.ws.closed or view.version < client.sent_version or view.json is client.sent_json:
            return
        if client.sending is not None:
            if client.queued is None or client.queued.version <= view.version:
                client.queued = view
            return
        client.sent, client.sent_json, client.sent_version = view.message, view.json, view.version
        if _has_room(client.transport, len(view.message) + FRAME_HEADER):
            try:  # under the high-water mark: aiohttp writes it and returns, never waiting
                await client.ws.send_frame(view.message, WSMsgType.TEXT)
            except (ConnectionError, RuntimeError):
                self._drop(client)
            return
        client.sending = asyncio.ensure_future(self._send_late(client, view))

    async def _send_late(self, client: Client, view: Serialised | None) -> None:
        try:
            while view is not None:
                await asyncio.wait_for(
                    client.ws.send_frame(view.message, WSMsgType.TEXT), SEND_TIMEOUT
                )
                view, client.queued = client.queued, None
                if view is not None and (
                    view.version < client.sent_version or view.json is client.sent_json
                ):
                    view = None
                if view is not None:
                    client.sent, client.sent_version = view.message, view.version
                    client.sent_json = view.json
        except (ConnectionError, RuntimeError, TimeoutError):
            self._drop(client)
        finally:
            client.sending = None

    def _drop(self, client: Client) -> None:
        """A client that cannot keep up (or is gone): closed, so its page reconnects."""
        self.clients.discard(client)
        client.queued = None

        async def close() -> None:
            with contextlib.suppress(Exception):
                await client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"too slow")

        task = asyncio.ensure_future(close())  # never waited for here: nobody is held up
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

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


def _has_room(transport: asyncio.Transport | None, size: int) -> bool:
    """Whether ``size`` more bytes keep the transport under its high-water mark, so writing
    them neither pauses the protocol nor makes aiohttp wait for the buffer to drain."""
    if transport is None or transport.is_closing():
        return False
    buffered = transport.get_write_buffer_size()
    low, high = transport.get_write_buffer_limits()
    return buffered <= low and buffered + size <= high
