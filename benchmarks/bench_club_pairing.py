"""A Swiss round paired off the hub's loop (issue 33): the hub's event desk hands the pairing
to a process of its own, and its pages are served meanwhile.

For each number of players, round 1 is paired and played (every game a result through the
desk, as the boards' results reach it), then round 2 is timed from its last result to its
pairings placed, while a client fetches ``/api/boards`` (20 boards) from the hub's web app
back to back. Prints the pairing's time, the page's latency meanwhile (median / p99 / max)
and the same page's latency with the hub idle. A pairing over ``--limit`` seconds is left
(its process ended) and printed as such.

    .venv/bin/python benchmarks/bench_club_pairing.py --players 40,100,300 --limit 120
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from companion.club import topics  # noqa: E402
from companion.club.event.hub import EventOnHub  # noqa: E402
from companion.club.hub.club import ClubHub  # noqa: E402
from companion.club.hub.store import ResultStore  # noqa: E402
from companion.club.hub.web import make_app  # noqa: E402
from companion.views.web.hosts import HostCheck  # noqa: E402
from companion.views.web.ratelimit import RateLimiter  # noqa: E402


def event_text(players: int) -> str:
    names = ", ".join(f'"P{i:03d}"' for i in range(players))
    boards = ", ".join(f'"t{i}"' for i in range(1, players // 2 + 1))
    return (
        'name = "Open"\ngame = "binaryon"\nrules = { size = 4 }\npairing = "swiss"\n'
        f"rounds = 5\nboards = [{boards}]\nplayers = [{names}]\n"
    )


def play_round(desk) -> None:
    outcomes = (["on"], ["off"], [])
    for i, g in enumerate(list(desk.tournament.waiting())):
        desk.on_result(g.board, {
            "board": g.board, "game_uid": f"u-{g.pairing}", "game": "binaryon",
            "pairing": desk.wire_id(g), "players": {"on": g.white, "off": g.black},
            "winners": outcomes[i % 3], "record": "",
        })  # fmt: skip


async def fetch_loop(url: str, stop: asyncio.Event, latencies: list[float]) -> None:
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            start = time.perf_counter()
            async with session.get(url) as answer:
                await answer.read()
            latencies.append(time.perf_counter() - start)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def figures(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"{statistics.median(ms):6.1f} / {p99(ms):6.1f} / {max(ms):6.1f} ms ({len(ms)} pages)"


async def one(players: int, limit: float, folder: Path) -> None:
    event = folder / f"open-{players}.toml"
    event.write_text(event_text(players))
    club = ClubHub(ResultStore(folder / f"club-{players}.sqlite"))
    on_hub = EventOnHub(event, club, lambda line: None)
    desk = on_hub.desk
    for i in range(20):
        name = f"t{i + 1}"
        club.handle(topics.status(name), f'{{"board": "{name}", "online": true}}'.encode())
    app = make_app(club, HostCheck("127.0.0.1"), RateLimiter(rate=1e6, burst=1e6),
                   extend=[on_hub.routes])  # fmt: skip
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/api/boards"
    try:
        await desk.pairing  # round 1 (and the process's start)
        await asyncio.sleep(0)
        idle: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(fetch_loop(url, stop, idle))
        await asyncio.sleep(1.0)
        stop.set()
        await task
        play_round(desk)
        start = time.perf_counter()
        busy: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(fetch_loop(url, stop, busy))
        while desk.pairing is not None and time.perf_counter() - start < limit:
            await asyncio.sleep(0.01)
        seconds = time.perf_counter() - start
        stop.set()
        await task
        done = desk.tournament.round == 2
        took = f"{seconds:7.2f} s" if done else f"over {limit:.0f} s (left)"
        print(f"{players:4d} players: round 2 paired in {took}; page meanwhile {figures(busy)}")
        print(f"{'':14}page with the hub idle {figures(idle)}")
    finally:
        if desk.pairing is not None:  # left over its limit: not waited for
            desk.pairing.cancel()
        for child in multiprocessing.active_children():  # its process ended
            child.terminate()
        on_hub.close()
        await runner.cleanup()
        club.store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="40,100,300")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds a pairing may take")
    args = parser.parse_args()
    print(f"Swiss round 2 off the hub's loop; {platform.python_implementation()} "
          f"{platform.python_version()} on {platform.machine()}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.players.split(",")):
            asyncio.run(one(n, args.limit, Path(tmp)))


if __name__ == "__main__":
    main()
