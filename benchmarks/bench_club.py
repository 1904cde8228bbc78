"""Club night at scale: N simulated boards on one Mosquitto and one hub (``binaryon club``).

For each N, a fresh broker and hub; N boards (paho clients, tests/simulated_club_boards.py)
come online and each plays a move every ``--interval`` seconds (staggered, jittered by ±25 %):
a ``moves`` message, then the retained ``table`` with the board's public view, as a board
does. The boards live in client processes of at most ``--per-process`` boards each (paho's
network loop watches its socket with select(), which cannot watch a descriptor past 1,024: one
process of 1,000 boards would lose its boards past the 340th). One WebSocket client of the
hub's live page (``/ws``) times each move from its publication to the page's receiving the
board's update (p50, p99; moves not seen within 5 s count as missed). CPU seconds (user +
system, from /proc) over the measured window are read apart for the hub, the broker and the
client processes (the boards: on a real club night each is a board of its own), and the
hub's RSS at the end.

    .venv/bin/python benchmarks/bench_club.py [--boards 10,100,1000] [--seconds 30]
        [--interval 5] [--per-process 250] [--json]

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
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.club_hub import HubProcess  # noqa: E402
from tests.mosquitto import Broker, mosquitto_missing  # noqa: E402
from tests.simulated_club_boards import SimBoard, play_game  # noqa: E402

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


class Clients:
    """The boards, in client processes of at most ``per`` boards each (``--worker``): each
    brings its boards online, then on ``go`` plays their moves until the end and prints what
    it sent (board, seq, time) as JSON."""

    def __init__(self, url: str, n: int, per: int, seed: int):
        self.procs = []
        for first in range(0, n, per):
            argv = [sys.executable, __file__, "--worker", url, str(first), str(min(per, n - first))]
            self.procs.append(
                subprocess.Popen(
                    [*argv, str(seed)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                )
            )
        for proc in self.procs:
            line = proc.stdout.readline()
            if line.strip() != "ready":
                raise RuntimeError(f"a client process did not bring its boards online: {line!r}")

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(proc.pid) for proc in self.procs)

    def go(self, end: float, interval: float) -> None:
        for proc in self.procs:
            proc.stdin.write(f"{end} {interval}\n")
            proc.stdin.flush()

    def sent(self) -> dict[tuple[str, int], float]:
        out: dict[tuple[str, int], float] = {}
        for proc in self.procs:
            for name, seq, at in json.loads(proc.stdout.readline()):
                out[(name, seq)] = at
        return out

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.stdin.close()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def worker(url: str, first: int, count: int, seed: int) -> None:
    """A client process: ``count`` boards from number ``first`` (see Clients)."""
    games = [play_game(seed + k, {"on": f"P{k}a", "off": f"P{k}b"}) for k in range(4)]
    boards = []
    for k in range(first, first + count):
        board = SimBoard(url, f"b{k:04d}", games[k % len(games)])
        board.online()
        boards.append(board)
    print("ready", flush=True)
    line = sys.stdin.readline()
    if not line:
        return
    end_wall, interval = (float(x) for x in line.split())
    end = time.monotonic() + (end_wall - time.time())
    rng = random.Random(seed + first)
    due = [(time.monotonic() + rng.uniform(0, interval), k) for k in range(count)]
    heapq.heapify(due)
    position = [0] * count
    sent = []
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
        sent.append((board.name, board.seq, at))
        heapq.heappush(due, (when + interval * rng.uniform(0.75, 1.25), k))
    print(json.dumps(sent), flush=True)
    sys.stdin.readline()  # until the measuring process is done
    for board in boards:
        board.close()


def run_size(n: int, seconds: float, interval: float, per: int, seed: int = 1) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-club-") as tmp:
        work = Path(tmp)
        broker = Broker(work).start()
        hub = HubProcess(broker.url, work).start()
        clients = None
        try:
            clients = Clients(broker.url, n, per, seed)
            hub.wait(lambda: len(hub.boards()) == n, timeout=120, what=f"{n} boards")
            page = Page(hub.url)
            time.sleep(1.0)  # the page's first snapshot
            pids = {"hub": hub.process.pid, "broker": broker.process.pid}
            cpu0 = {k: cpu_seconds(pid) for k, pid in pids.items()}
            cpu0["clients"] = clients.cpu_seconds()
            t0 = time.monotonic()
            clients.go(time.time() + seconds, interval)
            sent = clients.sent()
            elapsed = time.monotonic() - t0
            cpu = {k: cpu_seconds(pid) - cpu0[k] for k, pid in pids.items()}
            cpu["clients"] = clients.cpu_seconds() - cpu0["clients"]
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
            if clients is not None:
                clients.close()
            hub.stop()
            broker.stop()
    moves = len(sent)
    return {
        "boards": n,
        "client_processes": len(clients.procs),
        "moves": moves,
        "missed": moves - len(latencies),
        "p50_ms": statistics.median(latencies) if latencies else None,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        if latencies
        else None,
        "seconds": round(elapsed, 1),
        "hub_cpu_s": round(cpu["hub"], 2),
        "hub_cpu_percent": round(100 * cpu["hub"] / elapsed, 1),
        "hub_cpu_ms_per_move": round(1000 * cpu["hub"] / moves, 2) if moves else None,
        "broker_cpu_percent": round(100 * cpu["broker"] / elapsed, 1),
        "clients_cpu_percent": round(100 * cpu["clients"] / elapsed, 1),
        "hub_rss_mb": round(rss, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", default="10,100,1000", help="board counts, comma-separated")
    p.add_argument("--seconds", type=float, default=30.0, help="measured seconds per count")
    p.add_argument("--interval", type=float, default=5.0, help="seconds between a board's moves")
    p.add_argument("--per-process", type=int, default=250, help="boards per client process")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--worker", nargs=4, metavar=("URL", "FIRST", "COUNT", "SEED"), help="inner")
    args = p.parse_args(argv)
    if args.worker:
        url, first, count, seed = args.worker
        worker(url, int(first), int(count), int(seed))
        return 0
    if why := mosquitto_missing():
        print(f"club: not measured ({why})")
        return 1
    counts = [int(n) for n in args.boards.split(",") if n.strip()]
    results = [run_size(n, args.seconds, args.interval, args.per_process) for n in counts]
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
            f"RSS {r['hub_rss_mb']:.1f} MB; broker {r['broker_cpu_percent']:.1f} % of a core; "
            f"the boards ({r['client_processes']} client processes) "
            f"{r['clients_cpu_percent']:.1f} %"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
