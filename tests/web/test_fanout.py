"""The fan-out to many WebSockets: each view serialised once per change and the same bytes sent
to every socket that shows it; a player's view only on that player's sockets; a player's page
left open costs the daemon nothing; the daemon's web server without TLS."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

from companion.views.web.app import make_app
from companion.views.web.hub import Hub
from companion.views.web.ratelimit import RateLimiter
from tests.live_daemon import start_daemon, stop_daemon
from tests.web_client import bearer, legal_square, run_async, secrets_of
from tests.web_fake import SECRET_PREFIX, FakeBackend

TABLES = 12  # table pages
PAGES = 2  # sockets per player


class CountingHub(Hub):
    """A hub that notes every view it serialises (its public seam)."""

    def __init__(self, backend):
        super().__init__(backend)
        self.made: list[str | None] = []  # whose view, per serialisation

    def serialise(self, view):
        self.made.append(view.get("you") if isinstance(view, dict) else None)
        return super().serialise(view)


async def _open(client, paths: list[str]) -> list:
    return [await client.ws_connect(p) for p in paths]


async def _all_until(sockets: list, ply: int, seen: list[list[str]]) -> None:
    """Every socket read up to a view at ``ply``."""
    pairs = zip(sockets, seen, strict=True)
    await asyncio.gather(*(_read_until(ws, ply, out) for ws, out in pairs))


async def _read_until(ws, ply: int, out: list[str]) -> None:
    """Read views (their text into ``out``) until one at ``ply``."""
    while True:
        msg = await asyncio.wait_for(ws.receive(), 10)
        out.append(msg.data)
        if json.loads(msg.data)["view"]["ply"] >= ply:
            return


async def _many_sockets(backend: FakeBackend, hub: CountingHub):
    from aiohttp.test_utils import TestClient, TestServer

    app = make_app(backend, hub, RateLimiter(rate=10_000, burst=10_000))
    client = TestClient(TestServer(app))
    await client.start_server()
    tokens = backend.tokens()
    paths = ["/ws"] * TABLES
    for player in ("on", "off"):
        paths += [f"/ws?token={tokens[player]}"] * PAGES
    return client, await _open(client, paths)


@run_async
async def test_each_view_is_serialised_once_per_change_and_its_bytes_shared():
    backend = FakeBackend(notify_in_thread=False)
    hub = CountingHub(backend)
    client, sockets = await _many_sockets(backend, hub)
    try:
        seen: list[list[str]] = [[] for _ in sockets]
        await _all_until(sockets, 0, seen)
        hub.made.clear()
        changes = 3
        for _ in range(changes):  # from another thread, as the daemon's notices come
            await asyncio.to_thread(backend.board_press, legal_square(backend))
            await asyncio.sleep(0.05)
        ply = backend.states[-1].ply
        await _all_until(sockets, ply, seen)
        for _ in range(10):  # a player's page asking: no serialisation of its own
            resp = await client.get("/api/me", headers=bearer(backend.tokens()["on"]))
            assert resp.status == 200
        # at most one serialisation per change and view (changes may fold into one), never one
        # per socket: 12 table pages and 2 sockets per player
        assert 0 < hub.made.count(None) <= changes
        assert 0 < hub.made.count("on") <= changes and 0 < hub.made.count("off") <= changes
        # the same bytes object went to every socket that shows a view
        made = len(hub.made)
        views = {None: await hub.public(), "on": await hub.player("on")}
        views["off"] = await hub.player("off")
        assert len(hub.made) == made  # this change's, kept
        by_viewer: dict[str | None, set[int]] = {}
        for c in hub.clients:
            by_viewer.setdefault(c.player, set()).add(id(c.sent))
        assert by_viewer == {who: {id(view.message)} for who, view in views.items()}
        assert len({id(view.message) for view in views.values()}) == 3
    finally:
        for ws in sockets:
            await ws.close()
        await client.close()


@run_async
async def test_each_socket_gets_its_own_players_view_and_no_other_secret():
    backend = FakeBackend()
    hub = CountingHub(backend)
    client, sockets = await _many_sockets(backend, hub)
    try:
        secrets, tokens = secrets_of(backend), backend.tokens()
        seen: list[list[str]] = [[] for _ in sockets]
        await _all_until(sockets, 0, seen)
        backend.board_press(legal_square(backend))
        await _all_until(sockets, 1, seen)
        tables, on, off = seen[:TABLES], seen[TABLES : TABLES + PAGES], seen[TABLES + PAGES :]
        assert all(len(out) >= 2 for out in seen)
        for out in tables:
            assert not any(SECRET_PREFIX in m for m in out)
        for out in on:
            assert all(secrets["on"] in m and secrets["off"] not in m for m in out)
        for out in off:
            assert all(secrets["off"] in m and secrets["on"] not in m for m in out)
        assert not any(t in m for out in seen for m in out for t in tokens.values())
    finally:
        for ws in sockets:
            await ws.close()
        await client.close()


def test_a_players_page_left_open_does_not_keep_the_daemon_drawing(tmp_path):
    """A page's view is a question to the daemon, not an event: asking it draws nothing, so
    the change notice it would send never makes the page ask again (and again)."""
    import websocket  # websocket-client (selenium's)

    daemon, closers = start_daemon(tmp_path)
    renders: list[float] = []
    daemon.listeners.append(lambda: renders.append(time.monotonic()))
    sockets = []
    try:
        token = daemon.web_backend.tokens()["on"]
        for query in ("", f"?token={token}"):
            ws = websocket.create_connection(f"ws://127.0.0.1:{daemon.web.port}/ws{query}", 10)
            assert json.loads(ws.recv())["type"] == "state"
            sockets.append(ws)
        daemon.board.tap(36, clean=True)  # e5: a change, the player's page asks for its view
        assert json.loads(sockets[1].recv())["view"]["ply"] == 1
        end = time.monotonic() + 20
        while time.monotonic() < end:  # quiet within a few seconds: no render for 0.5 s
            time.sleep(0.5)
            if not renders or time.monotonic() - renders[-1] >= 0.5:
                break
        assert not renders or time.monotonic() - renders[-1] >= 0.5, len(renders)
    finally:
        for ws in sockets:
            ws.close()
        stop_daemon(daemon, closers)


LEAN = """
import json, sys, tempfile
from companion.core.config import Config
from companion.service.app import build_daemon
tmp = tempfile.mkdtemp()
config = Config.default().with_overrides(
    board={"driver": "mock"}, journal={"path": tmp + "/j.sqlite"}, web={"listen": "127.0.0.1:0"}
)
daemon, closers = build_daemon(config, simulated=True)
daemon.start()
import urllib.request  # (it loads ssl: only now)
with urllib.request.urlopen(daemon.web.url + "/api/state", timeout=10) as answer:
    ply = json.loads(answer.read())["ply"]
import ssl  # anything else may still use it
print(json.dumps({"ply": ply, "asyncio_tls": sys.modules["asyncio.sslproto"].ssl is not None,
                  "ssl": hasattr(ssl, "SSLContext")}))
daemon.stop()
for close in closers:
    close()
"""


def test_the_daemons_web_server_leaves_out_the_tls_it_never_uses():
    """aiohttp set up TLS client contexts when imported (about 4 MB); the daemon imports it
    with ssl hidden, and ssl is there again afterwards for anything else."""
    out = subprocess.run(
        [sys.executable, "-c", LEAN], capture_output=True, text=True, timeout=120, check=True
    )
    assert json.loads(out.stdout) == {"ply": 0, "asyncio_tls": False, "ssl": True}


@run_async
async def test_a_client_that_stops_reading_holds_up_nobody(monkeypatch):
    """A socket whose reader stalls gets its views from a task of its own (only the newest
    waiting) while every other socket keeps getting each change."""
    import socket

    import websocket  # websocket-client (selenium's): the handshake; then it never reads

    from companion.views.web import hub as web_hub

    monkeypatch.setattr(web_hub, "SEND_TIMEOUT", 120.0)  # the stalled one is never dropped here
    backend = FakeBackend(notify_in_thread=False)
    hub = CountingHub(backend)
    from aiohttp.test_utils import TestClient, TestServer

    client = TestClient(TestServer(make_app(backend, hub, RateLimiter(10_000, 10_000))))
    await client.start_server()
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((client.host, client.port))
    stalled = await asyncio.to_thread(
        websocket.create_connection, f"ws://{client.host}:{client.port}/ws", socket=raw
    )
    reader = await client.ws_connect("/ws")
    try:
        seen: list[str] = []
        await _read_until(reader, 0, seen)
        (slow,) = [
            c for c in hub.clients if c.transport.get_extra_info("peername") == raw.getsockname()
        ]
        slow.transport.get_extra_info("socket").setsockopt(
            socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
        )
        plies = 0
        while slow.sending is None and plies < 400:  # until its buffers are full
            if backend.states[-1].is_over():
                backend.new_game()
            backend.board_press(legal_square(backend))
            plies += 1
            await _read_until(reader, backend.states[-1].ply, seen)
        assert slow.sending is not None, "the stalled socket never filled its buffers"
        for _ in range(5):  # and the others go on getting every change
            if backend.states[-1].is_over():
                backend.new_game()
            backend.board_press(legal_square(backend))
            await _read_until(reader, backend.states[-1].ply, seen)
        assert slow in hub.clients and slow.sending is not None
    finally:
        stalled.sock.close()
        await reader.close()
        await client.close()
