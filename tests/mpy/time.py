"""Stand-in for ``time`` under the MicroPython unix port: the rp2 port's ticks, which wrap at
2**30 ms, started at MPY_TICKS_START (e.g. just before the wrap). The test can move the clock
forward (``jump``) to reach long uptimes. Everything else is the real module."""

# ruff: noqa: F403, F405, N816
import os

from utime import *  # the built-in module (this file hides it as ``time``)
from utime import sleep_ms as _sleep_ms
from utime import ticks_diff as _real_diff
from utime import ticks_ms as _real_ms

PERIOD = 1 << 30
MASK = PERIOD - 1
HALF = PERIOD >> 1
_base = [_real_ms(), int(os.getenv("MPY_TICKS_START") or "0")]


def ticks_ms():
    return (_base[1] + _real_diff(_real_ms(), _base[0])) & MASK


def ticks_diff(a, b):
    return ((a - b + HALF) & MASK) - HALF


def ticks_add(a, delta):
    return (a + delta) & MASK


def jump(ms):
    """Move the firmware's clock forward by ``ms``."""
    _base[1] += ms


def sleep_ms(ms):
    _sleep_ms(ms)
