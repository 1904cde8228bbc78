"""A CPU quota that approximates one Raspberry Pi Zero 2 W core on the development machine.

The processes put in it get ``share`` of one core: SHARE_OF_A_CORE = 0.1, since CPython on a
Pi Zero 2 W's Cortex-A53 at 1 GHz runs about 10x slower per core than on the development
machine (an in-order core at a third of the clock, about a third of the work per cycle;
docs/performance.md's figures use the same factor, the slow end of the usual 8-10x). The quota
is a control group's CPU bandwidth: cgroup v2's ``cpu.max`` where the cpu controller is there,
else cgroup v1's ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` (the same CFS bandwidth
control). The period is short (10 ms: 1 ms of CPU in every 10 ms) so a throttled process
waits at most about 9 ms for its next turn, rather than 90 ms with the default 100 ms period:
closer to a slower CPU, which never stops. ``calibrate`` says how much slower the quota makes
a fixed CPU-bound workload (pure Python) than the same work on one unshared core of this
machine (its CPU time).

    with CpuQuota(0.1) as quota:
        quota.add(child.pid)   # the child and the processes it starts later

Needs root (or a delegated control group); ``CpuQuota.unavailable()`` says why not.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

SHARE_OF_A_CORE = 0.1
PERIOD_US = 10_000


def _cpu_mount() -> tuple[Path, int] | None:
    """(the mount point of a cgroup hierarchy with the cpu controller, 1 or 2), v2 first."""
    found: list[tuple[Path, int]] = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not tail:
            continue
        point = Path(fields[4])
        if tail[0] == "cgroup2":
            controllers = point / "cgroup.controllers"
            if controllers.exists() and "cpu" in controllers.read_text().split():
                found.insert(0, (point, 2))
        elif tail[0] == "cgroup" and "cpu" in tail[-1].split(","):
            found.append((point, 1))
    return found[0] if found else None


class CpuQuota:
    def __init__(self, share: float = SHARE_OF_A_CORE, period_us: int = PERIOD_US):
        self.share, self.period_us = share, period_us
        self.path: Path | None = None
        self.version = 0

    @staticmethod
    def unavailable() -> str | None:
        """Why no quota can be set here, or None."""
        mount = _cpu_mount()
        if mount is None:
            return "no cgroup hierarchy with the cpu controller is mounted"
        if not os.access(mount[0], os.W_OK):
            return f"{mount[0]} is not writable (run as root)"
        return None

    def __enter__(self) -> CpuQuota:
        mount = _cpu_mount()
        if mount is None:
            raise RuntimeError(self.unavailable() or "no cpu controller")
        root, self.version = mount
        self.path = root / f"binaryon-bench-{os.getpid()}"
        self.path.mkdir(exist_ok=True)
        quota = max(1000, round(self.share * self.period_us))
        if self.version == 2:
            (self.path / "cpu.max").write_text(f"{quota} {self.period_us}")
        else:
            (self.path / "cpu.cfs_period_us").write_text(str(self.period_us))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        return self

    def add(self, pid: int) -> None:
        assert self.path is not None
        (self.path / "cgroup.procs").write_text(str(pid))

    def throttled(self) -> tuple[int, float]:
        """(periods in which the group was throttled, seconds it waited)."""
        assert self.path is not None
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines())
        if "throttled_usec" in stat:
            return int(stat["nr_throttled"]), int(stat["throttled_usec"]) / 1e6
        return int(stat.get("nr_throttled", 0)), int(stat.get("throttled_time", 0)) / 1e9

    def __exit__(self, *exc: object) -> None:
        if self.path is None:
            return
        parent = self.path.parent / "cgroup.procs"
        for _ in range(50):  # processes still in it go back to the parent group first
            pids = (self.path / "cgroup.procs").read_text().split()
            for pid in pids:
                with contextlib.suppress(OSError):  # it has just ended
                    parent.write_text(pid)
            try:
                self.path.rmdir()
                break
            except OSError:
                time.sleep(0.05)
        self.path = None


WORKLOAD = (
    "import time\n"
    "t, c = time.perf_counter(), time.process_time()\n"
    "s = 0\n"
    "for i in range(N):\n"
    "    s += i % 7 * (i & 3)\n"
    "print(time.perf_counter() - t, time.process_time() - c)\n"
)


def run_workload(loops: int, quota: CpuQuota | None) -> tuple[float, float]:
    """(wall, CPU) seconds of a fixed pure-Python loop in a fresh process."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; sys.stdin.readline()\n" + WORKLOAD.replace("N", str(loops)),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    if quota is not None:
        quota.add(proc.pid)
    out, _ = proc.communicate("go\n", timeout=300)
    wall, cpu = (float(x) for x in out.split())
    return wall, cpu


def calibrate(share: float = SHARE_OF_A_CORE, loops: int = 2_000_000) -> dict[str, float]:
    """The same CPU-bound work alone and under the quota: how much slower the quota makes it
    than one core of this machine (its own CPU time), and than this machine as it is now
    (wall time, other processes included)."""
    free_wall, free_cpu = min(run_workload(loops, None) for _ in range(3))
    with CpuQuota(share) as quota:
        slow_wall, slow_cpu = run_workload(loops, quota)
    return {
        "free_wall": free_wall,
        "free_cpu": free_cpu,
        "quota_wall": slow_wall,
        "quota_cpu": slow_cpu,
        "slowdown_vs_core": slow_wall / free_cpu,
        "slowdown_vs_wall": slow_wall / free_wall,
    }


def calibration_line(share: float = SHARE_OF_A_CORE, c: dict[str, float] | None = None) -> str:
    c = c or calibrate(share)
    return (
        f"CPU quota {share:.0%} of a core ({PERIOD_US // 1000} ms period): a fixed pure-Python "
        f"loop takes {c['quota_wall'] * 1000:.0f} ms under it against {c['free_cpu'] * 1000:.0f}"
        f" ms of CPU alone ({c['free_wall'] * 1000:.0f} ms wall): {c['slowdown_vs_core']:.1f}x "
        f"slower than one core here (target {1 / share:.0f}x: a Pi Zero 2 W core)"
    )


if __name__ == "__main__":
    why = CpuQuota.unavailable()
    print(why or calibration_line())
