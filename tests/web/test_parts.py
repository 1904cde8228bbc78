"""The web layer's small parts: listen addresses, tokens, invites, QR codes, rate limit, origin
check, and the server thread's start, stop and restart."""

from __future__ import annotations

import json
import os
import socket
import stat
import urllib.request

import pytest

from companion.views.web import (
    Listen,
    ListenError,
    TokenStore,
    WebBackend,
    WebError,
    WebServer,
    base_url,
    invite_json,
    parse_listen,
    qr_code,
    qr_image,
    qr_matrix,
)
from companion.views.web.app import same_origin
from companion.views.web.ratelimit import RateLimiter
from tests.web_fake import FakeBackend

LAN_URL = "http://192.168.100.200:8080/p/" + "A1b2C3d4E5f6G7h8"


# --- listen addresses ---
@pytest.mark.parametrize(
    "text, host, port",
    [
        ("0.0.0.0:8080", "0.0.0.0", 8080),
        ("localhost:80", "localhost", 80),
        ("[::]:8080", "::", 8080),
        ("[::1]:0", "::1", 0),
        (":8080", "0.0.0.0", 8080),
        ("8080", "0.0.0.0", 8080),
        (" 127.0.0.1:9000 ", "127.0.0.1", 9000),
    ],
)
def test_listen_addresses(text, host, port):
    assert parse_listen(text) == Listen(host, port)


@pytest.mark.parametrize(
    "text", ["", "host", "host:", "host:http", "h:70000", "::1:80", "[::1]", "a b:1"]
)
def test_bad_listen_addresses_say_why_in_one_line(text):
    with pytest.raises(ListenError) as e:
        parse_listen(text)
    message = str(e.value)
    assert "\n" not in message and "web listen address" in message


def test_a_bad_listen_address_is_a_web_error():
    with pytest.raises(WebError, match="the port must be a number"):
        WebServer(FakeBackend(), "localhost:web")


# --- tokens ---
def test_tokens_per_game_and_player():
    store = TokenStore()
    first = store.for_game(1, ["on", "off"])
    assert set(first) == {"on", "off"} and first["on"] != first["off"]
    assert all(len(t) >= 16 for t in first.values())
    assert store.for_game(1, ["on", "off"]) == first  # stable within a game
    assert store.player_of(first["off"]) == "off"
    second = store.for_game(2, ["on", "off"])
    assert not set(second.values()) & set(first.values())
    assert store.player_of(first["on"]) is None  # the old game's token is dead
    assert store.player_of("") is None and store.player_of(None) is None  # type: ignore[arg-type]
    store.revoke()
    assert store.player_of(second["on"]) is None and store.tokens() == {}


def test_tokens_survive_a_restart_in_a_private_file(tmp_path):
    path = tmp_path / "web" / "tokens.json"
    tokens = TokenStore(path).for_game(7, ["on", "off"])
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = TokenStore(path)
    assert again.for_game(7, ["on", "off"]) == tokens
    assert again.player_of(tokens["on"]) == "on"
    path.write_text("{damaged")
    fresh = TokenStore(path)
    assert fresh.player_of(tokens["on"]) is None
    assert fresh.for_game(7, ["on", "off"]) != tokens


# --- invites ---
def test_invite_json_shape():
    invite = invite_json("http://10.0.0.5:8080/", {"on": "tokA", "off": "tokB"})
    assert invite == {
        "table": "http://10.0.0.5:8080/",
        "players": {"on": "http://10.0.0.5:8080/p/tokA", "off": "http://10.0.0.5:8080/p/tokB"},
    }
    json.dumps(invite)


def test_base_url_finds_the_network_address_for_a_wildcard_listen():
    out = (
        "2: eth0    inet 192.168.1.23/24 brd 192.168.1.255 scope global eth0\n"
        "3: wlan0    inet 10.1.2.3/16 scope global wlan0\n"
    )
    assert base_url(Listen("0.0.0.0", 8080), run=lambda cmd: out) == "http://192.168.1.23:8080"
    assert base_url(Listen("127.0.0.1", 81)) == "http://127.0.0.1:81"
    assert base_url(Listen("::1", 81)) == "http://[::1]:81"

    def no_ip(cmd):
        raise FileNotFoundError("ip")

    url = base_url(Listen("0.0.0.0", 8080), run=no_ip)
    assert url == f"http://{socket.gethostname() or 'localhost'}:8080"


# --- QR codes ---
def test_a_short_url_is_a_version_2_code_or_smaller():
    code = qr_code("http://10.0.0.5:80/p/abcd")
    assert code.version <= 2


def test_a_lan_player_url_fits_the_oled_with_a_quiet_zone():
    code = qr_code(LAN_URL)
    assert code.version <= 3
    assert code.size * code.scale <= 64 and code.scale >= 2
    assert code.quiet >= 1
    matrix = qr_matrix(LAN_URL)
    assert len(matrix) == code.size and all(len(row) == code.size for row in matrix)
    assert not any(matrix[0]) and not any(row[0] for row in matrix)  # quiet zone is light
    assert all(matrix[code.quiet][code.quiet : code.quiet + 7])  # finder pattern's top edge


def test_qr_image_draws_the_matrix_lit_for_light():
    img = qr_image(LAN_URL)
    code = qr_code(LAN_URL)
    assert img.mode == "1" and img.size == (64, 64)
    offset = (64 - code.size * code.scale) // 2
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            px = img.getpixel((offset + x * code.scale, offset + y * code.scale))
            assert (px == 0) == dark
    assert img.getpixel((0, 0)) != 0


def test_a_url_too_long_for_the_oled_is_refused():
    from companion.views.web.qr import QRTooBig

    with pytest.raises(QRTooBig):
        qr_code("http://example.invalid/" + "x" * 400)


# --- rate limit ---
def test_rate_limiter_refills_with_time():
    now = [0.0]
    limiter = RateLimiter(rate=2, burst=3, clock=lambda: now[0])
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("b")  # another client has its own bucket
    assert limiter.retry_after("a") == pytest.approx(0.5)
    now[0] += 0.5
    assert limiter.allow("a") and not limiter.allow("a")


def test_rate_limiter_remembers_a_bounded_number_of_clients():
    limiter = RateLimiter(rate=1, burst=1, max_clients=10, clock=lambda: 0.0)
    for i in range(100):
        limiter.allow(f"client-{i}")
    assert limiter.clients == 10


# --- origin ---
@pytest.mark.parametrize(
    "origin, host, ok",
    [
        ("http://board.local:8080", "board.local:8080", True),
        ("http://BOARD.local:8080", "board.local:8080", True),
        ("http://board.local", "board.local:80", True),
        ("https://board.local", "board.local:443", True),
        ("http://board.local:8081", "board.local:8080", False),
        ("http://evil.example", "board.local:8080", False),
        ("null", "board.local:8080", False),
        ("file://", "board.local", False),
        ("http://[::1]:8080", "[::1]:8080", True),
        ("http://board.local:8080", None, False),
    ],
)
def test_same_origin(origin, host, ok):
    assert same_origin(origin, host) is ok


# --- the server thread ---
def test_the_fake_backend_is_a_web_backend():
    assert isinstance(FakeBackend(), WebBackend)


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_server_starts_on_a_free_port_serves_and_stops():
    server = WebServer(FakeBackend(), "127.0.0.1:0")
    server.start()
    try:
        assert server.running and server.port
        status, body = _get(server.url + "/api/state")
        assert status == 200 and json.loads(body)["game"] == "binaryon"
    finally:
        server.stop()
    assert not server.running
    with pytest.raises(OSError):
        urllib.request.urlopen(server.url + "/api/state", timeout=2)


def test_a_port_in_use_is_a_one_line_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = WebServer(FakeBackend(), f"127.0.0.1:{port}")
        with pytest.raises(WebError) as e:
            server.start()
    message = str(e.value)
    assert f"cannot listen on 127.0.0.1:{port}" in message and "\n" not in message
    assert not server.running
    assert server.backend.listeners.current() == []


def test_server_restarts_on_the_same_port():
    backend = FakeBackend()
    first = WebServer(backend, "127.0.0.1:0")
    first.start()
    port = first.port
    first.stop()
    second = WebServer(backend, f"127.0.0.1:{port}")
    second.start()
    try:
        assert _get(second.url + "/api/state")[0] == 200
    finally:
        second.stop()
    assert backend.listeners.current() == []  # each server unsubscribed when it stopped


def test_invite_base_url_of_a_running_server():
    server = WebServer(FakeBackend(), "127.0.0.1:0")
    server.start()
    try:
        assert server.base_url() == f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()


def test_importing_the_package_loads_no_server_or_qr_library():
    import subprocess
    import sys

    code = (
        "import sys, companion.views.web as w\n"
        "from companion.views.web import TokenStore, invite_json, parse_listen\n"
        "assert 'aiohttp' not in sys.modules and 'segno' not in sys.modules\n"
        "w.WebServer, w.qr_image\n"
        "assert 'aiohttp' in sys.modules and 'segno' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
