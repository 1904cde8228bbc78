"""Stand-in for MicroPython's rp2 module: the BOOTSEL button, held when MPY_BOOTSEL=1."""

import os


def bootsel_button():
    return 1 if os.getenv("MPY_BOOTSEL") == "1" else 0
