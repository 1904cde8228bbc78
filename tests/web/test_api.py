"""The JSON API, WebSocket and pages through aiohttp's test client, on the fake backend: also
what no client library would send (a body nested 4,000 deep, a token that is not UTF-8) and a
failure inside a handler, each answered in JSON with the security headers; a replay asked for
a page at a time."""

from __future__ import annotations

import asyncio
import json
import threading

import aiohttp

from companion.views.web.app import MAX_BODY, STATIC
from companion.views.web.ratelimit import RateLimiter
from tests.web_client import api, bearer, illegal_square, legal_square, run_async, secrets_of
from tests.web_fake import SECRET_PREFIX, FakeBackend, random_moves


async def _json(resp) -> dict:
    return json.loads(await resp.text())


# --- public state ---
@run_async
async def test_state_has_game_turn_ply_cells_and_scores():
    async with api() as (client, backend):
        resp = await client.get("/api/state")
        assert resp.status == 200
        assert resp.content_type == "application/json"
        view = await resp.json()
        assert view["game"] == "binaryon"
        assert view["turn"] == "on" and view["ply"] == 0
        assert len(view["board"]["cells"]) == 64
        assert {p["id"]: p["score"] for p in view["players"]} == {
            "on": "11111111",
            "off": "11111111",
        }
        assert view == backend.public_view()


@run_async
async def test_public_state_and_table_page_hold_no_secret():
    async with api() as (client, backend):
        secrets = secrets_of(backend)
        for path in ("/api/state", "/", "/api/history", f"/api/game/{backend.game_id}"):
            text = await (await client.get(path)).text()
            assert SECRET_PREFIX not in text, path
            assert not any(s in text for s in secrets.values()), path
            assert not any(t in text for t in backend.tokens().values()), path


@run_async
async def test_state_is_computed_once_per_change_however_many_ask():
    async with api() as (client, backend):
        calls = []
        real = backend.public_view
        backend.public_view = lambda: calls.append(1) or real()
        for _ in range(20):
            assert (await client.get("/api/state")).status == 200
        assert len(calls) == 1
        backend.board_press(legal_square(backend))
        await _until(lambda: _ply_of(client), lambda v: v == 1)
        assert len(calls) == 2


async def _ply_of(client) -> int:
    return (await (await client.get("/api/state")).json())["ply"]


async def _until(get, check, timeout: float = 3.0):
    """Poll an async ``get`` until ``check`` holds (the change notice comes from a thread)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = await get()
        if check(value):
            return value
        assert loop.time() < end, f"still {value!r}"
        await asyncio.sleep(0.01)


# --- authorisation ---
@run_async
async def test_me_needs_a_players_token():
    async with api() as (client, backend):
        resp = await client.get("/api/me")
        assert resp.status == 401
        assert (await resp.json())["code"] == "no-token"
        assert resp.headers["WWW-Authenticate"].startswith("Bearer")
        resp = await client.get("/api/me", headers=bearer("not-a-token"))
        assert resp.status == 403
        assert (await resp.json())["code"] == "bad-token"
        resp = await client.get("/api/me", headers={"Authorization": "Basic abc"})
        assert resp.status == 401


@run_async
async def test_me_is_that_players_view_with_only_their_secret():
    async with api() as (client, backend):
        secrets, tokens = secrets_of(backend), backend.tokens()
        for player, other in (("on", "off"), ("off", "on")):
            resp = await client.get("/api/me", headers=bearer(tokens[player]))
            assert resp.status == 200
            assert resp.headers["Cache-Control"] == "no-store"
            text = await resp.text()
            view = json.loads(text)
            assert view["you"] == player
            assert secrets[player] in " ".join(view["private"]["lines"])
            assert secrets[other] not in text
            assert tokens[other] not in text


@run_async
async def test_move_without_token_is_401_and_changes_nothing():
    async with api() as (client, backend):
        resp = await client.post("/api/move", json={"move": legal_square(backend)})
        assert resp.status == 401
        assert (await resp.json())["code"] == "no-token"
        assert backend.calls == [] and backend.public_view()["ply"] == 0


@run_async
async def test_move_with_a_token_of_no_current_player_is_403_and_changes_nothing():
    async with api() as (client, backend):
        old = backend.tokens()["on"]
        backend.new_game()  # new game, new tokens: the old ones are dead
        for token in ("made-up-token", old):
            resp = await client.post(
                "/api/move", json={"move": legal_square(backend)}, headers=bearer(token)
            )
            assert resp.status == 403
            assert (await resp.json())["code"] == "bad-token"
        assert backend.calls == [] and backend.public_view()["ply"] == 0


@run_async
async def test_move_for_another_player_with_ones_own_token_is_403():
    async with api() as (client, backend):
        resp = await client.post(
            "/api/move",
            json={"move": legal_square(backend), "player": "on"},
            headers=bearer(backend.tokens()["off"]),
        )
        assert resp.status == 403
        assert (await resp.json())["code"] == "not-your-player"
        assert backend.calls == [] and backend.public_view()["ply"] == 0


# --- moves and presses ---
@run_async
async def test_a_legal_move_is_200_and_played():
    async with api() as (client, backend):
        square = legal_square(backend)
        resp = await client.post(
            "/api/move",
            json={"move": square, "player": "on"},
            headers=bearer(backend.tokens()["on"]),
        )
        assert resp.status == 200
        assert (await resp.json())["ok"] is True
        assert backend.calls == [("submit", "on", square)]
        view = await (await client.get("/api/state")).json()
        assert view["moves"] == [{"ply": 1, "player": "on", "name": square}]


@run_async
async def test_a_press_is_the_boards_press():
    async with api() as (client, backend):
        square = legal_square(backend)
        resp = await client.post(
            "/api/press", json={"square": square}, headers=bearer(backend.tokens()["on"])
        )
        assert resp.status == 200
        assert backend.calls == [("press", "on", square)]
        assert backend.public_view()["ply"] == 1


@run_async
async def test_a_refused_move_is_409_with_the_rules_code_and_reason():
    async with api() as (client, backend):
        square = illegal_square(backend)
        expected = backend.states[-1].check(backend.states[-1].parse_move(square))
        resp = await client.post(
            "/api/press", json={"square": square}, headers=bearer(backend.tokens()["on"])
        )
        assert resp.status == 409
        body = await resp.json()
        assert body == {"ok": False, "code": expected.code, "reason": expected.reason}
        assert backend.public_view()["ply"] == 0


@run_async
async def test_moving_out_of_turn_is_refused():
    async with api() as (client, backend):
        resp = await client.post(
            "/api/move",
            json={"move": legal_square(backend)},
            headers=bearer(backend.tokens()["off"]),
        )
        assert resp.status == 409
        assert (await resp.json())["code"] == "not-your-turn"
        assert backend.public_view()["ply"] == 0


@run_async
async def test_bad_bodies_are_400_with_a_code():
    async with api() as (client, backend):
        headers = {**bearer(backend.tokens()["on"]), "Content-Type": "application/json"}
        cases = [
            (b"{not json", "bad-json"),
            (b"\xff\xfe", "bad-json"),
            (b"[1, 2]", "bad-json"),
            (b"{}", "bad-request"),
            (b'{"move": 5}', "bad-request"),
            (b'{"move": "   "}', "bad-request"),
            (json.dumps({"move": "e" * 65}).encode(), "bad-request"),
        ]
        for body, code in cases:
            resp = await client.post("/api/move", data=body, headers=headers)
            assert resp.status == 400, body
            answer = await resp.json()
            assert answer["code"] == code and answer["reason"], body
        assert backend.calls == []


@run_async
async def test_a_body_over_the_limit_is_413_declared_or_streamed():
    async with api() as (client, backend):
        headers = bearer(backend.tokens()["on"])
        big = json.dumps({"move": "e5", "pad": "x" * MAX_BODY}).encode()
        resp = await client.post("/api/move", data=big, headers=headers)
        assert resp.status == 413
        assert (await resp.json())["code"] == "too-large"

        async def chunks():  # no Content-Length: the limit is met while reading
            for _ in range(8):
                yield b"x" * 1024

        resp = await client.post("/api/move", data=chunks(), headers=headers)
        assert resp.status == 413
        assert backend.calls == []


@run_async
async def test_a_backend_failure_is_503_not_a_traceback():
    async with api() as (client, backend):

        def broken(*args):
            raise RuntimeError("boom")

        backend.submit = broken
        resp = await client.post(
            "/api/move", json={"move": "e5"}, headers=bearer(backend.tokens()["on"])
        )
        assert resp.status == 503
        body = await resp.json()
        assert body["code"] == "unavailable" and "boom" not in body["reason"]
        token = backend.tokens()["on"]
        backend.token_player = broken
        resp = await client.get("/api/me", headers=bearer(token))
        assert resp.status == 503 and (await resp.json())["code"] == "unavailable"
        assert (await client.get(f"/p/{token}")).status == 503


# --- history and replay ---
@run_async
async def test_history_and_one_game_for_replay():
    backend = FakeBackend()
    moves = random_moves(count=6, seed=2)
    backend.new_game(moves)
    backend.new_game()
    async with api(backend) as (client, _):
        games = (await (await client.get("/api/history")).json())["games"]
        assert [g["id"] for g in games] == [backend.game_id, backend.game_id - 1]
        assert games[1]["result"] == "abandoned"
        record = await (await client.get(f"/api/game/{games[1]['id']}")).json()
        assert record["moves"] == moves
        assert len(record["frames"]) == len(moves) + 1
        assert [f["ply"] for f in record["frames"]] == list(range(len(moves) + 1))
        resp = await client.get("/api/game/999")
        assert resp.status == 404 and (await resp.json())["code"] == "no-such-game"
        assert (await client.get("/api/history?limit=x")).status == 400
        limited = await (await client.get("/api/history?limit=1")).json()
        assert len(limited["games"]) == 1


@run_async
async def test_unknown_api_paths_answer_json_404_and_wrong_methods_405():
    async with api() as (client, _):
        resp = await client.get("/api/nothing")
        assert resp.status == 404 and (await resp.json())["code"]
        resp = await client.get("/api/move")
        assert resp.status == 405 and (await resp.json())["code"]


# --- pages ---
@run_async
async def test_player_page_only_for_a_current_token():
    async with api() as (client, backend):
        resp = await client.get(f"/p/{backend.tokens()['on']}")
        assert resp.status == 200 and "player.js" in await resp.text()
        resp = await client.get("/p/not-a-token")
        assert resp.status == 404
        assert "Not found" in await resp.text()
        assert (await client.get("/nowhere")).status == 404


@run_async
async def test_pages_send_security_headers():
    async with api() as (client, backend):
        for path in ("/", f"/p/{backend.tokens()['on']}", "/api/state", "/static/app.css"):
            resp = await client.get(path)
            csp = resp.headers["Content-Security-Policy"]
            assert "default-src 'none'" in csp and "script-src 'self'" in csp
            assert "frame-ancestors 'none'" in csp
            assert resp.headers["X-Content-Type-Options"] == "nosniff"
            assert resp.headers["Referrer-Policy"] == "no-referrer"


def test_no_asset_loads_anything_from_elsewhere():
    import re

    for path in STATIC.iterdir():
        text = re.sub(r'xmlns="[^"]*"', "", path.read_text())  # a name, not a load
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/|@import", text), path.name


@run_async
async def test_static_assets_are_served():
    async with api() as (client, _):
        for name in ("app.css", "view.js", "table.js", "player.js", "icon.svg"):
            resp = await client.get(f"/static/{name}")
            assert resp.status == 200, name
        assert (await client.get("/static/../app.py")).status == 404


@run_async
async def test_qr_code_of_a_players_own_link_only():
    async with api() as (client, backend):
        resp = await client.get(f"/qr/{backend.tokens()['on']}.svg")
        assert resp.status == 200 and resp.content_type == "image/svg+xml"
        assert "<svg" in await resp.text()
        assert (await client.get("/qr/on.svg")).status == 404


# --- rate limit ---
@run_async
async def test_a_flood_from_one_client_gets_429_without_reaching_the_backend():
    async with api(limiter=RateLimiter(rate=1, burst=5)) as (client, backend):
        calls = []
        real = backend.token_player
        backend.token_player = lambda t: calls.append(t) or real(t)
        statuses = []
        for _ in range(30):
            resp = await client.get("/api/me", headers=bearer(backend.tokens()["on"]))
            statuses.append(resp.status)
        assert statuses[:5] == [200] * 5
        assert set(statuses[5:]) == {429}
        assert len(calls) == 5
        resp = await client.get("/api/state")
        assert resp.status == 429
        assert int(resp.headers["Retry-After"]) >= 1
        assert (await resp.json())["code"] == "rate-limited"


# --- WebSocket ---
async def _next_view(ws, timeout: float = 3.0) -> dict:
    msg = await asyncio.wait_for(ws.receive(), timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    data = json.loads(msg.data)
    assert data["type"] == "state", data
    return data["view"]


@run_async
async def test_ws_pushes_the_public_view_on_connect_and_every_change():
    async with api() as (client, backend), client.ws_connect("/ws") as ws:
        assert (await _next_view(ws))["ply"] == 0
        # the change notice comes from another thread, as the daemon's will
        threading.Thread(target=backend.board_press, args=(legal_square(backend),)).start()
        view = await _next_view(ws)
        assert view["ply"] == 1 and view == backend.public_view()


@run_async
async def test_ws_never_carries_a_secret_to_the_table_or_another_player():
    async with api() as (client, backend):
        secrets, tokens = secrets_of(backend), backend.tokens()
        seen: dict[str, list[str]] = {"table": [], "on": [], "off": []}
        async with (
            client.ws_connect("/ws") as table,
            client.ws_connect(f"/ws?token={tokens['on']}") as on,
            client.ws_connect(f"/ws?token={tokens['off']}") as off,
        ):
            sockets = {"table": table, "on": on, "off": off}
            for name, ws in sockets.items():
                seen[name].append(json.dumps(await _next_view(ws)))
            backend.board_press(legal_square(backend))
            backend.board_press(illegal_square(backend))
            for name, ws in sockets.items():  # changes may fold into one message: read to the end
                while True:
                    view = await _next_view(ws)
                    seen[name].append(json.dumps(view))
                    if view["ply"] == 1 and view["message"]:
                        break
        assert not any(SECRET_PREFIX in m for m in seen["table"])
        assert all(secrets["on"] in m and secrets["off"] not in m for m in seen["on"])
        assert all(secrets["off"] in m and secrets["on"] not in m for m in seen["off"])
        assert not any(t in m for m in sum(seen.values(), []) for t in tokens.values())


@run_async
async def test_ws_refuses_other_origins_and_bad_tokens():
    async with api() as (client, backend):
        host = f"{client.host}:{client.port}"
        for headers, params in (
            ({"Origin": "http://evil.example"}, ""),
            ({"Origin": f"http://{client.host}:1"}, ""),
            ({"Origin": "null"}, ""),
            ({}, "?token=nope"),
        ):
            try:
                async with client.ws_connect("/ws" + params, headers=headers):
                    raise AssertionError(f"upgrade accepted: {headers} {params}")
            except aiohttp.WSServerHandshakeError as e:
                assert e.status == 403
        async with client.ws_connect("/ws", headers={"Origin": f"http://{host}"}) as ws:
            assert (await _next_view(ws))["ply"] == 0


@run_async
async def test_a_players_ws_is_told_when_their_token_is_gone():
    backend = FakeBackend()
    async with (
        api(backend) as (client, _),
        client.ws_connect(f"/ws?token={backend.tokens()['on']}") as ws,
    ):
        await _next_view(ws)
        backend.new_game()
        msg = await asyncio.wait_for(ws.receive(), 3)
        assert json.loads(msg.data)["type"] == "gone"
        msg = await asyncio.wait_for(ws.receive(), 3)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4001


@run_async
async def test_a_ws_client_that_floods_messages_is_cut_off():
    limiter = RateLimiter(rate=1, burst=5)
    async with api(limiter=limiter) as (client, _), client.ws_connect("/ws") as ws:
        await _next_view(ws)
        for _ in range(10):
            await ws.send_str("hello")
        msg = await asyncio.wait_for(ws.receive(), 3)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1008


@run_async
async def test_a_view_that_is_not_json_is_503():
    async with api() as (client, backend):
        backend.public_view = lambda: {"game": object()}
        resp = await client.get("/api/state")
        assert resp.status == 503 and (await resp.json())["code"] == "unavailable"


@run_async
async def test_a_move_the_daemon_is_slow_to_answer_does_not_hold_up_the_pages():
    async with api() as (client, backend):
        release = threading.Event()
        real = backend.submit

        def slow_submit(player, move):
            release.wait(5)
            return real(player, move)

        backend.submit = slow_submit
        move = asyncio.ensure_future(
            client.post(
                "/api/move",
                json={"move": legal_square(backend)},
                headers=bearer(backend.tokens()["on"]),
            )
        )
        await asyncio.sleep(0.05)
        resp = await asyncio.wait_for(
            client.get("/api/me", headers=bearer(backend.tokens()["on"])), 2
        )
        assert resp.status == 200 and not move.done()
        release.set()
        assert (await move).status == 200


class _RecordingSocket:
    closed = False

    def __init__(self):
        self.sent: list[int] = []

    async def send_frame(self, message: bytes, opcode) -> None:
        await asyncio.sleep(0)  # a client that is behind: each send takes a turn of the loop
        self.sent.append(json.loads(message)["view"]["n"])


@run_async
async def test_a_client_never_gets_an_older_view_after_a_newer_one():
    from companion.views.web.hub import Client, Hub, Serialised

    hub = Hub(FakeBackend())

    def view(n: int, version: int) -> Serialised:
        text = json.dumps({"n": n}).encode()
        return Serialised(version, text, b'{"type":"state","view":' + text + b"}")

    ws = _RecordingSocket()
    client = Client(ws, "127.0.0.1")  # type: ignore[arg-type]
    two = view(2, 2)
    await hub.deliver(client, two)
    await hub.deliver(client, view(1, 1))  # computed before the newer one, sent late
    await hub.deliver(client, two)  # the same again: not resent
    await hub.deliver(client, view(3, 3))  # queued behind the send under way
    await hub.deliver(client, view(4, 4))  # replaces it: only the newest waits
    while client.sending is not None:
        await asyncio.sleep(0.01)
    assert ws.sent == [2, 4]
    hub.shutdown_executor()


@run_async
async def test_websockets_per_client_are_limited(monkeypatch):
    from companion.views.web import app as web_app

    monkeypatch.setattr(web_app, "MAX_SOCKETS_PER_CLIENT", 2)
    async with api() as (client, _):
        first = await client.ws_connect("/ws")
        second = await client.ws_connect("/ws")
        await _next_view(first)
        await _next_view(second)
        try:
            await client.ws_connect("/ws")
            raise AssertionError("a third socket was accepted")
        except aiohttp.WSServerHandshakeError as e:
            assert e.status == 429
        await first.close()
        await second.close()


SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


async def raw_request(client, head: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are (no client library would send a header that is not UTF-8)."""
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    writer.write(head)
    await writer.drain()
    data = await reader.read()
    writer.close()
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


@run_async
async def test_a_deeply_nested_body_is_bad_json_with_the_security_headers():
    async with api() as (client, backend):
        body = "[" * 4001
        resp = await client.post("/api/move", data=body, headers=bearer(backend.tokens()["on"]))
        assert resp.status == 400 and (await resp.json())["code"] == "bad-json"
        assert all(h in resp.headers for h in SECURITY_HEADERS)


@run_async
async def test_a_token_that_is_not_utf8_is_refused_without_a_traceback(caplog):
    async with api() as (client, _):
        head = (
            b"GET /api/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \xff\xfe\r\n"
            b"Connection: close\r\n\r\n"
        )
        status, headers, body = await raw_request(client, head)
        assert status == 403 and json.loads(body)["code"] == "bad-token"
        assert all(h in headers for h in SECURITY_HEADERS)
    assert "Traceback" not in caplog.text


@run_async
async def test_a_failure_inside_a_handler_is_json_with_headers_and_one_log_line(caplog):
    async with api() as (client, backend):
        backend.record = lambda *args: {"not json": object()}
        resp = await client.get(f"/api/game/{backend.game_id}")
        assert resp.status == 500 and (await resp.json())["code"] == "internal-error"
        assert all(h in resp.headers for h in SECURITY_HEADERS)
        resp = await client.post("/")  # no POST on a page: JSON too, with the headers
        assert resp.status == 405 and (await resp.json())["ok"] is False
        assert all(h in resp.headers for h in SECURITY_HEADERS)
    failures = [r for r in caplog.records if "failed" in r.getMessage()]
    assert len(failures) == 1 and failures[0].exc_info is None
    assert "Traceback" not in caplog.text


@run_async
async def test_a_replay_is_asked_for_a_page_at_a_time():
    backend = FakeBackend()
    backend.new_game(random_moves(count=12, seed=3))
    async with api(backend) as (client, _):
        page = await (await client.get(f"/api/game/{backend.game_id}?from=4&count=3")).json()
        assert page["from"] == 4 and page["plies"] == 12
        assert [f["ply"] for f in page["frames"]] == [4, 5, 6]
        for query in ("count=0", "count=101", "from=-1", "from=x", "count=1e3"):
            resp = await client.get(f"/api/game/{backend.game_id}?{query}")
            assert resp.status == 400 and (await resp.json())["code"] == "bad-request", query
