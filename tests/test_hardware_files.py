"""The generated netlists and hardware/README.md: the hall build, the per-LED capacitors, the
sensor and buzzer footprints, and the LED current budget the firmware enforces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.hardware import pinout
from companion.testing import pico_sim

REPO = Path(__file__).resolve().parents[1]
HW = REPO / "hardware"
README = (HW / "README.md").read_text()
NETLISTS = sorted(HW.glob("*.net"))
FILES = "abcdefgh"


def nets(path: Path) -> dict[str, set[tuple[str, str]]]:
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r'\s*\(net \(code "\d+"\) \(name "/([^"]+)"\)(.*)\)$', line)
        if m:
            out[m.group(1)] = set(re.findall(r'\(ref "([^"]+)"\) \(pin "([^"]+)"\)', m.group(2)))
    return out


def parts(path: Path) -> dict[str, tuple[str, str]]:
    """ref -> (value, footprint)."""
    found = re.findall(
        r'\(comp \(ref "([^"]+)"\) \(value "([^"]*)"\) \(footprint "([^"]*)"\)', path.read_text()
    )
    return {ref: (value, fp) for ref, value, fp in found}


def test_every_build_and_sensor_has_a_netlist():
    names = {p.name for p in NETLISTS}
    assert names == {
        "binaryon-pico.net", "binaryon-pico-reed.net", "binaryon-pico-hall.net",
        "binaryon-gpio.net", "binaryon-gpio-reed.net",
    }  # fmt: skip
    for name in names:
        assert f"`{name}`" in README


@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_every_led_has_its_100nf_capacitor_across_the_supply(path):
    n, p = nets(path), parts(path)
    for rank in range(8):
        for f in FILES:
            sq = f"{f}{rank + 1}"
            assert p[f"C_{sq}"][0].startswith("100nF")
            assert (f"C_{sq}", "1") in n["+5V_LED"] and (f"C_{sq}", "2") in n["GND"]
            assert (f"LED_{sq}", "1") in n["+5V_LED"]


@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_the_buzzer_footprint_is_the_ps1240s_5_mm_pitch_one(path):
    value, fp = parts(path)["BZ1"]
    assert "PS1240P02BT" in value and fp == "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm"


@pytest.mark.parametrize("name", ["binaryon-pico-reed.net", "binaryon-gpio-reed.net"])
def test_reed_boards_use_an_orderable_mdsr7_on_a_footprint_longer_than_its_glass(name):
    p = parts(HW / name)
    value, fp = p["SW_e4"]
    assert "MDSR-7-15-20" in value
    pitch = float(re.search(r"_P([\d.]+)mm", fp).group(1))
    assert pitch > 12.7 + 2 * 3  # the glass plus straight lead at both ends
    assert "MDSR-7-15-20" in README


def test_switch_boards_name_an_orderable_switch():
    value, fp = parts(HW / "binaryon-pico.net")["SW_a1"]
    assert "Omron B3F-1000" in value and fp == "Button_Switch_THT:SW_PUSH_6mm"
    assert "B3F-1000" in README


def test_the_hall_build_powers_one_row_of_sensors_at_a_time():
    n, p = nets(HW / "binaryon-pico-hall.net"), parts(HW / "binaryon-pico-hall.net")
    pad = pinout.PICO_PAD
    assert ("U1", "36") in n["+3V3_PICO"]  # the Pico's 3V3(OUT)
    for rank in range(8):
        row, vcc = f"ROW{rank + 1}", f"HALL_VCC_{rank + 1}"
        q, r = f"Q_ROW{rank + 1}", f"R_ROW{rank + 1}"
        assert "AO3401A" in p[q][0] and p[q][1] == "Package_TO_SOT_SMD:SOT-23"
        assert n[row] == {("U1", str(pad[pinout.PICO_ROWS[rank]])), (q, "1"), (r, "1")}
        assert (q, "2") in n["+3V3_PICO"] and (r, "2") in n["+3V3_PICO"]
        sensors = {ref for ref, pin in n[vcc] if pin == "1" and ref.startswith("H")}
        assert n[vcc] - {(s, "1") for s in sensors} == {(q, "3")}
        assert len(sensors) == 16 and all("A1120EUA-T" in p[s][0] for s in sensors)
    for i, f in enumerate(FILES):
        for plane, gp in (("A", pinout.PICO_COLS[i]), ("B", pinout.PICO_COLS_B[i])):
            col = f"COL{f.upper()}" if plane == "A" else f"COLB{f.upper()}"
            anodes = {ref for ref, pin in n[col] if pin == "2"}
            assert ("U1", str(pad[gp])) in n[col]
            assert anodes == {f"D{plane}_{f}{rank + 1}" for rank in range(8)}
            for rank in range(8):
                sq = f"{f}{rank + 1}"
                assert n[f"OUT{plane}_{sq}"] == {(f"H{plane}_{sq}", "3"), (f"D{plane}_{sq}", "1")}
                assert (f"H{plane}_{sq}", "2") in n["GND"]
    assert not any(ref.startswith("SW_") and ref[3:4] in FILES for ref in p)


def test_the_readme_names_the_pico_library_and_how_to_add_it():
    assert "KiCad-RP-Pico" in README and "ncarandini" in README
    assert "MCU_RaspberryPi_and_Boards.kicad_sym" in README
    assert "MCU_RaspberryPi_and_Boards.pretty" in README


def test_the_readme_states_the_budget_the_firmware_enforces():
    leds = pico_sim.load_firmware()  # boardfw.app; its leds module holds the budget rule
    budget = __import__("boardfw.leds", fromlist=["budget_ma"]).budget_ma
    amps = pico_sim.firmware_config().LED_SUPPLY_AMPS
    assert leds is not None and amps == 2.0
    assert budget(amps, 64) == 1736
    assert "2000 × 0.9 − 64 = 1736 mA" in README and "`LED_SUPPLY_AMPS`" in README
