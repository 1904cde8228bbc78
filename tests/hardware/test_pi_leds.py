"""Pi-driven LEDs: the brightness cap and current budget, the SPI bit stream, off-on-exit.

spidev and rpi_ws281x ship no mocks; the stand-ins below record what the driver asks of them.
"""

from __future__ import annotations

import errno
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.pi_leds import (
    RESET_BYTES,
    LedError,
    estimated_ma,
    limit,
    open_leds,
    spi_encode,
)

colour = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
frames = st.lists(colour, min_size=64, max_size=64)


class FakeSpiDev:
    opened: list = []
    fail: OSError | None = None

    def __init__(self):
        self.writes: list[bytes] = []
        self.closed = False

    def open(self, bus, device):
        if FakeSpiDev.fail:
            raise FakeSpiDev.fail
        FakeSpiDev.opened.append((bus, device, self))

    def writebytes2(self, data):
        self.writes.append(bytes(data))

    def close(self):
        self.closed = True


class FakeSpidevModule:
    SpiDev = FakeSpiDev


def decode(stream: bytes) -> list[tuple[int, int, int]]:
    """Back from SPI bytes to (r, g, b): every 3 SPI bits are one LED bit."""
    body = stream[: len(stream) - RESET_BYTES]
    assert stream[len(body) :] == bytes(RESET_BYTES)
    bits = "".join(f"{b:08b}" for b in body)
    triples = [bits[i : i + 3] for i in range(0, len(bits), 3)]
    assert set(triples) <= {"100", "110"}
    led_bits = "".join("1" if t == "110" else "0" for t in triples)
    values = [int(led_bits[i : i + 8], 2) for i in range(0, len(led_bits), 8)]
    return [(values[i + 1], values[i], values[i + 2]) for i in range(0, len(values), 3)]


@settings(max_examples=80)
@given(frames, st.floats(0, 1, allow_subnormal=False), st.floats(0, 4000, allow_subnormal=False))
def test_limit_keeps_to_brightness_and_budget(frame, brightness, budget):
    out = limit(frame, brightness, budget)
    assert len(out) == len(frame)
    assert estimated_ma(out) <= budget + 1e-6
    for (r, g, b), (r2, g2, b2) in zip(frame, out, strict=True):
        assert r2 <= r * brightness + 1e-9 and g2 <= g * brightness + 1e-9
        assert b2 <= b * brightness + 1e-9
        assert min(r2, g2, b2) >= 0


def test_full_white_is_capped_to_a_quarter_by_default():
    leds = open_leds("dummy")
    white = [(255, 255, 255)] * 64
    assert estimated_ma(white) == pytest.approx(3840)
    leds.show(white)
    assert leds.last == [(63, 63, 63)] * 64
    assert estimated_ma(leds.last) <= 1000
    leds.close()


def test_budget_binds_when_brightness_is_raised():
    leds = open_leds("dummy", brightness=1.0, budget_ma=1000)
    leds.show([(255, 255, 255)] * 64)
    assert 900 < estimated_ma(leds.last) <= 1000
    leds.close()


@settings(max_examples=30)
@given(st.lists(colour, min_size=1, max_size=64))
def test_spi_stream_round_trips(frame):
    stream = spi_encode(frame)
    assert len(stream) == 9 * len(frame) + RESET_BYTES
    assert decode(stream) == frame


def test_spi_driver_writes_the_stream_and_switches_off_on_close():
    FakeSpiDev.opened, FakeSpiDev.fail = [], None
    leds = open_leds("spi", module=FakeSpidevModule, brightness=1.0)
    bus, device, spi = FakeSpiDev.opened[0]
    assert (bus, device, spi.max_speed_hz, spi.mode) == (0, 0, 2_400_000, 0)
    frame = [(0, 0, 0)] * 64
    frame[28] = (200, 10, 0)
    leds.show(frame)
    leds.show(frame)  # unchanged: not sent again
    assert len(spi.writes) == 1 and decode(spi.writes[0]) == frame
    leds.close()
    leds.close()
    assert len(spi.writes) == 2 and decode(spi.writes[1]) == [(0, 0, 0)] * 64 and spi.closed
    leds.show(frame)  # after close: ignored, not an error
    assert len(spi.writes) == 2


def test_spi_problems_are_one_line_with_the_fix():
    FakeSpiDev.fail = OSError(errno.ENOENT, "No such file or directory")
    try:
        with pytest.raises(LedError, match="raspi-config nonint do_spi 0"):
            open_leds("spi", module=FakeSpidevModule)
    finally:
        FakeSpiDev.fail = None
    with pytest.raises(LedError, match="needs a MOSI pin"):
        open_leds("spi", pin=18, module=FakeSpidevModule)
    with pytest.raises(LedError, match="choose one of"):
        open_leds("neopixel")
    with pytest.raises(LedError, match="brightness"):
        open_leds("dummy", brightness=2)
    leds = open_leds("dummy")
    with pytest.raises(ValueError, match="63 colours"):
        leds.show([(0, 0, 0)] * 63)
    leds.close()


class FakeWs281x:
    class PixelStrip:
        made: list = []

        def __init__(self, num, pin, freq_hz, dma, invert, brightness, channel):
            self.args = (num, pin, freq_hz, dma, invert, brightness, channel)
            self.pixels = [(0, 0, 0)] * num
            self.shown: list = []
            FakeWs281x.PixelStrip.made.append(self)

        def begin(self):
            if self.args[1] == 99:
                raise RuntimeError("ws2811_init failed with code -5 (mmap() failed)")

        def setPixelColorRGB(self, n, r, g, b):  # noqa: N802 - the library's name
            self.pixels[n] = (r, g, b)

        def show(self):
            self.shown.append(list(self.pixels))


def test_ws281x_driver_and_its_root_error():
    leds = open_leds("ws281x", pin=18, module=FakeWs281x, brightness=0.5)
    strip = FakeWs281x.PixelStrip.made[-1]
    assert strip.args == (64, 18, 800_000, 10, False, 255, 0)
    leds.show([(100, 50, 2)] * 64)
    assert strip.shown[-1] == [(50, 25, 1)] * 64
    leds.close()
    assert strip.shown[-1] == [(0, 0, 0)] * 64
    with pytest.raises(LedError, match="needs root"):
        open_leds("ws281x", pin=99, module=FakeWs281x)


def test_leds_go_dark_when_the_process_exits():
    code = textwrap.dedent(
        """
        import sys
        from companion.hardware.pi_leds import open_leds

        class Spi:
            def open(self, bus, dev): pass
            def writebytes2(self, data):  # an all-zero LED byte is SPI 0x92 0x49 0x24
                print("dark" if data[:-90] == bytes([0x92, 0x49, 0x24]) * 192 else "lit")
            def close(self): print("closed")

        class Module:
            SpiDev = Spi

        leds = open_leds("spi", module=Module)
        leds.show([(255, 255, 255)] * 64)
        sys.exit(0)  # no close(): the atexit hook must switch them off
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["lit", "dark", "closed"]
