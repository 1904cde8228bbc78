"""The hub's WebSocket fan-out: each change is serialised once and the same text goes to every
page that shows it. A page that reads slowly never holds up the others: each socket has its
own sender task, and what waits for it is at most the newest message of each kind (each
board's newest update replaces the one before it), so its memory is bounded by the boards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

SEND_TIMEOUT = 10.0  # seconds a page may take to take one message before it is dropped


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Subscriber:
    """One page's socket: ``topic`` is ``"*"`` (every board) or ``board_topic(name)``."""

    def __init__(self, ws: web.WebSocketResponse, topic: str, remote: str = ""):
        self.ws = ws
        self.topic = topic
        self.remote = remote  # the client's address (a cap on sockets per address)
        self.pending: dict[str, str] = {}  # key -> the newest message for it
        self.wake = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._send())

    def put(self, key: str, message: str) -> None:
        self.pending.pop(key, None)  # re-inserted last: messages go in the order they came
        self.pending[key] = message
        self.wake.set()

    async def _send(self) -> None:
        try:
            while not self.ws.closed:
                await self.wake.wait()
                self.wake.clear()
                while self.pending and not self.ws.closed:
                    key = next(iter(self.pending))
                    message = self.pending.pop(key)
                    await asyncio.wait_for(self.ws.send_str(message), SEND_TIMEOUT)
        except (TimeoutError, ConnectionError, RuntimeError):
            with contextlib.suppress(Exception):
                await self.ws.close()

    def close(self) -> None:
        self.task.cancel()


def board_topic(name: str) -> str:
    return f"board:{name}"


class Feed:
    def __init__(self) -> None:
        self.subscribers: set[Subscriber] = set()

    def add(self, subscriber: Subscriber) -> None:
        self.subscribers.add(subscriber)

    def count(self, remote: str) -> int:
        """Live sockets from the address ``remote``."""
        return sum(1 for s in self.subscribers if s.remote == remote)

    def remove(self, subscriber: Subscriber) -> None:
        self.subscribers.discard(subscriber)
        subscriber.close()

    def publish(self, topic: str, key: str, message: Any) -> None:
        """Send ``message`` (serialised here, once) to every socket of ``topic``: ``"*"`` for
        the pages of all boards, ``board_topic(name)`` for one board's page. ``key`` names what
        it replaces when it waits for a slow socket (a board's name, ``"view"``, ``"hub"``)."""
        text = message if isinstance(message, str) else dumps(message)
        for s in self.subscribers:
            if s.topic == topic:
                s.put(key, text)

    def publish_everywhere(self, key: str, message: Any) -> None:
        text = message if isinstance(message, str) else dumps(message)
        for s in self.subscribers:
            s.put(key, text)

    async def close(self) -> None:
        for s in list(self.subscribers):
            self.remove(s)
            with contextlib.suppress(Exception):
                await s.ws.close()
