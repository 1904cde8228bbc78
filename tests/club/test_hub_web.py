"""The hub's web app on aiohttp's test client, fed messages as the broker would hand them over
(``ClubHub.handle``): the API's shape, the pages' WebSockets, and the web's guards: results
in pages bounded in bytes, a few live pages per address."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.club import topics
from companion.club.hub.club import ClubHub
from companion.club.hub.store import PAGE_BYTES, ResultStore
from companion.club.hub.web import MAX_SOCKETS_PER_CLIENT, make_app
from companion.views.web.hosts import HostCheck
from companion.views.web.ratelimit import RateLimiter
from tests.club_hub import message
from tests.simulated_club_boards import play_game
from tests.web_client import run_async


@pytest.fixture(scope="module")
def game():
    return play_game(5, {"on": "Ana", "off": "Bo"})


def client(tmp_path) -> tuple[TestClient, ClubHub]:
    club = ClubHub(ResultStore(tmp_path / "club.sqlite"))
    limiter = RateLimiter(rate=10_000, burst=10_000)
    app = make_app(club, HostCheck("127.0.0.1"), limiter)
    return TestClient(TestServer(app)), club


@run_async
async def test_the_api_gives_each_board_and_its_view_as_published(tmp_path, game):
    c, club = client(tmp_path)
    async with c:
        club.handle(topics.status("t1"), message("t1", online=True, game=game.game))
        club.handle(
            topics.table("t1"), message("t1", seq=1, game_uid="u-1", view=game.steps[2].view)
        )
        club.handle(topics.status("t2"), message("t2", online=False))
        boards = (await (await c.get("/api/boards")).json())["boards"]
        assert [(b["name"], b["online"], b["status"]) for b in boards] == [
            ("t1", True, "playing"),
            ("t2", False, "waiting"),
        ]
        assert boards[0]["ply"] == game.steps[2].ply and boards[0]["game_uid"] == "u-1"
        one = await (await c.get("/api/board/t1")).json()
        assert one["view"] == game.steps[2].view
        assert (await c.get("/api/board/t9")).status == 404
        assert (await (await c.get("/api/results")).json()) == {"games": [], "next": None}


@run_async
async def test_the_pages_websockets_get_a_snapshot_then_every_change(tmp_path, game):
    c, club = client(tmp_path)
    async with c:
        club.handle(topics.table("t1"), message("t1", seq=1, view=game.start))
        every = await c.ws_connect("/ws")
        one = await c.ws_connect("/ws/board/t1")
        kinds = [(await every.receive_json(timeout=5))["type"] for _ in range(3)]
        assert kinds == ["hub", "boards", "board"]
        first = [await one.receive_json(timeout=5) for _ in range(3)]
        assert [m["type"] for m in first] == ["hub", "state", "board"]
        assert first[1]["view"] == game.start
        club.handle(topics.table("t1"), message("t1", seq=2, view=game.steps[0].view))
        update = await every.receive_json(timeout=5)
        assert update["type"] == "board" and update["board"]["seq"] == 2
        assert update["cells"] == game.steps[0].view["board"]
        state = await one.receive_json(timeout=5)
        assert state == {"type": "state", "view": game.steps[0].view, "now": 1.0}
        club.handle(topics.table("t1"), message("t1", seq=1, view=game.start))  # older
        club.handle(topics.status("t1"), message("t1", online=False))
        update = await every.receive_json(timeout=5)
        assert update["board"]["online"] is False and update["board"]["seq"] == 2
        await every.close()
        await one.close()


@run_async
async def test_the_hub_keeps_the_companions_web_guards(tmp_path):
    c, _ = client(tmp_path)
    async with c:
        page = await c.get("/")
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        assert "Club night" in await page.text()
        assert (await c.get("/", headers={"Host": "evil.example"})).status == 421
        refused = await c.get(
            "/ws", headers={"Origin": "http://evil.example", "Upgrade": "websocket",
                            "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="},
        )  # fmt: skip
        assert refused.status == 403
        assert (await c.get("/board/a%20b")).status == 404
        assert (await c.get("/api/results?board=..%2Fx")).status == 400
        assert (await c.get("/api/results?limit=x")).status == 400
        assert (await c.get("/static/view.js")).status == 200  # the table page's renderer
        assert (await c.get("/club/hub.js")).status == 200


def test_listeners_hear_each_accepted_message_and_a_failing_one_stops_nothing(tmp_path, game):
    club = ClubHub(ResultStore(tmp_path / "club.sqlite"))
    heard = []
    club.listeners.append(lambda kind, board, payload: heard.append((kind, board)))
    club.listeners.insert(0, lambda *a: 1 / 0)  # a listener's bug
    club.handle(topics.status("t1"), message("t1", online=True))
    club.handle(topics.table("t1"), message("t1", seq=2, view=game.steps[1].view))
    club.handle(topics.table("t1"), message("t1", seq=1, view=game.start))  # older: no news
    club.handle(topics.moves("t1"), message("t1", ply=9, move="a1", player="on"))
    club.handle(topics.table("t1"), b"garbled")
    assert heard == [("status", "t1"), ("table", "t1"), ("move", "t1")]
    assert club.state.boards["t1"].ply == 9 and club.refused == 1


def store_results(store: ResultStore, count: int, record_bytes: int) -> list[str]:
    uids = []
    for i in range(count):
        uid = f"u-{i}"
        store.add(
            {"game_uid": uid, "board": "t1", "game": "binary", "players": {"black": "Ann"},
             "result": "Ann wins", "winners": ["black"], "options": {}, "pairing": None,
             "record": "x" * record_bytes, "finished": float(i)}
        )  # fmt: skip
        uids.append(uid)
    return uids


@run_async
async def test_results_come_in_pages_bounded_in_bytes_and_each_once(tmp_path):
    store = ResultStore(tmp_path / "club.sqlite")
    uids = store_results(store, 30, 900_000)
    club = ClubHub(store)
    app = make_app(club, HostCheck("127.0.0.1"), RateLimiter(rate=10_000, burst=10_000))
    async with TestClient(TestServer(app)) as c:
        seen, before, pages = [], None, 0
        while True:
            query = "/api/results?limit=200" + (f"&before={before}" if before else "")
            answer = await c.get(query)
            body = await answer.read()
            assert len(body) <= PAGE_BYTES + 1000
            page = json.loads(body)
            seen += [g["game_uid"] for g in page["games"]]
            pages += 1
            before = page["next"]
            if before is None:
                break
        assert seen == uids[::-1] and pages >= 10
        short = await (await c.get("/api/results?records=0&limit=200")).json()
        assert len(short["games"]) == 30 and "record" not in short["games"][0]
        assert (await c.get("/api/results?before=x")).status == 400


@run_async
async def test_one_address_holds_a_few_live_pages_not_all(tmp_path):
    club = ClubHub(ResultStore(tmp_path / "club.sqlite"))
    app = make_app(club, HostCheck("127.0.0.1"), RateLimiter(rate=10_000, burst=10_000))
    async with TestClient(TestServer(app)) as c:
        sockets = [await c.ws_connect("/ws") for _ in range(MAX_SOCKETS_PER_CLIENT)]
        upgrade = {
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        }
        refused = await c.get("/ws", headers=upgrade)
        assert refused.status == 429
        await sockets[0].close()
        for _ in range(100):  # the server sees the close
            if len(club.feed.subscribers) < MAX_SOCKETS_PER_CLIENT:
                break
            await asyncio.sleep(0.01)
        again = await c.ws_connect("/ws")
        assert not again.closed
        for ws in [again, *sockets[1:]]:
            await ws.close()
