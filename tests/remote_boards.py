"""Two real companions of a remote game, each in its own process (tests/remote_child.py): the
daemon on the simulated board with its real journal, on a real broker. Not a test module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from companion.journal.store import SqliteJournal
from tests import processes

CHILD = Path(__file__).resolve().parent / "remote_child.py"


class Board:
    """One board of the game, in its own process (tests/remote_child.py)."""

    def __init__(
        self, tmp: Path, broker, name, peer, side, game, rules, players=None, env=None, clock=""
    ):
        self.journal = tmp / f"{name}.sqlite"
        self.args = [str(self.journal), broker.url, name, peer, side, game, json.dumps(rules)]
        if players or clock:  # this board's config names its players: {seat: name}
            self.args.append(json.dumps(players or {}))
        if clock:
            self.args.append(clock)
        self.name = name
        self.env = {**os.environ, **(env or {})}  # a dishonest board: remote_child.py
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(CHILD), *self.args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=self.env,
        )
        assert self.read() == "R"

    def read(self) -> str:
        assert self.process is not None and self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"board {self.name} exited"
        return line.strip()

    def ask(self, command: str) -> dict:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return json.loads(self.read())

    def state(self) -> dict:
        return self.ask("state")

    def wait(self, predicate, what: str, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if predicate(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: timed out waiting for {what}: {state}")
            time.sleep(0.02)

    def kill(self) -> None:
        assert self.process is not None
        processes.kill(self.process)
        self.close_pipes()

    def close_pipes(self) -> None:
        assert self.process is not None
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                self.ask_stop()
                self.process.wait(timeout=15)
            except Exception:
                self.process.kill()
                self.process.wait(timeout=10)
        self.close_pipes()

    def ask_stop(self) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write("stop\n")
        self.process.stdin.flush()

    def journal_moves(self) -> list[str]:
        journal = SqliteJournal.open(self.journal)
        try:
            entry = journal.recent(1)[0]
            game = journal.load(entry.id)
            assert game is not None
            return [m.name for m in game.moves]
        finally:
            journal.close()


def seated(t3: Board, t4: Board) -> dict[str, Board]:
    """The two boards by the seat each plays."""
    return {t3.state()["local"]: t3, t4.state()["local"]: t4}
