"""End to end: ``binaryon run --clock 0:12+2`` on a real journal file, killed with -9 while a
clock runs, then started again: the player on move was charged what they used up to the
kill (within a second: the last tick), never the time the companion was off, and the clock
waits paused until a press."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from companion.journal.store import SqliteJournal
from tests import processes
from tests.live_daemon import call_api, start_daemon, stop_daemon
from tests.paths import REPO

ROOT = REPO
SERVING = re.compile(rb"web: serving on (http://127\.0\.0\.1:\d+)")


class Companion:
    """``binaryon run`` in a child process: its simulated board typed into on stdin, its
    pages' address read from stderr."""

    def __init__(self, tmp: Path, journal: Path):
        env = {**os.environ, "XDG_STATE_HOME": str(tmp / "state"), "PYTHONUNBUFFERED": "1"}
        args = ["run", "--clock", "0:12+2", "--board", "mock", "--display", "none"]
        args += ["--journal", str(journal), "--web", "127.0.0.1:0"]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli.main", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=tmp,
            env=env,
        )
        self.url = self._address()

    def _address(self) -> str:
        seen = b""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            seen += line
            if found := SERVING.search(line):
                return found[1].decode()
        self.kill()
        raise AssertionError(f"the companion did not serve its pages: {seen[-500:]!r}")

    def type(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def state(self) -> dict:
        with urllib.request.urlopen(self.url + "/api/state", timeout=10) as answer:
            return json.loads(answer.read())

    def wait_for(self, cond, what: str, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if cond(state):
                return state
            time.sleep(0.02)
        raise AssertionError(f"timed out waiting for {what}: {state.get('clock')}")

    def kill(self) -> None:
        processes.kill(self.proc, timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.type("quit")
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        for pipe in (self.proc.stdin, self.proc.stderr):
            pipe.close()


def test_kill_minus_nine_while_the_clock_runs_charges_up_to_the_last_tick(tmp_path):
    journal = tmp_path / "journal.sqlite"
    first = Companion(tmp_path, journal)
    try:
        first.type("e5")  # ON's first move: free; OFF's time runs from here
        before_move = time.monotonic()
        first.wait_for(lambda s: (s["clock"] or {}).get("running") == "off", "OFF's clock")
        started = time.monotonic()  # OFF's turn began between before_move and now
        time.sleep(4.3)
        killed = time.monotonic()
        first.kill()
    finally:
        first.stop()
    assert first.proc.returncode == -signal.SIGKILL
    time.sleep(3)  # the companion is off: none of this may be charged
    again = Companion(tmp_path, journal)
    try:
        state = again.wait_for(lambda s: s["clock"] is not None, "the clock after restart")
        clock = state["clock"]
        assert clock["paused"] is True and clock["running"] == "off"
        charged = 12 - clock["off"]
        # the last tick came at most a second before the kill; nothing after it counts
        assert killed - started - 1.05 <= charged <= killed - before_move + 0.05, charged
        assert clock["on"] == 12
        time.sleep(2)
        assert again.state()["clock"]["off"] == clock["off"]  # waits paused
        again.type("confirm")  # the press that resumes it
        again.wait_for(lambda s: s["clock"]["paused"] is False, "the clock resumed")
        time.sleep(1.2)
        running = again.state()["clock"]  # as of its timestamp: a page counts on from it
        assert running["running"] == "off" and not running["paused"]
        assert running["off"] - (time.time() - running["as_of"]) < clock["off"] - 1.0
    finally:
        again.stop()
    with SqliteJournal.open(journal, read_only=True) as j:
        game = j.recent(1)[0]
        events = j.clock_events(game.id)
        assert [(e.kind, e.why) for e in events][:2] == [("pause", "restart"), ("resume", None)]


def test_the_pages_carry_the_clock_and_may_pause_and_resume_it(tmp_path):
    daemon, closers = start_daemon(tmp_path, clock="5:00+3")
    try:
        url, tokens = daemon.web.url, daemon.web_backend.tokens()
        assert call_api(url, tokens["on"], "/api/clock", {"clock": "pause"})[1]["code"] == (
            "clock-pause"
        )  # nothing runs before the first move
        assert call_api(url, tokens["on"], "/api/move", {"move": "e5"})[0] == 200
        _, state = call_api(url, tokens["off"], "/api/me")
        clock = state["clock"]
        assert clock["running"] == "off" and clock["paused"] is False
        assert clock["control"] == "5:00+3" and clock["on"] == 300
        assert abs(clock["as_of"] - time.time()) < 30
        status, answer = call_api(url, tokens["off"], "/api/clock", {"clock": "pause"})
        assert status == 200 and answer["paused"] is True
        with urllib.request.urlopen(url + "/api/state", timeout=10) as public:
            assert json.loads(public.read())["clock"]["paused"] is True
        status, answer = call_api(url, tokens["on"], "/api/clock", {"clock": "resume"})
        assert status == 200 and answer["paused"] is False
        status, answer = call_api(url, tokens["on"], "/api/clock", {"clock": "stop"})
        assert status != 200 and answer["code"] == "bad-request"
    finally:
        stop_daemon(daemon, closers)
