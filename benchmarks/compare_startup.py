"""The commands of bench_startup.py in this tree and in another (a checkout of an older commit,
``git archive COMMIT | tar -x -C DIR``), run alternately, each a fresh process: the CPU time
of each run (user + system, what a busy machine changes least), the least and the median of
``--runs``. A busy machine makes quota medians noisy; the least CPU of many runs taken in turn
is what a change of code changes.

    .venv/bin/python benchmarks/compare_startup.py OLD_TREE [--runs 25] [--only=NAME,...]
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(ROOT))

from bench_startup import commands  # noqa: E402


def cpu_of(argv: list[str], tree: Path, folder: Path) -> float:
    """The CPU seconds of one fresh ``python ARGV`` run in ``tree`` (its package first)."""
    for leftover in folder.glob("new.sqlite*"):  # each import into a new journal
        leftover.unlink()
    proc = subprocess.Popen(
        [sys.executable, *argv], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped here
    if status:
        raise SystemExit(f"{' '.join(argv[2:])} failed in {tree}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="the other tree (its companion/ is run)")
    parser.add_argument("--runs", type=int, default=25, help="runs per command and tree")
    parser.add_argument(
        "--only", metavar="NAMES", help="the commands whose name starts so (comma-separated)"
    )
    args = parser.parse_args()
    trees = {"old": args.old.resolve(), "new": ROOT}
    for tree in trees.values():
        compileall.compile_dir(tree / "companion", quiet=1)  # as an install leaves them
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = {k: v for k, v in commands(folder).items() if not k.startswith("daemon")}
        if args.only:
            wanted = tuple(args.only.split(","))
            cases = {
                k: v for k, v in cases.items() if k == "python -c pass" or k.startswith(wanted)
            }
        cpu: dict[tuple[str, str], list[float]] = {(c, t): [] for c in cases for t in trees}
        for k in range(args.runs + 1):  # the first round warms up, then is dropped
            for name, argv in cases.items():
                for tree_name, tree in trees.items():
                    took = cpu_of(argv, tree, folder)
                    if k:
                        cpu[name, tree_name].append(took)
    print(
        f"CPU per run (ms), least and median of {args.runs}, old = {trees['old']}, new = this tree"
    )
    print(f"  {'command':<28} {'old least':>9} {'new least':>9} {'old med':>8} {'new med':>8}")
    for name in cases:
        old, new = cpu[name, "old"], cpu[name, "new"]
        print(
            f"  {name:<28} {min(old) * 1e3:9.1f} {min(new) * 1e3:9.1f}"
            f" {statistics.median(old) * 1e3:8.1f} {statistics.median(new) * 1e3:8.1f}"
        )


if __name__ == "__main__":
    main()
