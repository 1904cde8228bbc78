"""Boards on a real broker for the club tests: a daemon in this process (a mock board, a real
journal, the link as the service builds it), a board in its own process (``binaryon sim``
fed on stdin, so it can be killed with SIGKILL), a hub's acknowledgements, and a game played
to its end by legal moves."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from companion import PROGRAM
from companion.club import topics
from companion.club.broker import stop_client
from companion.core.config import Config
from companion.games import get_spec
from companion.service.app import build_daemon
from companion.service.daemon import Daemon
from tests import processes

REPO = Path(__file__).resolve().parents[1]


def start_board(
    tmp_path: Path,
    broker_url: str,
    name: str = "t1",
    game: str = "binaryon",
    *,
    journal: Path | None = None,
    rules: dict | None = None,
    clock: str | None = None,
    opponent: str | None = None,
    **club,
) -> tuple[Daemon, list]:
    """A companion on the mock board with its own journal, linked to the club's broker as
    ``name`` (``opponent="remote:t4"``: it plays a remote game against board t4)."""
    overrides = {
        "game": {"name": game, **({"opponent": opponent} if opponent else {})},
        "board": {"driver": "mock"},
        "journal": {"path": str(journal or tmp_path / f"{name}.sqlite")},
        "club": {"broker": broker_url, "board": name, **club},
    }
    if rules is not None:
        overrides["rules"] = {game: rules}
    if clock is not None:
        overrides["clock"] = {"control": clock}
    daemon, closers = build_daemon(Config.default().with_overrides(**overrides), simulated=True)
    daemon.start()
    return daemon, closers


def stop_board(daemon: Daemon, closers: list) -> None:
    daemon.stop()
    for close in closers:
        close()


def wait(cond, timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def play(daemon: Daemon, name: str, player: str | None = None) -> None:
    verdict = daemon.call(lambda: daemon.submit(name, player))
    assert verdict.accepted, (name, verdict.refusal)


def moves_to_end(game: str, *, forced: bool = False, **options) -> list[str]:
    """A whole game's moves by the players (the first legal move each time): the referee's
    forced moves are left to the companion (listed too with ``forced``)."""
    spec = get_spec(game)
    state = spec.new(**spec.resolve(options))
    names = []
    while not state.is_over():
        move = state.forced_move()
        if move is None or forced:
            move = move or state.legal_moves()[0]
            names.append(move.name)
        state = state.play(move)
    return names


def payloads(heard, topic: str) -> list[dict | None]:
    return [json.loads(h.payload) if h.payload else None for h in heard if h.topic == topic]


class Acker:
    """A hub's side of the results (CLUB.md): stores each result once by its game uid,
    counts what it heard, and acknowledges every stored result of a board (retained)."""

    def __init__(self, url: str):
        import paho.mqtt.client as mqtt

        self.stored: dict[str, dict] = {}
        self.heard: list[str] = []  # every non-empty result message's uid, in order
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(f"{PROGRAM}/+/results/+", qos=1)
        self.client.on_subscribe = lambda *a: self.ready.set()
        self.client.on_message = self.on_message
        host, port = url.removeprefix("mqtt://").rsplit(":", 1)
        self.client.connect(host, int(port))
        self.client.loop_start()
        assert self.ready.wait(10)

    def on_message(self, client, userdata, message) -> None:
        if not message.payload:
            return  # a board cleared its retained result
        result = json.loads(message.payload)
        board = message.topic.split("/")[1]
        with self.lock:
            self.heard.append(result["game_uid"])
            self.stored.setdefault(result["game_uid"], result)
            mine = sorted(u for u, r in self.stored.items() if r["board"] == board)
        ack = json.dumps({"results": mine}).encode()
        client.publish(topics.ack(board), ack, qos=1, retain=True)

    def close(self) -> None:
        stop_client(self.client)


class BoardProcess:
    """``binaryon sim`` with the club link, in its own process, typed into on stdin."""

    def __init__(self, tmp_path: Path, broker_url: str, name: str, journal: Path, *args: str):
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.log = tmp_path / f"{name}.log"
        with open(self.log, "ab") as log:
            self.proc = self._start(log, broker_url, name, journal, args, env)

    @staticmethod
    def _start(log, broker_url, name, journal, args, env) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "companion.cli.main", "sim", "--journal", str(journal),
             "--club", broker_url, "--board-name", name, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env=env,
            text=True,
        )  # fmt: skip

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        processes.kill(self.proc)
        self.close()

    def quit(self) -> int:
        self.type("quit")
        code = self.proc.wait(30)
        self.close()
        return code

    def close(self) -> None:
        if self.proc.poll() is None:
            self.kill()
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()


class Gate:
    """A TCP door between a board and the broker: closed, the board cannot reach the broker
    (its connections are dropped at once, as by a host that is down); open, bytes pass both
    ways. It lets a test's subscribers connect to a restarted broker before the board does."""

    def __init__(self, broker_port: int):
        import socket

        self.broker_port = broker_port
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.is_open = threading.Event()
        self.pipes: list = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def open(self) -> None:
        self.is_open.set()

    def shut(self) -> None:
        """Closed: every connection through it is cut, and new ones dropped."""
        self.is_open.clear()
        for sock in self.pipes:
            with contextlib.suppress(OSError):
                sock.shutdown(2)
            with contextlib.suppress(OSError):
                sock.close()
        self.pipes.clear()

    def _accept(self) -> None:
        import socket

        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.is_open.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.broker_port), timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            self.pipes += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a, b) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for sock in (a, b):
            with contextlib.suppress(OSError):
                sock.shutdown(2)

    def close(self) -> None:
        self.shut()
        self.server.close()


def publish(url: str, topic: str, payload: dict | None, retain: bool = True) -> None:
    """What a hub sends (a pairing, an acknowledgement): one message, confirmed."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    host, port = url.removeprefix("mqtt://").rsplit(":", 1)
    client.connect(host, int(port))
    client.loop_start()
    body = json.dumps(payload).encode() if payload is not None else b""
    client.publish(topic, body, qos=1, retain=retain).wait_for_publish(10)
    stop_client(client)


def send_raw(url: str, topic: str, bodies: list[bytes], retain: bool = False) -> None:
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    host, port = url.removeprefix("mqtt://").rsplit(":", 1)
    client.connect(host, int(port))
    client.loop_start()
    for body in bodies:
        client.publish(topic, body, qos=1, retain=retain).wait_for_publish(20)
    stop_client(client)


def deep(levels: int) -> bytes:
    return ("[" * levels + "]" * levels).encode()
