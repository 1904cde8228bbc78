"""Stand-in for ``os`` under the MicroPython unix port: the real module, except that ``stat`` of
"" is the current folder, as on the Pico's flash filesystem (mpremote's ``cp ... :`` asks for
it). The test runs each boot with the flash folder as the working directory."""

# ruff: noqa: F403, F405
from uos import *  # the built-in module (this file hides it as ``os``)
from uos import stat as _stat


def stat(path):
    return _stat(path or ".")


class _Uname:
    """rp2's ``os.uname()``, as far as the firmware reads it: ``machine`` names the chip."""

    sysname = "rp2"
    machine = "Raspberry Pi Pico with RP2040"


def uname():
    u = _Uname()
    if getenv("MPY_CHIP") == "RP2350":
        u.machine = "Raspberry Pi Pico 2 with RP2350"
    return u
