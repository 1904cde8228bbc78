"""The web server's costs and speed, on the in-memory test backend (a real Binaryon game).

1. Latency from a change in the daemon thread to the table page's WebSocket message, and to
   the table page redrawn in headless Chromium (target < 100 ms).
2. Idle CPU and RSS the server adds to the daemon process, with a table page and two player
   pages connected (targets < 1 % CPU, < 15 MB).
3. A flood of 1,000 requests/s from one client: the board presses' latency in the daemon
   thread with and without it (the presses must keep their latency), after a warm-up, quiet
   and flood phases in turn. Only answered requests count as served; those past the server's
   per-client connection cap get no answer and are counted apart, with why.

    .venv/bin/python benchmarks/bench_web.py [--changes 300] [--idle 10] [--flood 5]
        [--rounds 2]

Everything runs on this machine's loopback; the flood is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web_fake import FakeBackend  # noqa: E402


def rss_kb(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def legal_square(backend: FakeBackend) -> str | None:
    state = backend.states[-1]
    names = [m.name for m in state.legal_moves()]
    names = [n for n in names if n != "pass"]
    return names[len(names) // 2] if names else None


def next_press(backend: FakeBackend) -> None:
    """One press of the board by the player on turn (a new game when this one is over)."""
    square = legal_square(backend)
    if square is None or backend.states[-1].is_over():
        backend.new_game()
    else:
        backend.board_press(square)


# --- 1. latency ---
def measure_latency(changes: int) -> list[float]:
    import aiohttp

    from companion.views.web import WebServer

    backend = FakeBackend(notify_in_thread=False)  # notices come from the "daemon" thread
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    received: dict[int, float] = {}
    ready = threading.Event()
    done = threading.Event()

    async def listen() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url + "/ws") as ws:
            ready.set()
            async for msg in ws:
                now = time.perf_counter()
                view = json.loads(msg.data)["view"]
                received.setdefault(view["ply"] + 1000 * view["game_id"], now)
                if done.is_set():
                    break

    client = threading.Thread(target=lambda: asyncio.run(listen()), daemon=True)
    client.start()
    ready.wait(5)
    time.sleep(0.2)
    times = []
    try:
        for _ in range(changes):
            start = time.perf_counter()
            next_press(backend)
            key = backend.states[-1].ply + 1000 * backend.game_id
            end = time.monotonic() + 2
            while key not in received and time.monotonic() < end:
                time.sleep(0.0005)
            if key in received:
                times.append(received[key] - start)
            time.sleep(0.01)
    finally:
        done.set()
        next_press(backend)
        server.stop()
        client.join(2)
    return times


def measure_browser(changes: int) -> list[float] | None:
    """The same seen by the table page in headless Chromium: from the change to the page's
    board redrawn (a MutationObserver notes the wall-clock time of each new ply)."""
    from tests.web_browser import Browser, browser_missing

    if browser_missing():
        return None
    from companion.views.web import WebServer

    backend = FakeBackend(notify_in_thread=False)
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    browser = Browser(1280, 900)
    times = []
    try:
        browser.driver.get(server.url + "/")
        browser.wait(lambda: browser.body_data("conn") == "live", what="live")
        browser.js(
            "window.seen = {}; new MutationObserver(() => {"
            " const k = document.body.dataset.gameId + ':' + document.body.dataset.ply;"
            " if (!(k in window.seen)) window.seen[k] = Date.now(); })"
            ".observe(document.body, {attributes: true});"
        )
        for _ in range(changes):
            start = time.time()
            next_press(backend)
            key = f"{backend.game_id}:{backend.states[-1].ply}"
            seen = browser.wait(lambda k=key: browser.js("return window.seen[arguments[0]];", k))
            times.append(max(0.0, seen / 1000 - start))
            time.sleep(0.02)
    finally:
        browser.quit()
        server.stop()
    return times


# --- 2 and 3: the server in a child process, measured from outside ---
def child(mode: str) -> None:
    """Runs in the child: a backend, then the server; reports on stdout, obeys stdin."""
    backend = FakeBackend(notify_in_thread=False)
    rss_before = rss_kb()
    from companion.views.web import WebServer

    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    hello = {"port": server.port, "rss_before": rss_before, "tokens": backend.tokens()}
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "press":  # press at 20/s for N seconds, timing each press
            seconds, times = float(words[1]), []
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                start = time.perf_counter()
                next_press(backend)
                times.append(time.perf_counter() - start)
                time.sleep(0.05)
            print(json.dumps({"times": times}), flush=True)
    server.stop()


def spawn(mode: str) -> tuple[subprocess.Popen, dict]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    hello = json.loads(proc.stdout.readline())
    return proc, hello


async def open_pages(port: int, tokens: list[str]):
    import aiohttp

    session = aiohttp.ClientSession()
    sockets = [await session.ws_connect(f"http://127.0.0.1:{port}/ws")]
    for t in tokens:
        sockets.append(await session.ws_connect(f"http://127.0.0.1:{port}/ws?token={t}"))
    for ws in sockets:
        await ws.receive()
    return session, sockets


def measure_idle(seconds: float) -> dict:
    proc, hello = spawn("idle")
    try:

        async def run() -> dict:
            session, sockets = await open_pages(hello["port"], list(hello["tokens"].values()))
            await asyncio.sleep(1.0)
            cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
            await asyncio.sleep(seconds)
            cpu1, t1 = cpu_seconds(proc.pid), time.monotonic()
            rss_after = rss_kb(proc.pid)
            for ws in sockets:
                await ws.close()
            await session.close()
            return {
                "cpu_percent": 100 * (cpu1 - cpu0) / (t1 - t0),
                "rss_added_mb": (rss_after - hello["rss_before"]) / 1024,
            }

        return asyncio.run(run())
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(10)


def presses(proc: subprocess.Popen, seconds: float) -> list[float]:
    proc.stdin.write(f"press {seconds}\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())["times"]


async def flood(port: int, seconds: float, rate: int = 1000) -> dict:
    """``rate`` requests/s for ``seconds`` from one client, a mix of reads and bad moves, on
    up to 64 connections (past the server's per-client cap: those are closed unanswered).
    Returns what was sent, the answers by HTTP status, and the requests that got no answer
    by why."""
    import aiohttp

    statuses: dict[int, int] = {}
    refused: dict[str, int] = {}
    url = f"http://127.0.0.1:{port}"
    connector = aiohttp.TCPConnector(limit=64)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one(i: int) -> None:
            try:
                if i % 3 == 0:
                    resp = await session.get(url + "/api/state")
                elif i % 3 == 1:
                    resp = await session.post(url + "/api/move", json={"move": "e5"})
                else:
                    resp = await session.post(
                        url + "/api/move",
                        json={"move": "e5"},
                        headers={"Authorization": "Bearer guess"},
                    )
                await resp.read()
                statuses[resp.status] = statuses.get(resp.status, 0) + 1
            except aiohttp.ClientError as e:
                why = refusal(e)
                refused[why] = refused.get(why, 0) + 1

        loop = asyncio.get_running_loop()
        start, tasks = loop.time(), []
        for i in range(int(seconds * rate)):
            delay = start + i / rate - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.ensure_future(one(i)))
        await asyncio.gather(*tasks)
        took = loop.time() - start
    return {"sent": len(tasks), "seconds": took, "statuses": statuses, "refused": refused}


def refusal(error: Exception) -> str:
    """What a request that got no answer met, in a few words (no port, no path)."""
    text = re.sub(r"127\.0\.0\.1:\d+\S*", "the server", str(error)) or "no answer"
    return f"{type(error).__name__}: {text}"[:90]


def measure_flood(seconds: float, rounds: int = 2) -> dict:
    """Board presses with and without the flood: a warm-up first (not counted), then quiet
    and flood phases in turn, so neither gets the cold start or a drift of the machine."""
    proc, hello = spawn("flood")
    quiet: list[float] = []
    busy: list[float] = []
    floods: list[dict] = []
    try:
        presses(proc, 1.0)  # warm-up
        for _ in range(rounds):
            quiet += presses(proc, seconds)
            result: dict = {}
            flooder = threading.Thread(
                target=lambda out=result: out.update(
                    flood=asyncio.run(flood(hello["port"], seconds + 0.5))
                )
            )
            flooder.start()
            time.sleep(0.3)
            busy += presses(proc, seconds)
            flooder.join()
            floods.append(result["flood"])
        return {"quiet": quiet, "busy": busy, "floods": floods}
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(10)


def add_up(floods: list[dict]) -> dict:
    total: dict = {"sent": 0, "seconds": 0.0, "statuses": {}, "refused": {}}
    for f in floods:
        total["sent"] += f["sent"]
        total["seconds"] += f["seconds"]
        for key in ("statuses", "refused"):
            for k, n in f[key].items():
                total[key][k] = total[key].get(k, 0) + n
    return total


def ms(values: list[float]) -> str:
    return (
        f"median {statistics.median(values) * 1000:.2f} ms, "
        f"p99 {percentile(values, 0.99) * 1000:.2f} ms, max {max(values) * 1000:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--flood", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2, help="quiet and flood phases, in turn")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return

    times = measure_latency(args.changes)
    print(f"change -> table WebSocket message: {len(times)} changes, {ms(times)} (target < 100 ms)")

    seen = measure_browser(min(args.changes, 100))
    if seen is None:
        print("change -> table page redrawn in Chromium: skipped (no chromium here)")
    else:
        print(f"change -> table page redrawn in Chromium: {len(seen)} changes, {ms(seen)}")

    idle = measure_idle(args.idle)
    print(
        f"idle server with a table page and 2 player pages connected, over {args.idle:.0f} s: "
        f"CPU {idle['cpu_percent']:.2f} % (target < 1 %), "
        f"RSS added {idle['rss_added_mb']:.1f} MB (target < 15 MB)"
    )

    result = measure_flood(args.flood, args.rounds)
    f = add_up(result["floods"])
    answered, unanswered = sum(f["statuses"].values()), sum(f["refused"].values())
    print(f"board presses, no web traffic:            {ms(result['quiet'])}")
    print(
        f"board presses, {answered / f['seconds']:4.0f} answered requests/s: {ms(result['busy'])}"
    )
    print(
        f"flood: {f['sent']} requests sent at {f['sent'] / f['seconds']:.0f}/s; {answered} "
        f"answered, by status {dict(sorted(f['statuses'].items()))}; {unanswered} got no answer"
        + (f" (the per-client connection cap closes them): {f['refused']}" if unanswered else "")
    )


if __name__ == "__main__":
    main()
