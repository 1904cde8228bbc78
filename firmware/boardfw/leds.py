"""The WS2812B chain under the squares, driven with MicroPython's neopixel module.

The chain's current is capped here, whatever the host sends: a WS2812B draws about 20 mA per
colour channel at full level (60 mA at full white) and about 1 mA at rest, so 64 LEDs at full
white would draw 3.8 A. ``show`` estimates the draw of the frame after brightness and, when it
would exceed the budget (90 % of the LED supply, less the LEDs' rest current), scales every
channel down by the same factor. Integer arithmetic only: floats allocate on the Pico.
"""

import machine
import neopixel

MA_PER_CHANNEL = 20  # at level 255
REST_MA = 1  # per LED, dark
SUPPLY_SHARE = 90  # percent of the supply the chain may use


def budget_ma(supply_amps, count):
    """The current the colour channels may draw from a ``supply_amps`` supply (mA)."""
    return int(supply_amps * 1000) * SUPPLY_SHARE // 100 - count * REST_MA


class Leds:
    def __init__(self, pin, size, serpentine=False, brightness=64, supply_amps=2):
        n = size * size
        self.n = n
        self.np = neopixel.NeoPixel(machine.Pin(pin), n)
        self.frame = bytearray(n * 3)  # r, g, b per square as the host sent them, a1 first
        self.brightness = brightness
        self.budget = max(0, budget_ma(supply_amps, n))
        self.ma = 0  # estimated draw of the colour channels as last shown
        self.capped = 0  # frames shown scaled down to stay within the budget
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
        f = self.frame
        b = self.brightness
        total = 0  # sum of the channels as the host sent them
        levels = 0  # sum of the levels shown at this brightness (each rounds down)
        for v in f:
            total += v
            levels += v * b // 255
        num, den = b, 255
        # what the frame would draw as asked: level(v) = v * b // 255, 20 mA at level 255
        if (levels * MA_PER_CHANNEL + 254) // 255 > self.budget:
            # scale by budget/need, where need bounds the draw before rounding down: every
            # channel rounds down, so the sum stays within the budget
            need = (total * b * MA_PER_CHANNEL + 65024) // 65025
            num, den = b * self.budget, 255 * need
            self.capped += 1
        shown = 0
        for sq in range(self.n):
            i = sq * 3
            r = f[i] * num // den
            g = f[i + 1] * num // den
            bl = f[i + 2] * num // den
            shown += r + g + bl
            self.np[self.order[sq]] = (r, g, bl)
        self.np.write()
        self.ma = (shown * MA_PER_CHANNEL + 254) // 255
        self.dirty = False
