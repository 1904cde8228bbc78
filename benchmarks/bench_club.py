"""Club night at scale: N simulated boards on one Mosquitto and one hub (``binaryon club``).

For each N, a fresh broker and hub; N boards (paho clients, companion/testing/club_boards.py)
come online and each plays a move every ``--interval`` seconds (staggered, jittered by ±25 %):
a ``moves`` message, then the retained ``table`` with the board's public view, as a board
does. One WebSocket client of the hub's live page (``/ws``) times each move from its
publication to the page's receiving the board's update (p50, p99; moves not seen within 5 s
count as missed). The hub's CPU seconds (user + system, from /proc) over the measured window
and its RSS at the end are read from the hub's process.

    .venv/bin/python benchmarks/bench_club.py [--boards 10,50,100] [--seconds 30]
        [--interval 5] [--json]

Loopback only; needs Debian's mosquitto (apt install mosquitto).
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.testing.club_boards import SimBoard, play_game  # noqa: E402
from tests.club_hub import HubProcess  # noqa: E402
from tests.mosquitto import Broker  # noqa: E402

WAIT = 5.0  # seconds a move may take to reach the page before it counts as missed
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Page:
    """A WebSocket client of the hub's live page, in a thread of its own: it notes when each
    (board, seq) arrives."""

    def __init__(self, url: str):
        self.url = url.replace("http://", "ws://") + "/ws"
        self.arrived: dict[tuple[str, int], float] = {}
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()
        if not self.ready.wait(20):
            raise RuntimeError("the page's WebSocket did not open")

    async def _run(self) -> None:
        import aiohttp

        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(self.url, max_msg_size=0) as ws,
        ):
            self.ready.set()
            while not self.stop.is_set():
                try:
                    msg = await ws.receive(timeout=0.5)
                except TimeoutError:
                    continue
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                now = time.time()
                data = json.loads(msg.data)
                if data.get("type") == "board":
                    board = data["board"]
                    with self.lock:
                        self.arrived.setdefault((board["name"], board["seq"]), now)


def run_size(n: int, seconds: float, interval: float, seed: int = 1) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-club-") as tmp:
        work = Path(tmp)
        broker = Broker(work).start()
        hub = HubProcess(broker.url, work).start()
        boards: list[SimBoard] = []
        try:
            games = [play_game(seed + k, {"on": f"P{k}a", "off": f"P{k}b"}) for k in range(4)]
            for k in range(n):
                board = SimBoard(broker.url, f"b{k:04d}", games[k % len(games)])
                board.online()
                boards.append(board)
            hub.wait(lambda: len(hub.boards()) == n, timeout=60, what=f"{n} boards")
            page = Page(hub.url)
            time.sleep(1.0)  # the page's first snapshot
            rng = random.Random(seed)
            due = [(time.monotonic() + rng.uniform(0, interval), k) for k in range(n)]
            heapq.heapify(due)
            position = [0] * n
            sent: dict[tuple[str, int], float] = {}
            cpu0, t0 = cpu_seconds(hub.process.pid), time.monotonic()
            end = t0 + seconds
            while True:
                when, k = heapq.heappop(due)
                if when > end:
                    break
                time.sleep(max(0.0, when - time.monotonic()))
                board = boards[k]
                steps = board.game.steps
                if position[k] >= len(steps):  # the game is over: the board starts again
                    position[k] = 0
                    board.online()
                step = steps[position[k]]
                position[k] += 1
                at = time.time()
                board.play(step)
                sent[(board.name, board.seq)] = at
                heapq.heappush(due, (when + interval * rng.uniform(0.75, 1.25), k))
            elapsed = time.monotonic() - t0
            cpu = cpu_seconds(hub.process.pid) - cpu0
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:
                with page.lock:
                    if all(key in page.arrived for key in sent):
                        break
                time.sleep(0.05)
            with page.lock:
                latencies = sorted(
                    (page.arrived[key] - at) * 1000 for key, at in sent.items()
                    if key in page.arrived
                )  # fmt: skip
            page.stop.set()
            rss = rss_mb(hub.process.pid)
        finally:
            for board in boards:
                board.close()
            hub.stop()
            broker.stop()
    moves = len(sent)
    return {
        "boards": n,
        "moves": moves,
        "missed": moves - len(latencies),
        "p50_ms": statistics.median(latencies) if latencies else None,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        if latencies
        else None,
        "seconds": round(elapsed, 1),
        "hub_cpu_s": round(cpu, 2),
        "hub_cpu_percent": round(100 * cpu / elapsed, 1),
        "hub_cpu_ms_per_move": round(1000 * cpu / moves, 2) if moves else None,
        "hub_rss_mb": round(rss, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", default="10,50,100", help="board counts, comma-separated")
    p.add_argument("--seconds", type=float, default=30.0, help="measured seconds per count")
    p.add_argument("--interval", type=float, default=5.0, help="seconds between a board's moves")
    p.add_argument("--json", action="store_true", help="one JSON object")
    args = p.parse_args(argv)
    results = [
        run_size(int(n), args.seconds, args.interval) for n in args.boards.split(",") if n.strip()
    ]
    if args.json:
        print(json.dumps({"interval_s": args.interval, "runs": results}))
        return 0
    print(f"a move every {args.interval:g} s per board, {args.seconds:g} s per count")
    for r in results:
        p50 = f"{r['p50_ms']:.1f}" if r["p50_ms"] is not None else "-"
        p99 = f"{r['p99_ms']:.1f}" if r["p99_ms"] is not None else "-"
        print(
            f"{r['boards']:4d} boards: move -> hub page p50 {p50} ms, p99 {p99} ms "
            f"({r['moves']} moves, {r['missed']} missed); hub CPU {r['hub_cpu_s']:.2f} s "
            f"({r['hub_cpu_percent']:.1f} % of a core, {r['hub_cpu_ms_per_move']} ms a move), "
            f"RSS {r['hub_rss_mb']:.1f} MB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
