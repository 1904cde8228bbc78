"""A board's memory under a flood of oversized messages (issue 33): a real board (``binaryon
sim`` with its club link, in its own process) on a real Mosquitto on loopback, sent acks
and pairings far over its bounds: 24 MB acks (over the packet size the board gives the
broker: the broker drops them), 100 KB acks (under it, over an ack's bound: refused by
length before decoding) and pairings nested 5,000 deep. A good pairing last: once the board
has started its game, everything before it was read.

Prints the board's peak RSS growth over the flood (``VmHWM`` from /proc, reset just before
it) and its log lines about it. Aim: +10 MB at most.

    .venv/bin/python benchmarks/bench_club_flood.py --big 5 --small 200 --deep 200
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.club import topics  # noqa: E402
from tests.club_boards import BoardProcess  # noqa: E402
from tests.mosquitto import Broker, mosquitto_missing  # noqa: E402


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def main() -> None:
    import paho.mqtt.client as mqtt

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=int, default=5, help="24 MB acks")
    parser.add_argument("--small", type=int, default=200, help="100 KB acks")
    parser.add_argument("--deep", type=int, default=200, help="pairings 5,000 deep")
    args = parser.parse_args()
    if why := mosquitto_missing():
        print(f"club: not measured ({why})")
        sys.exit(1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker = Broker(folder).start()
        board = BoardProcess(folder, broker.url, "t1", folder / "t1.sqlite")
        started = threading.Event()
        online = threading.Event()

        def heard(client, userdata, message) -> None:
            body = json.loads(message.payload) if message.payload else {}
            if body.get("online"):
                online.set()
            if body.get("game") == "binary":
                started.set()

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        client.on_message = heard
        client.connect("127.0.0.1", broker.port)
        client.subscribe(topics.status("t1"), qos=1)
        client.loop_start()
        try:
            if not online.wait(60):
                raise SystemExit("the board did not come online")
            time.sleep(2.0)  # settled
            pid = board.proc.pid
            before = status_kb(pid, "VmRSS")
            Path(f"/proc/{pid}/clear_refs").write_text("5")  # peak RSS from now on
            big = json.dumps({"results": ["x"], "pad": "x" * (24 << 20)}).encode()
            small = json.dumps({"results": ["x" * (100 << 10)]}).encode()
            deep = b"[" * 5000 + b"]" * 5000
            start = time.perf_counter()
            for body, count, topic in (
                (big, args.big, topics.ack("t1")),
                (small, args.small, topics.ack("t1")),
                (deep, args.deep, topics.pairing("t1")),
            ):
                for _ in range(count):
                    client.publish(topic, body, qos=1).wait_for_publish(60)
            good = {"pairing": "p1", "game": "binary", "players": {"black": "Ann"}}
            client.publish(topics.pairing("t1"), json.dumps(good).encode(), qos=1)
            if not started.wait(120):
                raise SystemExit("the board did not start the good pairing after the flood")
            seconds = time.perf_counter() - start
            peak = status_kb(pid, "VmHWM")
            sent = args.big * len(big) + args.small * len(small) + args.deep * len(deep)
            print(f"flood: {args.big} x 24 MB acks, {args.small} x 100 KB acks, {args.deep} x "
                  f"5,000-deep pairings ({sent / 1e6:.0f} MB) in {seconds:.1f} s")  # fmt: skip
            print(f"board RSS before {before / 1024:.1f} MB, peak during the flood "
                  f"{peak / 1024:.1f} MB: +{max(0, peak - before) / 1024:.1f} MB")  # fmt: skip
        finally:
            client.loop_stop()
            client.disconnect()
            board.quit()
            broker.stop()
        lines = [ln for ln in board.log.read_text().splitlines() if "refused" in ln]
        print(f"board log: {len(lines)} line(s) about refused messages")
        for line in lines:
            print(f"  {line[:150]}")


if __name__ == "__main__":
    main()
