"""Scans the diode matrix: one row driven low at a time, columns read through pull-ups.

A closed sensor on the driven row pulls its column low; the diode in series with every sensor
keeps other closed sensors from making ghost squares. ``scan`` fills one bit mask per row
(bit c set = the sensor at file c is closed). Polarity boards have a second sensor per square
on a second set of columns sharing the rows.
"""

# ruff: noqa: F821 (viper's types ptr8 and ptr32 are built into its emitter)

import sys

from machine import Pin

from boardfw.clock import sleep_us

try:
    from machine import mem32
except ImportError:
    mem32 = None

SIO_GPIO_IN = 0xD0000004  # RP2040 SIO: all GPIO input levels in one word
_rows_scan = None  # the rp2 port's machine-code scan, when this MicroPython has viper


def _rp2040():
    try:
        import os

        return sys.platform == "rp2" and "RP2040" in os.uname().machine
    except Exception:
        return False


# The registers below are the RP2040's: a Pico 2 (RP2350, its timer elsewhere) and other ports
# use the plain scan.
if _rp2040():
    try:
        from array import array

        import micropython

        @micropython.viper
        def _rows_scan(masks: ptr32, runs: ptr8, out: ptr32, cfg: ptr32) -> int:
            """One pass over the rows in machine code: drive each row low through SIO's
            GPIO_OUT_CLR, wait the settle time on the 1 MHz timer, read GPIO_IN, release the
            row (GPIO_OUT_SET). ``cfg``: rows, sets (1, or 2 on polarity boards), settle in
            us, runs per set, budget in us. ``runs``: per set, (first GPIO, first bit, length)
            of each block of consecutive column GPIOs. ``out`` gets one word per row and set.
            Full scans repeat until one sees a change or the budget is spent (the Python
            code between calls costs as much as a scan); returns 2 * scans + 1 if changed."""
            sio = ptr32(0xD0000000)  # GPIO_IN at word 1, GPIO_OUT_SET 5, GPIO_OUT_CLR 6
            timer = ptr32(0x40054000)  # TIMERAWL at word 10: microseconds, free running
            rows = cfg[0]
            sets = cfg[1]
            settle = cfg[2]
            per = cfg[3]
            budget = cfg[4]
            start = timer[10]
            scans = 0
            changed = 0
            while True:
                for r in range(rows):
                    m = masks[r]
                    sio[6] = m
                    if settle:
                        t0 = timer[10]
                        while timer[10] - t0 < settle:
                            pass
                    low = sio[1] ^ -1  # a closed sensor pulls its column low
                    sio[5] = m
                    for s in range(sets):
                        bits = 0
                        for k in range(s * per, s * per + per):
                            g = runs[3 * k]
                            if g != 255:
                                size = runs[3 * k + 2]
                                bits |= ((low >> g) & ((1 << size) - 1)) << runs[3 * k + 1]
                        i = r * sets + s
                        if out[i] != bits:
                            out[i] = bits
                            changed = 1
                scans += 1
                if changed or timer[10] - start >= budget:
                    break
            return scans * 2 + changed

    except Exception:  # a build without the viper emitter: the plain scan below
        _rows_scan = None


def _shift_if_contiguous(ids):
    for i in range(1, len(ids)):
        if ids[i] != ids[0] + i:
            return -1
    return ids[0]


def _runs(ids):
    """(first GPIO, first bit, length) of each block of consecutive GPIOs in ``ids``."""
    runs = []
    for bit in range(len(ids)):
        g = ids[bit]
        if runs and runs[-1][0] + runs[-1][2] == g:
            runs[-1][2] += 1
        else:
            runs.append([g, bit, 1])
    return runs


class Matrix:
    def __init__(self, rows, cols, cols_b=None, fast=True, settle_us=10, budget_us=0):
        """``budget_us``: how long one ``scan`` call may go on scanning while nothing changes
        (the rp2 port's machine-code scan; elsewhere a call is one scan)."""
        self.rows = [Pin(p, Pin.OUT, value=1) for p in rows]
        self.cols = [Pin(p, Pin.IN, Pin.PULL_UP) for p in cols]
        self.cols_b = [Pin(p, Pin.IN, Pin.PULL_UP) for p in cols_b] if cols_b else None
        self.ids = tuple(cols)
        self.ids_b = tuple(cols_b) if cols_b else ()
        self.mask = (1 << len(cols)) - 1
        self.shift = _shift_if_contiguous(self.ids)
        self.shift_b = _shift_if_contiguous(self.ids_b) if cols_b else -1
        # One register read per row instead of one call per column, when the port has it.
        self.fast = bool(fast) and mem32 is not None
        self.settle_us = settle_us
        self.native = None
        self.scans = 1  # full scans done by the last scan() call
        if _rows_scan is not None and self.fast:
            sets = [_runs(self.ids)] + ([_runs(self.ids_b)] if cols_b else [])
            per = max(len(runs) for runs in sets)
            table = bytearray()
            for runs in sets:
                for k in range(per):
                    table.extend(bytes(runs[k]) if k < len(runs) else b"\xff\x00\x00")
            self.native = (
                array("I", [1 << p for p in rows]),
                table,
                array("I", [0] * (len(rows) * len(sets))),
                array("I", [len(rows), len(sets), settle_us, per, budget_us]),
            )

    def _bits(self, pins, ids, shift, word):
        bits = 0
        if word is None:
            for c in range(len(pins)):
                if not pins[c].value():
                    bits |= 1 << c
        elif shift >= 0:
            bits = (~word >> shift) & self.mask
        else:
            for c in range(len(ids)):
                if not (word >> ids[c]) & 1:
                    bits |= 1 << c
        return bits

    def scan(self, out_a, out_b=None):
        """Fill out_a[r] (and out_b[r] on polarity boards) with the closed-sensor bits of row r.
        Returns False when nothing can have changed since the last scan."""
        native = self.native
        if native is not None:
            out = native[2]
            got = _rows_scan(native[0], native[1], out, native[3])
            self.scans = got >> 1
            if not got & 1:
                return False
            if out_b is None or self.cols_b is None:
                for r in range(len(out_a)):
                    out_a[r] = out[r]
            else:
                for r in range(len(out_a)):
                    out_a[r] = out[2 * r]
                    out_b[r] = out[2 * r + 1]
            return True
        for r in range(len(self.rows)):
            row = self.rows[r]
            row.value(0)
            if self.settle_us:
                sleep_us(self.settle_us)
            word = mem32[SIO_GPIO_IN] if self.fast else None
            out_a[r] = self._bits(self.cols, self.ids, self.shift, word)
            if out_b is not None and self.cols_b is not None:
                out_b[r] = self._bits(self.cols_b, self.ids_b, self.shift_b, word)
            row.value(1)
        return True
