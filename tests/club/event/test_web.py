"""The event's routes on an aiohttp app (the hub adds them to its own): standings, rounds,
the export, and corrections only with the arbiter's token."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from companion.club.event.desk import EventDesk
from companion.club.event.web import event_routes
from tests.club.event.events import ROUND_ROBIN_OF_FOUR as EVENT


@pytest.fixture
def desk(tmp_path):
    (tmp_path / "march.toml").write_text(EVENT)
    sent: list = []
    d = EventDesk(tmp_path / "march.toml", lambda *a: sent.append(a))
    d.sent = sent
    yield d
    d.close()


def _run(desk, scenario):
    async def go():
        app = web.Application()
        event_routes(desk)(app)
        async with TestClient(TestServer(app)) as client:
            await scenario(client)

    asyncio.run(go())


def test_standings_rounds_and_export_are_read_by_anyone(desk):
    desk.tournament.enter_result("r1-t1", "1-0")
    desk.store.save(desk.tournament)

    async def scenario(client):
        s = await (await client.get("/api/standings")).json()
        assert s["event"] == "March" and s["round"] == 1 and s["rounds"] == 3
        assert s["standings"][0] == {
            "rank": 1, "number": 1, "name": "Ann", "points": 1.0, "games": 1, "colours": "w",
            "tiebreaks": {"direct-encounter": 0.0, "sonneborn-berger": 0.0, "wins": 1.0},
        }  # fmt: skip
        e = await (await client.get("/api/event")).json()
        assert [g["result"] for g in e["games"]] == ["1-0", None]
        text = await (await client.get("/api/event/export")).text()
        assert '[EventResult "1-0"]' in text and '[Pairing "r1-t1"]' in text
        page = await client.get("/event")
        assert page.status == 200 and "/event-files/event.js" in await page.text()
        assert (await client.get("/event-files/event.js")).status == 200

    _run(desk, scenario)


def test_only_the_arbiters_token_corrects(desk):
    desk.tournament.enter_result("r1-t1", "1-0")
    desk.store.save(desk.tournament)
    fix = {"pairing": "r1-t1", "result": "0-1", "who": "Zoe", "why": "misread"}

    async def scenario(client):
        for headers in ({}, {"Authorization": "Bearer nope"}):
            r = await client.post("/api/event/correct", json=fix, headers=headers)
            assert r.status == 403 and (await r.json())["code"] == "not-the-arbiter"
        auth = {"Authorization": f"Bearer {desk.token}"}
        r = await client.post(
            "/api/event/correct", json=fix, headers={**auth, "Origin": "http://evil.example"}
        )
        assert r.status == 403
        r = await client.post("/api/event/correct", json=fix, headers=auth)
        assert r.status == 200 and (await r.json())["done"] == "r1-t1: 1-0 -> 0-1 by Zoe: misread"
        r = await client.post("/api/event/correct", json={**fix, "why": ""}, headers=auth)
        assert r.status == 400
        r = await client.post("/api/event/pair", json={}, headers=auth)
        assert r.status == 409 and "r1-t2 to play" in (await r.json())["reason"]

    _run(desk, scenario)
    assert [c.new for c in desk.tournament.corrections] == ["0-1"]
