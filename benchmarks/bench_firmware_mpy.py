"""The Pico firmware in the real MicroPython interpreter (unix port) on this machine: scan rate,
heap allocated per idle loop pass, and how long a full RESEND burst takes to arrive.

The scan rate here is the unix port's with the Python stand-in for ``machine`` (every pin and
register access is a Python call), not a Pico's: it shows the loop's own cost only relatively.
On a board, read ``STAT rate`` (firmware/README.md). Run from the repository root:

    .venv/bin/python benchmarks/bench_firmware_mpy.py
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

import serial

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.hardware import link_protocol as lp  # noqa: E402
from tests.mpy_pico import MpyPico  # noqa: E402


def read_until(ser: serial.Serial, split: lp.LineSplitter, pred, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in split.feed(ser.read(65536)):
            msg = lp.parse_board_line(line)
            if msg is not None and pred(msg):
                return msg
    raise TimeoutError("no answer from the firmware")


def main() -> None:
    pico = MpyPico(SNAPSHOT_MS=1000)
    try:
        ser = serial.Serial(pico.port, timeout=0.02)
        split = lp.LineSplitter()
        read_until(ser, split, lambda m: isinstance(m, lp.Snapshot))
        time.sleep(2.2)  # two snapshot periods: STAT rate covers a whole one
        ser.write(lp.CMD_STAT)
        stat = read_until(ser, split, lambda m: isinstance(m, lp.Stat))
        grew, passes = pico.measure_allocations(2000)
        ser.write(lp.CMD_HELLO)
        hello = read_until(ser, split, lambda m: isinstance(m, lp.Hello))
        for _ in range(62):
            ser.write(lp.CMD_PING)
        read_until(ser, split, lambda m: isinstance(m, lp.Pong) and m.seq == (hello.seq + 63) % 256)
        start = time.perf_counter()
        ser.write(lp.cmd_resend(hello.seq))
        last = (hello.seq + 63) % 256
        read_until(ser, split, lambda m: isinstance(m, lp.Pong) and m.seq == last)
        burst = time.perf_counter() - start
        ser.write(lp.CMD_STAT)
        after = read_until(ser, split, lambda m: isinstance(m, lp.Stat))
        ser.close()
    finally:
        pico.close()
    quiet = MpyPico(SNAPSHOT_MS=60000)  # no periodic line: every pass is an idle one
    try:
        idle_grew, idle_passes = quiet.measure_allocations(2000)
    finally:
        quiet.close()
    print(f"machine: {platform.machine()} {platform.python_implementation()} host; "
          "firmware in MicroPython's unix port with tests/mpy stand-ins")  # fmt: skip
    print(f"scan rate (STAT rate):            {stat.fields['rate']} full scans/s")
    print(
        f"heap growth per idle loop pass:   max {idle_grew} B over 2000 passes ({idle_passes} grew)"
    )
    print(
        f"same with a SNAP every second:    max {grew} B over 2000 passes ({passes} grew: "
        "the passes that sent a SNAP line)"
    )
    print(f"RESEND of 64 lines, host reading: {burst * 1000:.1f} ms until the last arrived "
          f"(dropped: {after.fields['drop']})")  # fmt: skip


if __name__ == "__main__":
    main()
