"""Press -> table update, quiet and under a request flood, on the real daemon and web server.

A child process runs the companion as `binaryon run --web` does (mock board, SQLite journal,
the web server on loopback). It presses legal squares at 20 a second and times each press to
the OLED frame sent (the daemon's table update) while another process watches the table page's
WebSocket and notes when each new position arrives. Then the same again while this process
floods the server from one client as fast as it answers (GET /api/state and token-less
POST /api/move on many connections; most answers are 429). The presses warm up first (not
counted), then quiet and flood phases take turns (``--rounds``), so neither has the cold start
or a drift of the machine to itself. Only answered requests count as the flood's; those that
got no answer are counted apart, with why. Target: under the flood the median and p99 stay
within 2x of quiet.

    .venv/bin/python benchmarks/bench_web_flood.py [--seconds 5] [--connections 16]
        [--rounds 2] [--flood both|keepalive|fresh] [--compare]

--compare also runs the flood with the web thread's give-way to the referee turned off (the
gate's ``yield_to``), to show what it buys. Loopback only; every phase is bounded in time and
the flood in count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

MAX_REQUESTS = 200_000  # the flood's bound, whatever the machine's speed
WARM_UP = 1.0  # seconds of presses first, not counted (a cold daemon is slower)


# --- the companion (child process) ---
def child(journal: str, priority: bool, switch_interval: float | None = None) -> None:
    from companion.core.config import Config
    from companion.service.app import build_daemon

    config = Config.default().with_overrides(
        board={"driver": "mock"}, journal={"path": journal}, web={"listen": "127.0.0.1:0"}
    )
    daemon, closers = build_daemon(config, simulated=True)
    if not priority:
        daemon.web.gate.yield_to = None
    if switch_interval:
        sys.setswitchinterval(switch_interval)  # instead of what the web server set
    frames: list[float] = []
    daemon.on_frame = lambda: frames.append(time.monotonic())
    daemon.start()
    print(json.dumps({"port": daemon.web.port}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        seconds, out = float(words[1]), []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            state = daemon.session.state
            if state.is_over():
                daemon.call(lambda: daemon.new_game())
                continue
            moves = [m for m in state.legal_moves() if not m.is_pass]
            if not moves:
                daemon.call(lambda: daemon.new_game())
                continue
            square = daemon.map.to_squares(moves[len(moves) // 2].cells)[0]
            ply_key = None
            frames.clear()
            start = time.monotonic()
            daemon.board.press(square)
            deadline = start + 5
            while daemon.session.state is state and time.monotonic() < deadline:
                time.sleep(0.0002)
            while not frames and time.monotonic() < deadline:
                time.sleep(0.0002)
            if frames and daemon.session.state is not state:
                ply_key = f"{daemon.session.game_id}:{len(daemon.session.played)}"
                out.append({"start": start, "frame": frames[0], "key": ply_key})
            time.sleep(0.03)
            daemon.board.release(square)
            time.sleep(0.02)
        print(json.dumps(out), flush=True)
    daemon.stop()
    for close in closers:
        close()


# --- the table page's WebSocket (its own process, so the flood never delays it) ---
def watch(port: int) -> None:
    import aiohttp

    async def run() -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws,
        ):
            print("ready", flush=True)
            async for msg in ws:
                now = time.monotonic()
                view = json.loads(msg.data).get("view") or {}
                print(json.dumps({"key": f"{view.get('game_id')}:{view.get('ply')}", "at": now}))
                sys.stdout.flush()

    asyncio.run(run())


# --- the flood (this process) ---
async def flood(
    port: int, seconds: float, connections: int, fresh: bool
) -> tuple[dict[int, int], dict[str, int]]:
    """From one client: ``connections`` requests at a time, as fast as they are answered; on
    kept-alive connections, or (``fresh``) a new connection for every request. Returns the
    answers by HTTP status and the requests that got none, by why (the error the client saw:
    a connection past the server's per-client cap is closed unanswered)."""
    import aiohttp

    statuses: dict[int, int] = {}
    refused: dict[str, int] = {}
    url = f"http://127.0.0.1:{port}"
    sent = 0
    end = time.monotonic() + seconds
    connector = aiohttp.TCPConnector(limit=connections, force_close=fresh)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker(i: int) -> None:
            nonlocal sent
            while time.monotonic() < end and sent < MAX_REQUESTS:
                sent += 1
                try:
                    if sent % 2:
                        resp = await session.get(url + "/api/state")
                    else:
                        resp = await session.post(url + "/api/move", json={"move": "e5"})
                    await resp.read()
                    statuses[resp.status] = statuses.get(resp.status, 0) + 1
                except aiohttp.ClientError as e:
                    why = refusal(e)
                    refused[why] = refused.get(why, 0) + 1

        await asyncio.gather(*(worker(i) for i in range(connections)))
    return statuses, refused


def refusal(error: Exception) -> str:
    """What a request that got no answer met, in a few words (no port, no path)."""
    text = re.sub(r"127\.0\.0\.1:\d+\S*", "the server", str(error)) or "no answer"
    return f"{type(error).__name__}: {text}"[:90]


def measure(
    seconds: float,
    connections: int,
    priority: bool,
    fresh: bool,
    switch: float | None = None,
    rounds: int = 2,
) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", str(Path(tmp) / "j.sqlite")]
            + ([] if priority else ["--no-priority"])
            + ([f"--switch-interval={switch}"] if switch else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        port = json.loads(proc.stdout.readline())["port"]
        watcher = subprocess.Popen(
            [sys.executable, __file__, "--watch", str(port)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert watcher.stdout.readline().strip() == "ready"
        arrivals: dict[str, float] = {}

        def read_watcher() -> None:
            for line in watcher.stdout:
                seen = json.loads(line)
                arrivals.setdefault(seen["key"], seen["at"])

        reader = threading.Thread(target=read_watcher, daemon=True)
        reader.start()

        def presses(seconds: float) -> list[dict]:
            proc.stdin.write(f"press {seconds}\n")
            proc.stdin.flush()
            return json.loads(proc.stdout.readline())

        quiet: list[dict] = []
        busy: list[dict] = []
        statuses: dict[int, int] = {}
        refused: dict[str, int] = {}
        try:
            time.sleep(0.5)
            presses(WARM_UP)  # the daemon, its journal and the page warm: not counted
            for _ in range(rounds):  # quiet and flood in turn, so a drift falls on both
                quiet += presses(seconds)
                result: dict = {}
                flooder = threading.Thread(
                    target=lambda out=result: out.update(
                        answered=asyncio.run(flood(port, seconds + 1.0, connections, fresh))
                    )
                )
                flooder.start()
                time.sleep(0.5)
                busy += presses(seconds)
                flooder.join()
                answered, unanswered = result.get("answered", ({}, {}))
                for k, n in answered.items():
                    statuses[k] = statuses.get(k, 0) + n
                for k, n in unanswered.items():
                    refused[k] = refused.get(k, 0) + n
                time.sleep(0.5)
        finally:
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            proc.wait(30)
            watcher.terminate()
            watcher.wait(10)
            reader.join(5)
    return {
        "quiet": quiet,
        "busy": busy,
        "arrivals": arrivals,
        "statuses": statuses,
        "refused": refused,
    }


def figures(presses: list[dict], arrivals: dict[str, float]) -> tuple[list[float], list[float]]:
    frame = [p["frame"] - p["start"] for p in presses]
    page = [arrivals[p["key"]] - p["start"] for p in presses if p["key"] in arrivals]
    return frame, page


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def ms(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (
        f"median {statistics.median(values) * 1000:6.2f} ms, "
        f"p99 {percentile(values, 0.99) * 1000:6.2f} ms ({len(values)} presses)"
    )


def report(label: str, run: dict, seconds: float, rounds: int) -> None:
    statuses, refused = run["statuses"], run["refused"]
    answered, unanswered = sum(statuses.values()), sum(refused.values())
    flooding = rounds * (seconds + 1)
    print(
        f"{label}: {answered} requests answered in {flooding:.0f} s of flood "
        f"({answered / flooding:.0f}/s), by status {dict(sorted(statuses.items()))}; "
        f"{unanswered} got no answer" + (f": {refused}" if refused else "")
    )
    q_frame, q_page = figures(run["quiet"], run["arrivals"])
    b_frame, b_page = figures(run["busy"], run["arrivals"])
    print(f"  press -> OLED frame,            quiet: {ms(q_frame)}")
    print(f"  press -> OLED frame,            flood: {ms(b_frame)}")
    print(f"  press -> table page WebSocket,  quiet: {ms(q_page)}")
    print(f"  press -> table page WebSocket,  flood: {ms(b_page)}")
    if q_frame and b_frame:
        ratio = statistics.median(b_frame) / statistics.median(q_frame)
        print(f"  flood / quiet, OLED frame median: {ratio:.2f}x (target <= 2x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--rounds", type=int, default=2, help="quiet and flood phases, in turn")
    parser.add_argument(
        "--flood",
        choices=("both", "keepalive", "fresh"),
        default="both",
        help="kept-alive connections, a new connection per request, or one run of each",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--no-priority", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--switch-interval",
        type=float,
        help="the daemon's thread switch interval in seconds, instead of the web server's",
    )
    parser.add_argument("--watch", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, not args.no_priority, args.switch_interval)
        return
    if args.watch:
        watch(args.watch)
        return
    styles = ("keepalive", "fresh") if args.flood == "both" else (args.flood,)
    for style in styles:
        fresh = style == "fresh"
        label = "new connection per request" if fresh else "kept-alive connections"
        common = (args.seconds, args.connections)
        run = measure(*common, True, fresh, args.switch_interval, args.rounds)
        report(f"flood on {label}", run, args.seconds, args.rounds)
        if args.compare:
            run = measure(*common, False, fresh, args.switch_interval, args.rounds)
            report(f"flood on {label}, without the give-way", run, args.seconds, args.rounds)


if __name__ == "__main__":
    main()
