"""The WS2812B chain under the squares, driven with MicroPython's neopixel module."""

import machine
import neopixel


class Leds:
    def __init__(self, pin, size, serpentine=False, brightness=64):
        n = size * size
        self.n = n
        self.np = neopixel.NeoPixel(machine.Pin(pin), n)
        self.frame = bytearray(n * 3)  # r, g, b per square as the host sent them, a1 first
        self.brightness = brightness
        self.dirty = True
        # Chain position of each square: rank by rank from a1, every other rank reversed if the
        # chain snakes back and forth.
        order = []
        for sq in range(n):
            rank, file = sq // size, sq % size
            if serpentine and rank % 2:
                file = size - 1 - file
            order.append(rank * size + file)
        self.order = order

    def set(self, square, rgb):
        i = square * 3
        self.frame[i] = (rgb >> 16) & 255
        self.frame[i + 1] = (rgb >> 8) & 255
        self.frame[i + 2] = rgb & 255
        self.dirty = True

    def set_brightness(self, level):
        self.brightness = level
        self.dirty = True

    def show(self):
        b = self.brightness
        f = self.frame
        for sq in range(self.n):
            i = sq * 3
            self.np[self.order[sq]] = (f[i] * b // 255, f[i + 1] * b // 255, f[i + 2] * b // 255)
        self.np.write()
        self.dirty = False
