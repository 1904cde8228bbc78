"""The history panel and the spectators on the real daemon, web server and SQLite journal.

A child process runs the companion as `binaryon run --web` does (mock board, the web server on
loopback) on a journal of N finished games (built once through the journal's own connection
and kept in the temp folder for the next runs). For each journal:

1. ``GET /api/history?limit=30``, one call at a time: the daemon process's CPU time per call
   (all its threads, /proc/<pid>/task/*/schedstat before and after), each call just after a
   change (a render: the journal is read again) and calls while nothing changes (the answer
   shared); and the memory the calls add (the peak RSS, VmHWM, reset through
   /proc/<pid>/clear_refs, above the RSS before them). Targets: <= 20 ms CPU and <= 2 MB.
2. A player moves through the players' API (``POST /api/move`` with the seat's token, as the
   page does) while S spectators watch the table page's WebSocket (another process): each move
   to the last spectator's message showing it, quiet, then while 8 pages load the history
   over and over (a third process; each page from its own loopback address, paced under the
   server's per-client rate limit). Targets: the last spectator within 50 ms; no move refused
   with 503.

    .venv/bin/python benchmarks/bench_history.py [--games 1000 10000 50000]
        [--spectators 50] [--moves 20] [--calls 20] [--loaders 8] [--phases quiet history]
        [--quota 0.1] [--old]

--quota SHARE puts the daemon's process (only it: the clients stand for phones) under a CPU
quota of SHARE of one core (benchmarks/cpu_quota.py: 0.1 approximates a Pi Zero 2 W core).
--old serves the history the way it was before (every game read with its moves, the last
kept), for comparison; skipped above 10,000 games (17 s and 914 MB a call at 50,000).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

CACHE = Path(tempfile.gettempdir()) / "binaryon-bench-history"
PLAYER_ADDRESS = "127.0.3.1"  # each kind of client from its own loopback address: the
COST_ADDRESS = "127.0.4.1"  # server's rate limit and connection caps are per address
PAGE_RATE = 25.0  # history loads a second per page, under the 30/s per-client limit
OLD_LIMIT = 10_000  # games above which --old is skipped
SPECTATOR_TARGET_MS = 50.0  # the last spectator sees a move within this, on this machine
PLAYER_BUDGET_MS = 100.0  # what a player waits on, under the Pi Zero quota


# --- the journals ---
def journal_of(games: int, cache: Path = CACHE) -> Path:
    """A journal of ``games`` finished games, built once (bulk SQL on the journal's own
    connection, bench_journal.build) and kept in ``cache`` for the next runs."""
    from companion.journal.rows import SCHEMA_VERSION

    cache.mkdir(exist_ok=True)
    path = cache / f"v{SCHEMA_VERSION}-{games}.sqlite"
    if not path.exists():
        from bench_journal import build

        building = cache / f"building-{games}.sqlite"
        for stale in cache.glob(f"building-{games}.sqlite*"):
            stale.unlink()
        t = time.monotonic()
        build(building, games)
        building.rename(path)
        print(f"(built {path.name}: {games} games in {time.monotonic() - t:.0f} s, kept)")
    return path


# --- the companion (child process) ---
def old_history(self, limit: int = 50) -> list[dict]:
    """The history as it was served before: every game read with its moves, the last kept."""
    from companion.service.web_backend import history_row

    return [history_row(e) for e in list(self.daemon.journal.games())[-limit:][::-1]]


def child(journal: str, old: bool) -> None:
    from companion.core.config import Config
    from companion.service.app import build_daemon

    if old:
        from companion.service.web_backend import DaemonWebBackend

        DaemonWebBackend.history = old_history
    config = Config.default().with_overrides(
        board={"driver": "mock"}, journal={"path": journal}, web={"listen": "127.0.0.1:0"}
    )
    daemon, closers = build_daemon(config, simulated=True)
    daemon.start()

    def hello() -> None:
        deadline = time.monotonic() + 10  # the pages' tokens follow the new game after its
        while daemon.web_backend.store.game_id != daemon.session.game_id:  # render
            if time.monotonic() > deadline:
                break
            time.sleep(0.005)
        game = {
            "port": daemon.web.port,
            "pid": os.getpid(),
            "game_id": daemon.session.game_id,
            "options": daemon.session.options,
            "tokens": daemon.web_backend.tokens(),
        }
        print(json.dumps(game, default=str), flush=True)

    hello()
    for line in sys.stdin:
        command = line.strip()
        if command == "touch":  # a render, as after any event: the pages' answers are stale
            daemon.call(lambda: None)
            time.sleep(0.05)  # the render follows the call's answer
            print("{}", flush=True)
            continue
        if command != "new":
            break
        daemon.call(lambda: daemon.new_game())
        hello()
    daemon.stop()
    for close in closers:
        close()


def start_child(journal: Path, old: bool, quota) -> tuple[subprocess.Popen, dict]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", str(journal), *(["--old"] if old else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    if quota is not None:
        quota.add(proc.pid)
    return proc, json.loads(proc.stdout.readline())


def new_game(proc: subprocess.Popen) -> dict:
    proc.stdin.write("new\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


# --- 1. the cost of one history call ---
def proc_status(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            out[line.split(":")[0]] = int(line.split()[1])
    return out


def cpu_seconds(pid: int) -> float:
    """The process's CPU time, all its threads, in nanoseconds' resolution (schedstat; the
    clock ticks of /proc/<pid>/stat when there is none)."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with open(task / "schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reset_peak(pid: int) -> bool:
    """Set the process's peak RSS (VmHWM) back to its RSS now (Linux: clear_refs 5)."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def get(conn: http.client.HTTPConnection, path: str) -> tuple[int, bytes]:
    conn.request("GET", path)
    answer = conn.getresponse()
    return answer.status, answer.read()


def history_cost(proc: subprocess.Popen, port: int, pid: int, calls: int) -> dict:
    """The daemon's CPU and memory per ``/api/history?limit=30``: calls one after another
    (the answer read once, then shared while nothing changes), and each call just after a
    change (the daemon rendered: the journal read again; the CPU around the call only)."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=120, source_address=(COST_ADDRESS, 0)
    )
    path = "/api/history?limit=30"
    status, body = get(conn, path)  # warm: the first call's imports and caches
    listed = len(json.loads(body)["games"]) if status == 200 else 0
    peak_reset = reset_peak(pid)
    before = proc_status(pid)
    statuses: dict[int, int] = {}
    fresh = 0.0
    for _ in range(calls):
        proc.stdin.write("touch\n")
        proc.stdin.flush()
        proc.stdout.readline()
        cpu0 = cpu_seconds(pid)
        status, _ = get(conn, path)
        fresh += cpu_seconds(pid) - cpu0
        statuses[status] = statuses.get(status, 0) + 1
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    for _ in range(calls):
        status, _ = get(conn, path)
        statuses[status] = statuses.get(status, 0) + 1
    cpu1, t1 = cpu_seconds(pid), time.perf_counter()
    after = proc_status(pid)
    conn.close()
    return {
        "listed": listed,
        "fresh_ms": fresh / calls * 1000,
        "cpu_ms": (cpu1 - cpu0) / calls * 1000,
        "wall_ms": (t1 - t0) / calls * 1000,
        "peak_mb": (after["VmHWM"] - before["VmRSS"]) / 1024 if peak_reset else None,
        "rss_mb": (after["VmRSS"] - before["VmRSS"]) / 1024,
        "statuses": statuses,
    }


# --- 2. the spectators (their own process) ---
_KEY = re.compile(r'"game_id":(\d+),"ply":(\d+)')


def spectator_address(i: int) -> str:
    return f"127.0.1.{i // 10 + 1}"  # 10 sockets per address: under the per-client caps


def watch(port: int, count: int) -> None:
    """``count`` table pages' WebSockets; on "dump" prints each one's (game, ply, arrival)."""
    import aiohttp

    arrivals: list[list[tuple[int, int, float]]] = [[] for _ in range(count)]

    async def one(session: aiohttp.ClientSession, i: int, ready: asyncio.Event, opened: list):
        async with session.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0) as ws:
            async for msg in ws:
                now = time.monotonic()
                m = _KEY.search(msg.data)
                if m is None:  # another layout of the message: read it all
                    view = json.loads(msg.data).get("view") or {}
                    key = (int(view.get("game_id") or 0), int(view.get("ply") or 0))
                else:
                    key = (int(m.group(1)), int(m.group(2)))
                arrivals[i].append((*key, now))
                if len(arrivals[i]) == 1:
                    opened.append(i)
                    if len(opened) == count:
                        ready.set()

    async def run() -> None:
        loop = asyncio.get_running_loop()
        ready, opened = asyncio.Event(), []
        sessions = {}
        for i in range(count):
            address = spectator_address(i)
            if address not in sessions:
                connector = aiohttp.TCPConnector(local_addr=(address, 0), limit=0)
                sessions[address] = aiohttp.ClientSession(connector=connector)
        tasks = [
            asyncio.ensure_future(one(sessions[spectator_address(i)], i, ready, opened))
            for i in range(count)
        ]
        await asyncio.wait_for(ready.wait(), 60)
        print("ready", flush=True)
        done = asyncio.Event()

        def dump() -> None:
            print(json.dumps(arrivals), flush=True)
            for a in arrivals:
                a.clear()

        def commands() -> None:
            for line in sys.stdin:
                if line.strip() == "dump":
                    loop.call_soon_threadsafe(dump)
                else:
                    break
            loop.call_soon_threadsafe(done.set)

        threading.Thread(target=commands, daemon=True).start()
        await done.wait()
        for t in tasks:
            t.cancel()
        for s in sessions.values():
            await s.close()

    asyncio.run(run())


# --- the pages loading the history (their own process) ---
def load(port: int, seconds: float, pages: int) -> None:
    """``pages`` pages, each from its own address, loading the history again as soon as it
    came (at most PAGE_RATE a second each); prints the answers by status and their count."""
    import aiohttp

    statuses: dict[int, int] = {}
    times: list[float] = []

    async def page(i: int) -> None:
        connector = aiohttp.TCPConnector(local_addr=(f"127.0.2.{i + 1}", 0))
        async with aiohttp.ClientSession(connector=connector) as session:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                start = time.monotonic()
                try:
                    async with session.get(f"http://127.0.0.1:{port}/api/history?limit=30") as r:
                        await r.read()
                        statuses[r.status] = statuses.get(r.status, 0) + 1
                except aiohttp.ClientError:
                    statuses[0] = statuses.get(0, 0) + 1
                took = time.monotonic() - start
                times.append(took)
                await asyncio.sleep(max(0.0, 1 / PAGE_RATE - took))

    async def run() -> None:
        print("ready", flush=True)
        await asyncio.gather(*(page(i) for i in range(pages)))

    asyncio.run(run())
    median = statistics.median(times) * 1000 if times else 0.0
    print(json.dumps({"statuses": statuses, "median_ms": median}), flush=True)


# --- the player (this process) ---
class Player:
    """Plays the game in progress through the players' API, as the seats' pages do, keeping
    its own copy of the game to pick legal moves."""

    def __init__(self, proc: subprocess.Popen, port: int, game: dict):
        self.proc, self.port = proc, port
        self.conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(PLAYER_ADDRESS, 0)
        )
        self.told = False  # a refusal other than 503 said once
        self.start(game)

    def start(self, game: dict) -> None:
        from companion.referee.session import Session

        self.game_id, self.tokens = game["game_id"], game["tokens"]
        self.session = Session("binaryon", game["options"])

    def move(self) -> dict:
        """One move: (its start, the game and ply it leads to, the answer's status)."""
        state = self.session.state
        moves = [m for m in state.legal_moves() if not m.is_pass]
        if state.is_over() or not moves:
            self.start(new_game(self.proc))
            return self.move()
        move = moves[len(moves) // 2]
        body = json.dumps({"move": move.name})
        headers = {
            "Authorization": f"Bearer {self.tokens[state.turn]}",
            "Content-Type": "application/json",
        }
        start = time.monotonic()
        self.conn.request("POST", "/api/move", body, headers)
        answer = self.conn.getresponse()
        said = answer.read()
        if answer.status == 200:
            self.session.submit(move)
        elif answer.status != 503 and not self.told:
            self.told = True
            print(f"      a move answered {answer.status}: {said[:200].decode(errors='replace')}")
        return {
            "start": start,
            "answered": time.monotonic(),
            "key": (self.game_id, self.session.state.ply),
            "status": answer.status,
        }


def last_arrivals(moves: list[dict], arrivals: list[list]) -> tuple[list[float], int]:
    """Each accepted move to its last spectator's message (seconds); the messages missed."""
    latencies, missed = [], 0
    for m in moves:
        if m["status"] != 200:
            continue
        gid, ply = m["key"]
        last = 0.0
        for seen in arrivals:
            first = next((t for g, p, t in seen if g == gid and p >= ply), None)
            if first is None:
                missed += 1
            else:
                last = max(last, first)
        if last:
            latencies.append(last - m["start"])
    return latencies, missed


def play_phase(
    player: Player, watcher: subprocess.Popen, count: int, pause: float, pid: int
) -> dict:
    moves = []
    cpu = cpu_seconds(pid)
    for _ in range(count):
        moves.append(player.move())
        time.sleep(pause)
    time.sleep(0.3)
    cpu = cpu_seconds(pid) - cpu
    watcher.stdin.write("dump\n")
    watcher.stdin.flush()
    arrivals = json.loads(watcher.stdout.readline())
    latencies, missed = last_arrivals(moves, arrivals)
    statuses: dict[int, int] = {}
    for m in moves:
        statuses[m["status"]] = statuses.get(m["status"], 0) + 1
    answers = [m["answered"] - m["start"] for m in moves]
    return {
        "latencies": latencies,
        "missed": missed,
        "statuses": statuses,
        "answers": answers,
        "cpu_ms": cpu / max(1, len(moves)) * 1000,
    }


def spectators_run(
    proc, hello: dict, spectators: int, moves: int, phases, pages: int, budget_ms: float
) -> None:
    port = hello["port"]
    player = Player(proc, port, new_game(proc))
    watcher = subprocess.Popen(
        [sys.executable, __file__, "--watch", str(port), str(spectators)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        if watcher.stdout.readline().strip() != "ready":
            print(f"  {spectators} spectators could not all connect within 60 s")
            return
        pause = 0.1
        if "quiet" in phases:
            result = play_phase(player, watcher, moves, pause, hello["pid"])
            report_moves(f"{spectators:>3} spectators, quiet", result, budget_ms)
        if "history" in phases:
            seconds = moves * (pause + 0.05) + 2
            loader = subprocess.Popen(
                [sys.executable, __file__, "--load", str(port), str(seconds), str(pages)],
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
            assert loader.stdout.readline().strip() == "ready"
            time.sleep(0.5)
            result = play_phase(player, watcher, moves, pause, hello["pid"])
            loaded = json.loads(loader.stdout.readline())
            loader.wait(30)
            label = f"{spectators:>3} spectators, {pages} pages loading the history"
            report_moves(label, result, budget_ms)
            total = sum(loaded["statuses"].values())
            print(
                f"      history loads meanwhile: {total} in {seconds:.1f} s "
                f"({total / seconds:.0f}/s), by status {loaded['statuses']}, "
                f"median {loaded['median_ms']:.1f} ms each"
            )
    finally:
        watcher.stdin.write("quit\n")
        watcher.stdin.flush()
        watcher.wait(30)


# --- figures ---
def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def report_moves(label: str, result: dict, budget_ms: float) -> None:
    lat = result["latencies"]
    refused = result["statuses"].get(503, 0)
    if lat:
        median, p99 = statistics.median(lat) * 1000, percentile(lat, 0.99) * 1000
        p90 = percentile(lat, 0.9) * 1000
        verdict = "within" if p99 <= budget_ms else "OVER"
        figures = (
            f"median {median:6.1f} ms, p90 {p90:6.1f} ms, p99 {p99:6.1f} ms, max "
            f"{max(lat) * 1000:6.1f} ms ({len(lat)} moves): p99 {verdict} {budget_ms:.0f} ms"
        )
    else:
        figures = "no moves seen"
    print(f"  move -> last spectator, {label}: {figures}")
    answer = statistics.median(result["answers"]) * 1000 if result["answers"] else 0.0
    print(
        f"      the move's answers by status {result['statuses']} (503: {refused}), median "
        f"{answer:.1f} ms; spectator messages missed: {result['missed']}; the daemon's CPU "
        f"per move (its answer, the fan-out, anything else meanwhile): {result['cpu_ms']:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--spectators", type=int, nargs="+", default=[50])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--loaders", type=int, default=8)
    parser.add_argument("--phases", nargs="+", default=["quiet", "history"])
    parser.add_argument("--quota", type=float, help="the daemon's share of one core (0.1)")
    parser.add_argument("--old", action="store_true", help="the history as served before")
    parser.add_argument("--cache", default=str(CACHE), help="where the journals are kept")
    parser.add_argument("--skip-calibration", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--watch", type=int, nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--load", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.old)
        return
    if args.watch:
        watch(*args.watch)
        return
    if args.load:
        load(int(args.load[0]), float(args.load[1]), int(args.load[2]))
        return

    quota = None
    budget = PLAYER_BUDGET_MS if args.quota is not None else SPECTATOR_TARGET_MS
    if args.quota is not None:
        from cpu_quota import CpuQuota, calibration_line

        why = CpuQuota.unavailable()
        if why:
            sys.exit(f"bench_history: no CPU quota here: {why}")
        if not args.skip_calibration:
            print(calibration_line(args.quota))
        quota = CpuQuota(args.quota).__enter__()
    try:
        for games in args.games:
            path = journal_of(games, Path(args.cache).resolve())
            if args.old and games > OLD_LIMIT:
                print(f"{games} games: --old skipped (about 17 s and 914 MB a call at 50,000)")
                continue
            proc, hello = start_child(path, args.old, quota)
            try:
                calls = min(args.calls, 3) if args.old else args.calls
                cost = history_cost(proc, hello["port"], hello["pid"], calls)
                peak = "n/a" if cost["peak_mb"] is None else f"{cost['peak_mb']:.2f} MB"
                way = "the old way" if args.old else "journal.recent"
                print(
                    f"{games} games ({way}{', under the quota' if quota else ''}): "
                    f"/api/history?limit=30 ({cost['listed']} games listed), 2 x {calls} calls: "
                    f"{cost['fresh_ms']:.1f} ms CPU a call just after a change (the journal "
                    f"read), {cost['cpu_ms']:.1f} ms CPU and {cost['wall_ms']:.1f} ms wall a call "
                    f"while nothing changes; peak RSS +{peak}, RSS +{cost['rss_mb']:.2f} MB after "
                    f"them (targets <= 20 ms CPU, <= 2 MB); answers {cost['statuses']}"
                )
                for spectators in args.spectators:
                    spectators_run(
                        proc, hello, spectators, args.moves, args.phases, args.loaders, budget
                    )
            finally:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                proc.wait(60)
    finally:
        if quota is not None:
            quota.__exit__(None, None, None)


if __name__ == "__main__":
    main()
