"""The electronics review's fixes, held in the netlists, the BOM and the README: the level
shifter's input held low, J2 harmless when plugged on the Pi reversed, series resistors on the
lines that leave the board, J1's over-voltage clamp, the buzzer's polarity, the SPI OLED in
the Pico netlists, the BOM's part numbers and quantities, LED power distribution; and
``schematic.py`` writes only when asked and refuses a netlist that breaks a rule."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hardware import pinout
from tests.hardware.netlists import nets
from tests.paths import REPO

HW = REPO / "hardware"
sys.path.insert(0, str(HW))
import drawings  # noqa: E402
import schematic  # noqa: E402

README = (HW / "README.md").read_text()
PROSE = " ".join(README.replace("**", "").split())
BOM = (HW / "bom.md").read_text()
NETLISTS = sorted(HW.glob("*.net"))
GPIO_OF_HEADER = {p: g for g, p in pinout.PI_HEADER.items()}


def parts(path: Path) -> dict[str, tuple[str, str, str]]:
    """ref -> (value, manufacturer, MPN)."""
    found = re.findall(
        r'\(comp \(ref "([^"]+)"\) \(value "([^"]*)"\) \(footprint "[^"]*"\)'
        r' \(fields \(field \(name "Manufacturer"\) "([^"]*)"\) \(field \(name "MPN"\) "([^"]*)"\)',
        path.read_text(),
    )
    return {ref: (value, maker, mpn) for ref, value, maker, mpn in found}


def net_of(n, ref, pin) -> str:
    return next(name for name, nodes in n.items() if (ref, str(pin)) in nodes)


# ── the files ────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_the_level_shifters_input_is_held_low_by_a_10k(path):
    n, p = nets(path), parts(path)
    data = net_of(n, "U2", 2)
    assert ("R2", "1") in n[data] and ("R2", "2") in n["GND"]
    assert p["R2"][0] == "10k"


@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_j2_plugged_reversed_puts_no_supply_or_output_against_the_boards_ground(path):
    n = nets(path)
    j2 = {int(pin): name for name, nodes in n.items() for ref, pin in nodes if ref == "J2"}
    assert {p for p, name in j2.items() if name == "GND"} == {6, 9, 14, 20}
    assert {p for p, name in j2.items() if name == "+3V3_PI"} == {1}
    assert 39 not in j2 and 17 not in j2  # 39 reversed is the Pi's 5 V; 17 meets GPIO8 (CE0)
    driven = drawings.pi_driven_gpios()
    for p, name in j2.items():
        if name in ("GND", "+3V3_PI"):
            gpio = GPIO_OF_HEADER.get(41 - p)
            assert gpio is not None and gpio not in driven, (p, name)


@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_every_line_that_leaves_the_board_has_its_series_resistor(path):
    n, p = nets(path), parts(path)
    lines = {name for name, nodes in n.items() if any(r == "J2" for r, _ in nodes)}
    lines -= {"GND", "+3V3_PI"}
    assert len(lines) >= 6
    for name in lines:
        (pin,) = [pin for r, pin in n[name] if r == "J2"]
        assert n[name] == {("J2", pin), (f"RJ{pin}", "1")}, name
        assert p[f"RJ{pin}"][0] in ("470", "100")
        i2c = net_of(n, f"RJ{pin}", 2) in ("OLED_SDA", "OLED_SCL")
        assert p[f"RJ{pin}"][0] == ("100" if i2c else "470"), name
        if i2c:  # reversed, the I2C lines meet only inputs
            assert GPIO_OF_HEADER[41 - int(pin)] not in drawings.pi_driven_gpios()


@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_j1_has_a_tvs_clamp_behind_a_16_v_polyfuse(path):
    n, p = nets(path), parts(path)
    assert ("D1", "1") in n["+5V_FUSED"] and ("D1", "2") in n["GND"]
    assert p["D1"][1:] == ("Littelfuse", "SMBJ5.0A")
    assert p["F1"][2] == "MF-MSMF250/16X-2" and "16 V" in p["F1"][0]


@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_the_buzzers_plus_pad_is_on_the_driven_line(path):
    n = nets(path)
    assert ("BZ1", "2") in n["BUZZER"] and ("BZ1", "1") in n["GND"]
    buzzer_pin = pinout.PI_HEADER[pinout.PI_BUZZER]
    assert (f"RJ{buzzer_pin}", "2") in n["BUZZER"]


@pytest.mark.parametrize("path", NETLISTS, ids=lambda p: p.name)
def test_the_spi_oled_is_in_the_pico_netlists_only(path):
    n, p = nets(path), parts(path)
    if "pico" not in path.name:
        assert "U4" not in p
        return
    assert p["U4"][1:] == ("Adafruit", "938")
    for pin, key in enumerate(("sclk", "mosi", "reset", "dc", "ce0"), start=3):
        header = pinout.PI_HEADER[pinout.PI_SPI_OLED[key]]
        assert ("U4", str(pin)) in n[f"OLED_SPI_{key.upper()}"]
        assert n[f"J2_{header}"] == {("J2", str(header)), (f"RJ{header}", "1")}


def test_the_readme_explains_the_fixes():
    assert "74HCT125 works too" not in README
    assert "The AHCT part, not a 74HCT125" in PROSE
    assert "R2, 10 kΩ from the 74AHCT125's input to GND" in PROSE
    assert "J2: the lines that leave the board" in README
    assert "pin 39 reversed would put the board's ground on the Pi's 5 V" in PROSE
    assert "D1, over-voltage: a 5 V TVS (Littelfuse SMBJ5.0A" in PROSE
    assert "SK6812RGBW takes 4 bytes a pixel" in PROSE and "(or SK6812) LEDs" not in README
    assert "60 LEDs/m, cut" not in README and "1N4148W-7-F" not in README
    assert "U4 in the Pico netlists" in PROSE


def test_the_readme_quotes_the_led_drops_schematic_computes():
    drops = schematic.led_drops_v()
    single = drops["one 2 mm trace along the chain"]
    assert 1.0 < single < 1.3  # the review's 1.1 V for 1.8 A along 2.56 m
    assert f"drops about {single:.2f} V round trip at 1.8 A" in PROSE
    assert f"{drops['AWG 20 bus, 2 mm trace per rank'] * 1000:.0f} mV (traces)" in PROSE
    assert f"{drops['AWG 20 bus, AWG 24 wire per rank'] * 1000:.0f} mV (AWG 24)" in PROSE
    assert all(v < 0.1 for k, v in drops.items() if k.startswith("AWG 20 bus"))


def test_the_drop_formula_sums_the_segments():
    """Each of ``n`` segments carries the current of the loads beyond it, + and GND."""
    r = schematic.COPPER_OHM_MM2_PER_M / 1.0 * 0.04
    by_hand = 2 * sum(r * 0.1 * (8 - k) for k in range(8))  # 8 loads of 0.1 A, 1 mm²
    assert schematic.feed_drop_v(1.0, 0.8, 8) == pytest.approx(by_hand)


# ── the bill of materials ────────────────────────────────────────────────────────────────────
def bom_rows() -> list[list[str]]:
    rows = [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in BOM.splitlines()
        if line.startswith("| ") and not line.startswith("| part |")
    ]
    assert rows
    return rows


def test_every_bom_line_has_a_manufacturer_and_a_part_number():
    for what, maker, mpn, *_ in bom_rows():
        assert maker and mpn and maker != "—" and mpn != "—", what


@pytest.mark.parametrize("variant", list(schematic.VARIANTS))
def test_the_bom_quantities_are_the_netlists_counts(variant):
    _, netfile, _ = schematic.VARIANTS[variant]
    column = 3 + list(schematic.VARIANTS).index(variant)
    counts: dict[str, int] = {}
    for ref, (_, _, mpn) in parts(HW / netfile).items():
        if ref not in schematic.ALTERNATIVES:
            counts[mpn] = counts.get(mpn, 0) + 1
    listed = {row[2]: row[column] for row in bom_rows()}
    for mpn, count in counts.items():
        assert listed[mpn] == str(count), (variant, mpn)
    hall = {"pico-hall": "128"}.get(variant, "—")
    assert listed["A1120EUA-T"] == hall and listed["BAT43-TAP"] == hall


def test_the_bom_has_the_mechanical_parts():
    names = " ".join(row[0] for row in bom_rows())
    for thing in ("cap 37 × 37 × 3 mm", "top plate", "grid walls", "playing pieces",
                  "two-faced disc", "disc magnet 6 × 2 mm", "disc magnet 8 × 3 mm", "standoff",
                  "screw", "ribbon", "IDC socket"):  # fmt: skip
        assert thing in names, thing


def test_the_diodes_footprint_and_part_agree():
    for path in NETLISTS:
        if "hall" in path.name:
            continue
        comp = re.search(r'\(comp \(ref "D_a1"\) \(value "1N4148"\) \(footprint "([^"]+)"\)',
                         path.read_text())  # fmt: skip
        assert comp and "DO-35" in comp.group(1)
    (row,) = [r for r in bom_rows() if r[2] == "1N4148-TAP"]
    assert "DO-35" in row[0] and "SOD-123 1N4148W)" in row[0]  # named only as what not to buy


# ── the rules and the command line ───────────────────────────────────────────────────────────
def test_the_rules_pass_on_every_build():
    for _, _, build in schematic.VARIANTS.values():
        assert schematic.rule_problems(build()) == []


def _without(nl, ref):
    del nl.parts[ref]
    for nodes in nl.nets.values():
        nodes[:] = [n for n in nodes if n[0] != ref]
    return nl


@pytest.mark.parametrize("build", [schematic.pico_build, schematic.gpio_build])
def test_the_rules_refuse_each_fault_of_the_review(build):
    assert any("floats" in p for p in schematic.rule_problems(_without(build(), "R2")))
    nl = build()
    nl.connect("GND", "J2", 39)  # the Pi's 5 V when reversed
    assert any("J2 pin 39" in p for p in schematic.rule_problems(nl))
    nl = build()
    nl.connect("+3V3_PI", "J2", 17)
    assert any("J2 pin 17" in p for p in schematic.rule_problems(nl))
    nl = build()
    nl.connect("BUZZER", "J2", 37)  # straight on the pin, as before
    assert any("J2 pin 37" in p and "series" in p for p in schematic.rule_problems(nl))
    assert any("over-voltage" in p for p in schematic.rule_problems(_without(build(), "D1")))
    nl = build()
    nl.parts["RJ29"] = schematic.SERIES["oled"]  # confirm at 100 R: reversed, it meets ROW7
    assert any("J2 pin 29" in p and "under 470" in p for p in schematic.rule_problems(nl))
    nl = build()
    for nodes in nl.nets.values():
        nodes[:] = [("BZ1", "21"[int(p) - 1]) if r == "BZ1" else (r, p) for r, p in nodes]
    assert any("BZ1" in p for p in schematic.rule_problems(nl))


def _mtimes() -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in HW.iterdir() if p.is_file()}


@pytest.mark.parametrize("args", [["--help"], [], ["--frobnicate"], ["-h"]])
def test_schematic_py_writes_nothing_unless_asked(args):
    before = _mtimes()
    r = subprocess.run(
        [sys.executable, str(HW / "schematic.py"), *args], capture_output=True, text=True
    )
    assert _mtimes() == before and "wrote" not in r.stdout
    if args and args[0] in ("--help", "-h"):
        assert r.returncode == 0 and "--write" in r.stdout and "--check" in r.stdout
    else:
        assert r.returncode == 2
