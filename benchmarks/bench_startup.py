"""How long each command takes to start and finish (issue 41), beside ``python -c pass``: the
median wall time of fresh processes, here and under the Pi Zero CPU quota
(benchmarks/cpu_quota.py, calibrated first). The daemon is timed from its start to READY=1
on a notify socket of ours (as systemd's): board, display, journal up and presses taken.

    .venv/bin/python benchmarks/bench_startup.py [--runs 5] [--no-quota | --quota-only]
        [--only=NAME,...]

Each command runs as the ``binaryon`` script runs it (``companion.cli.main.main``), with the
package's bytecode compiled first (as an install leaves it). Nothing is asserted; the aims
(issue 41) are printed beside the figures: here ``--version`` <= 2x and ``score``,
``history``, ``legal`` <= 4x Python alone; under the quota every command <= 1 s and the
daemon ready <= 2 s.
"""

from __future__ import annotations

import argparse
import compileall
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(ROOT))

from cpu_quota import SHARE_OF_A_CORE, CpuQuota, calibrate, calibration_line  # noqa: E402

BINARYON = "import sys; from companion.cli.main import main; sys.exit(main())"
# a command waits for a line, is put in the quota, then becomes the command (exec keeps it
# there), so the quota holds all of it and nothing of this script
LAUNCHER = "import os, sys; sys.stdin.readline(); os.execv(sys.executable, sys.argv[1:])"
START = "xxxxxxxx\noooooooo\n" * 4  # a full Binaryon board
BINARY = ". . . .\n. x . .\n. . o .\n. . . .\n"


def commands(folder: Path) -> dict[str, list[str]]:
    """name -> the Python arguments that run it (after ``python``)."""
    journal = folder / "journal.sqlite"
    position, small = folder / "start.txt", folder / "binary.txt"
    position.write_text(START)
    small.write_text(BINARY)
    record = _journal_with_a_game(journal)
    run = ["-c", BINARYON]
    return {
        "python -c pass": ["-c", "pass"],
        "--version": [*run, "--version"],
        "--help": [*run, "--help"],
        "score FILE": [*run, "score", str(position)],
        "score --game binary FILE": [*run, "score", "--game", "binary", str(small)],
        "legal FILE --mover on": [*run, "legal", str(position), "--mover", "on"],
        "history (empty journal)": [*run, "history", "--journal", str(folder / "none.sqlite")],
        "history (1 game)": [*run, "history", "--journal", str(journal)],
        "export last": [*run, "export", "last", "--journal", str(journal)],
        "import RECORD": [*run, "import", str(record), "--journal", str(folder / "new.sqlite")],
        "daemon ready (mock board)": [*run, "run", "--board", "mock", "--journal", "none"],
    }


def _journal_with_a_game(journal: Path) -> Path:
    """A journal holding one finished Binaryon game, and its record in a file."""
    from companion.journal.api import NullJournal
    from companion.records.format import Record, format_record
    from companion.referee.session import Session

    s = Session("binaryon", {"size": 4}, NullJournal())
    while not s.state.is_over():
        s.submit(s.state.legal_moves()[0])
    rec = Record(game="binaryon", options=s.options, moves=list(s.moves))
    path = journal.with_name("game.txt")
    path.write_text(format_record(rec))
    subprocess.run(
        [sys.executable, "-c", BINARYON, "import", str(path), "--journal", str(journal)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return path


def once(name: str, argv: list[str], quota: CpuQuota | None, folder: Path) -> tuple[float, float]:
    """Seconds from the start to the end (the daemon: to READY=1) of one fresh process, and
    the CPU seconds it used (the daemon's: to its stop, just after READY)."""
    for leftover in folder.glob("new.sqlite*"):  # each import into a new journal
        leftover.unlink()
    env = dict(os.environ)
    listen = None
    if name.startswith("daemon"):
        path = folder / "notify"
        path.unlink(missing_ok=True)
        listen = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listen.bind(str(path))
        listen.settimeout(60)
        env["NOTIFY_SOCKET"] = str(path)
    proc = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, sys.executable, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env=env,
    )
    if quota is not None:
        quota.add(proc.pid)
    assert proc.stdin is not None
    start = time.perf_counter()
    proc.stdin.write(b"go\n")
    proc.stdin.close()
    try:
        if listen is None:
            _, _, usage = os.wait4(proc.pid, 0)
            took = time.perf_counter() - start
        else:
            while b"READY=1" not in listen.recv(4096):
                pass
            took = time.perf_counter() - start
            proc.terminate()
            _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped here
        return took, usage.ru_utime + usage.ru_stime
    finally:
        if listen is not None:
            listen.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def measure(
    cases: dict[str, list[str]], runs: int, quota: CpuQuota | None, folder: Path
) -> dict[str, tuple[float, float]]:
    """Each command's median wall and CPU time over ``runs``, the commands taken in turn (a
    drift of the machine's speed falls on all of them alike), after one warm-up round."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for k in range(runs + 1):
        for name, argv in cases.items():
            took = once(name, argv, quota, folder)
            if k:
                times[name].append(took)
    return {
        name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
        for name, values in times.items()
    }


def show(title: str, medians: dict[str, tuple[float, float]], aims: dict[str, str]) -> None:
    """Wall time (what the aims are about) and CPU time (what a busy machine does not
    change), each also as a multiple of Python's own start."""
    print(title)
    wall0, cpu0 = medians["python -c pass"]
    for name, (wall, cpu) in medians.items():
        aim = f"  (aim {aims[name]})" if name in aims else ""
        print(
            f"  {name:<28} {wall * 1e3:7.0f} ms  {wall / wall0:5.2f}x python"
            f"   CPU {cpu * 1e3:5.0f} ms  {cpu / cpu0:5.2f}x{aim}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command (median)")
    parser.add_argument("--no-quota", action="store_true", help="only on this machine")
    parser.add_argument("--quota-only", action="store_true", help="only under the quota")
    parser.add_argument("--share", type=float, default=SHARE_OF_A_CORE)
    parser.add_argument(
        "--only", metavar="NAMES", help="the commands whose name starts so (comma-separated)"
    )
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "companion", quiet=1)  # as an install leaves the package
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = commands(folder)
        if args.only:
            cases = {
                k: v
                for k, v in cases.items()
                if k == "python -c pass" or k.startswith(tuple(args.only.split(",")))
            }
        here = {"--version": "<= 2x"} | {
            k: "<= 4x" for k in cases if k.startswith(("score", "history", "legal"))
        }
        if not args.quota_only:
            here_medians = measure(cases, args.runs, None, folder)
            show(f"this machine, median of {args.runs}:", here_medians, here)
        if args.no_quota:
            return
        why = CpuQuota.unavailable()
        if why:
            print(f"no CPU quota here: {why}")
            return
        print(calibration_line(args.share, calibrate(args.share)))
        pi = {k: "<= 1 s" for k in cases if k != "python -c pass"}
        pi["daemon ready (mock board)"] = "<= 2 s"
        with CpuQuota(args.share) as quota:
            medians = measure(cases, args.runs, quota, folder)
        show(f"under the Pi Zero quota, median of {args.runs}:", medians, pi)


if __name__ == "__main__":
    main()
