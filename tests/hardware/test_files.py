"""The generated netlists, drawings and hardware/README.md: the hall build (gate pull-ups,
bypass, mounting), the LED supply's protection and capacitors, the sensor and buzzer parts,
the dimensioned drawings and the LED current budget the firmware enforces."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from companion.hardware import pinout
from companion.hardware.simulated import pico_sim
from tests.paths import REPO

sys.path.insert(0, str(REPO / "hardware"))
import drawings  # noqa: E402  (hardware/drawings.py)

from tests.hardware.netlists import nets

HW = REPO / "hardware"
README = (HW / "README.md").read_text()
BOM = (HW / "bom.md").read_text()
NETLISTS = sorted(HW.glob("*.net"))
PROSE = " ".join(README.replace("**", "").split())  # the README as one line, no bold marks
FILES = "abcdefgh"


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
        c = f"C_ROW{rank + 1}"
        assert n[vcc] - {(s, "1") for s in sensors} == {(q, "3"), (c, "1")}
        assert (c, "2") in n["GND"]
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


# ── the hall build: rows held off in reset, bypass, mounting ─────────────────────────────────
RP2040_PULL_DOWN_OHMS = (50_000, 80_000)  # RP2040 datasheet: pad pull-down resistance
AO3401A_VGS_TH = (-0.5, -1.3)  # volts, the lowest and the highest threshold


def ohms(value: str) -> float:
    m = re.fullmatch(r"([\d.]+)\s*([kM]?)", value.split()[0])
    assert m, value
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]


def test_gate_pull_ups_hold_every_row_off_while_the_rp2040_pulls_its_pins_down():
    """In reset, the bootloader and the REPL the row pins float on the RP2040's pull-downs: the
    divider against each gate pull-up must leave Vgs well short of the AO3401A's threshold."""
    p = parts(HW / "binaryon-pico-hall.net")
    for rank in range(8):
        pull_up = ohms(p[f"R_ROW{rank + 1}"][0])
        for pull_down in RP2040_PULL_DOWN_OHMS:
            vgs = -3.3 * pull_up / (pull_up + pull_down)
            assert vgs > 0.6 * AO3401A_VGS_TH[0], (rank, pull_up, vgs)  # > -0.3 V
    value = p["R_ROW1"][0]
    assert f"| {value.replace('k', ' kΩ')} resistor, 0805, 1 % | Yageo | RC0805FR-072K2L |" in BOM
    assert "−3.3 × 100 / 150 = −2.2 V" in PROSE and "50-80 kΩ" in PROSE
    assert f"A {value.replace('k', ' kΩ')} pull-up from each gate" in PROSE
    assert "100 kΩ pull-up from gate to 3.3 V keeps every row off" not in PROSE


def test_each_row_has_one_bypass_capacitor_small_enough_to_drain_within_the_settle_time():
    p = parts(HW / "binaryon-pico-hall.net")
    caps = {ref for ref in p if ref.startswith("C_ROW")}
    assert caps == {f"C_ROW{r}" for r in range(1, 9)}
    farads = 100e-9
    assert all(p[c][0].startswith("100nF") for c in caps)
    # 16 sensors at only 1 mA each drain it from 3.3 V well inside HALL_SETTLE_US (100 us)
    drain_us = farads * 3.3 / (16 * 1e-3) * 1e6
    settle = pico_sim.firmware_config().HALL_SETTLE_US
    assert drain_us < settle / 4
    assert re.search(r"\| 100 nF ceramic.*\| 65 \| 65 \| 73 \| 65 \| 65 \|.*C_ROW1..C_ROW8", BOM)
    assert "C_ROW1..8" in README and "No capacitor on a row's switched supply" not in PROSE


def test_the_hall_mounting_magnet_and_gap_are_in_the_readme_and_the_drawing():
    gap_a, gap_b = drawings.sensor_gaps_mm()
    off = drawings.sensor_offset_mm()
    field_a = drawings.axial_field_mt(gap_a, off)
    field_b = drawings.axial_field_mt(gap_b, off)
    assert min(field_a, field_b) >= drawings.MIN_FIELD_MT
    assert drawings.neighbour_field_mt() < 1.0  # a neighbour's disc never turns a sensor on
    text = PROSE
    assert f"{gap_a:.1f} mm to sensor A, {gap_b:.1f} mm to sensor B" in text
    assert f"about {round(field_a)} mT at A and {round(field_b)} mT at B" in text
    m, t = drawings.MAGNET_DIAMETER_MM, drawings.MAGNET_THICK_MM
    assert f"{m:g} × {t:g} mm, grade {drawings.MAGNET_GRADE}" in text
    assert f"disc magnet {m:g} × {t:g} mm, axially magnetised, {drawings.MAGNET_GRADE}" in BOM
    assert "lay the body flat" in text and "marked side up" in text
    square = (HW / "square.svg").read_text()
    assert f"A: {gap_a:.1f}" in square and f"B: {gap_b:.1f}" in square
    assert f"A {field_a:.0f} mT, B {field_b:.0f} mT" in square


# ── the LED supply ──────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_the_led_supply_enters_through_a_polyfuse_and_a_reverse_polarity_mosfet(path):
    n, p = nets(path), parts(path)
    assert n["+5V_IN"] == {("J1", "1"), ("F1", "1")}
    assert n["+5V_FUSED"] == {("F1", "2"), ("Q1", "3"), ("D1", "1")}  # drain toward the supply
    assert ("Q1", "2") in n["+5V_LED"] and ("Q1", "1") in n["GND"]  # source to the rail, G = GND
    assert ("J1", "2") in n["GND"]
    assert "polyfuse" in p["F1"][0] and "MF-MSMF250/16X-2" in p["F1"][0]
    assert "AO3401A" in p["Q1"][0] and p["Q1"][1] == "Package_TO_SOT_SMD:SOT-23"
    assert ("C1", "1") in n["+5V_LED"]  # the bulk capacitor sits behind the protection
    assert "| polyfuse (F1), 2.5 A hold, 5 A trip, 16 V, 1812 | Bourns | MF-MSMF250/16X-2 |" in BOM
    assert "| P-MOSFET, logic level, SOT-23 | Alpha & Omega | AO3401A |" in BOM


@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_the_level_shifter_has_its_own_100nf(path):
    n, p = nets(path), parts(path)
    assert p["C2"][0].startswith("100nF")
    assert ("C2", "1") in n["+5V_LED"] and ("U2", "14") in n["+5V_LED"]
    assert ("C2", "2") in n["GND"] and ("U2", "7") in n["GND"]
    assert "100 nF (C2, 0805 X7R) from VCC (pin 14) to GND (pin 7)" in PROSE


def test_the_schematic_shows_the_changes():
    svg = (HW / "schematic.svg").read_text()
    value = parts(HW / "binaryon-pico-hall.net")["R_ROW1"][0]
    assert f"{value} gate pull-up to 3V3" in svg and "100 k gate" not in svg
    assert "100nF from VCC_n to GND per row" in svg
    assert "F1 polyfuse" in svg and "Q1 AO3401A reverse-" in svg and "(C2)" in svg
    assert "PWM tone" in svg


# ── the buzzer as drawn ───────────────────────────────────────────────────────────────────────
def test_the_bom_piezo_is_passive_and_its_config_key_is_documented():
    assert "| passive piezo buzzer (optional), 5.0 mm pin pitch | TDK | PS1240P02BT |" in BOM
    assert "buzzer = 26" in README and 'buzzer_kind = "passive"' in README
    assert "off unless configured" in PROSE
    main = (REPO / "README.md").read_text()
    assert re.search(r"^buzzer = 0 .*26", main, re.M) and 'buzzer_kind = "passive"' in main
    role = next(s.role for s in pinout.signals() if s.name == "BUZZER")
    assert "passive" in role and "active buzzer" not in role


# ── the drawings ─────────────────────────────────────────────────────────────────────────────
def test_the_drawings_are_linked_and_carry_the_readmes_dimensions():
    assert "![One square" in README and "(square.svg)" in README
    assert "(j2-cable.svg)" in README
    square = (HW / "square.svg").read_text()
    assert f"pitch {drawings.SQUARE_PITCH_MM:g}" in square
    assert f"Pitch {drawings.SQUARE_PITCH_MM:g} mm" in PROSE
    assert f"cap {drawings.CAP_MM:g}" in square
    assert f"{drawings.LED_OFFSET_MM:g} mm from the centre" in PROSE
    assert f"switch (B3F-1000, {drawings.SWITCH_MM:g} x {drawings.SWITCH_MM:g})" in square
    assert "LED (WS2812B 5 x 5)" in square


def test_the_j2_drawing_labels_every_header_pin_from_the_pinout():
    cable = (HW / "j2-cable.svg").read_text()
    labels = drawings.header_labels()
    assert set(labels) == set(range(1, 41))
    for label, _ in labels.values():
        assert f">{label}<" in cable
    for i, gpio in enumerate(pinout.PI_ROWS):
        assert labels[pinout.PI_HEADER[gpio]][0].startswith(f"GPIO{gpio} ROW{i + 1}")
    assert labels[pinout.PI_HEADER[pinout.PI_LED_DATA]] == (
        "GPIO10 LED_DIN / OLED_SPI_MOSI", "gpio"
    )  # fmt: skip
    assert labels[2][1] == labels[4][1] == "unused"  # the Pi's 5 V never feeds the LEDs
    assert (
        f"{drawings.CABLE_WAYS}-way flat ribbon ({drawings.CABLE_PITCH_MM:g} mm pitch, "
        f"{drawings.CABLE_AWG} AWG) of at most {drawings.CABLE_MAX_MM} mm" in PROSE
    )
    for path in NETLISTS:
        assert parts(path)["J2"][1] == drawings.J2_FOOTPRINT
