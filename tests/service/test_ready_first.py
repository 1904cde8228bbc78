"""A service is ready before its optional parts. With ``later`` (what ``binaryon
run`` does under systemd) the web pages and the club's link are neither imported nor started
until the table's first frame is up; then they come, from a thread of their own, and work."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from companion.core.config import Config
from companion.service.app import build_daemon
from tests.paths import REPO

ROOT = REPO

# builds the daemon with the web pages and a club link, notes what is imported at the first
# frame, then waits for the pages to be served
PROBE = """
import json, sys, time
from companion.core.config import Config
from companion.service.app import build_daemon

config = Config.default().with_overrides(
    board={"driver": "mock"}, journal={"path": sys.argv[1]}, web={"listen": "127.0.0.1:0"},
    club={"broker": "mqtt://127.0.0.1:9", "board": "t1"},
)
daemon, closers = build_daemon(config, simulated=True, service=True, later=sys.argv[2] == "1")
seen = {}
def frame():
    seen.setdefault("first", sorted({m.split(".")[0] for m in sys.modules}))
    seen.setdefault("ours", sorted(m for m in sys.modules if m.startswith("companion.")))
daemon.after_first_frame.insert(0, frame)  # right after the first frame, before the rest
daemon.start()
deadline = time.monotonic() + 60
while (daemon.web is None or daemon.club is None) and time.monotonic() < deadline:
    time.sleep(0.05)
seen["port"] = daemon.web.port if daemon.web is not None else None
seen["club"] = daemon.club is not None
daemon.stop()
for close in closers:
    close()
print(json.dumps(seen))
"""


def probe(tmp_path: Path, later: bool) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "j.sqlite"), "1" if later else "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_the_first_frame_comes_before_the_pages_and_the_club_link_are_loaded(tmp_path):
    seen = probe(tmp_path, later=True)
    assert "aiohttp" not in seen["first"] and "paho" not in seen["first"]
    assert "companion.views.web.server" not in seen["ours"]
    assert "companion.club.board_link" not in seen["ours"]
    # no engine opponent: the search is loaded by the first hint that asks it, not at start
    assert "companion.engines.search" not in seen["ours"]
    assert "companion.engines.explain" not in seen["ours"]
    assert seen["port"] and seen["club"]  # and then they came
    started_at_once = probe(tmp_path, later=False)  # what a terminal's run does
    assert "aiohttp" in started_at_once["first"] and "paho" in started_at_once["first"]


def test_the_pages_come_once_the_table_is_up_and_serve_it(tmp_path):
    config = Config.default().with_overrides(
        board={"driver": "mock"},
        journal={"path": str(tmp_path / "j.sqlite")},
        web={"listen": "127.0.0.1:0"},
    )
    daemon, closers = build_daemon(config, simulated=True, service=True, later=True)
    try:
        assert daemon.web is None and daemon.after_first_frame  # nothing yet, before a frame
        daemon.start()
        deadline = time.monotonic() + 60
        while daemon.web is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert daemon.web is not None and daemon.after_first_frame == []
        with urllib.request.urlopen(f"http://127.0.0.1:{daemon.web.port}/api/state") as answer:
            assert answer.status == 200 and json.loads(answer.read())
    finally:
        daemon.stop()
        for close in closers:
            close()
