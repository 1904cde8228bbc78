"""The OLED wrapper on luma's dummy device and on real luma.oled drivers over luma's i2c
interface, with an smbus-shaped bus object standing in for /dev/i2c-1."""

from __future__ import annotations

import errno
import logging
import time

import pytest
from luma.core.interface.serial import i2c
from luma.core.render import canvas
from PIL import Image, ImageChops

from companion.hardware.oled import DRIVERS, DisplayError, open_display

from .conftest import wait_until


class Bus:
    """smbus2.SMBus's write_i2c_block_data, recording bytes; ``fail`` writes raise EIO."""

    def __init__(self):
        self.commands: list[int] = []
        self.data: list[int] = []
        self.fail = 0

    def write_i2c_block_data(self, addr, mode, values):
        if self.fail:
            self.fail -= 1
            raise OSError(errno.EIO, "Input/output error")
        (self.commands if mode == 0x00 else self.data).extend(values)


def draw_box(device, box=(10, 10, 50, 30)):
    with canvas(device) as draw:
        draw.rectangle(box, outline="white", fill="white")


def test_dummy_keeps_the_frame_and_skips_repeats():
    d = open_display("dummy")
    assert (d.width, d.height, d.mode) == (128, 64, "1")
    draw_box(d)
    expected = Image.new("1", (128, 64))
    expected.paste(255, (10, 10, 51, 31))
    assert ImageChops.difference(d.device.image, expected).getbbox() is None
    draw_box(d)
    assert (d.frames_sent, d.frames_skipped) == (1, 1)
    draw_box(d, (0, 0, 5, 5))
    assert d.frames_sent == 2
    d.cleanup()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_real_driver_sends_whole_frames_once(driver):
    bus = Bus()
    d = open_display(driver, serial_interface=i2c(bus=bus, address=0x3C))
    assert bus.commands, "the controller was initialised"
    bus.data.clear()
    with canvas(d) as draw:
        draw.rectangle((0, 0, 127, 63), fill="white")
    assert len(bus.data) == 128 * 64 // 8 and set(bus.data) == {0xFF}
    with canvas(d) as draw:
        draw.rectangle((0, 0, 127, 63), fill="white")
    assert len(bus.data) == 1024  # identical frame: nothing sent
    d.clear()
    assert len(bus.data) == 2048 and set(bus.data[1024:]) == {0x00}


def test_transient_i2c_error_is_retried_logged_once_and_recovers(caplog):
    bus = Bus()
    d = open_display("ssd1306", serial_interface=i2c(bus=bus), retry_seconds=0.02)
    caplog.set_level(logging.WARNING, logger="companion.hardware.oled")
    bus.fail = 10**6  # the bus is down
    for box in ((0, 0, 5, 5), (0, 0, 9, 9), (0, 0, 20, 20)):
        draw_box(d, box)  # never raises
    assert not d.healthy
    time.sleep(0.1)  # several retries fail meanwhile
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "retrying" in warnings[0].getMessage()
    bus.data.clear()  # before the bus comes back, so the retry thread cannot race it
    bus.fail = 0
    wait_until(lambda: d.healthy)
    assert "working again" in caplog.records[-1].getMessage()
    # re-initialising clears the glass, then the latest frame follows: a 21x21 box at the top
    # left is two full pages (0xFF) and five rows of the third (0x1F), 21 columns each
    frame = bus.data[-1024:]
    assert len(bus.data) == 2048 and set(bus.data[:1024]) == {0}
    assert (frame.count(0xFF), frame.count(0x1F), frame.count(0)) == (42, 21, 1024 - 63)
    d.cleanup()


def test_single_glitch_is_retried_at_once(caplog):
    bus = Bus()
    d = open_display("sh1106", serial_interface=i2c(bus=bus))
    bus.fail = 1
    draw_box(d)
    assert d.healthy and d.frames_sent == 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_unknown_driver_and_rotation_are_one_line():
    with pytest.raises(DisplayError, match="choose one of"):
        open_display("st7735")
    with pytest.raises(DisplayError, match="rotate"):
        open_display("dummy", rotate=5)
    assert DRIVERS == ("ssd1306", "sh1106", "emulator", "dummy")


def test_missing_i2c_bus_names_the_fix():
    with pytest.raises(DisplayError) as info:
        open_display("ssd1306", i2c_port=97)
    assert "raspi-config nonint do_i2c 0" in str(info.value)


def test_absent_display_names_the_wiring():
    bus = Bus()
    bus.fail = 10**6
    with pytest.raises(DisplayError) as info:
        open_display("ssd1306", serial_interface=i2c(bus=bus, address=0x3D), i2c_address=0x3D)
    message = str(info.value)
    assert "0x3D" in message and "i2cdetect" in message and "\n" not in message


def test_emulator_runs_headless(monkeypatch):
    pytest.importorskip("luma.emulator")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    d = open_display("emulator")
    draw_box(d)
    assert d.frames_sent == 1 and d.healthy
    d.cleanup()
