"""Stand-in for MicroPython's neopixel module: ``write`` reports the chain to the test."""

import binascii

import machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        j = i * self.bpp
        for k in range(self.bpp):
            self.buf[j + k] = v[k]

    def __getitem__(self, i):
        j = i * self.bpp
        return tuple(self.buf[j : j + self.bpp])

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        machine.notify("px " + binascii.hexlify(self.buf).decode())
