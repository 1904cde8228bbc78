"""Running the hub: the results store, the broker link and the web app in one asyncio loop,
until SIGINT or SIGTERM (then the hub says it is offline on the broker and closes the store)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from aiohttp import web

from companion.core.broker_url import BrokerAddress
from companion.views.web.address import Listen
from companion.views.web.connections import BACKLOG, ConnectionGate, QuietErrors
from companion.views.web.hosts import HostCheck
from companion.views.web.ratelimit import RateLimiter
from companion.views.web.server import GatedRunner

from .club import FORGET_AFTER, ClubHub
from .link import BrokerLink
from .store import ResultStore
from .web import make_app

log = logging.getLogger(__name__)

# said once at the start without [club] user: fine for a try-out on one machine only
ANONYMOUS = (
    "club: no [club] user: %s must take anonymous clients, and anyone on its network can "
    "send results and acknowledge them (binaryon club setup makes users and an ACL)"
)


async def serve(
    broker: BrokerAddress,
    listen: Listen,
    store_path: Path,
    club_config: Any = None,
    hosts: Iterable[str] = (),
    say: Callable[[str], None] = print,
    extend: Iterable[Callable[[web.Application], None]] = (),
    event: str | Path | None = None,
    forget_after: float = FORGET_AFTER,
) -> None:
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(QuietErrors())  # a storm of sockets: one line, not thousands
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    store = ResultStore(store_path)
    club = ClubHub(store, forget_after)
    on_hub = None  # the event run on the hub (--event)
    on_connection = club.on_connection
    if event is not None:
        from companion.club.event.hub import attach_event

        on_hub, on_connection = attach_event(event, club, say)
        extend = [*extend, on_hub.routes]
    link = BrokerLink(
        broker,
        loop,
        club.handle,
        on_connection,
        club=club_config,
        client_id=f"hub-{os.getpid()}-{uuid.uuid4().hex[:8]}",
    )
    club.attach(link)
    limiter = RateLimiter()
    app = make_app(club, HostCheck.for_machine(listen.host, hosts), limiter, extend=extend)
    # every connection through the gate: per client and in all, sized to the file limit
    gate = ConnectionGate(holding=limiter.holding)
    runner = GatedRunner(
        app,
        gate,
        access_log=None,
        handle_signals=False,
        shutdown_timeout=1.0,
        keepalive_timeout=15,
    )
    await runner.setup()
    forgetting = loop.create_task(_forget_idle(club))
    try:
        site = web.TCPSite(runner, listen.host, listen.port, reuse_address=True, backlog=BACKLOG)
        await site.start()
        port = runner.addresses[0][1] if runner.addresses else listen.port
        host = listen.host if listen.host not in ("", "0.0.0.0", "::") else "127.0.0.1"
        host = f"[{host}]" if ":" in host else host
        link.start()
        say(f"club: hub on http://{host}:{port}/ with broker {broker}, results in {store_path}")
        if not getattr(club_config, "user", ""):
            log.warning(ANONYMOUS, broker)
        if on_hub is not None:
            on_hub.start_watching(loop)
        await stop.wait()
    finally:
        forgetting.cancel()
        link.stop()
        await runner.cleanup()
        if on_hub is not None:
            on_hub.close()
        store.close()


async def _forget_idle(club: ClubHub) -> None:
    """Every so often, the boards offline and silent for ``club.forget_after`` go."""
    while True:
        await asyncio.sleep(max(1.0, min(60.0, club.forget_after / 4)))
        club.forget_idle()
