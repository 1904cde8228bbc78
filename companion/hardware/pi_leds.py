"""The WS2812B chain driven straight from the Pi (boards without a Pico).

Drivers, imported only when chosen:
- "spi" (default): the WS2812B bit stream is shaped on SPI MOSI (GPIO10 = /dev/spidev0.0,
  GPIO20 = /dev/spidev1.0) through the ``spidev`` module: no root needed, works on every Pi
  including the Pi 5. Each LED bit is three SPI bits at 2.4 MHz (100 = 0, 110 = 1).
- "ws281x": rpi_ws281x's PixelStrip, on GPIO10 (its SPI mode) by default like "spi"; its
  PWM pins (GPIO12, GPIO18) are matrix lines in the GPIO build. Needs root and does not
  support the Pi 5.
- "dummy": keeps the last frame in memory (desktops, tests, ``binaryon doctor``).

Every driver gets the same safety: a global brightness scale (0.25 by default) and a current
budget (1 A by default): 64 LEDs at full white draw ~3.8 A, more than a Pi's supply can
spare. The chain is switched off on close() and at interpreter exit.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Sequence

from companion.hardware import pinout
from companion.hardware.interfaces import RGB, HardwareError, LedStrip

log = logging.getLogger(__name__)

DRIVERS = ("spi", "ws281x", "dummy")
MA_PER_CHANNEL = 20.0  # WS2812B: ~20 mA per colour at 255, so ~60 mA per LED at full white
DEFAULT_BUDGET_MA = 1000.0
SPI_HZ = 2_400_000
RESET_BYTES = 90  # >= 300 us low: the reset (latch) time of newer WS2812B parts


class LedError(HardwareError):
    """The LED chain cannot be driven; the message is one line with the fix."""


def estimated_ma(frame: Sequence[RGB]) -> float:
    """Current drawn by the colour channels for a frame (quiescent ~1 mA/LED not included)."""
    return sum(r + g + b for r, g, b in frame) * MA_PER_CHANNEL / 255.0


def limit(frame: Sequence[RGB], brightness: float, budget_ma: float) -> list[RGB]:
    """Scale a frame by ``brightness``, then down further if it would exceed ``budget_ma``."""
    scale = max(0.0, min(1.0, brightness))
    full = estimated_ma(frame) * scale
    if full > budget_ma > 0:
        scale *= budget_ma / full
    elif budget_ma <= 0:
        scale = 0.0
    return [(int(r * scale), int(g * scale), int(b * scale)) for r, g, b in frame]


# ── the WS2812B bit stream on SPI ────────────────────────────────────────────────────────────
def _spi_pattern(byte: int) -> bytes:
    bits = 0
    for i in range(7, -1, -1):
        bits = bits << 3 | (0b110 if byte >> i & 1 else 0b100)
    return bits.to_bytes(3, "big")


_SPI_TABLE = [_spi_pattern(b) for b in range(256)]


def spi_encode(frame: Sequence[RGB]) -> bytes:
    """SPI bytes for a frame: GRB order (WS2812B), 3 SPI bits per LED bit, then the reset."""
    t = _SPI_TABLE
    return b"".join(t[g] + t[r] + t[b] for r, g, b in frame) + bytes(RESET_BYTES)


class _SpiWriter:
    def __init__(self, pin: int, module=None):
        if pin not in pinout.PI_SPI_LED_BUS:
            pins = ", ".join(f"GPIO{p}" for p in pinout.PI_SPI_LED_BUS)
            raise LedError(f"the spi LED driver needs a MOSI pin ({pins}), got GPIO{pin}")
        bus = pinout.PI_SPI_LED_BUS[pin]
        if module is None:
            try:
                import spidev as module
            except ImportError as e:
                raise LedError("the spi LED driver needs spidev: sudo apt install "
                               "python3-spidev (or pip install spidev)") from e  # fmt: skip
        self._spi = module.SpiDev()
        try:
            self._spi.open(bus, 0)
        except OSError as e:
            raise LedError(
                f"/dev/spidev{bus}.0: {e.strerror or e}; enable SPI: sudo raspi-config "
                "nonint do_spi 0 (and add the user to the spi group)"
            ) from e
        self._spi.max_speed_hz = SPI_HZ
        self._spi.mode = 0

    def write(self, frame: Sequence[RGB]) -> None:
        self._spi.writebytes2(spi_encode(frame))

    def close(self) -> None:
        self._spi.close()


class _Ws281xWriter:
    def __init__(self, count: int, pin: int, module=None):
        if module is None:
            try:
                import rpi_ws281x as module
            except ImportError as e:
                raise LedError("the ws281x LED driver needs rpi_ws281x: pip install "
                               "rpi_ws281x (runs as root; Pi 1-4 only)") from e  # fmt: skip
        channel = 1 if pin in (13, 19, 41, 45, 53) else 0
        self._strip = module.PixelStrip(count, pin, 800_000, 10, False, 255, channel)
        try:
            self._strip.begin()
        except Exception as e:  # RuntimeError "ws2811_init failed with code -5" without root
            raise LedError(f"rpi_ws281x on GPIO{pin}: {e} (it needs root; or use the spi "
                           "driver on GPIO10)") from e  # fmt: skip

    def write(self, frame: Sequence[RGB]) -> None:
        for i, (r, g, b) in enumerate(frame):
            self._strip.setPixelColorRGB(i, r, g, b)
        self._strip.show()

    def close(self) -> None:
        pass  # PixelStrip frees its DMA buffers itself at exit


class _DummyWriter:
    def __init__(self) -> None:
        self.frame: list[RGB] = []
        self.writes = 0

    def write(self, frame: Sequence[RGB]) -> None:
        self.frame = list(frame)
        self.writes += 1

    def close(self) -> None:
        pass


class PiLeds(LedStrip):
    """A LedStrip over a writer, with the brightness cap, current budget and off-on-exit."""

    def __init__(
        self,
        writer,
        count: int = 64,
        *,
        brightness: float = 0.25,
        budget_ma: float = DEFAULT_BUDGET_MA,
    ):
        if not 0.0 <= brightness <= 1.0:
            raise LedError(f"LED brightness must be 0..1, got {brightness}")
        self.writer = writer
        self.count = count
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.last: list[RGB] = [(0, 0, 0)] * count  # what the chain shows (after limiting)
        self._lock = threading.Lock()
        self._closed = False
        atexit.register(self.close)

    def show(self, frame: Sequence[RGB]) -> None:
        if len(frame) != self.count:
            raise ValueError(f"LED frame has {len(frame)} colours, the chain has {self.count}")
        out = limit(frame, self.brightness, self.budget_ma)
        with self._lock:
            if self._closed or out == self.last:
                return
            try:
                self.writer.write(out)
            except Exception as e:  # never let an LED glitch stop the game
                log.warning("LEDs: %s", e)
                return
            self.last = out

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self.writer.write([(0, 0, 0)] * self.count)
                self.last = [(0, 0, 0)] * self.count
            except Exception as e:
                log.warning("LEDs: could not switch off: %s", e)
            finally:
                try:
                    self.writer.close()
                finally:
                    atexit.unregister(self.close)


def open_leds(
    driver: str,
    *,
    count: int = 64,
    pin: int = pinout.PI_LED_DATA,
    brightness: float = 0.25,
    budget_ma: float = DEFAULT_BUDGET_MA,
    module=None,
) -> PiLeds:
    """A LedStrip for ``driver`` (one of DRIVERS); ``module`` replaces spidev / rpi_ws281x."""
    if driver == "spi":
        writer = _SpiWriter(pin, module)
    elif driver == "ws281x":
        writer = _Ws281xWriter(count, pin, module)
    elif driver == "dummy":
        writer = _DummyWriter()
    else:
        raise LedError(f"LED driver {driver!r}: choose one of {', '.join(DRIVERS)}")
    return PiLeds(writer, count, brightness=brightness, budget_ma=budget_ma)
