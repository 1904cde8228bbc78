"""What publishing to a club's broker costs a board: the real daemon (mock board, SQLite
journal) plays the same moves without and with its club link to a real Mosquitto on loopback
(Debian's ``mosquitto``), and a subscriber in this process hears them.

Prints, for each: a move's answer (the referee's, through ``Daemon.call``) median / p99, the
process's CPU per move (with the link: its paho thread and the subscriber's included), and
with the link the press -> the move at the subscriber median / p99.

    .venv/bin/python benchmarks/bench_club_board.py --moves 300
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.club import topics  # noqa: E402
from companion.core.config import Config  # noqa: E402
from companion.service.app import build_daemon  # noqa: E402
from tests.mosquitto import Broker, mosquitto_missing  # noqa: E402


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def first_legal(daemon) -> str:
    def pick() -> str:
        if daemon.session.state.is_over():
            daemon.new_game()
        return daemon.session.state.legal_moves()[0].name

    return daemon.call(pick)


def run(folder: Path, moves: int, broker: Broker | None) -> dict[str, list[float]]:
    import paho.mqtt.client as mqtt

    overrides = {
        "board": {"driver": "mock"},
        "journal": {"path": str(folder / f"j-{'club' if broker else 'alone'}.sqlite")},
    }
    heard: dict[tuple[str, int], float] = {}
    got = threading.Condition()
    sub = None
    if broker is not None:
        overrides["club"] = {"broker": broker.url, "board": "b1"}
        ready = threading.Event()
        sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        sub.on_connect = lambda c, u, f, rc, p: c.subscribe(topics.moves("b1"), qos=1)
        sub.on_subscribe = lambda *a: ready.set()

        def on_message(client, userdata, message) -> None:
            import json

            body = json.loads(message.payload)
            with got:
                heard.setdefault((body["game_uid"], body.get("ply", -1)), time.perf_counter())
                got.notify_all()

        sub.on_message = on_message
        sub.connect("127.0.0.1", broker.port)
        sub.loop_start()
        ready.wait(10)
    daemon, closers = build_daemon(Config.default().with_overrides(**overrides), simulated=True)
    daemon.start()
    if daemon.club is not None:
        deadline = time.monotonic() + 10
        while not daemon.club.connected and time.monotonic() < deadline:
            time.sleep(0.01)
    out: dict[str, list[float]] = {"answer": [], "heard": []}
    cpu0 = time.process_time()
    for _ in range(moves):
        name = first_legal(daemon)
        start = time.perf_counter()
        daemon.call(lambda n=name: daemon.submit(n, None))
        out["answer"].append((time.perf_counter() - start) * 1000)
        if daemon.club is not None:
            key = (daemon.club.public_uid(), len(daemon.session.played) - 1)  # as moves name it
            with got:
                got.wait_for(lambda k=key: k in heard, 10)
            if key in heard:
                out["heard"].append((heard[key] - start) * 1000)
    out["cpu"] = [(time.process_time() - cpu0) * 1000 / moves]
    daemon.stop()
    for close in closers:
        close()
    if sub is not None:
        sub.loop_stop()
        sub.disconnect()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    if why := mosquitto_missing():
        print(f"club: not measured ({why})")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "broker").mkdir()
        broker = Broker(folder / "broker").start()
        try:
            alone = run(folder, args.moves, None)
            club = run(folder, args.moves, broker)
        finally:
            broker.stop()
    for label, r in (("without the club link", alone), ("with the club link", club)):
        print(
            f"{label}: {args.moves} moves, answer median {statistics.median(r['answer']):.2f} ms,"
            f" p99 {p99(r['answer']):.2f} ms, process CPU {r['cpu'][0]:.2f} ms a move"
        )
    if club["heard"]:
        print(
            f"press -> the move at a subscriber: median {statistics.median(club['heard']):.2f} ms,"
            f" p99 {p99(club['heard']):.2f} ms ({len(club['heard'])} of {args.moves} heard)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
