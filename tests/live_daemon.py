"""The real daemon on a mock board serving its pages on a loopback port, and the players' API
called as a page calls it: for the tests that play through the web pages."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

from companion.core.config import Config
from companion.service.app import build_daemon
from companion.service.daemon import Daemon


def start_daemon(
    tmp_path: Path,
    game: str = "binaryon",
    *,
    port: int = 0,
    journal: Path | None = None,
    rules: dict | None = None,
    clock: str = "",
    **game_options,
) -> tuple[Daemon, list]:
    """``game_options`` go to ``[game]`` (``players=...``); ``rules`` to ``[rules.<game>]``;
    ``clock`` to ``[clock] control``."""
    overrides = {
        "game": {"name": game, **game_options},
        "board": {"driver": "mock"},
        "journal": {"path": str(journal or tmp_path / "j.sqlite")},
        "web": {"listen": f"127.0.0.1:{port}"},
    }
    if rules is not None:
        overrides["rules"] = {game: rules}
    if clock:
        overrides["clock"] = {"control": clock}
    daemon, closers = build_daemon(Config.default().with_overrides(**overrides), simulated=True)
    daemon.start()
    return daemon, closers


def stop_daemon(daemon: Daemon, closers: list) -> None:
    daemon.stop()
    for close in closers:
        close()


def call_api(url: str, token: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """GET (no body) or POST ``path`` with a player's token: (status, JSON answer)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data,
                                 headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
