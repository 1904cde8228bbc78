"""The OLED wrapper on luma's dummy device and on real luma.oled drivers over luma's i2c
interface, with an smbus-shaped bus object standing in for /dev/i2c-1; the pixel font (ones
that read as separate digits, accented names kept legible) and the labelled move number."""

from __future__ import annotations

import errno
import logging
import os
import time

import pytest
from luma.core.interface.serial import i2c
from luma.core.render import canvas
from PIL import Image, ImageChops, ImageDraw

from companion.games.base import Panel, PanelRow
from companion.hardware.oled import DRIVERS, DisplayError, open_display
from companion.views.oled import CHARS, Screen, font
from tests.conftest import wait_until
from tests.views.test_oled_golden import shown, text_of


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


class CountingSMBus:
    """smbus2.SMBus for luma's own i2c(port=...): each open holds a real file descriptor (as
    /dev/i2c-N would) and the bus fails with EREMOTEIO while nothing answers."""

    present = True
    opened: list[int] = []
    closed: list[int] = []

    def __init__(self, bus=None, force=False):
        self.fd = os.open(os.devnull, os.O_RDWR)
        CountingSMBus.opened.append(self.fd)

    def _io(self):
        if not CountingSMBus.present:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_i2c_block_data(self, addr, reg, data, force=None):
        self._io()

    def i2c_rdwr(self, *msgs):
        self._io()

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            CountingSMBus.closed.append(self.fd)
            self.fd = None

    @classmethod
    def held(cls) -> int:
        return len(cls.opened) - len(cls.closed)


@pytest.fixture
def counting_bus(monkeypatch):
    import smbus2

    monkeypatch.setattr(smbus2, "SMBus", CountingSMBus)
    monkeypatch.setattr(CountingSMBus, "present", True)
    monkeypatch.setattr(CountingSMBus, "opened", [])
    monkeypatch.setattr(CountingSMBus, "closed", [])
    return CountingSMBus


def test_absent_display_at_start_releases_the_bus(counting_bus):
    counting_bus.present = False
    for _ in range(3):
        with pytest.raises(DisplayError, match="no display answers"):
            open_display("ssd1306", i2c_port=1)
    assert len(counting_bus.opened) == 3 and counting_bus.held() == 0


def test_retries_while_the_display_is_gone_do_not_leak_descriptors(counting_bus):
    d = open_display("ssd1306", i2c_port=1, retry_seconds=0.005)
    assert counting_bus.held() == 1
    counting_bus.present = False  # the OLED is unplugged
    draw_box(d)
    wait_until(lambda: len(counting_bus.opened) >= 20)  # many failed re-opens meanwhile
    assert not d.healthy
    assert counting_bus.held() <= 2  # the device in use (+ at most one re-open under way)
    counting_bus.present = True
    wait_until(lambda: d.healthy)
    assert counting_bus.held() == 1  # only the working display's bus is open
    d.cleanup()
    assert counting_bus.held() == 0


def test_ones_read_as_separate_digits():
    """Eight ones in a row are eight strokes with dark columns between them."""
    image = Image.new("1", (6 * 8, 10))
    ImageDraw.Draw(image).text((0, 0), "11111111", font=font(), fill=1)
    columns = [any(image.getpixel((x, y)) for y in range(10)) for x in range(image.width)]
    strokes = sum(1 for x in range(len(columns)) if columns[x] and (x == 0 or not columns[x - 1]))
    assert strokes == 8
    assert font() is not None and font().getbbox("W" * CHARS)[2] == 6 * CHARS


def test_the_move_number_is_labelled():
    panel = Panel("BINARYON", 12, (PanelRow("ON", "1", True), PanelRow("OFF", "0")))
    assert text_of(Screen(panel)).splitlines()[0].endswith("move 12")


def test_accented_names_keep_their_letters_in_the_ascii_pixel_font():
    from companion.views.oled import plain

    assert plain("Zoë Müller") == "Zoe Muller" and plain("Ana") == "Ana"
    rows = (PanelRow("Zoë ON", "1", True), PanelRow("OFF", "0"))
    accented = shown(Screen(Panel("BINARYON", 1, rows)))
    rows = (PanelRow("Zoe ON", "1", True), PanelRow("OFF", "0"))
    assert accented.tobytes() == shown(Screen(Panel("BINARYON", 1, rows))).tobytes()
