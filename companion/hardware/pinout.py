"""The one source of truth for every pin of both board builds.

The code's defaults (config, drivers, firmware) and the table in hardware/README.md all come
from here; ``python -m companion.hardware.pinout`` prints that table and
tests/hardware/test_pinout.py checks the README still agrees.

Pi pins are BCM GPIO numbers (what gpiozero, lgpio and RPi.GPIO take); "header" is the
physical pin on the 40-pin header. Pico pins are GPn numbers (what MicroPython's ``Pin(n)``
takes); "pad" is the Pico's physical pin 1..40.

Two builds:
- "pico" (recommended): the Pico scans the matrix and drives the LEDs; the Pi has only the
  OLED, the buttons and the buzzer. The OLED may be on I2C or SPI.
- "gpio": the Pi scans the matrix itself (8 row outputs, 8 column inputs) and drives the LEDs
  over SPI0's MOSI. Every header GPIO is then in use; the OLED must be on I2C.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.core.config import Config

# ── Raspberry Pi (BCM numbers) ───────────────────────────────────────────────────────────────
# Matrix rows are outputs driven low one at a time (ranks 1..8); columns are inputs with
# pull-ups (files a..h). A closed square pulls its column low through its diode.
PI_ROWS: tuple[int, ...] = (4, 17, 27, 22, 14, 15, 18, 23)
PI_COLS: tuple[int, ...] = (24, 25, 7, 12, 16, 19, 20, 21)
PI_BUTTONS: dict[str, int] = {"confirm": 5, "undo": 6, "menu": 13}
PI_BUZZER: int = 26
# LED data leaves on SPI0 MOSI: the spidev driver needs no root and works on every Pi,
# Pi 5 included. (rpi_ws281x takes the same pin, in its SPI mode, but needs root; its PWM
# pins GPIO12/18 are matrix lines. See hardware/README.md.)
PI_LED_DATA: int = 10
PI_SPI_LED_BUS: dict[int, int] = {10: 0, 20: 1}  # MOSI pin -> /dev/spidevN.0
PI_I2C_PORT: int = 1
PI_I2C_SDA: int = 2
PI_I2C_SCL: int = 3
OLED_I2C_ADDRESS: int = 0x3C  # some SH1106 modules answer at 0x3D
# Optional SPI OLED (pico build only): SPI0 plus two plain GPIOs for D/C and reset.
PI_SPI_OLED: dict[str, int] = {"mosi": 10, "sclk": 11, "ce0": 8, "dc": 24, "reset": 25}
# Pins SPI0 takes once enabled with `dtoverlay=spi0-1cs` (MISO, MOSI, SCLK, CE0).
PI_SPI0_CLAIMS: tuple[int, ...] = (9, 10, 11, 8)

# Physical header pin of each BCM GPIO on the 40-pin header (all Pi models with 40 pins).
PI_HEADER: dict[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23,
    12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40,
    22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip
PI_GROUND_PINS: tuple[int, ...] = (6, 9, 14, 20, 25, 30, 34, 39)

# ── Raspberry Pi Pico (GPn numbers) ──────────────────────────────────────────────────────────
# Contiguous blocks, so the firmware reads all columns with one register read per row.
# firmware/config.py carries the same numbers (ROW_PINS, COL_PINS, COL_PINS_B, LED_PIN);
# tests/hardware/test_pinout.py keeps the two equal.
PICO_ROWS: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)
PICO_COLS: tuple[int, ...] = (8, 9, 10, 11, 12, 13, 14, 15)
# Hall-sensor (polarity) boards have a second sensor per square, the white-up one (its disc
# shows the north pole downwards); its columns share the rows. Unused on switch/reed boards.
PICO_COLS_B: tuple[int, ...] = (16, 17, 18, 19, 20, 21, 22, 26)
PICO_LED_DATA: int = 28
PICO_USB_VID_PID: tuple[int, int] = (0x2E8A, 0x0005)  # MicroPython on RP2040

# Physical pad of each Pico GPn.
PICO_PAD: dict[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
    12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
    22: 29, 26: 31, 27: 32, 28: 34,
}  # fmt: skip

# Names the rest of the code uses for the Pi defaults.
MATRIX_ROWS = PI_ROWS
MATRIX_COLS = PI_COLS
BUTTONS = PI_BUTTONS
BUZZER = PI_BUZZER
LED_PIN = PI_LED_DATA

FILES = "abcdefgh"


@dataclass(frozen=True)
class Signal:
    """One wire: what it does and where it lands on each board (None = not on that board)."""

    name: str
    role: str
    pi_gpio: int | None = None
    pico_gp: int | None = None
    builds: str = "both"  # "both", "gpio" or "pico": in which build the Pi side is wired

    @property
    def pi_header(self) -> int | None:
        return None if self.pi_gpio is None else PI_HEADER[self.pi_gpio]

    @property
    def pico_pad(self) -> int | None:
        return None if self.pico_gp is None else PICO_PAD[self.pico_gp]


def signals() -> list[Signal]:
    """Every signal of both builds, in table order."""
    out: list[Signal] = []
    for i in range(8):
        out.append(
            Signal(f"ROW{i + 1}", f"matrix row, rank {i + 1} (output, low = selected)",
                   PI_ROWS[i], PICO_ROWS[i], "gpio")
        )  # fmt: skip
    for i in range(8):
        out.append(
            Signal(f"COL{FILES[i].upper()}", f"matrix column, file {FILES[i]} (input, pull-up)",
                   PI_COLS[i], PICO_COLS[i], "gpio")
        )  # fmt: skip
    for i in range(8):
        out.append(
            Signal(f"COLB{FILES[i].upper()}", f"hall white-up column, file {FILES[i]}",
                   None, PICO_COLS_B[i], "pico")
        )  # fmt: skip
    out.append(
        Signal("LED_DIN", "WS2812B data in (via 74AHCT125); Pi: SPI0 MOSI",
               PI_LED_DATA, PICO_LED_DATA, "gpio")
    )  # fmt: skip
    for name, gpio in PI_BUTTONS.items():
        out.append(Signal(f"BTN_{name.upper()}", f"{name} button to GND", gpio))
    buzzer_role = f"passive piezo, PWM tone; off until `[buttons] buzzer = {PI_BUZZER}`"
    out.append(Signal("BUZZER", buzzer_role, PI_BUZZER))
    out.append(Signal("OLED_SDA", f"OLED I2C data (i2c-{PI_I2C_PORT})", PI_I2C_SDA))
    out.append(Signal("OLED_SCL", f"OLED I2C clock (i2c-{PI_I2C_PORT})", PI_I2C_SCL))
    for key in ("mosi", "sclk", "ce0", "dc", "reset"):
        out.append(
            Signal(f"OLED_SPI_{key.upper()}", f"SPI OLED {key} (instead of I2C)",
                   PI_SPI_OLED[key], None, "pico")
        )  # fmt: skip
    return out


def pin_conflict(claims: Iterable[tuple[str, int]]) -> str | None:
    """The first GPIO that two uses claim, as one line for the user, or None."""
    seen: dict[int, str] = {}
    for use, pin in claims:
        if pin in seen and seen[pin] != use:
            return f"GPIO{pin} is both {seen[pin]} and {use}: give one of them another pin"
        seen.setdefault(pin, use)
    return None


def pin_claims(config: Config) -> list[tuple[str, int]]:
    """Every Pi GPIO a config drives, with what for. The matrix is on the Pi only with
    ``[board] driver = "gpio"``; the LED data only when the Pi drives the LEDs."""
    out: list[tuple[str, int]] = []
    if config.board.driver == "gpio":
        rows = config.board.rows or PI_ROWS
        cols = config.board.cols or PI_COLS
        out += [(f"matrix row {i + 1} ([board] rows)", p) for i, p in enumerate(rows)]
        out += [(f"matrix column {i + 1} ([board] cols)", p) for i, p in enumerate(cols)]
    leds = config.leds.driver
    if leds in ("spi", "ws281x") or (leds == "auto" and config.board.driver == "gpio"):
        out.append(("the LED data ([leds] pin)", config.leds.pin or LED_PIN))
    b = config.buttons
    if b.enabled != "no":
        for name in ("confirm", "undo", "menu"):
            out.append((f"the {name} button", getattr(b, name) or BUTTONS[name]))
        if b.talk:
            out.append(("the talk button ([buttons] talk)", b.talk))
        if b.buzzer:
            out.append(("the buzzer ([buttons] buzzer)", b.buzzer))
    d = config.display
    if d.driver in ("auto", "ssd1306", "sh1106"):
        if d.spi:
            out += [(f"the SPI OLED's {k}", p) for k, p in PI_SPI_OLED.items()]
        elif d.i2c_port == PI_I2C_PORT:
            out += [("the OLED's SDA", PI_I2C_SDA), ("the OLED's SCL", PI_I2C_SCL)]
    return out


def _cell(value: int | None, fmt: str) -> str:
    return "—" if value is None else fmt.format(value)


def markdown_table() -> str:
    """The pinout table of hardware/README.md."""
    lines = [
        "| Signal | Role | Pi GPIO (BCM) | Pi header pin | Pico GP | Pico pad | Pi pin used in |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in signals():
        where = {"both": "both builds", "gpio": "gpio build", "pico": "pico build"}[s.builds]
        if s.pi_gpio is None:
            where = "— (Pico only)"
        lines.append(
            f"| {s.name} | {s.role} | {_cell(s.pi_gpio, 'GPIO{}')} | {_cell(s.pi_header, '{}')}"
            f" | {_cell(s.pico_gp, 'GP{}')} | {_cell(s.pico_pad, '{}')} | {where} |"
        )
    return "\n".join(lines) + "\n"


TABLE_BEGIN = (
    "<!-- pinout:begin (generated by `python -m companion.hardware.pinout`; do not edit) -->"
)
TABLE_END = "<!-- pinout:end -->"


def main() -> int:
    sys.stdout.write(markdown_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
