"""The Pi Zero budget: what a player waits on, under a CPU quota of one Pi Zero 2 W core.

Runs, with the companion's process under the quota of benchmarks/cpu_quota.py (10 % of one
core, 10 ms period; its calibration is printed first):

- bench_press.py: a press on the mock board to its OLED frame (no journal, then the SQLite
  journal, its fsync included), the whole benchmark process under the quota;
- bench_history.py: a move on a player's page to the last spectator's WebSocket message,
  1 / 50 / 200 spectators, on the real daemon, web server and a journal of 1,000 games (the
  daemon's process under the quota; the spectators and the player, phones in real life, not);
- bench_startup.py --quota-only: each command from its start to its end, and the daemon to
  READY=1, every process under the quota (aims: a command <= 1 s, the daemon <= 2 s).

Budget: 100 ms for anything a player waits on (checked on the p99).

    .venv/bin/python benchmarks/bench_pi_zero.py [--share 0.1] [--presses 300] [--moves 20]
        [--spectators 1 50 200] [--startup-runs 5]

Needs a cgroup with the cpu controller it may write (root in a container is enough); without
one it says why and stops.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cpu_quota import SHARE_OF_A_CORE, CpuQuota, calibrate, calibration_line  # noqa: E402

BUDGET_MS = 100.0
_P99 = re.compile(r"p99 ([0-9.]+) ms")


def under_quota(quota: CpuQuota, argv: list[str]) -> list[str]:
    """Run ``argv`` (a Python script and its arguments) wholly inside the quota: the process
    waits for a line, is moved into the group, then becomes the script (exec keeps it there).
    Its output lines are printed as they come and returned."""
    launcher = "import os, sys; sys.stdin.readline(); os.execv(sys.executable, sys.argv[1:])"
    proc = subprocess.Popen(
        [sys.executable, "-c", launcher, sys.executable, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=HERE.parent,
    )
    quota.add(proc.pid)
    proc.stdin.write("go\n")
    proc.stdin.close()
    lines = []
    for line in proc.stdout:
        print("  " + line.rstrip(), flush=True)
        lines.append(line)
    proc.wait()
    return lines


def verdict(p99: float) -> str:
    return f"p99 {p99:.1f} ms: {'within' if p99 <= BUDGET_MS else 'OVER'} the budget"


def p99_of(line: str) -> float | None:
    m = _P99.search(line)
    return float(m.group(1)) if m else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--share", type=float, default=SHARE_OF_A_CORE)
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--spectators", type=int, nargs="+", default=[1, 50, 200])
    parser.add_argument("--startup-runs", type=int, default=5, help="0: no start-up figures")
    args = parser.parse_args()
    why = CpuQuota.unavailable()
    if why:
        sys.exit(f"bench_pi_zero: no CPU quota here: {why}")
    calibration = calibrate(args.share)
    print(calibration_line(args.share, calibration), flush=True)
    factor = calibration["slowdown_vs_core"]
    press = [str(HERE / "bench_press.py"), "--presses", str(args.presses), "--with-journal"]
    with CpuQuota(args.share) as quota:
        print("press -> OLED frame (bench_press.py, the whole process under the quota):")
        throttled = under_quota(quota, press)
    print(
        "the same without the quota, times scaled by the calibrated factor (a quota runs a "
        "process at full speed for 1 ms in 10: a press shorter than that may not be slowed; "
        "scaled, the journal's fsync, the disk's time, is overstated):"
    )
    alone = subprocess.run(
        [sys.executable, *press], capture_output=True, text=True, cwd=HERE.parent, check=False
    ).stdout.splitlines()
    for line in alone:
        print("  " + line)
    for quota_line, line in zip(throttled, alone, strict=False):
        if "press -> OLED frame" not in line:
            continue
        label = line.split(":")[0]
        measured, scaled = p99_of(quota_line), p99_of(line)
        if measured is not None and scaled is not None:
            print(
                f"    {label}: under the quota {verdict(measured)}; scaled x{factor:.1f}: "
                f"{verdict(scaled * factor)} ({BUDGET_MS:.0f} ms)"
            )
    print("move -> last spectator (bench_history.py, the daemon's process under the quota):")
    subprocess.run(
        [
            sys.executable,
            str(HERE / "bench_history.py"),
            "--quota",
            str(args.share),
            "--skip-calibration",
            "--games",
            "1000",
            "--calls",
            "20",
            "--moves",
            str(args.moves),
            "--phases",
            "quiet",
            "--spectators",
            *(str(n) for n in args.spectators),
        ],
        cwd=HERE.parent,
        check=False,
    )
    if args.startup_runs:
        print("start-up (bench_startup.py, each command's process under the quota):", flush=True)
        subprocess.run(
            [
                sys.executable,
                str(HERE / "bench_startup.py"),
                "--quota-only",
                "--runs",
                str(args.startup_runs),
                "--share",
                str(args.share),
            ],
            cwd=HERE.parent,
            check=False,
        )


if __name__ == "__main__":
    main()
