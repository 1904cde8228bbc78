"""Scans the diode matrix: one row driven low at a time, columns read through pull-ups.

A closed sensor on the driven row pulls its column low; the diode in series with every sensor
keeps other closed sensors from making ghost squares. ``scan`` fills one bit mask per row
(bit c set = the sensor at file c is closed). Polarity boards have a second sensor per square
on a second set of columns sharing the rows.
"""

from machine import Pin

from boardfw.clock import sleep_us

try:
    from machine import mem32
except ImportError:
    mem32 = None

SIO_GPIO_IN = 0xD0000004  # RP2040 SIO: all GPIO input levels in one word


def _shift_if_contiguous(ids):
    for i in range(1, len(ids)):
        if ids[i] != ids[0] + i:
            return -1
    return ids[0]


class Matrix:
    def __init__(self, rows, cols, cols_b=None, fast=True, settle_us=10):
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
        """Fill out_a[r] (and out_b[r] on polarity boards) with the closed-sensor bits of row r."""
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
