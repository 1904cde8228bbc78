"""aiohttp's test client on the web app over a fake backend, for the API tests."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator

from aiohttp.test_utils import TestClient, TestServer

from companion.views.web.app import make_app
from companion.views.web.ratelimit import RateLimiter
from tests.web_fake import SECRET_PREFIX, FakeBackend


def run_async(fn):
    """Run an ``async def`` test in a fresh event loop (fixtures still work)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


@contextlib.asynccontextmanager
async def api(
    backend: FakeBackend | None = None, limiter: RateLimiter | None = None
) -> AsyncIterator[tuple[TestClient, FakeBackend]]:
    backend = backend or FakeBackend()
    app = make_app(backend, limiter=limiter or RateLimiter(rate=10_000, burst=10_000))
    async with TestClient(TestServer(app)) as client:
        yield client, backend


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def secrets_of(backend: FakeBackend) -> dict[str, str]:
    assert all(s.startswith(SECRET_PREFIX) for s in backend.secrets.values())
    return dict(backend.secrets)


def legal_square(backend: FakeBackend) -> str:
    state = backend.states[-1]
    return next(m.name for m in state.legal_moves() if m.name != "pass")


def illegal_square(backend: FakeBackend) -> str:
    state = backend.states[-1]
    legal = {m.name for m in state.legal_moves()}
    cells = backend.public_view()["board"]["cells"]
    return next(c["name"] for c in cells if c["name"] not in legal)
