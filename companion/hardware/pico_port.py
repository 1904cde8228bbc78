"""Finding the sensor board's Pico among this machine's serial ports by its USB id."""

from __future__ import annotations

PICO_VID, PICO_PID = 0x2E8A, 0x0005


class BoardNotFound(RuntimeError):
    """No board at the given port, or no Pico on USB for ``auto``."""


def find_pico_port() -> str:
    """The device path of the first Raspberry Pi Pico (USB 2E8A:0005) on this machine."""
    from serial.tools import list_ports

    found = sorted(
        p.device for p in list_ports.comports() if p.vid == PICO_VID and p.pid == PICO_PID
    )
    if not found:
        raise BoardNotFound(
            "no Pico board found (USB 2E8A:0005): plug it in or use --board serial:/dev/ttyACM0"
        )
    return found[0]
