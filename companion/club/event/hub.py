"""An event on the hub (``binaryon club --event EVENT.toml``): the desk gets the hub's
results as they are stored, publishes through the hub's broker link (every pairing again
on each connection: a broker restarted without persistence has forgotten them), adds its
pages to the hub's app and reads the event's file again when ``binaryon event`` wrote it."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from companion.club.event.desk import EventDesk
from companion.club.event.tournament import PairingJob
from companion.club.event.web import event_routes

WATCH_SECONDS = 2.0


class EventOnHub:
    def __init__(self, event: str | Path, club: Any, say: Callable[[str], None]):
        self.club = club
        self._pool: ProcessPoolExecutor | None = None
        self.desk = EventDesk(event, self._publish, background=self._background)
        self.routes = event_routes(self.desk)
        self._task: asyncio.Task | None = None
        club.listeners.append(self._heard)
        club.keep.update(self.desk.event.boards)  # an event's boards are never forgotten
        taken = self.desk.catch_up(club.store.each())
        e, t = self.desk.event, self.desk.tournament
        say(
            f"club: event {e.name!r} ({e.game}, {e.pairing}): round {t.round} of {e.rounds}"
            + (f", {taken} result(s) taken from the results" if taken else "")
            + f"; standings at /event; the arbiter's token: {self.desk.token}"
        )

    def _publish(self, topic: str, payload: Any, retain: bool) -> None:
        if self.club.link is not None:  # before the link exists: sent on its connection
            self.club.publish(topic, payload, retain=retain)

    def _heard(self, kind: str, board: str, message: dict[str, Any]) -> None:
        if kind == "result":
            self.desk.on_result(board, message)

    def on_connection(self, connected: bool, note: str) -> None:
        self.club.on_connection(connected, note)
        if connected:
            self.desk.publish_pairings(force=True)

    def _background(self, job: PairingJob) -> asyncio.Future:
        """The pairing in a process of its own (a Swiss round of hundreds of players takes
        seconds of CPU: the hub's loop, its pages and the results go on meanwhile)."""
        if self._pool is None:
            # spawned, not forked: the hub has threads (paho's) that a fork would copy
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return asyncio.wrap_future(self._pool.submit(job.run))

    def start_watching(self, loop: asyncio.AbstractEventLoop) -> None:
        async def watch() -> None:
            while True:
                await asyncio.sleep(WATCH_SECONDS)
                self.desk.refresh()

        self._task = loop.create_task(watch())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(Exception):
            self.desk.close()


def attach_event(event: str | Path, club: Any, say: Callable[[str], None]):
    """The event on ``club``, and the connection callback the broker link is to call."""
    on_hub = EventOnHub(event, club, say)
    return on_hub, on_hub.on_connection
