"""The aiohttp application: pages, JSON API, WebSocket, QR codes, static assets.

``make_app(backend)`` builds it; ``WebServer`` (server.py) runs it in its own thread, and tests
run it with aiohttp's test client. Everything the pages load comes from this package.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web

from .backend import WebBackend
from .hosts import HostCheck, host_name
from .hub import BackendUnavailable, Client, Hub, dumps
from .invite import player_url
from .ratelimit import RateLimiter

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096  # bytes: a move is a few characters
MAX_MOVE = 64  # characters of a move or square name
MAX_SOCKETS_PER_CLIENT = 16
MAX_SOCKETS = 256
FRAMES = 50  # views in one page of /api/game/<id> unless ``count`` says
MAX_FRAMES = 100
MAX_PLY = 10**9
HUB = web.AppKey("hub", Hub)
LIMITER = web.AppKey("limiter", RateLimiter)
HOSTS = web.AppKey("hosts", HostCheck)
PAGES = web.AppKey("pages", dict)
UNSUBSCRIBE = web.AppKey("unsubscribe", object)

_HOST_OK = re.compile(r"^[A-Za-z0-9.\-\[\]:]{1,255}$")


def error(status: int, code: str, reason: str, **headers: str) -> web.Response:
    return web.json_response(
        {"ok": False, "code": code, "reason": reason}, status=status, headers=headers or None
    )


def _client_of(request: web.Request) -> str:
    return request.remote or "?"


def same_origin(origin: str, host: str | None) -> bool:
    """Whether the ``Origin`` header names the host the request came to."""
    if not host:
        return False
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    default = 443 if parts.scheme == "https" else 80
    origin_host = parts.hostname.lower()
    try:
        target = urlsplit("//" + host)
        target_host, target_port = (target.hostname or "").lower(), target.port
    except ValueError:
        return False
    return origin_host == target_host and (port or default) == (target_port or default)


# --- middlewares ---
@web.middleware
async def check_host(request: web.Request, handler):
    """Refuse a Host this server does not go by (DNS rebinding): hosts.py."""
    header = request.headers.get("Host")
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    local = str(sockname[0]) if isinstance(sockname, tuple) and sockname else None
    if not request.app[HOSTS].allows(header, local):
        name = host_name(header or "") or "?"
        return error(
            421,
            "bad-host",
            f"this companion does not answer to the name {name[:64]!r}: use its address, "
            "or add the name to [web] hosts",
        )
    return await handler(request)


@web.middleware
async def limit_rate(request: web.Request, handler):
    limiter = request.app[LIMITER]
    client = _client_of(request)
    if not limiter.allow(client):
        wait = max(1, round(limiter.retry_after(client) + 0.5))
        limiter.tell(client, wait)  # what it sends before then waits unread (connections.py)
        return error(
            429, "rate-limited", "too many requests: slow down", **{"Retry-After": str(wait)}
        )
    return await handler(request)


@web.middleware
async def security_headers(request: web.Request, handler):
    try:
        response = await handler(request)
    except web.HTTPException as e:
        if e.status == 404 and not request.path.startswith("/api/"):
            response = _page(request, "notfound.html", 404)
        elif e.status >= 400:  # every error answer is JSON with the headers below
            response = error(e.status, e.reason.lower().replace(" ", "-"), e.reason)
        else:
            response = e  # a redirect: it gets the headers too
    except Exception as e:  # a bug: one log line, and an answer like any other error
        log.error("web: %s %s failed: %s", request.method, request.path, _one_line(e))
        if request.headers.get("Upgrade", "").lower() == "websocket":
            raise  # the socket may be open already: no answer can be sent on it any more
        response = error(500, "internal-error", "the server failed to answer")
    host = request.host if _HOST_OK.match(request.host or "") else ""
    sockets = f" ws://{host} wss://{host}" if host else ""
    headers = response.headers
    headers.setdefault(
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src 'self'{sockets}; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'",
    )
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("X-Frame-Options", "DENY")
    if request.path.startswith("/static/"):
        headers.setdefault("Cache-Control", "no-cache")
    else:
        headers.setdefault("Cache-Control", "no-store")
    return response


# --- helpers ---
def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:200]


def _bearer(request: web.Request) -> str | None:
    auth = request.headers.get("Authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


_TOKEN_CHARS = re.compile(r"[!-~]{1,256}")  # printable ASCII: what a link can carry


def _well_formed(token: str | None) -> bool:
    return token is not None and _TOKEN_CHARS.fullmatch(token) is not None


async def _authorise(request: web.Request) -> str | web.Response:
    """The player whose bearer token came with the request, or the error response."""
    token = _bearer(request)
    if token is None:
        return error(
            401, "no-token", "no player token: open your player link",
            **{"WWW-Authenticate": 'Bearer realm="binaryon"'},
        )  # fmt: skip
    if not _well_formed(token):  # no token ever looks so: refused before any lookup
        return error(403, "bad-token", "not a player of the game in progress")
    try:
        player = await request.app[HUB].current_player(token)
    except BackendUnavailable as e:
        return error(503, "unavailable", str(e))
    if player is None:
        return error(403, "bad-token", "not a player of the game in progress")
    return player


async def _json_body(request: web.Request) -> dict[str, Any] | web.Response:
    if request.content_length is not None and request.content_length > MAX_BODY:
        return error(413, "too-large", f"request body over {MAX_BODY} bytes")
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:
        return error(413, "too-large", f"request body over {MAX_BODY} bytes")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: [[[[...
        return error(400, "bad-json", "the body is not JSON")
    if not isinstance(body, dict):
        return error(400, "bad-json", "the body must be a JSON object")
    return body


def _answer(answer: Any) -> web.Response:
    if not isinstance(answer, dict):
        return error(503, "unavailable", "the referee gave no answer")
    if answer.get("ok"):
        return web.json_response({**answer, "ok": True})
    code = str(answer.get("code") or "refused")
    reason = str(answer.get("reason") or code)
    confirm = answer.get("confirm")
    if isinstance(confirm, str) and confirm:  # what the player may confirm to do it anyway
        body = {"ok": False, "code": code, "reason": reason, "confirm": confirm}
        return web.json_response(body, status=409)
    return error(409, code, reason)


# --- pages ---
def _page(request: web.Request, name: str, status: int = 200) -> web.Response:
    return web.Response(
        body=request.app[PAGES][name], status=status, content_type="text/html", charset="utf-8"
    )


async def table_page(request: web.Request) -> web.Response:
    return _page(request, "table.html")


async def player_page(request: web.Request) -> web.Response:
    try:
        player = await request.app[HUB].current_player(request.match_info["token"])
    except BackendUnavailable:
        return _page(request, "unavailable.html", 503)
    if player is None:
        return _page(request, "notfound.html", 404)
    return _page(request, "player.html")


# --- API ---
def _json_answer(body: bytes) -> web.Response:
    return web.Response(body=body, content_type="application/json", charset="utf-8")


async def api_state(request: web.Request) -> web.Response:
    try:
        view = await request.app[HUB].public()
    except BackendUnavailable as e:
        return error(503, "unavailable", str(e))
    return _json_answer(view.json)


async def api_me(request: web.Request) -> web.Response:
    player = await _authorise(request)
    if isinstance(player, web.Response):
        return player
    try:
        view = await request.app[HUB].player(player)
    except BackendUnavailable as e:
        return error(503, "unavailable", str(e))
    return _json_answer(view.json)


async def _act(request: web.Request, field: str, method: str) -> web.Response:
    player = await _authorise(request)
    if isinstance(player, web.Response):
        return player
    body = await _json_body(request)
    if isinstance(body, web.Response):
        return body
    claimed = body.get("player")
    if claimed is not None and claimed != player:
        return error(403, "not-your-player", "this token is for another player")
    value = body.get(field)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_MOVE:
        return error(400, "bad-request", f'expected {{"{field}": "<text>"}}')
    hub = request.app[HUB]
    try:
        answer = await hub.call(getattr(hub.backend, method), player, value.strip(), action=True)
    except BackendUnavailable as e:
        return error(503, "unavailable", str(e))
    return _answer(answer)


async def api_move(request: web.Request) -> web.Response:
    return await _act(request, "move", "submit")


async def api_press(request: web.Request) -> web.Response:
    return await _act(request, "square", "press")


async def api_undo(request: web.Request) -> web.Response:
    """``{"undo": "ask" | "accept" | "decline"}``: a takeback every player agrees to."""
    return await _act(request, "undo", "undo")


async def api_clock(request: web.Request) -> web.Response:
    """``{"clock": "pause" | "resume"}``: the game clock, from a player's page."""
    return await _act(request, "clock", "clock")


async def api_tutor(request: web.Request) -> web.Response:
    """``{"tutor": "on" | "off"}``: the tutor for this page's seat alone."""
    return await _act(request, "tutor", "tutor")


async def api_history(request: web.Request) -> web.Response:
    try:
        limit = int(request.query.get("limit", "50"))
    except ValueError:
        return error(400, "bad-request", "limit must be a number")
    limit = max(1, min(limit, 500))
    hub = request.app[HUB]
    try:
        games = await hub.call(hub.backend.history, limit)
    except BackendUnavailable as e:
        return error(503, "unavailable", str(e))
    return web.Response(text=dumps({"games": games}), content_type="application/json")


async def api_game(request: web.Request) -> web.Response:
    """One page of a game's replay: ``from`` (a ply, default 0) and ``count`` (views, 1..
    MAX_FRAMES, default FRAMES): the answer's size is bounded whatever the game's length."""
    game_id = int(request.match_info["id"])
    try:
        first = int(request.query.get("from", "0"))
        count = int(request.query.get("count", str(FRAMES)))
    except ValueError:
        return error(400, "bad-request", "from and count must be whole numbers")
    if not 0 <= first <= MAX_PLY or not 1 <= count <= MAX_FRAMES:
        return error(400, "bad-request", f"from must be 0 or more, count 1..{MAX_FRAMES}")
    hub = request.app[HUB]
    try:
        record = await hub.call(hub.backend.record, game_id, first, count)
    except BackendUnavailable as e:
        return error(503, "unavailable", str(e))
    if record is None:
        return error(404, "no-such-game", f"no game {game_id}")
    return web.Response(text=dumps(record), content_type="application/json")


async def api_review(request: web.Request) -> web.Response:
    """The engine's review of a finished game: GET says where it stands (idle, running with
    its progress, done with the review, refused with one line), POST starts it. The review
    runs in a process of its own (``reviews.Reviews``), never on this loop."""
    game_id = int(request.match_info["id"])
    start = request.method == "POST"
    origin = request.headers.get("Origin")
    if start and origin is not None and not same_origin(origin, request.host):
        return error(403, "bad-origin", "a review asked from another site refused")
    hub = request.app[HUB]
    try:
        answer = await hub.call(hub.backend.review, game_id, start)
    except BackendUnavailable as e:
        return error(503, "unavailable", str(e))
    if answer is None:
        return error(404, "no-such-game", f"no game {game_id}")
    return web.Response(text=dumps(answer), content_type="application/json")


async def qr_code(request: web.Request) -> web.Response:
    """The QR code of a player's own link (shown on their page, to open it elsewhere)."""
    token = request.match_info["token"]
    try:
        player = await request.app[HUB].current_player(token)
    except BackendUnavailable:
        return _page(request, "unavailable.html", 503)
    if player is None:
        return _page(request, "notfound.html", 404)
    from .qr import qr_svg  # segno loads only when someone asks for a code

    base = f"{request.scheme}://{request.host}"
    return web.Response(text=qr_svg(player_url(base, token)), content_type="image/svg+xml")


async def websocket(request: web.Request) -> web.StreamResponse:
    origin = request.headers.get("Origin")
    if origin is not None and not same_origin(origin, request.host):
        return error(403, "bad-origin", "WebSocket from another site refused")
    hub = request.app[HUB]
    remote = _client_of(request)
    if len(hub.clients) >= MAX_SOCKETS or (
        sum(1 for c in hub.clients if c.remote == remote) >= MAX_SOCKETS_PER_CLIENT
    ):
        return error(429, "too-many-sockets", "too many live connections")
    token = request.query.get("token")
    player = None
    if token is not None:
        try:
            player = await hub.current_player(token)
        except BackendUnavailable as e:
            return error(503, "unavailable", str(e))
        if player is None:
            return error(403, "bad-token", "not a player of the game in progress")
    # uncompressed: each view is framed once for every socket (a deflate would be per socket)
    ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024, compress=False)
    await ws.prepare(request)
    client = Client(ws, remote, player, token, transport=request.transport)
    try:
        try:
            await hub.welcome(client)
        except BackendUnavailable:
            await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"referee busy")
            return ws
        limiter = request.app[LIMITER]
        async for _msg in ws:  # the pages only listen (moves go through POST): a client that
            if not limiter.allow(remote):  # talks too much is cut off
                await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many messages")
    finally:
        hub.clients.discard(client)
    return ws


def load_pages() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in STATIC.glob("*.html")}


def make_app(
    backend: WebBackend,
    hub: Hub | None = None,
    limiter: RateLimiter | None = None,
    hosts: HostCheck | None = None,
) -> web.Application:
    app = web.Application(
        middlewares=[security_headers, check_host, limit_rate], client_max_size=MAX_BODY
    )
    hub = hub or Hub(backend)
    app[HUB] = hub
    app[LIMITER] = limiter or RateLimiter()
    app[HOSTS] = hosts or HostCheck.for_machine()
    app[PAGES] = load_pages()

    async def on_startup(app: web.Application) -> None:
        hub.attach(asyncio.get_running_loop())
        app[UNSUBSCRIBE] = backend.subscribe(hub.notify)

    async def on_shutdown(app: web.Application) -> None:
        unsubscribe = app.get(UNSUBSCRIBE)
        if callable(unsubscribe):
            unsubscribe()
        await hub.close()

    async def on_cleanup(app: web.Application) -> None:
        hub.shutdown_executor()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    r = app.router
    r.add_get("/", table_page)
    r.add_get("/p/{token}", player_page)
    r.add_get("/api/state", api_state)
    r.add_get("/api/me", api_me)
    r.add_post("/api/move", api_move)
    r.add_post("/api/press", api_press)
    r.add_post("/api/undo", api_undo)
    r.add_post("/api/clock", api_clock)
    r.add_post("/api/tutor", api_tutor)
    r.add_get("/api/history", api_history)
    r.add_get(r"/api/game/{id:\d{1,12}}", api_game)
    r.add_get(r"/api/review/{id:\d{1,12}}", api_review)
    r.add_post(r"/api/review/{id:\d{1,12}}", api_review)
    r.add_get("/ws", websocket)
    r.add_get("/qr/{token}.svg", qr_code)
    r.add_static("/static/", STATIC, append_version=False)
    return app
