"""The event's pages and API on the hub (aiohttp routes added to the hub's app):

- ``/event``: standings, rounds and corrections, refreshed every few seconds, and the
  arbiter's form (it needs the token the hub printed at its start);
- ``GET /api/standings``, ``GET /api/event`` (rounds, games, corrections),
  ``GET /api/event/export`` (every game as one file of records);
- ``POST /api/event/correct`` ``{"pairing", "result", "who", "why"}`` and
  ``POST /api/event/pair`` (the next round now), each with ``Authorization: Bearer TOKEN``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from companion.club.event.desk import EventDesk
from companion.club.event.swiss import PairingError
from companion.club.event.tournament import EventStateError
from companion.views.web.app import error, same_origin

STATIC = Path(__file__).parent / "static"
DESK = web.AppKey("event_desk", EventDesk)
MAX_BODY = 4096


def event_routes(desk: EventDesk) -> Callable[[web.Application], None]:
    """What the hub's ``make_app(extend=...)`` takes: the event's routes, added to its app."""

    def add(app: web.Application) -> None:
        app[DESK] = desk
        r = app.router
        r.add_get("/event", event_page)
        r.add_get("/api/standings", api_standings)
        r.add_get("/api/event", api_event)
        r.add_get("/api/event/export", api_export)
        r.add_post("/api/event/correct", api_correct)
        r.add_post("/api/event/pair", api_pair)
        r.add_static("/event-files/", STATIC, append_version=False)

    return add


async def event_page(request: web.Request) -> web.Response:
    return web.Response(
        body=(STATIC / "event.html").read_bytes(), content_type="text/html", charset="utf-8"
    )


def _json(value: object) -> web.Response:
    return web.Response(text=json.dumps(value), content_type="application/json")


async def api_standings(request: web.Request) -> web.Response:
    return _json(request.app[DESK].standings_json())


async def api_event(request: web.Request) -> web.Response:
    desk = request.app[DESK]
    return _json({**desk.rounds_json(), **_summary(desk)})


def _summary(desk: EventDesk) -> dict:
    e = desk.event
    return {
        "game": e.game,
        "system": e.pairing,
        "rounds": e.rounds,
        "round": desk.tournament.round,
        "boards": list(e.boards),
        "players": [{"name": p.name, "rating": p.rating} for p in e.players],
    }


async def api_export(request: web.Request) -> web.Response:
    desk = request.app[DESK]
    return web.Response(
        text=desk.export(),
        content_type="text/plain",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="event-games.txt"'},
    )


async def _arbiter(request: web.Request) -> dict | web.Response:
    """The body of an arbiter's request, or the refusal: another site's page, no or a wrong
    token, not a small JSON object."""
    origin = request.headers.get("Origin")
    if origin is not None and not same_origin(origin, request.host):
        return error(403, "bad-origin", "a request from another site is refused")
    auth = request.headers.get("Authorization", "")
    if not request.app[DESK].allowed(auth.removeprefix("Bearer ").strip()):
        return error(403, "not-the-arbiter", "the arbiter's token (printed by the hub) is needed")
    if (request.content_length or 0) > MAX_BODY:
        return error(413, "too-large", "a correction is a few words")
    try:
        body = json.loads(await request.content.read(MAX_BODY + 1) or b"{}")
    except ValueError:
        return error(400, "bad-request", "the body is not JSON")
    if not isinstance(body, dict):
        return error(400, "bad-request", "the body is a JSON object")
    return body


async def api_correct(request: web.Request) -> web.Response:
    body = await _arbiter(request)
    if isinstance(body, web.Response):
        return body
    fields = {k: body.get(k) for k in ("pairing", "result", "who", "why")}
    if not all(isinstance(v, str) and 0 < len(v) <= 200 for v in fields.values()):
        return error(400, "bad-request", "pairing, result, who and why are each a few words")
    try:
        line = request.app[DESK].correct(**fields)
    except EventStateError as e:
        return error(409, "refused", str(e))
    return _json({"ok": True, "done": line})


async def api_pair(request: web.Request) -> web.Response:
    body = await _arbiter(request)
    if isinstance(body, web.Response):
        return body
    try:
        games = await request.app[DESK].pair_next_off_loop()
    except (EventStateError, PairingError) as e:
        return error(409, "refused", str(e))
    return _json({"ok": True, "round": games[0].round, "games": [g.pairing for g in games]})
