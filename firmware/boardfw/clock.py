"""Millisecond ticks: MicroPython's time functions, or a CPython equivalent for the simulation.

On the rp2 port ``ticks_ms`` wraps at 2**30 (about 12.4 days) and ``ticks_diff`` is only right
for stamps less than 2**29 ms apart: long spans (uptime) are summed pass by pass instead.
"""

import time

try:
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    sleep_us = time.sleep_us
    sleep_ms = time.sleep_ms
except AttributeError:  # CPython (desktop simulation)
    _PERIOD = 1 << 30

    def ticks_ms():
        return int(time.monotonic() * 1000) & (_PERIOD - 1)

    def ticks_diff(a, b):
        d = (a - b) & (_PERIOD - 1)
        return d - _PERIOD if d >= _PERIOD // 2 else d

    def sleep_us(us):
        pass

    def sleep_ms(ms):
        pass
