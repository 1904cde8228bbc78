"""The Pico firmware's scan rate on MicroPython's own rp2 port (v1.28.0, RPI_PICO) in the
RP2040 emulator rp2040js, per board kind: ``STAT rate`` after a second of scanning.

The emulator runs the core at 125 MHz, cycle-approximate, with no flash-cache misses: a real
Pico is not faster. Needs node and ../shared/rp2emu (tests/rp2_board.py says what is missing).
Run from the repository root:

    .venv/bin/python benchmarks/bench_firmware_rp2.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.hardware import link_protocol as lp  # noqa: E402
from tests.rp2_board import Rp2Board, missing  # noqa: E402

KINDS = ("switch", "presence", "polarity")


def rate(kind: str) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        board = Rp2Board(Path(tmp), KIND=kind)
        try:
            board.wait(lambda m: isinstance(m, lp.Snapshot), ms=1500)
            board.run(2100)  # two snapshot periods: the second is all scanning
            board.skip_old()
            board.send(lp.CMD_STAT)
            return board.wait(lambda m: isinstance(m, lp.Stat), ms=300).fields
        finally:
            board.stop()


def main() -> None:
    why = missing()
    if why is not None:
        print(why)
        return
    print("MicroPython v1.28.0 rp2 port (RPI_PICO) in rp2040js, 125 MHz; STAT rate per kind:")
    for kind in KINDS:
        fields = rate(kind)
        print(f"  {kind:9s} {int(fields['rate']):6,d} scans/s")


if __name__ == "__main__":
    main()
