"""companion/pinout.py is the one source of truth: the hardware README's table, the firmware's
pin block, the netlists and the picture must all agree with it."""

from __future__ import annotations

import ast
import contextlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hardware import pinout
from tests.paths import REPO

README = REPO / "hardware" / "README.md"
FIRMWARE_CONFIG = REPO / "firmware" / "config.py"


def test_readme_table_is_the_generated_one():
    text = README.read_text()
    start = text.index(pinout.TABLE_BEGIN) + len(pinout.TABLE_BEGIN)
    end = text.index(pinout.TABLE_END)
    assert text[start:end].strip() == pinout.markdown_table().strip(), (
        "hardware/README.md's pinout table is stale: paste `python -m companion.hardware.pinout`"
    )


def test_readme_table_lists_every_pin_of_both_builds():
    table = pinout.markdown_table()
    for gpio in {*pinout.PI_ROWS, *pinout.PI_COLS, *pinout.PI_BUTTONS.values()}:
        assert f"| GPIO{gpio} | {pinout.PI_HEADER[gpio]} |" in table
    for gp in {*pinout.PICO_ROWS, *pinout.PICO_COLS, *pinout.PICO_COLS_B}:
        assert f"| GP{gp} | {pinout.PICO_PAD[gp]} |" in table


def firmware_values() -> dict[str, object]:
    tree = ast.parse(FIRMWARE_CONFIG.read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                with contextlib.suppress(ValueError):
                    out[target.id] = ast.literal_eval(node.value)
    return out


def test_firmware_pins_agree():
    if not FIRMWARE_CONFIG.exists():
        pytest.skip("no firmware/config.py")
    fw = firmware_values()
    assert tuple(fw["ROW_PINS"]) == pinout.PICO_ROWS
    assert tuple(fw["COL_PINS"]) == pinout.PICO_COLS
    assert tuple(fw["COL_PINS_B"]) == pinout.PICO_COLS_B
    assert fw["LED_PIN"] == pinout.PICO_LED_DATA


@pytest.mark.parametrize("build, spi_oled", [("gpio", False), ("pico", False), ("pico", True)])
def test_no_pin_is_used_twice(build, spi_oled):
    """The BCM pins the Pi uses in a build (the gpio build has an I2C OLED: SPI0 carries the
    LED data there)."""
    p = pinout
    used = [*p.PI_BUTTONS.values(), p.PI_BUZZER, p.PI_I2C_SDA, p.PI_I2C_SCL]
    if build == "gpio":
        used += [*p.PI_ROWS, *p.PI_COLS, *p.PI_SPI0_CLAIMS]  # PI_LED_DATA is SPI0's MOSI
    if spi_oled:
        used += [*p.PI_SPI0_CLAIMS, p.PI_SPI_OLED["dc"], p.PI_SPI_OLED["reset"]]
    assert len(used) == len(set(used))
    assert set(used) <= set(p.PI_HEADER)
    assert not set(used) & {0, 1}  # the HAT ID EEPROM pins


def test_pico_pins_are_distinct_gpios():
    pins = [*pinout.PICO_ROWS, *pinout.PICO_COLS, *pinout.PICO_COLS_B, pinout.PICO_LED_DATA]
    assert len(pins) == len(set(pins)) and set(pins) <= set(pinout.PICO_PAD)
    assert len(pinout.PICO_ROWS) == len(pinout.PICO_COLS) == len(pinout.PICO_COLS_B) == 8


def test_spi_led_pin_is_a_mosi():
    assert pinout.PI_LED_DATA in pinout.PI_SPI_LED_BUS
    assert pinout.PI_LED_DATA in pinout.PI_SPI0_CLAIMS


def test_schematic_files_are_up_to_date():
    r = subprocess.run(
        [sys.executable, str(REPO / "hardware" / "schematic.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def nets(path: Path) -> dict[str, set[tuple[str, str]]]:
    """Net name -> {(ref, pin)}; the generator writes one net per line."""
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r'\s*\(net \(code "\d+"\) \(name "/([^"]+)"\)(.*)\)$', line)
        if m:
            out[m.group(1)] = set(re.findall(r'\(ref "([^"]+)"\) \(pin "([^"]+)"\)', m.group(2)))
    return out


def through_series_resistor(netlist: dict[str, set[tuple[str, str]]], pin: int, net: str) -> bool:
    """J2's ``pin`` reaches ``net`` through its series resistor RJ<pin> (and nothing else)."""
    ref = f"RJ{pin}"
    return netlist[f"J2_{pin}"] == {("J2", str(pin)), (ref, "1")} and (ref, "2") in netlist[net]


def test_netlists_wire_the_pinout():
    pico = nets(REPO / "hardware" / "binaryon-pico.net")
    gpio = nets(REPO / "hardware" / "binaryon-gpio.net")
    for i in range(8):
        row, col = f"ROW{i + 1}", f"COL{'ABCDEFGH'[i]}"
        assert ("U1", str(pinout.PICO_PAD[pinout.PICO_ROWS[i]])) in pico[row]
        assert ("U1", str(pinout.PICO_PAD[pinout.PICO_COLS[i]])) in pico[col]
        assert through_series_resistor(gpio, pinout.PI_HEADER[pinout.PI_ROWS[i]], row)
        assert through_series_resistor(gpio, pinout.PI_HEADER[pinout.PI_COLS[i]], col)
        # each row carries 8 diode cathodes; each column 8 sensors
        assert sum(ref.startswith("D_") and pin == "1" for ref, pin in pico[row]) == 8
        assert sum(ref.startswith("SW_") for ref, _ in pico[col]) == 8
    assert through_series_resistor(
        gpio, pinout.PI_HEADER[pinout.PI_BUTTONS["confirm"]], "BTN_CONFIRM"
    )
    # the LED chain is unbroken: a1's DIN comes from the resistor, every DOUT feeds the next DIN
    assert ("R1", "2") in pico["LED_DIN_a1"]
    assert {("LED_g8", "2"), ("LED_h8", "4")} == pico["LED_DIN_h8"]


# ── no two signals on one GPIO in a build, and the config refuses a collision ────────────────
@pytest.mark.parametrize("build", ["gpio", "pico"])
def test_no_gpio_carries_two_signals_in_one_build(build):
    """The table's "Pi pin used in" column: what a build wires to each header GPIO."""
    used = [s for s in pinout.signals() if s.pi_gpio is not None and s.builds in ("both", build)]
    gpios = [s.pi_gpio for s in used]
    clashes = {g: [s.name for s in used if s.pi_gpio == g] for g in gpios if gpios.count(g) > 1}
    assert clashes == {}


def test_the_led_data_pin_is_wired_on_the_pi_in_the_gpio_build_only():
    led = next(s for s in pinout.signals() if s.name == "LED_DIN")
    assert led.builds == "gpio" and led.pi_gpio == pinout.PI_SPI_OLED["mosi"]
    assert (
        "| LED_DIN |" in README.read_text() and "| GP28 | 34 | gpio build |" in README.read_text()
    )


def _config(**sections):
    from companion.core.config import Config
    from companion.service.config_check import check_config

    return check_config(Config.from_dict(sections))


@pytest.mark.parametrize(
    "sections",
    [
        {"board": {"driver": "gpio"}},
        {"board": {"driver": "gpio"}, "leds": {"driver": "ws281x"}, "buttons": {"buzzer": 26}},
        {"board": {"driver": "auto"}, "display": {"spi": True}, "buttons": {"buzzer": 26}},
        {"board": {"driver": "auto"}, "leds": {"driver": "board"}},
    ],
)
def test_the_documented_wiring_of_each_build_loads(sections):
    from companion.hardware.pinout import pin_claims

    assert pin_claims(_config(**sections))


@pytest.mark.parametrize(
    "sections, message",
    [
        (
            {"board": {"driver": "gpio"}, "leds": {"driver": "ws281x", "pin": 18}},
            "GPIO18 is both matrix row 7 ([board] rows) and the LED data ([leds] pin)",
        ),
        ({"buttons": {"buzzer": 5}}, "GPIO5 is both the confirm button and the buzzer"),
        (
            {"board": {"driver": "gpio"}, "display": {"spi": True}},
            "GPIO10 is both the LED data ([leds] pin) and the SPI OLED's mosi",
        ),
        (
            {"board": {"driver": "gpio", "rows": [4, 17, 27, 22, 14, 15, 18, 26]},
             "buttons": {"buzzer": 26}},
            "GPIO26 is both matrix row 8 ([board] rows) and the buzzer",
        ),
    ],
)  # fmt: skip
def test_a_config_that_puts_two_uses_on_one_gpio_is_refused_in_one_line(sections, message):
    from companion.core.config import ConfigError

    with pytest.raises(ConfigError) as e:
        _config(**sections)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_the_readme_tells_the_truth_about_the_pis_header_and_rpi_ws281x():
    text = " ".join(README.read_text().split())
    assert "keeps the Pi's header free" not in text
    assert "the header still carries the buttons, the OLED and the buzzer" in text
    assert "rpi_ws281x on PWM GPIO18 also works" not in text
    assert "GPIO18 is ROW7" in text
    assert pinout.PI_HEADER[18] == 12 and pinout.PI_ROWS[6] == 18  # what the README says
