"""The journal at scale (issue 10): what a press, a start, history, export and import cost
as the journal grows. Prints one figure per line; nothing is asserted.

    .venv/bin/python benchmarks/bench_journal.py [--quick]

- append: one press (commit_turn, one fsync) at 50, 2,000 and 5,000 events of the game
  (wall time with the fsync, and CPU time: the part that could grow with the game);
- clock tick: the running game clock's state kept once a second (clock_tick: one small row
  updated in place, one fsync), at the same game lengths (``--tick-only``: just this);
- open: SqliteJournal.open + current() + close after a clean stop, 20 to 5,000 games, and
  the deep check after an unclean stop for comparison;
- the commands as a user runs them (a fresh process each: wall time, CPU, peak RSS):
  daemon-like start, `history --json` and `history` of 10,000 games, `export last` at 20
  and 2,000 games, `import` of 2,000 record files in one call, and of one file of 10,000
  and of 70,000 records (memory flat in the number of records).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import companion.journal.db as journal_db  # noqa: E402
from companion.games import get_spec  # noqa: E402
from companion.journal.api import MoveEntry, NullJournal  # noqa: E402
from companion.journal.rows import FINISHED
from companion.journal.store import SqliteJournal  # noqa: E402
from companion.records.format import format_record, record_from_entry  # noqa: E402
from companion.referee.session import Session  # noqa: E402
from companion.timing.clock import Clock, TimeControl  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def scripted() -> tuple[list[str], object]:
    s = Session("binaryon", journal=NullJournal())
    while not s.state.is_over():
        s.submit(s.state.legal_moves()[0])
    return s.moves, s.state.outcome()


MOVES, OUTCOME = scripted()
OPTIONS = get_spec("binaryon").resolve({})


def open_with_connection(path: Path) -> tuple[SqliteJournal, sqlite3.Connection]:
    """A journal and its own SQLite connection (``db.open_rw``'s), to build big journals fast:
    no fsync per write, many games in one transaction."""
    made: list[sqlite3.Connection] = []
    real = journal_db.open_rw
    journal_db.open_rw = lambda p: made.append(real(p)) or made[-1]
    try:
        journal = SqliteJournal.open(path)
    finally:
        journal_db.open_rw = real
    return journal, made[-1]


def build(path: Path, games: int) -> None:
    """``games`` finished games (the scripted one), written fast (no fsync while building)."""
    j, db = open_with_connection(path)
    with j:
        db.execute("PRAGMA synchronous = OFF")
        base = 1_700_000_000_000
        db.execute("BEGIN")
        for i in range(games):
            # one transaction for all: import_game's own transaction is bypassed
            db.execute(
                "INSERT INTO games (game, options, players, started, ended, status, result,"
                " summary, ply) VALUES ('binaryon', ?, ?, ?, ?, 'finished', ?, ?, ?)",
                (
                    '{"first":"on","opening":"free","reach":"line","scoring":"all","size":8,'
                    '"through":""}',
                    f'{{"on":"P{i}"}}',
                    _iso(base + i * 600_000),
                    _iso(base + i * 600_000 + 300_000),
                    OUTCOME.winner or "draw",
                    OUTCOME.summary,
                    len(MOVES),
                ),
            )
            gid = db.execute("SELECT last_insert_rowid()").fetchone()[0]
            db.executemany(
                "INSERT INTO events (game_id, kind, ply, move, at) VALUES (?, 'move', ?, ?, ?)",
                [(gid, k, m, _iso(base + i * 600_000 + k * 4000)) for k, m in enumerate(MOVES)],
            )
            db.execute(
                "INSERT INTO events (game_id, kind, ply) VALUES (?, 'finish', ?)",
                (gid, len(MOVES)),
            )
        db.execute("COMMIT")


def _iso(ms: int) -> str:
    from companion.journal.rows import iso

    return iso(ms) or ""


def bench_append(folder: Path, lengths: list[int], presses: int) -> None:
    print("# one press (commit_turn: the move and its fsync) vs the game's length")
    for n in lengths:
        path = folder / f"append-{n}.sqlite"
        j, db = open_with_connection(path)
        gid = j.begin("binaryon", OPTIONS, {})
        db.execute("PRAGMA synchronous = OFF")
        for start in range(0, n, 500):  # a long game: n events (moves and takebacks)
            chunk = [MoveEntry(p, "e5") for p in range(start, min(n, start + 500))]
            j.commit_turn(gid, start, chunk, None)
        db.execute("PRAGMA synchronous = FULL")
        walls, cpus = [], []
        for k in range(presses):
            ply = n + k
            w, c = time.perf_counter(), time.process_time()
            j.commit_turn(gid, ply, [MoveEntry(ply, "e5", "on")], None)
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        j.close()
        print(
            f"append at {n:>5} events: median {statistics.median(walls) * 1e3:6.2f} ms wall,"
            f" {statistics.median(cpus) * 1e3:5.2f} ms CPU"
        )


def bench_tick(folder: Path, lengths: list[int], ticks: int) -> None:
    print("# clock tick (clock_tick: the running clock's row updated, one fsync) vs length")
    control = TimeControl.parse("5:00+3")
    for n in lengths:
        path = folder / f"tick-{n}.sqlite"
        j, db = open_with_connection(path)
        gid = j.begin("binaryon", OPTIONS, {}, time_control=control.text())
        db.execute("PRAGMA synchronous = OFF")
        for start in range(0, n, 500):
            chunk = [MoveEntry(p, "e5") for p in range(start, min(n, start + 500))]
            j.commit_turn(gid, start, chunk, None)
        db.execute("PRAGMA synchronous = FULL")
        clock = Clock(control, ("on", "off"))
        clock.run("on", 0.0)
        walls, cpus = [], []
        for k in range(ticks):
            state = clock.snapshot(float(k))
            w, c = time.perf_counter(), time.process_time()
            j.clock_tick(gid, n, state)
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        rows = db.execute("SELECT count(*) FROM clocks").fetchone()[0]
        j.close()
        print(
            f"clock tick at {n:>5} events: median {statistics.median(walls) * 1e3:6.2f} ms wall,"
            f" {statistics.median(cpus) * 1e3:5.2f} ms CPU ({rows} clock row)"
        )


def bench_open(folder: Path, sizes: list[int]) -> dict[int, Path]:
    print("# daemon start: open + current() + close, after a clean stop (and after a kill)")
    built = {}
    for n in sizes:
        path = folder / f"open-{n}.sqlite"
        build(path, n)
        built[n] = path
        times, cpus = [], []
        for _ in range(11):
            t, c = time.perf_counter(), time.process_time()
            j = SqliteJournal.open(path)
            j.current()
            j.close()
            times.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
        unclean = folder / f"unclean-{n}.sqlite"
        shutil.copy(path, unclean)
        _leave_open(unclean)
        t, c = time.perf_counter(), time.process_time()
        j = SqliteJournal.open(unclean)
        deep, deep_cpu = time.perf_counter() - t, time.process_time() - c
        j.close()
        size = path.stat().st_size / 1e6
        print(
            f"open {n:>5} games ({size:5.1f} MB): clean stop {statistics.median(times) * 1e3:6.1f}"
            f" ms wall {statistics.median(cpus) * 1e3:5.1f} ms CPU; unclean stop"
            f" {deep * 1e3:6.1f} ms wall {deep_cpu * 1e3:6.1f} ms CPU"
        )
    return built


def _leave_open(path: Path) -> None:
    """Open for writing and die without closing (the unclean stop a kill leaves)."""
    code = (
        f"import os, sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from companion.journal.store import SqliteJournal\n"
        "SqliteJournal.open(sys.argv[1]); os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=True)


# The child reports its own peak RSS (VmHWM of its own address space: getrusage would count
# the forked copy of this process from before exec).
PEAK = (
    "import atexit, sys\n"
    "def peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            sys.stderr.write('PEAK ' + line.split()[1] + '\\n')\n"
    "atexit.register(peak)\n"
)


def run_child(code: str, args: list[str]) -> tuple[float, float, float, str]:
    """(wall s, -, peak RSS MB, last line of stdout) of ``python -c CODE ARGS``."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", PEAK + code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    out, err = proc.communicate()
    wall = time.perf_counter() - t
    peak = [ln for ln in err.decode(errors="replace").splitlines() if ln.startswith("PEAK ")]
    rss = int(peak[-1].split()[1]) / 1024 if peak else float("nan")
    tail = out.decode(errors="replace").strip().splitlines()[-1:] or [""]
    return wall, float("nan"), rss, tail[0][:60]


def command(args: list[str]) -> tuple[float, float, float, str]:
    """``binaryon ARGS`` in a fresh process: (wall s, CPU s, peak RSS MB, stdout tail)."""
    code = "import sys; from companion.cli.main import main; sys.exit(main(sys.argv[1:]))"
    return timed(code, args)


def timed(code: str, args: list[str]) -> tuple[float, float, float, str]:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, _, rss, tail = run_child(code, args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, rss, tail


def show(label: str, figures: tuple[float, float, float, str]) -> None:
    wall, cpu, rss, tail = figures
    print(f"{label:<38} {wall * 1e3:8.0f} ms wall {cpu * 1e3:7.0f} ms CPU {rss:6.1f} MB RSS")


def bench_commands(
    folder: Path,
    built: dict[int, Path],
    history_games: int,
    imports: int,
    many: tuple[int, ...] = (),
):
    print("# commands in a fresh process (python start-up included: about the 20-game figure)")
    start = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from companion.journal.store import SqliteJournal\n"
        "j = SqliteJournal.open(sys.argv[1]); j.current(); j.close()\n"
    )
    for n, path in sorted(built.items()):
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", start, str(path)])
        _, _, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        print(
            f"{'start (open+current), ' + str(n) + ' games':<38} {wall * 1e3:8.0f} ms wall"
            f" {(usage.ru_utime + usage.ru_stime) * 1e3:7.0f} ms CPU"
            f" {usage.ru_maxrss / 1024:6.1f} MB RSS"
        )
    for n, path in sorted(built.items()):
        show(f"export last, {n} games", command(["export", "last", "--journal", str(path)]))
    big = folder / f"history-{history_games}.sqlite"
    build(big, history_games)
    show(
        f"history --json, {history_games} games",
        command(["history", "--json", "--journal", str(big)]),
    )
    show(f"history, {history_games} games", command(["history", "--journal", str(big)]))
    records = folder / "records"
    records.mkdir()
    with SqliteJournal.open(built[min(built)], read_only=True) as j:
        entry = j.load(1)
    rec = record_from_entry(entry)
    for i in range(imports):
        rec.players = {"on": f"Player {i}", "off": "Club"}
        (records / f"game{i:05d}.txt").write_text(format_record(rec))
    target = folder / "imported.sqlite"
    figures = command(["import", str(records), "--journal", str(target)])
    show(f"import {imports} records (one call)", figures)
    print(f"  -> {figures[3]}")
    with SqliteJournal.open(target, read_only=True) as j:
        assert sum(1 for g in j.iter_games() if g.status == FINISHED) == imports
    for n in many:  # one file of many records (an event's): read one record at a time
        one_file = folder / f"many-{n}.txt"
        with open(one_file, "w") as out:
            for i in range(n):
                rec.players = {"on": f"Player {i}", "off": "Club"}
                out.write(format_record(rec) + "\n")
        target = folder / f"many-{n}.sqlite"
        figures = command(["import", str(one_file), "--journal", str(target)])
        show(f"import one file of {n} records", figures)
        print(f"  -> {figures[3]} ({one_file.stat().st_size / 1e6:.0f} MB file)")
        for leftover in folder.glob(f"many-{n}.*"):
            leftover.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    parser.add_argument("--tick-only", action="store_true", help="only the clock's tick")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.tick_only:
            bench_tick(folder, [50, 500] if args.quick else [50, 2000, 5000], ticks=100)
        elif args.quick:
            bench_append(folder, [50, 500], presses=20)
            bench_tick(folder, [50, 500], ticks=20)
            built = bench_open(folder, [20, 200])
            bench_commands(folder, built, history_games=500, imports=50, many=(500,))
        else:
            bench_append(folder, [50, 2000, 5000], presses=100)
            bench_tick(folder, [50, 2000, 5000], ticks=100)
            built = bench_open(folder, [20, 1000, 2000, 5000])
            bench_commands(folder, built, history_games=10_000, imports=2000, many=(10_000, 70_000))


if __name__ == "__main__":
    main()
