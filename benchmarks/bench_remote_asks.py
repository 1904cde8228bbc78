"""What a flood of forged questions (``ask``) costs a board in remote play (docs/club.md, "A
dishonest peer"): the real daemon as board t3 (tests/remote_child.py, its own process, mock
board, SQLite journal) plays Binaryon 8x8 against t4, a paho client in this process, on a real
Mosquitto on loopback (Debian's ``mosquitto``). After ``--plies`` moves, ``--asks`` questions
for the whole game are published as fast as paho sends them; then the player at t3 presses
its next move.

Prints: the messages t3 sent back in answer, the CPU t3's process spent from the first
question to its next move on the broker, and how long that press took to reach the broker.

    .venv/bin/python benchmarks/bench_remote_asks.py --asks 500 --plies 30
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.club import topics  # noqa: E402
from companion.club.remote_commit import Keys, move_link  # noqa: E402
from companion.games import get_spec  # noqa: E402
from tests.mosquitto import Broker  # noqa: E402

GAME, RULES = "binaryon", {"size": 8}


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Peer:
    """Board t4 as the broker sees it: it hears t3's moves and sends its own, signed."""

    def __init__(self, port: int):
        import paho.mqtt.client as mqtt

        self.keys = Keys("1" * 64)
        self.heard: list[tuple[float, dict]] = []
        self.lock = threading.Condition()
        ready = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(
            topics.remote("t3", "t4"), qos=1
        )
        self.client.on_subscribe = lambda *a: ready.set()
        self.client.on_message = self.on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        ready.wait(10)

    def on_message(self, client, userdata, message) -> None:
        with self.lock:
            self.heard.append((time.perf_counter(), json.loads(message.payload)))
            self.lock.notify_all()

    def moves(self) -> list[dict]:
        with self.lock:
            return [m for _t, m in self.heard if m.get("kind") == "move"]

    def wait(self, predicate, timeout: float = 30.0) -> None:
        with self.lock:
            if not self.lock.wait_for(predicate, timeout):
                raise SystemExit("t3 did not answer in time")

    def identity(self, **rest) -> dict:
        options = get_spec(GAME).resolve(RULES)
        return {"board": "t4", "sent": 0, "game": GAME, "options": options, "seat": "off",
                "game_id": 1, "over": False, "anchor": self.keys.anchor,
                "control": self.keys.control.anchor, **rest}  # fmt: skip

    def send(self, message: dict, wait: bool = True):
        info = self.client.publish(topics.remote("t4", "t3"), json.dumps(message), qos=1)
        if wait:
            info.wait_for_publish(10)
        return info


class Board:
    def __init__(self, folder: Path, url: str, child: Path):
        args = [str(folder / "t3.sqlite"), url, "t3", "t4", "", GAME, json.dumps(RULES)]
        self.process = subprocess.Popen(
            [sys.executable, str(child), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.read() == "R"

    def read(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def ask(self, command: str) -> dict:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return json.loads(self.read())

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("stop\n")
        self.process.stdin.flush()
        self.process.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--asks", type=int, default=500)
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--child", type=Path, default=ROOT / "tests" / "remote_child.py")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        broker = Broker(Path(tmp)).start()
        peer = Peer(broker.port)
        board = Board(Path(tmp), broker.url, args.child)
        try:
            run(board, peer, args.asks, args.plies)
        finally:
            board.stop()
            peer.client.loop_stop()
            broker.stop()


def run(board: Board, peer: Peer, asks: int, plies: int) -> None:
    own = 0
    for ply in range(plies):
        state = board.ask("state")
        if ply % 2 == 0:  # t3's move
            board.ask(f"play {state['legal'][0]}")
            own += 1
            peer.wait(lambda n=own: len(peer.moves()) >= n)
        else:  # t4's: sent, lit at t3, made there
            spec = get_spec(GAME)
            game = spec.replay(state["moves"], **spec.resolve(RULES))
            name = game.legal_moves()[0].name
            seq = ply // 2
            peer.send(peer.identity(kind="move", seq=seq, ply=ply, move=name, player="off",
                                    key=peer.keys.key(move_link(seq))))  # fmt: skip
            while board.ask("state")["wanted"] != name:
                time.sleep(0.01)
            board.ask(f"play {name}")
    state = board.ask("state")
    before = len(peer.heard)
    cpu0 = cpu_seconds(board.process.pid)
    flood = time.perf_counter()
    ask = peer.identity(kind="ask", have=0, mine=plies // 2, told=0, named=False)
    sent = [peer.send(ask, wait=False) for _ in range(asks)]
    for info in sent:
        info.wait_for_publish(60)
    flooded = time.perf_counter() - flood
    press = time.perf_counter()
    board.ask(f"play {state['legal'][0]}")
    own += 1
    move = state["legal"][0]

    def pressed(m: dict) -> bool:
        return m.get("kind") == "move" and m.get("seq") == own - 1 and m.get("move") == move

    peer.wait(lambda: any(pressed(m) for _t, m in peer.heard[before:]), 120)
    arrived = next(t for t, m in peer.heard[before:] if pressed(m))
    time.sleep(1.0)  # what the flood still costs after the press
    cpu = cpu_seconds(board.process.pid) - cpu0
    answers = len(peer.heard) - before - 1
    print(f"{asks} forged questions after {plies} plies ({own - 1} own moves at t3), "
          f"published in {flooded:.2f} s")  # fmt: skip
    print(f"  messages t3 sent back: {answers}")
    print(f"  t3's CPU from the first question to 1 s after its press: {cpu:.2f} s")
    print(f"  the press after the flood -> on the broker: {(arrived - press) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
