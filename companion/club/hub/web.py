"""The hub's pages and API (aiohttp): the live page of every board, a board's full table page,
the projector view, ``/api/boards``, ``/api/results`` and the WebSockets that feed the pages.

The board pages reuse the companion's own table rendering (``/static/view.js`` and
``app.css`` from ``companion/views/web/static``); the hub's own files are under ``/club/``.
The companion's middlewares answer here too: security headers (a strict CSP), the Host check
against DNS rebinding and the per-client rate limit.

To extend the hub (another page, another API), add routes to the app ``make_app`` returns, or
pass ``extend``: callables that take the app, before it starts. ``app[CLUB]`` is the ClubHub.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from aiohttp import WSMsgType, web

from companion.club import topics
from companion.views.web.app import (
    HOSTS,
    LIMITER,
    PAGES,
    check_host,
    error,
    limit_rate,
    load_pages,
    same_origin,
    security_headers,
)
from companion.views.web.app import STATIC as BOARD_STATIC
from companion.views.web.hosts import HostCheck
from companion.views.web.ratelimit import RateLimiter

from .club import ClubHub
from .feed import Subscriber, board_topic, dumps

STATIC = Path(__file__).parent / "static"
CLUB = web.AppKey("club", ClubHub)
MAX_SOCKETS = 512
MAX_RESULTS = 200  # results in one page of /api/results
MAX_SOCKETS_PER_CLIENT = 16  # one address's live pages (a projector, a few phones)


def _page(request: web.Request, name: str, status: int = 200) -> web.Response:
    return web.Response(
        body=request.app[PAGES][name], status=status, content_type="text/html", charset="utf-8"
    )


def _json(value: object) -> web.Response:
    return web.Response(text=dumps(value), content_type="application/json", charset="utf-8")


async def hub_page(request: web.Request) -> web.Response:
    return _page(request, "hub.html")


async def projector_page(request: web.Request) -> web.Response:
    return _page(request, "projector.html")


async def board_page(request: web.Request) -> web.Response:
    if not topics.valid_board_name(request.match_info["name"]):
        return _page(request, "notfound.html", 404)
    return _page(request, "board.html")


async def api_boards(request: web.Request) -> web.Response:
    club = request.app[CLUB]
    return _json({"boards": club.state.summaries(), "hub": club.hub_summary()})


async def api_board(request: web.Request) -> web.Response:
    """One board: its summary and its public view as published."""
    club = request.app[CLUB]
    board = club.state.boards.get(request.match_info["name"])
    if board is None:
        return error(404, "no-such-board", "no board of that name has published")
    return _json({"board": board.summary(), "view": board.view})


async def api_results(request: web.Request) -> web.Response:
    """Stored results, newest first, one page at a time: ``?board=NAME`` for one board's,
    ``?limit=N`` (at most MAX_RESULTS), ``?before=ID`` for the page after the one whose
    ``next`` it is, ``?records=0`` without the records. A page holds about 2 MB of JSON at
    most (one result at least)."""
    board = request.query.get("board") or None
    if board is not None and not topics.valid_board_name(board):
        return error(400, "bad-request", "board must be a board's name")
    try:
        limit = max(1, min(int(request.query.get("limit", "50")), MAX_RESULTS))
        before = request.query.get("before")
        before = int(before) if before is not None else None
    except ValueError:
        return error(400, "bad-request", "limit and before must be numbers")
    records = request.query.get("records", "1") != "0"
    games, after = request.app[CLUB].store.page(board, limit, before, records=records)
    return _json({"games": games, "next": after})


async def websocket(request: web.Request) -> web.StreamResponse:
    """``/ws``: every board's summary and small board; ``/ws/board/NAME``: that board's public
    view (``{"type": "state", "view"}``, as the companion's own table page gets it)."""
    origin = request.headers.get("Origin")
    if origin is not None and not same_origin(origin, request.host):
        return error(403, "bad-origin", "WebSocket from another site refused")
    club = request.app[CLUB]
    name = request.match_info.get("name")
    if name is not None and not topics.valid_board_name(name):
        return error(404, "no-such-board", "not a board's name")
    remote = request.remote or "?"
    if len(club.feed.subscribers) >= MAX_SOCKETS:
        return error(429, "too-many-sockets", "too many live connections")
    if club.feed.count(remote) >= MAX_SOCKETS_PER_CLIENT:
        return error(429, "too-many-sockets", "too many live connections from this address")
    ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024, compress=False)
    await ws.prepare(request)
    topic = board_topic(name) if name is not None else "*"
    subscriber = Subscriber(ws, topic, remote)
    subscriber.put("hub", dumps({"type": "hub", **club.hub_summary()}))
    if name is None:
        subscriber.put("all", dumps({"type": "boards", "boards": club.state.summaries()}))
        for board in sorted(club.state.boards):
            subscriber.put(board, dumps(club.board_message(board)))
    else:
        for key, message in (
            ("view", club.view_message(name)),
            ("board", club.summary_message(name)),
        ):
            if message is not None:
                subscriber.put(key, dumps(message))
    club.feed.add(subscriber)
    limiter = request.app[LIMITER]
    try:
        async for msg in ws:  # the pages only listen: a client that talks too much is cut off
            if msg.type == WSMsgType.ERROR or not limiter.allow(remote):
                await ws.close()
    finally:
        club.feed.remove(subscriber)
    return ws


def load_hub_pages() -> dict[str, bytes]:
    """The companion's error pages and the hub's own."""
    return {**load_pages(), **{p.name: p.read_bytes() for p in STATIC.glob("*.html")}}


def make_app(
    club: ClubHub,
    hosts: HostCheck | None = None,
    limiter: RateLimiter | None = None,
    extend: Iterable[Callable[[web.Application], None]] = (),
) -> web.Application:
    app = web.Application(middlewares=[security_headers, check_host, limit_rate])
    app[CLUB] = club
    app[HOSTS] = hosts or HostCheck.for_machine()
    app[LIMITER] = limiter or RateLimiter()
    app[PAGES] = load_hub_pages()

    async def on_shutdown(app: web.Application) -> None:
        await club.close()

    app.on_shutdown.append(on_shutdown)
    r = app.router
    r.add_get("/", hub_page)
    r.add_get("/projector", projector_page)
    r.add_get("/board/{name}", board_page)
    r.add_get("/api/boards", api_boards)
    r.add_get("/api/board/{name}", api_board)
    r.add_get("/api/results", api_results)
    r.add_get("/ws", websocket)
    r.add_get("/ws/board/{name}", websocket)
    r.add_static("/static/", BOARD_STATIC, append_version=False)
    r.add_static("/club/", STATIC, append_version=False)
    for add in extend:
        add(app)
    return app
