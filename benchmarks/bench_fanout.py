"""A move -> the last spectator's WebSocket, on the real daemon, web server and SQLite journal.

A child process runs the companion as `binaryon run --web` does (mock board, SQLite journal,
the web server on loopback). This process opens N table-page WebSockets (the spectators) and
the two players' pages, then presses legal squares on the mock board one at a time and times
each press to the moment the last spectator has received the new position. For each N it
prints the median and p99, and the server's CPU per move (the child's user + system time
while the moves are made): its growth per added spectator is the fan-out's cost.

The memory part starts the same daemon without and with `[web]` and prints the RSS the web
server adds: idle, with a table page and two player pages after the moves, and with the most
spectators.

    .venv/bin/python benchmarks/bench_fanout.py [--spectators 1,50,200] [--moves 100]
        [--runs 1] [--no-memory] [--json]

--runs R repeats each N R times and keeps the best run (lowest p99): on a shared machine the
other runs measure the neighbours. --json prints one JSON object instead of the text.
Spectators come from several loopback addresses (127.0.0.2, .3, ...), at most 14 per address,
below the server's per-client cap. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PER_ADDRESS = 14  # spectators from one loopback address (the server allows 16 per client)
WAIT = 5.0  # seconds a spectator may take to get a move before it counts as missed
GAP = 0.02  # seconds between two moves (the next press starts after the last spectator)
KEY = re.compile(rb'"game_id":(\d+|null),"ply":(\d+)')


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """The process's CPU time: its threads' run time in ns (schedstat), else in clock ticks."""
    try:
        return (
            sum(
                int((task / "schedstat").read_text().split()[0])
                for task in Path(f"/proc/{pid}/task").iterdir()
            )
            / 1e9
        )
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- the companion (child process) ---
def child(journal: str, web: bool, switch_interval: float | None = None) -> None:
    """The daemon as `binaryon run` builds it; obeys one command a line on stdin."""
    from companion.core.config import Config
    from companion.service.app import build_daemon

    overrides: dict = {"board": {"driver": "mock"}, "journal": {"path": journal}}
    if web:
        overrides["web"] = {"listen": "127.0.0.1:0"}
    config = Config.default().with_overrides(**overrides)
    daemon, closers = build_daemon(config, simulated=True)
    if switch_interval:
        sys.setswitchinterval(switch_interval)  # instead of what the web server set
    frames: list[float] = []
    daemon.on_frame = lambda: frames.append(time.monotonic())  # the OLED's frame sent
    rendered = threading.Event()
    daemon.listeners.append(rendered.set)  # after the web backend's: the pages are told first
    daemon.start()
    backend = getattr(daemon, "web_backend", None)
    hello = {
        "port": daemon.web.port if web else None,
        "tokens": sorted(backend.tokens().values()) if backend is not None else [],
    }
    print(json.dumps(hello), flush=True)

    def move() -> dict:
        for _ in range(3):
            state = daemon.session.state
            moves = [] if state.is_over() else [m for m in state.legal_moves() if not m.is_pass]
            if moves:
                break
            rendered.clear()
            daemon.call(lambda: daemon.new_game())
            rendered.wait(WAIT)
        square = daemon.map.to_squares(moves[len(moves) // 2].cells)[0]
        rendered.clear()
        frames.clear()
        start = time.monotonic()
        daemon.board.press(square)
        deadline = start + WAIT
        while daemon.session.state is state and time.monotonic() < deadline:
            rendered.wait(0.05)
            rendered.clear()
        key = f"{daemon.session.game_id}:{daemon.session.state.ply}"
        oled = frames[0] - start if frames else None
        time.sleep(0.005)
        daemon.board.release(square)
        return {"start": start, "key": key, "oled": oled}

    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "move":
            print(json.dumps(move()), flush=True)
        elif words[0] == "tokens":
            print(json.dumps(sorted(backend.tokens().values()) if backend else []), flush=True)
    daemon.stop()
    for close in closers:
        close()


class Daemon:
    """The child process, driven line by line."""

    def __init__(self, journal: str, web: bool = True, switch_interval: float | None = None):
        args = [sys.executable, __file__, "--child", journal] + ([] if web else ["--no-web"])
        if switch_interval:
            args += ["--switch-interval", str(switch_interval)]
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        self.hello = json.loads(self.proc.stdout.readline())
        self.pid = self.proc.pid

    def ask(self, command: str):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(10)


# --- the pages (this process, one thread) ---
class Spectators:
    """N table pages and the players' pages on WebSockets, read in one thread; notes when
    each page first gets each position (game_id:ply).

    websocket-client opens each socket and answers the server's pings; the messages are read
    here straight from the sockets (one recv per message, the server's frames unmasked), so
    that reading 200 sockets in this one thread costs a few µs a message and the figure is
    the server's, not the reader's."""

    def __init__(self, port: int, count: int, tokens: list[str]):
        import websocket  # websocket-client (a dependency of selenium, in the dev extra)

        self.count = count
        self.sockets = []
        for i in range(count + len(tokens)):
            source = f"127.0.0.{2 + i // PER_ADDRESS}"
            raw = socket.create_connection(("127.0.0.1", port), 10, source_address=(source, 0))
            query = f"?token={tokens[i - count]}" if i >= count else ""
            ws = websocket.create_connection(
                f"ws://127.0.0.1:{port}/ws{query}",
                socket=raw,
                timeout=10,
                skip_utf8_validation=True,
                enable_multithread=False,
            )
            self.sockets.append(ws)
        self.spectating = set(self.sockets[:count])
        self.seen: dict[str, list[float]] = {}  # key -> arrival time at each spectator
        self.had: dict[str, set] = {}  # key -> the spectators that got it
        self.lock = threading.Condition()
        self.selector = selectors.DefaultSelector()
        for ws in self.sockets:
            self.selector.register(ws.sock, selectors.EVENT_READ, (ws, bytearray()))
        self._stop = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self._stop:
            for key, _ in self.selector.select(0.1):
                ws, buf = key.data
                try:
                    chunk = key.fileobj.recv(65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                now = time.monotonic()
                buf += chunk
                for opcode, payload in _frames(buf):
                    if opcode == 0x9:  # a ping: answered
                        ws.pong(payload)
                    elif opcode == 0x1 and ws in self.spectating:
                        self._note(ws, payload, now)

    def _note(self, ws, payload: bytes, now: float) -> None:
        found = KEY.search(payload, 0, 200)
        if found is None:
            return
        name = f"{found[1].decode()}:{found[2].decode()}"
        with self.lock:
            had = self.had.setdefault(name, set())
            if ws not in had:
                had.add(ws)
                times = self.seen.setdefault(name, [])
                times.append(now)
                if len(times) == self.count:
                    self.lock.notify_all()

    def last(self, key: str, timeout: float = WAIT) -> float | None:
        """When the last spectator got position ``key`` (None: not all did in time)."""
        with self.lock:
            self.lock.wait_for(lambda: len(self.seen.get(key, ())) >= self.count, timeout)
            times = self.seen.get(key, [])
            return max(times) if len(times) >= self.count else None

    def close(self) -> None:
        self._stop = True
        self.thread.join(5)
        for ws in self.sockets:
            with contextlib.suppress(Exception):  # already gone
                ws.close(timeout=1)


def _frames(buf: bytearray) -> list[tuple[int, bytes]]:
    """The whole frames at the start of ``buf`` (taken out of it): (opcode, payload)."""
    out = []
    while len(buf) >= 2:
        size, head = buf[1] & 0x7F, 2
        if size == 126:
            size, head = int.from_bytes(buf[2:4], "big"), 4
        elif size == 127:
            size, head = int.from_bytes(buf[2:10], "big"), 10
        if len(buf) < head + size:
            break
        out.append((buf[0] & 0x0F, bytes(buf[head : head + size])))
        del buf[: head + size]
    return out


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def fanout(daemon: Daemon, count: int, moves: int, back_to_back: bool = False) -> dict:
    """Time ``moves`` presses to the last of ``count`` spectators; the server's CPU per move.
    ``back_to_back``: each press as soon as the last one is refereed, so it lands while the
    pages are being sent the last move (only the press -> OLED frame is timed)."""
    spectators = Spectators(daemon.hello["port"], count, daemon.ask("tokens"))
    try:
        time.sleep(0.5)
        for _ in range(3):  # warm up
            daemon.ask("move")
            time.sleep(GAP)
        times, oled, missed = [], [], 0
        cpu0 = cpu_seconds(daemon.pid)
        for _ in range(moves):
            sent = daemon.ask("move")
            if sent["oled"] is not None:
                oled.append(sent["oled"])
            if back_to_back:
                continue
            last = spectators.last(sent["key"])
            if last is None:
                missed += 1
            else:
                times.append(last - sent["start"])
            time.sleep(GAP)
        cpu = cpu_seconds(daemon.pid) - cpu0
    finally:
        spectators.close()
    return {
        "spectators": count,
        "moves": len(times),
        "missed": missed,
        "median_ms": statistics.median(times) * 1000 if times else None,
        "p99_ms": percentile(times, 0.99) * 1000 if times else None,
        "cpu_ms_per_move": cpu * 1000 / moves,
        "oled_median_ms": statistics.median(oled) * 1000 if oled else None,
        "oled_p90_ms": percentile(oled, 0.9) * 1000 if oled else None,
        "oled_p99_ms": percentile(oled, 0.99) * 1000 if oled else None,
    }


def memory(moves: int, spectators: int) -> dict:
    """RSS of the daemon without and with the web server (KB)."""
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        plain = Daemon(str(Path(tmp) / "a.sqlite"), web=False)
        try:
            time.sleep(1.0)
            out["without_web_idle"] = rss_kb(plain.pid)
            for _ in range(moves):
                plain.ask("move")
            time.sleep(0.5)
            out["without_web_moves"] = rss_kb(plain.pid)
        finally:
            plain.close()
        served = Daemon(str(Path(tmp) / "b.sqlite"))
        try:
            time.sleep(1.0)
            out["with_web_idle"] = rss_kb(served.pid)
            pages = Spectators(served.hello["port"], 1, served.ask("tokens"))
            try:
                for _ in range(moves):
                    served.ask("move")
                time.sleep(0.5)
                out["with_web_pages"] = rss_kb(served.pid)
            finally:
                pages.close()
            if spectators > 1:
                crowd = Spectators(served.hello["port"], spectators, served.ask("tokens"))
                try:
                    for _ in range(moves):
                        served.ask("move")
                    time.sleep(0.5)
                    out["with_web_crowd"] = rss_kb(served.pid)
                finally:
                    crowd.close()
        finally:
            served.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", default="1,50,200", help="comma-separated counts")
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--runs", type=int, default=1, help="runs per count, the best kept")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory part")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--back-to-back",
        action="store_true",
        help="press again as soon as a press is refereed (times the press -> OLED frame only)",
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        help="the daemon's thread switch interval in seconds, instead of the web server's",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--no-web", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, not args.no_web, args.switch_interval)
        return
    counts = [int(n) for n in args.spectators.split(",") if n.strip()]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(str(Path(tmp) / "j.sqlite"), switch_interval=args.switch_interval)
        try:
            for count in counts:
                runs = [
                    fanout(daemon, count, args.moves, args.back_to_back)
                    for _ in range(max(1, args.runs))
                ]
                p99 = "oled_p99_ms" if args.back_to_back else "p99_ms"
                best = min(runs, key=lambda r: (r[p99] is None, r[p99] or 0))
                results.append(best)
                if not args.json:
                    report(best, results[0])
        finally:
            daemon.close()
    mem = None if args.no_memory else memory(min(args.moves, 50), max(counts))
    if args.json:
        print(json.dumps({"fanout": results, "memory_kb": mem}))
        return
    if mem is not None:
        report_memory(mem, max(counts))


def report(run: dict, first: dict) -> None:
    n = run["spectators"]
    if run["p99_ms"] is None and run["moves"] == 0 and run["oled_p99_ms"] is not None:
        print(
            f"{n:4d} spectators, presses back to back: press -> OLED frame median "
            f"{run['oled_median_ms']:5.2f} ms, p90 {run['oled_p90_ms']:5.2f} ms, "
            f"p99 {run['oled_p99_ms']:5.2f} ms"
        )
        return
    if run["p99_ms"] is None:
        print(f"{n:4d} spectators: no move reached every spectator")
        return
    per = ""
    if n > first["spectators"]:
        extra = (run["cpu_ms_per_move"] - first["cpu_ms_per_move"]) * 1000
        per = f", {extra / (n - first['spectators']):5.1f} µs per added spectator"
    missed = f", {run['missed']} missed" if run["missed"] else ""
    print(
        f"{n:4d} spectators: move -> last spectator median {run['median_ms']:6.2f} ms, "
        f"p99 {run['p99_ms']:6.2f} ms ({run['moves']} moves{missed}); "
        f"server CPU {run['cpu_ms_per_move']:5.2f} ms per move{per}; "
        f"press -> OLED frame median {run['oled_median_ms']:5.2f} ms, "
        f"p99 {run['oled_p99_ms']:5.2f} ms"
    )


def report_memory(mem: dict, crowd: int) -> None:
    def mb(kb: int) -> str:
        return f"{kb / 1024:5.1f} MB"

    print(
        f"daemon RSS without the web server: {mb(mem['without_web_idle'])} idle, "
        f"{mb(mem['without_web_moves'])} after the moves"
    )
    print(
        "the web server adds: "
        f"{mb(mem['with_web_idle'] - mem['without_web_idle'])} idle, "
        f"{mb(mem['with_web_pages'] - mem['without_web_moves'])} with a table page and the "
        "players' pages after the moves (target <= 15 MB)"
    )
    if "with_web_crowd" in mem:
        added = mem["with_web_crowd"] - mem["with_web_pages"]
        print(f"  and {mb(added)} more with {crowd} spectators ({added / crowd:.0f} KB each)")


if __name__ == "__main__":
    main()
