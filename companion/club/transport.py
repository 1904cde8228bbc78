"""The broker as remote play sees it: publish a JSON message on a topic, subscribe with a
callback that runs in the daemon's loop thread, and whether the broker is there now (a change
is followed by an event in the loop, so the opponent looks again).

``LinkTransport`` is the board's own club link (``companion.club.board_link``): one client
per board, whose network thread only posts into the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Handler = Callable[[dict[str, Any] | None], None]


class Transport(Protocol):
    def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Send ``message`` as JSON, QoS 1 (kept while the broker is away)."""

    def subscribe(self, topic: str, handler: Handler) -> None:
        """``handler(message)`` runs in the loop's thread for each message heard (None: an
        empty payload)."""

    @property
    def connected(self) -> bool:
        """On the broker now (read in the loop's thread)."""


class LinkTransport:
    """Remote play over the board's club link: the link publishes, calls its subscribers in
    the loop's thread, and a (re)connection is an event there."""

    def __init__(self, link: Any):
        self.link = link

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        self.link.publish(topic, message, qos=1)

    def subscribe(self, topic: str, handler: Handler) -> None:
        self.link.subscribe(topic, lambda _topic, message: handler(message))

    @property
    def connected(self) -> bool:
        return bool(self.link.connected)
