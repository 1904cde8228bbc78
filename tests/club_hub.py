"""``binaryon club`` as a process of its own, for the hub's tests: started on a free port,
killable (SIGKILL: mid-round) and restartable on the same port and results file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests import processes
from tests.mosquitto import free_port


class PortTaken(RuntimeError):
    """The hub's free port was taken by another process before the hub bound it."""


class HubProcess:
    def __init__(
        self, broker_url: str | None, workdir: Path, port: int | None = None,
        config: Path | None = None, extra: tuple = (),
    ):  # fmt: skip
        self.broker_url = broker_url
        self.extra = list(extra)  # more of binaryon club's arguments (--event EVENT.toml)
        self.config = config
        self.port = port or free_port()
        self._own_port = port is None  # chosen here: another can be chosen if it is taken
        self.store = workdir / "club.sqlite"
        self.log = workdir / "hub.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> HubProcess:
        """Starts the hub and waits until it answers with its broker connected. A free port
        another process took meanwhile (a loaded machine) is chosen anew, twice at most."""
        for _ in range(2):
            try:
                return self._start(timeout)
            except PortTaken:
                if not self._own_port:
                    raise
                self.port = free_port()
        return self._start(timeout)

    def _start(self, timeout: float) -> HubProcess:
        env = {**os.environ, "BINARYON_CONFIG": str(self.config or os.devnull)}
        broker = ["--broker", self.broker_url] if self.broker_url else []
        logged = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion.cli.main", "club", *broker,
                 "--web", f"127.0.0.1:{self.port}", "--store", str(self.store), *self.extra],
                stdout=log, stderr=subprocess.STDOUT, env=env,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = self.log.read_bytes()[logged:].decode(errors="replace")
                taken = "address already in use" in said
                raise (PortTaken if taken else RuntimeError)(f"the hub exited: {said[-800:]}")
            try:
                if self.get("/api/boards")["hub"]["broker"] == "connected":
                    return self
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.1)
        self.process.kill()  # not left running once the test has given up on it
        self.process.wait()
        raise RuntimeError(f"the hub did not start: {self.log.read_text()[-800:]}")

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=5) as answer:
            return json.loads(answer.read())

    def results(self) -> list[dict]:
        """The results the hub stored, newest first (``/api/results``)."""
        with urllib.request.urlopen(f"{self.url}/api/results", timeout=10) as answer:
            return json.loads(answer.read())["games"]

    def boards(self) -> dict[str, dict]:
        return {b["name"]: b for b in self.get("/api/boards")["boards"]}

    def wait(self, predicate, timeout: float = 20.0, what: str = ""):
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = predicate()
            except (OSError, ValueError, KeyError):
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what or predicate}")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            processes.kill(self.process)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            processes.terminate(self.process)
        self.process = None


def message(board: str, **fields) -> bytes:
    """A board's message as the hub hears it from the broker."""
    return json.dumps({"board": board, "sent": 1.0, **fields}).encode()
