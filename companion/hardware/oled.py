"""The 128x64 OLED through luma: ssd1306 / sh1106 on I2C (or SPI), the pygame emulator, or
luma's dummy device; always wrapped so a flaky bus never stops the daemon.

``open_display`` returns a :class:`ResilientDisplay`: a luma-compatible device (``canvas()``
works on it) that
- skips a frame identical to the one on the glass (a full frame over I2C at 400 kHz costs
  ~23 ms, and ssd1306/sh1106 always send the whole frame);
- on an I2C error retries once at once, then logs one warning and keeps retrying the latest
  frame in the background every ``retry_seconds`` (re-initialising the controller, which may
  have browned out), and logs once more when the display is back. It never raises from
  display().
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable

from companion.hardware import pinout
from companion.hardware.interfaces import HardwareError

log = logging.getLogger(__name__)

DRIVERS = ("ssd1306", "sh1106", "emulator", "dummy")
WIDTH, HEIGHT = 128, 64


class DisplayError(HardwareError):
    """The display cannot be opened; the message is one line with the fix."""


def open_display(
    driver: str,
    *,
    i2c_port: int = pinout.PI_I2C_PORT,
    i2c_address: int = pinout.OLED_I2C_ADDRESS,
    spi: bool = False,
    rotate: int = 0,
    serial_interface=None,
    retry_seconds: float = 2.0,
) -> ResilientDisplay:
    """A display for ``driver`` (one of DRIVERS). Raises DisplayError with the fix."""
    if driver not in DRIVERS:
        raise DisplayError(f"display driver {driver!r}: choose one of {', '.join(DRIVERS)}")
    if rotate not in (0, 1, 2, 3):
        raise DisplayError(f"display rotate must be 0..3 (quarter turns), got {rotate}")
    make = _maker(driver, i2c_port, i2c_address, spi, rotate, serial_interface)
    try:
        device = make()
    except DisplayError:
        raise
    except Exception as e:
        raise DisplayError(explain(e, driver, i2c_port, i2c_address, spi)) from e
    name = (
        driver
        if driver in ("emulator", "dummy")
        else f"{driver} on {_where(i2c_port, i2c_address, spi)}"
    )
    return ResilientDisplay(device, make, name=name, retry_seconds=retry_seconds)


def _where(port: int, address: int, spi: bool) -> str:
    return "SPI0" if spi else f"i2c-{port} at 0x{address:02X}"


def _maker(driver, port, address, spi, rotate, serial_interface) -> Callable[[], object]:
    if driver == "dummy":
        from luma.core.device import dummy

        return lambda: dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    if driver == "emulator":

        def make_emulator():
            try:
                from luma.emulator.device import pygame as emulator
            except ImportError as e:
                raise DisplayError(
                    "the emulator needs luma.emulator and pygame: "
                    "pip install 'binaryon-companion[emulator]'"
                ) from e
            return emulator(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1", scale=2)

        return make_emulator

    def make_oled():
        from luma.oled import device as oled

        cls = getattr(oled, driver)
        if serial_interface is not None:
            iface = serial_interface
        elif spi:
            from luma.core.interface.serial import spi as spi_iface

            pins = pinout.PI_SPI_OLED
            iface = spi_iface(port=0, device=0, gpio_DC=pins["dc"], gpio_RST=pins["reset"])
        else:
            from luma.core.interface.serial import i2c

            iface = i2c(port=port, address=address)
        try:
            return cls(iface, width=WIDTH, height=HEIGHT, rotate=rotate)
        except BaseException:
            # The controller did not answer: release the bus we opened (smbus2 closes its
            # /dev/i2c-N file only in close()), or every retry would leak a descriptor.
            if iface is not serial_interface:
                with contextlib.suppress(Exception):
                    iface.cleanup()
            raise

    return make_oled


def explain(e: BaseException, driver: str, port: int, address: int, spi: bool) -> str:
    """One line: what is wrong with the display and how to fix it."""
    text = " ".join(str(e).split()) or type(e).__name__
    low = text.lower()
    if spi:
        if "spidev" in low or "no such file" in low:
            return "SPI not enabled: sudo raspi-config nonint do_spi 0, then reboot"
        return f"{driver} on SPI0: {text}"
    dev = f"/dev/i2c-{port}"
    if "permission" in low:
        return f"no permission for {dev}: sudo adduser $USER i2c, then log in again"
    if "not found" in low and dev in text:
        return f"I2C not enabled ({dev} missing): sudo raspi-config nonint do_i2c 0, then reboot"
    if "not found on address" in low or "remote i/o" in low:
        return (
            f"no display answers at 0x{address:02X} on i2c-{port}: check the wiring "
            f"(SDA GPIO{pinout.PI_I2C_SDA}/pin 3, SCL GPIO{pinout.PI_I2C_SCL}/pin 5, 3V3, GND) "
            f"and the address with `i2cdetect -y {port}` (some modules use 0x3D)"
        )
    if "address invalid" in low:
        return f"display address {address!r} is not an I2C address (e.g. 0x3C)"
    return f"{driver} on {_where(port, address, spi)}: {text}"


class ResilientDisplay:
    """A luma device that never raises from display() and skips unchanged frames."""

    def __init__(
        self,
        device,
        make: Callable[[], object],
        *,
        name: str = "display",
        retry_seconds: float = 2.0,
    ):
        self.device = device
        self.name = name
        self.retry_seconds = retry_seconds
        self.frames_sent = 0
        self.frames_skipped = 0
        self._make = make
        self._lock = threading.RLock()
        self._on_glass: bytes | None = None
        self._pending = None
        self._broken = False
        self._timer: threading.Timer | None = None
        self._closed = False

    # luma devices are read through these by canvas() and by our renderers
    def __getattr__(self, attr):
        return getattr(self.__dict__["device"], attr)

    @property
    def healthy(self) -> bool:
        return not self._broken

    def display(self, image) -> None:
        key = _frame_key(image)
        with self._lock:
            if self._closed:
                return
            if key == self._on_glass and not self._broken:
                self.frames_skipped += 1
                return
            self._pending = image
            if self._broken:
                return  # the retry timer sends the latest frame
            if self._send(image, key) or self._send(image, key, reopen=True):
                return
            self._broken = True
            self._schedule_retry()

    def _send(self, image, key: bytes, reopen: bool = False) -> bool:
        try:
            if reopen:
                self._reopen()
            self.device.display(image)
        except Exception as e:
            self._on_glass = None
            if not self._broken and reopen:
                log.warning(
                    "%s: %s; retrying every %gs", self.name, " ".join(str(e).split()),
                    self.retry_seconds,
                )  # fmt: skip
            return False
        self._on_glass = key
        self.frames_sent += 1
        return True

    def _reopen(self) -> None:
        new = self._make()  # raises while the bus is still down: the old device stays
        old, self.device = self.device, new
        with contextlib.suppress(Exception):
            old.persist = True  # do not blank the glass, just release the bus
            old.cleanup()

    def _schedule_retry(self) -> None:
        if self._closed:
            return
        self._timer = threading.Timer(self.retry_seconds, self.retry_now)
        self._timer.daemon = True
        self._timer.start()

    def retry_now(self) -> bool:
        """Try to resend the latest frame now; True when the display is working."""
        with self._lock:
            if not self._broken:
                return True
            if self._closed or self._pending is None:
                return False
            image = self._pending
            if self._send(image, _frame_key(image), reopen=True):
                log.warning("%s: working again", self.name)
                self._broken = False  # last: whoever sees it healthy also sees the log line
                return True
            self._schedule_retry()
            return False

    def _guarded(self, what: str, fn) -> None:
        with self._lock:
            if self._broken or self._closed or self.device is None:
                return
            try:
                fn()
            except Exception as e:
                log.debug("%s: %s failed: %s", self.name, what, e)

    def show(self) -> None:
        self._guarded("show", lambda: self.device.show())

    def hide(self) -> None:
        self._guarded("hide", lambda: self.device.hide())

    def contrast(self, level: int) -> None:
        self._guarded("contrast", lambda: self.device.contrast(level))

    def clear(self) -> None:
        from PIL import Image

        self.display(Image.new(self.device.mode, self.device.size))

    def cleanup(self) -> None:
        """Blank the glass and release the bus; never raises."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._closed = True
            if self.device is not None:
                with contextlib.suppress(Exception):
                    self.device.cleanup()

    close = cleanup


def _frame_key(image) -> bytes:
    return f"{image.mode}{image.size}".encode() + image.tobytes()
