"""CPU cost of one full 8x8 matrix scan (read + debounce) against the simulated GPIO modules.

This measures the driver's own Python work per scan on this machine: the library calls are
the in-process fakes, so real lgpio adds its per-call cost (a few microseconds in C on a Pi 4;
see hardware/README.md). Each scan also sleeps the settle time after each row (SETTLE_US):
that costs wall time, not CPU, and the wall figure shows it.
Run: .venv/bin/python benchmarks/bench_gpio_scan.py
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: its tests' aids

from companion.hardware import pinout  # noqa: E402
from companion.hardware.gpio_board import SETTLE_US, GpioBoard  # noqa: E402
from tests.fake_gpio import FakeLgpio, FakeRPiGPIO, MatrixSim  # noqa: E402


def bench(module, scans: int = 5000) -> tuple[float, float, int]:
    sim = MatrixSim(pinout.PI_ROWS, pinout.PI_COLS)
    fake = module(sim)
    board = GpioBoard(pinout.PI_ROWS, pinout.PI_COLS, backend=fake)
    board.connect(lambda e: None)
    for sq in range(0, 64, 3):
        sim.set_square(sq, "1")
    fake.calls.clear()
    start, wall = time.process_time(), time.perf_counter()
    for i in range(scans):
        board.scan_once(now=i * 0.005)
    cpu = time.process_time() - start
    wall = time.perf_counter() - wall
    calls = sum(fake.calls.values()) // scans
    board.stop()
    return cpu / scans, wall / scans, calls


def bench_decode(scans: int = 20000) -> float:
    """Decode + debounce alone (no library calls): the floor of any backend."""
    board = GpioBoard(pinout.PI_ROWS, pinout.PI_COLS, backend=FakeLgpio(MatrixSim([], [])))
    rows = [0xFF ^ (1 << (i % 8)) for i in range(8)]
    start = time.process_time()
    for i in range(scans):
        board.process(rows, i * 0.005)
    return (time.process_time() - start) / scans


def main() -> None:
    print(
        f"machine: {platform.machine()} {platform.python_implementation()} "
        f"{platform.python_version()}"
    )
    for module in (FakeLgpio, FakeRPiGPIO):
        per_scan, wall, calls = bench(module)
        load = per_scan * 200 * 100
        print(
            f"{module.__name__:12s} {per_scan * 1e6:7.1f} us CPU per scan, {calls} library "
            f"calls per scan, {load:4.1f}% of one core at 200 Hz; {wall * 1e6:6.0f} us wall "
            f"per scan with 8 settle waits of {SETTLE_US:g} us"
        )
    print(f"{'decode only':12s} {bench_decode() * 1e6:7.1f} us CPU per scan (no library calls)")


if __name__ == "__main__":
    main()
