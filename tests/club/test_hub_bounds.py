"""The hub's bounds (issue 33): messages refused by depth as by size, one log line per kind
however many come, ``/api/results`` in pages bounded in bytes, a cap on one address's live
pages and on its TCP connections, idle boards forgotten (never an event's), and a result
whose winners are not texts refused in one line."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time

import pytest
from aiohttp.test_utils import TestClient, TestServer

from companion.club import topics
from companion.club.event.desk import EventDesk
from companion.club.hub.club import ClubHub
from companion.club.hub.state import HubState, Refused, decode
from companion.club.hub.store import PAGE_BYTES, ResultStore
from companion.club.hub.web import MAX_SOCKETS_PER_CLIENT, make_app
from companion.core.wire_json import MAX_DEPTH
from companion.views.web.connections import connection_limits
from companion.views.web.hosts import HostCheck
from companion.views.web.ratelimit import RateLimiter
from tests.club_hub import HubProcess
from tests.web_client import run_async


def message(board: str, **fields) -> bytes:
    return json.dumps({"board": board, "sent": 1.0, **fields}).encode()


def nested(levels: int) -> dict:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return {"deep": value}


def test_a_table_nested_too_deep_is_refused_though_json_could_read_it():
    with pytest.raises(Refused, match=f"nested deeper than {MAX_DEPTH}"):
        decode(message("t1", seq=1, view=nested(MAX_DEPTH + 5)), 256 * 1024)


def test_a_flood_of_bad_messages_is_one_log_line_per_kind(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    club = ClubHub(ResultStore(tmp_path / "club.sqlite"))
    for _ in range(200):
        club.handle(topics.table("t1"), message("t1", seq=1, view=nested(100)))
        club.handle(topics.status("t1"), b"{" * 50_000)
        club.handle(topics.moves("t1"), b"x" * 20_000)
    lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert club.refused == 600
    assert len(lines) == 3 and not [r for r in caplog.records if r.exc_info]


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


def test_idle_offline_boards_are_forgotten_but_never_an_events_or_an_online_one():
    now = [0.0]
    state = HubState(clock=lambda: now[0])
    for name in ("gone", "event", "live"):
        state.apply_status(name, {"board": name, "online": name == "live"})
    now[0] = 100.0
    state.apply_status("fresh", {"board": "fresh", "online": False})
    now[0] = 3650.0
    assert state.forget(3600.0, keep={"event"}) == ["gone"]
    assert sorted(state.boards) == ["event", "fresh", "live"]


def test_the_hub_tells_its_pages_of_a_forgotten_board(tmp_path):
    club = ClubHub(ResultStore(tmp_path / "club.sqlite"), forget_after=0.0)
    club.handle(topics.status("t9"), message("t9", online=False))
    club.keep.add("t1")
    club.handle(topics.status("t1"), message("t1", online=False))
    assert club.forget_idle() == ["t9"] and list(club.state.boards) == ["t1"]
    assert club.hub_summary()["boards"] == 1


EVENT = """\
name = "March"
game = "binaryon"
rules = { size = 4 }
pairing = "round-robin"
boards = ["t1", "t2"]
players = ["Ann", "Ben", "Cat", "Dan"]
"""


@pytest.mark.parametrize("winners", [[["x"]], [{"a": 1}], "on", [1]])
def test_winners_that_are_not_texts_are_one_line_at_the_desk(tmp_path, winners):
    event = tmp_path / "march.toml"
    event.write_text(EVENT)
    desk = EventDesk(event, lambda *a: None)
    try:
        game = desk.tournament.waiting()[0]
        result = {"board": game.board, "game_uid": "u-1", "game": "binaryon",
                  "pairing": desk.wire_id(game), "players": {"on": game.white},
                  "winners": winners, "record": ""}  # fmt: skip
        assert desk.on_result(game.board, result) is False
        assert "\n" not in desk.note and desk.note
        assert desk.tournament.find(game.pairing).result is None
    finally:
        desk.close()


def test_the_hub_closes_one_clients_connections_past_its_cap(broker, tmp_path):
    """100 idle connections from one address: the hub keeps its cap's worth and closes the
    rest at once; another address's page still answers."""
    hub = HubProcess(broker.url, tmp_path).start()
    cap = connection_limits().per_client
    sockets = []
    try:
        for _ in range(100):
            s = socket.socket()
            s.bind(("127.0.0.2", 0))
            s.connect(("127.0.0.1", hub.port))
            s.settimeout(5)
            sockets.append(s)

        def closed_by_the_hub(s: socket.socket) -> bool:
            s.setblocking(False)
            try:
                return s.recv(1) == b""
            except BlockingIOError:
                return False
            except ConnectionResetError:
                return True

        wait_until = time.monotonic() + 10
        while True:
            closed = sum(closed_by_the_hub(s) for s in sockets if s.fileno() >= 0)
            if closed >= 100 - cap or time.monotonic() > wait_until:
                break
            time.sleep(0.1)
        assert closed >= 100 - cap
        assert hub.get("/api/boards")["hub"]["broker"] == "connected"
    finally:
        for s in sockets:
            s.close()
        hub.stop()


def test_the_hub_follows_a_bounded_number_of_boards():
    from companion.club.hub.state import MAX_BOARDS

    state = HubState()
    for i in range(MAX_BOARDS):
        state.apply_status(f"b{i}", {"board": f"b{i}", "online": False})
    with pytest.raises(Refused, match="a new one waits"):
        state.apply_status("late", {"board": "late", "online": True})
    state.apply_status("b7", {"board": "b7", "online": True})  # one it follows goes on
    assert len(state.boards) == MAX_BOARDS and state.boards["b7"].online
