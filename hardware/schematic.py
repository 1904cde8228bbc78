"""Generate the board's netlists (KiCad S-expression format), its bill of materials and its
drawings from companion/hardware/pinout.py, so they can never disagree with the code.

    python hardware/schematic.py --check  # exit 1 if a file is out of date or a rule is broken
    python hardware/schematic.py --write  # rewrite the files below
    python hardware/schematic.py --help   # this text

Outputs (committed): the netlists of each build and sensor (hardware/binaryon-pico.net and
binaryon-gpio.net with LED switches, binaryon-pico-reed.net and binaryon-gpio-reed.net with
reed switches, binaryon-pico-hall.net with two hall switches per square and per-row supply
switches), hardware/bom.md (every part with its manufacturer part number, a quantity per
build) and the pictures (schematic.svg, square.svg, j2-cable.svg, and the build guides' layer
drawings). The netlists import into KiCad's PCB editor (File > Import > Netlist) with the
footprints named in them: KiCad's standard libraries, except the Pico's (see
hardware/README.md, "Schematic").

``--check`` also holds every netlist to the electrical rules in ``rule_problems``: the level
shifter's input never floats, a J2 plugged on the Pi's header reversed harms nothing, every
line that leaves the board has its series resistor, J1 has its over-voltage clamp and the
buzzer's + is on the driven line.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import build_guide  # noqa: E402  (hardware/build_guide.py: the guides and layer drawings)
import drawings  # noqa: E402  (hardware/drawings.py: the square and the J2 cable)

from companion.hardware import pinout  # noqa: E402

FILES = "abcdefgh"
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)
PICO_VBUS, PICO_3V3 = 40, 36


class Part(NamedTuple):
    """One kind of part: the netlist's value, symbol and footprint, and what to order."""

    value: str
    symbol: str
    footprint: str
    maker: str
    mpn: str  # the manufacturer's part number
    what: str  # the bill of materials' description


class Netlist:
    def __init__(self, title: str):
        self.title = title
        self.parts: dict[str, Part] = {}
        self.nets: dict[str, list[tuple[str, str]]] = defaultdict(list)

    def part(self, ref: str, part: Part) -> str:
        self.parts[ref] = part
        return ref

    def connect(self, net: str, ref: str, pin: int | str) -> None:
        self.nets[net].append((ref, str(pin)))

    def pins_of(self, net: str) -> set[tuple[str, str]]:
        return set(self.nets.get(net, ()))

    def net_of(self, ref: str, pin: int | str) -> str | None:
        for name, nodes in self.nets.items():
            if (ref, str(pin)) in nodes:
                return name
        return None

    def text(self) -> str:
        def q(s: str) -> str:
            return '"' + s.replace('"', "'") + '"'

        out = [
            "(export (version " + q("E") + ")",
            "  (design (source " + q(self.title) + ") (tool " + q("hardware/schematic.py") + "))",
            "  (components",
        ]
        for ref in sorted(self.parts, key=_natural):
            p = self.parts[ref]
            lib, name = p.symbol.split(":")
            out.append(
                f"    (comp (ref {q(ref)}) (value {q(p.value)}) (footprint {q(p.footprint)})"
                f" (fields (field (name {q('Manufacturer')}) {q(p.maker)})"
                f" (field (name {q('MPN')}) {q(p.mpn)}))"
                f" (libsource (lib {q(lib)}) (part {q(name)})))"
            )
        out.append("  )")
        out.append("  (nets")
        for code, name in enumerate(sorted(self.nets, key=_natural), start=1):
            nodes = " ".join(
                f"(node (ref {q(r)}) (pin {q(p)}))"
                for r, p in sorted(self.nets[name], key=lambda n: (_natural(n[0]), int(n[1])))
            )
            out.append(f"    (net (code {q(str(code))}) (name {q('/' + name)}) {nodes})")
        out.append("  )")
        out.append(")")
        return "\n".join(out) + "\n"


def _natural(s: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def _r_tht(ohms: str, mpn_value: str, what: str) -> Part:
    return Part(
        ohms,
        "Device:R",
        "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
        "Yageo",
        f"MFR-25FBF52-{mpn_value}",
        f"{what} (1/4 W 1 % metal film)",
    )


C100N = Part(
    "100nF 50V X7R",
    "Device:C",
    "Capacitor_SMD:C_0805_2012Metric",
    "Samsung",
    "CL21B104KBCNNNC",
    "100 nF ceramic, 50 V X7R, 0805",
)
SENSORS = {
    "switch": Part(
        "LED switch: tact switch under a translucent square (Omron B3F-1000)",
        "Switch:SW_Push",
        "Button_Switch_THT:SW_PUSH_6mm",
        "Omron",
        "B3F-1000",
        "tact switch 6 × 6 mm, one under each square's cap",
    ),
    "reed": Part(
        "reed switch, 12.7 mm axial glass (Littelfuse MDSR-7-15-20)",
        "Switch:SW_Reed",
        # a generic axial footprint: 20.32 mm between the holes leaves 3.8 mm of straight lead
        # beyond each end of the 12.7 mm glass, so the leads are not bent at the glass seal
        "Resistor_THT:R_Axial_DIN0617_L17.0mm_D6.0mm_P20.32mm_Horizontal",
        "Littelfuse",
        "MDSR-7-15-20",
        "reed switch, normally open, 12.7 mm glass, 15-20 AT",
    ),
}
DIODE = Part(  # 1 = K, 2 = A; DO-35 only: the footprint is DO-35's
    "1N4148",
    "Device:D",
    "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
    "Vishay",
    "1N4148-TAP",
    "1N4148 small-signal diode, DO-35 (through-hole: not the SOD-123 1N4148W)",
)
SCHOTTKY = Part(
    "BAT43 Schottky",
    "Device:D_Schottky",
    "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
    "Vishay",
    "BAT43-TAP",
    "BAT43 Schottky diode, DO-35",
)
HALL = Part(
    "A1120EUA-T hall switch (1 VCC, 2 GND, 3 OUT)",
    "Connector_Generic:Conn_01x03",
    "Package_TO_SOT_THT:TO-92_Inline",  # the UA package: three leads in line, 1.27 mm pitch
    "Allegro",
    "A1120EUA-T",
    "hall switch, unipolar, open drain, UA package",
)
ROW_SWITCH = Part(
    "AO3401A P-MOSFET",
    "Device:Q_PMOS_GSD",
    "Package_TO_SOT_SMD:SOT-23",
    "Alpha & Omega",
    "AO3401A",
    "P-MOSFET, logic level, SOT-23",
)  # 1G 2S 3D
# Gate pull-up per row. The RP2040 leaves reset (and stays, in the bootloader and until the
# firmware claims the pin) with its pull-down on, 50-80 kohm: the gate sits on the divider
# 3.3 V * Rpd / (Rpu + Rpd), so Vgs = -3.3 V * Rpu / (Rpu + Rpd). With 100 k and 50 k that is
# -2.2 V, past the AO3401A's threshold (-0.5 V at least): every row on. With 2.2 k it is
# -0.14 V (at most), far under it; a selected row (pin low) costs 1.5 mA through it.
GATE_PULLUP_OHMS = 2200
RP2040_PULL_DOWN_MIN_OHMS = 50_000
AO3401A_VGS_TH_MIN = 0.5  # volts, magnitude
GATE_PULLUP = Part(
    f"{GATE_PULLUP_OHMS / 1000:g}k",
    "Device:R",
    "Resistor_SMD:R_0805_2012Metric",
    "Yageo",
    "RC0805FR-072K2L",
    "2.2 kΩ resistor, 0805, 1 %",
)
assert 3.3 * GATE_PULLUP_OHMS / (GATE_PULLUP_OHMS + RP2040_PULL_DOWN_MIN_OHMS) < (
    AO3401A_VGS_TH_MIN / 2
), "the gate pull-up would let the rows turn on while the RP2040 pulls its pins down"
ROW_BYPASS = C100N


def matrix(nl: Netlist, sensor: str = "switch") -> None:
    """64 squares: column -- sensor -- diode anode; diode cathode -- row (row low selects)."""
    for rank in range(8):
        for f in range(8):
            sq = f"{FILES[f]}{rank + 1}"
            sw = nl.part(f"SW_{sq}", SENSORS[sensor])
            d = nl.part(f"D_{sq}", DIODE)
            nl.connect(f"COL{FILES[f].upper()}", sw, 1)
            nl.connect(f"SQ_{sq}", sw, 2)
            nl.connect(f"SQ_{sq}", d, 2)  # anode
            nl.connect(f"ROW{rank + 1}", d, 1)  # cathode


def hall_matrix(nl: Netlist) -> None:
    """Two hall switches per square, powered one row at a time.

    Row n's line drives the gate of a P-MOSFET from the Pico's 3.3 V: low (row selected) turns
    it on and powers that row's 16 sensors; a 2.2 k pull-up keeps it off while the Pico is in
    reset (GATE_PULLUP_OHMS says why), and one 100 nF bypasses the row's switched supply
    (small enough to drain within microseconds when the row is released). A sensor's
    open-drain output pulls its column low through a Schottky diode (anode at the column):
    the first sensor (marked side up: on for a south pole, a black-up disc) on COLx, the
    second (marked side down: on for a north pole, a white-up disc) on COLBx.
    """
    for rank in range(8):
        row, vcc = f"ROW{rank + 1}", f"HALL_VCC_{rank + 1}"
        q = nl.part(f"Q_ROW{rank + 1}", ROW_SWITCH)
        r = nl.part(f"R_ROW{rank + 1}", GATE_PULLUP)
        c = nl.part(f"C_ROW{rank + 1}", ROW_BYPASS)
        nl.connect(row, q, 1)  # gate
        nl.connect("+3V3_PICO", q, 2)  # source
        nl.connect(vcc, q, 3)  # drain: the row's sensor supply
        nl.connect(row, r, 1)
        nl.connect("+3V3_PICO", r, 2)
        nl.connect(vcc, c, 1)  # the row's bypass, among its sensors
        nl.connect("GND", c, 2)
        for f in range(8):
            sq = f"{FILES[f]}{rank + 1}"
            for plane, col in (("A", f"COL{FILES[f].upper()}"), ("B", f"COLB{FILES[f].upper()}")):
                h = nl.part(f"H{plane}_{sq}", HALL)
                d = nl.part(f"D{plane}_{sq}", SCHOTTKY)
                nl.connect(vcc, h, 1)
                nl.connect("GND", h, 2)
                nl.connect(f"OUT{plane}_{sq}", h, 3)
                nl.connect(f"OUT{plane}_{sq}", d, 1)  # cathode at the sensor's output
                nl.connect(col, d, 2)  # anode at the column


# The 5 V LED supply enters at J1 through a polyfuse, an over-voltage clamp and a
# reverse-polarity guard, in that order.
# - Polyfuse: holds 2.5 A (above the 1.8 A the Pico's firmware allows with the 2 A supply, with
#   room for a warm box), trips by 5 A: a short in the LED wiring fed by a bigger supply opens
#   it instead of heating the wires. Rated 16 V, so a 12 V supply plugged by mistake cannot
#   break it down. Resets itself once the fault is gone.
# - Over-voltage: a 5 V TVS (SMBJ5.0A: 6.4 V breakdown at least) across the fused input. A 9 V
#   or 12 V supply plugged by mistake drives it into conduction: it holds the rail near 7 V
#   (what the 74AHCT125 and the WS2812B survive) while it takes the supply's whole current,
#   which trips the polyfuse (a supply that gives 5 A) or the supply's own over-current
#   shutdown (every switch-mode adapter has one). A crowbar, not a regulator: the fault shows
#   at once (nothing lights) instead of cooking the LEDs. The reverse-polarity guard alone
#   cannot do it: its body diode conducts toward the load whatever its gate does.
# - Reverse polarity: a P-MOSFET in the + line, drain toward J1, gate to GND. Supply the right
#   way: the body diode conducts, Vgs goes to -5 V and the channel shorts the diode (55 mohm:
#   0.1 V and 0.18 W at 1.8 A). Supply reversed: Vgs = 0 and the body diode is reverse-biased,
#   so nothing flows to the load (the TVS, forward biased, then draws the fault current that
#   trips the polyfuse). A Schottky in series would drop ~0.45 V at 1.8 A (0.8 W to shed, and
#   the LEDs' 5 V down to 4.5 V): the MOSFET is the one that suits the LED current.
POLYFUSE = Part(
    "polyfuse 2.5 A hold, 5 A trip, 16 V (Bourns MF-MSMF250/16X-2)",
    "Device:Polyfuse",
    "Fuse:Fuse_1812_4532Metric",
    "Bourns",
    "MF-MSMF250/16X-2",
    "polyfuse (F1), 2.5 A hold, 5 A trip, 16 V, 1812",
)
TVS = Part(
    "SMBJ5.0A TVS, 5 V standoff (over-voltage clamp)",
    "Device:D_TVS",
    "Diode_SMD:D_SMB",
    "Littelfuse",
    "SMBJ5.0A",
    "TVS diode (D1), 5.0 V standoff, 600 W, SMB",
)
REVERSE_GUARD = Part(
    "AO3401A P-MOSFET, reverse-polarity guard",
    "Device:Q_PMOS_GSD",
    "Package_TO_SOT_SMD:SOT-23",
    "Alpha & Omega",
    "AO3401A",
    "P-MOSFET, logic level, SOT-23",
)
LEVEL_SHIFTER = Part(
    "74AHCT125",
    "74xx:74AHCT125",
    "Package_DIP:DIP-14_W7.62mm",
    "Texas Instruments",
    "SN74AHCT125N",
    # AHCT: TTL-level inputs (3.3 V reads high at 5 V) with no clamp diode to VCC, so a 3.3 V
    # input does not feed the LED rail when the LED supply is off. A 74HCT125 has that clamp.
    "level shifter 74AHCT125, DIP-14 (AHCT only: a 74HCT125 back-feeds the LED rail)",
)
DATA_SERIES = _r_tht("330", "330R", "330 Ω resistor (R1), LED data")
# Pull-down on the level shifter's input (R2): with the ribbon unplugged at the Pi, or the
# Pico out of its socket, the input would float while the LED supply stays on, and noise can
# clock in frames up to full white (3.84 A). 10 k holds it low; the 3.3 V driver spends
# 0.33 mA on it, and a series resistor of 470 R in front still leaves 3.15 V, over the
# AHCT's 2.0 V threshold.
DATA_PULL_DOWN_OHMS = 10_000
DATA_PULL_DOWN = _r_tht("10k", "10K", "10 kΩ resistor (R2), LED data pull-down")
BULK = Part(
    "1000uF 10V",
    "Device:CP",
    "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "Nichicon",
    "UVR1A102MPD",
    "1000 µF 10 V electrolytic (C1), 10 mm, 5 mm pitch",
)
SUPPLY_TERMINAL = Part(
    "5V LED supply (2 A)",
    "Connector:Screw_Terminal_01x02",
    "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal",
    "Phoenix Contact",
    "1729128",
    "screw terminal 2-way, 5.08 mm (J1: the LED supply)",
)
WS2812B = Part(
    "WS2812B",
    "LED:WS2812B",
    "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    "Worldsemi",
    "WS2812B-V5",
    "RGB LED WS2812B, 5050, 3 bytes a pixel (not RGBW)",
)
# Lines that leave the board through J2 have a series resistor at J2: it limits the current
# when the cable goes on reversed (a Pi output against the board's ground through a pressed
# button, or against another output through the matrix: 3.3 V / 470 R = 7 mA), and slows the
# edges on the ribbon. 470 R keeps a closed square's column at 0.6 V (diode plus 2 x 470 R
# against the Pi's 50 kOhm pull-up), under the Pi's 0.8 V; the OLED's lines take 100 R, the
# most an I2C bus with the Pi's 1.8 k pull-ups tolerates (0.4 V + 1.8 mA x 100 R); reversed,
# the I2C lines meet only inputs (GPIO20, GPIO16). A line whose reversal meets a supply or an
# output takes 470 R (the SPI OLED's lines too: 8 MHz through 470 R and 15 pF is a 7 ns edge).
SERIES_OHMS = {"line": 470, "oled": 100}
SERIES = {
    "line": _r_tht("470", "470R", "470 Ω resistor, series resistor of a J2 line"),
    "oled": _r_tht("100", "100R", "100 Ω resistor, series resistor of an OLED line"),
}
PUSH_BUTTON = Part(
    "push button (Omron B3F-4055)",
    "Switch:SW_Push",
    "Button_Switch_THT:SW_PUSH-12mm",
    "Omron",
    "B3F-4055",
    "push button 12 × 12 mm (confirm, undo, menu)",
)
PIEZO = Part(
    "piezo (TDK PS1240P02BT)",
    "Device:Buzzer",
    "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm",  # 5.0 mm pin pitch
    "TDK",
    "PS1240P02BT",
    "passive piezo buzzer (optional), 5.0 mm pin pitch",
)
BUZZER_PLUS, BUZZER_MINUS = 2, 1  # the footprint's + pad is pad 2 (its silkscreen +)
OLED_I2C = Part(
    "SSD1306 128x64 OLED module, I2C wiring (GND VCC SCL SDA)",
    "Connector_Generic:Conn_01x04",
    "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
    "Adafruit",
    "938",
    "OLED 128x64 SSD1306 module (U3 on I2C or U4 on SPI: one of the two)",
)
OLED_SPI = Part(
    "SSD1306 128x64 OLED module, SPI wiring (GND VCC CLK DATA RST DC CS), instead of U3",
    "Connector_Generic:Conn_01x07",
    "Connector_PinHeader_2.54mm:PinHeader_1x07_P2.54mm_Vertical",
    "Adafruit",
    "938",
    "OLED 128x64 SSD1306 module (U3 on I2C or U4 on SPI: one of the two)",
)
J2_HEADER = Part(
    "to the Pi's 40-pin header: keyed 2x20 box header, 40-way ribbon (see j2-cable.svg)",
    "Connector_Generic:Conn_02x20_Odd_Even",
    drawings.J2_FOOTPRINT,
    "Würth Elektronik",
    "61204021621",
    "keyed 2x20 box header (J2), 2.54 mm, shrouded",
)
PICO = Part(
    "Raspberry Pi Pico",
    # Symbol and footprint from the third-party KiCad library ncarandini/KiCad-RP-Pico
    # (hardware/README.md says how to add it); pin numbers are the Pico's pads.
    "MCU_RaspberryPi_and_Boards:Pico",
    "MCU_RaspberryPi_and_Boards:RPi_Pico_SMD_TH",
    "Raspberry Pi",
    "SC0915",
    "Raspberry Pi Pico (RP2040)",
)


def led_chain(nl: Netlist, data_net: str) -> None:
    """J1 -> F1 -> D1 clamp -> Q1 guard -> the LED rail; 74AHCT125 lifts the 3.3 V data to
    5 V, its input held low by R2; 330 R in series; 64 WS2812B a1, b1 .. h8."""
    nl.part("U2", LEVEL_SHIFTER)
    nl.part("R1", DATA_SERIES)
    nl.part("R2", DATA_PULL_DOWN)
    nl.part("C1", BULK)
    nl.part("J1", SUPPLY_TERMINAL)
    nl.connect("+5V_IN", "J1", 1)
    nl.connect("GND", "J1", 2)
    nl.part("F1", POLYFUSE)
    nl.connect("+5V_IN", "F1", 1)
    nl.connect("+5V_FUSED", "F1", 2)
    nl.part("D1", TVS)
    nl.connect("+5V_FUSED", "D1", 1)  # cathode on the fused +
    nl.connect("GND", "D1", 2)
    nl.part("Q1", REVERSE_GUARD)
    nl.connect("+5V_FUSED", "Q1", 3)  # drain toward the supply: the body diode conducts first
    nl.connect("+5V_LED", "Q1", 2)  # source toward the load
    nl.connect("GND", "Q1", 1)  # gate to GND: on (Vgs = -5 V) only when the supply is the right way
    nl.connect("+5V_LED", "C1", 1)
    nl.connect("GND", "C1", 2)
    nl.part("C2", C100N)
    nl.connect("+5V_LED", "C2", 1)  # at U2's VCC (pin 14) and GND (pin 7)
    nl.connect("GND", "C2", 2)
    nl.connect(data_net, "U2", 2)  # 1A
    nl.connect(data_net, "R2", 1)  # held low while nothing drives it
    nl.connect("GND", "R2", 2)
    nl.connect("GND", "U2", 1)  # 1OE enabled
    for unused_oe in (4, 10, 13):  # the other three buffers: disabled
        nl.connect("+5V_LED", "U2", unused_oe)
    for unused_in in (5, 9, 12):
        nl.connect("GND", "U2", unused_in)
    nl.connect("GND", "U2", 7)
    nl.connect("+5V_LED", "U2", 14)
    nl.connect("LED_5V_DATA", "U2", 3)  # 1Y
    nl.connect("LED_5V_DATA", "R1", 1)
    prev = "LED_DIN_a1"
    nl.connect(prev, "R1", 2)
    for i in range(64):
        rank, f = divmod(i, 8)
        sq = f"{FILES[f]}{rank + 1}"
        led = nl.part(f"LED_{sq}", WS2812B)
        cap = nl.part(f"C_{sq}", C100N)  # one per LED, next to its VDD pin
        nl.connect("+5V_LED", led, 1)
        nl.connect("GND", led, 3)
        nl.connect("+5V_LED", cap, 1)
        nl.connect("GND", cap, 2)
        nl.connect(prev, led, 4)  # DIN
        if i < 63:
            nxt = i + 1
            prev = f"LED_DIN_{FILES[nxt % 8]}{nxt // 8 + 1}"
            nl.connect(prev, led, 2)  # DOUT


def j2_line(nl: Netlist, net: str, gpio: int, kind: str = "line") -> None:
    """The board's ``net`` to J2's pin of BCM ``gpio`` through its series resistor."""
    pin = pinout.PI_HEADER[gpio]
    ref = nl.part(f"RJ{pin}", SERIES[kind])
    nl.connect(f"J2_{pin}", "J2", pin)
    nl.connect(f"J2_{pin}", ref, 1)
    nl.connect(net, ref, 2)


def pi_side(nl: Netlist, spi_oled: bool) -> None:
    """Header J2: OLED (I2C, or SPI in the Pico build), three buttons to GND, piezo, power."""
    nl.part("J2", J2_HEADER)
    for p in drawings.J2_GROUND_PINS:
        nl.connect("GND", "J2", p)
    for p in drawings.J2_3V3_PINS:
        nl.connect("+3V3_PI", "J2", p)
    nl.part("U3", OLED_I2C)
    nl.connect("GND", "U3", 1)
    nl.connect("+3V3_PI", "U3", 2)
    nl.connect("OLED_SCL", "U3", 3)
    nl.connect("OLED_SDA", "U3", 4)
    j2_line(nl, "OLED_SDA", pinout.PI_I2C_SDA, "oled")
    j2_line(nl, "OLED_SCL", pinout.PI_I2C_SCL, "oled")
    if spi_oled:
        nl.part("U4", OLED_SPI)
        nl.connect("GND", "U4", 1)
        nl.connect("+3V3_PI", "U4", 2)
        for pin, key in enumerate(("sclk", "mosi", "reset", "dc", "ce0"), start=3):
            net = f"OLED_SPI_{key.upper()}"
            nl.connect(net, "U4", pin)
            j2_line(nl, net, pinout.PI_SPI_OLED[key])  # 470 R: reversed, these meet outputs
    for name, gpio in pinout.PI_BUTTONS.items():
        button = PUSH_BUTTON._replace(value=f"{name} button (Omron B3F-4055)")
        ref = nl.part(f"SW_{name.upper()}", button)
        j2_line(nl, f"BTN_{name.upper()}", gpio)
        nl.connect(f"BTN_{name.upper()}", ref, 1)
        nl.connect("GND", ref, 2)
    nl.part("BZ1", PIEZO)
    j2_line(nl, "BUZZER", pinout.PI_BUZZER)
    nl.connect("BUZZER", "BZ1", BUZZER_PLUS)
    nl.connect("GND", "BZ1", BUZZER_MINUS)


def pico_build(sensor: str = "switch") -> Netlist:
    nl = Netlist(f"Binaryon board, Pico build, {sensor} sensors")
    nl.part("U1", PICO)
    pad = pinout.PICO_PAD
    for i, gp in enumerate(pinout.PICO_ROWS):
        nl.connect(f"ROW{i + 1}", "U1", pad[gp])
    for i, gp in enumerate(pinout.PICO_COLS):
        nl.connect(f"COL{FILES[i].upper()}", "U1", pad[gp])
    for p in PICO_GND:
        nl.connect("GND", "U1", p)
    if sensor == "hall":
        for i, gp in enumerate(pinout.PICO_COLS_B):
            nl.connect(f"COLB{FILES[i].upper()}", "U1", pad[gp])
        nl.connect("+3V3_PICO", "U1", PICO_3V3)  # 3V3(OUT): the hall sensors' supply
        hall_matrix(nl)
    else:
        matrix(nl, sensor)
    nl.connect("LED_DATA_3V3", "U1", pad[pinout.PICO_LED_DATA])
    led_chain(nl, "LED_DATA_3V3")
    pi_side(nl, spi_oled=True)  # the Pico reaches the Pi over a USB cable, not a net
    return nl


def gpio_build(sensor: str = "switch") -> Netlist:
    nl = Netlist(f"Binaryon board, GPIO build, {sensor} sensors")
    pi_side(nl, spi_oled=False)  # SPI0 carries the LED data: the OLED is on I2C
    for i, g in enumerate(pinout.PI_ROWS):
        j2_line(nl, f"ROW{i + 1}", g)
    for i, g in enumerate(pinout.PI_COLS):
        j2_line(nl, f"COL{FILES[i].upper()}", g)
    matrix(nl, sensor)
    j2_line(nl, "LED_DATA_3V3", pinout.PI_LED_DATA)
    led_chain(nl, "LED_DATA_3V3")
    return nl


# ── LED power distribution ────────────────────────────────────────────────────────────────
COPPER_OHM_MM2_PER_M = 0.0172  # annealed copper at 20 °C
TRACE_1OZ_2MM_MM2 = 2.0 * 0.035  # a 2 mm trace of 1 oz (35 um) copper
AWG20_MM2, AWG24_MM2 = 0.519, 0.205
LED_PITCH_M = drawings.SQUARE_PITCH_MM / 1000
LED_MAX_AMPS = 1.8  # what the firmware allows a 2 A supply (90 %)


def feed_drop_v(area_mm2: float, amps: float, loads: int, pitch_m: float = LED_PITCH_M) -> float:
    """Round-trip (+ and GND) drop to the last of ``loads`` equal loads ``pitch_m`` apart along a
    conductor pair fed at one end: each segment carries the current of the loads beyond it."""
    segment_ohms = COPPER_OHM_MM2_PER_M / area_mm2 * pitch_m
    return 2 * segment_ohms * (amps / loads) * loads * (loads + 1) / 2


def led_drops_v() -> dict[str, float]:
    """The drops hardware/README.md quotes: one trace along the chain, against a bus along the
    a-file feeding each rank at its a end (the bus and one rank in series)."""
    rank_amps = LED_MAX_AMPS / 8
    bus = feed_drop_v(AWG20_MM2, LED_MAX_AMPS, 8)
    return {
        "one 2 mm trace along the chain": feed_drop_v(TRACE_1OZ_2MM_MM2, LED_MAX_AMPS, 64),
        "AWG 20 bus, 2 mm trace per rank": bus + feed_drop_v(TRACE_1OZ_2MM_MM2, rank_amps, 8),
        "AWG 20 bus, AWG 24 wire per rank": bus + feed_drop_v(AWG24_MM2, rank_amps, 8),
    }


# ── the rules --check holds every netlist to ───────────────────────────────────────────────
def _is_resistor(nl: Netlist, ref: str) -> bool:
    return nl.parts[ref].symbol == "Device:R"


def _ohms(value: str) -> float:
    m = re.fullmatch(r"([\d.]+)([kM]?)", value.split()[0])
    if not m:
        return 0.0
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]


def _series_needed(pin: int) -> int:
    """The least series resistor J2's ``pin`` may have: 470 R when its reversal meets a supply
    or an output (3.3 V / 470 R = 7 mA at most), 100 R when it meets only an input."""
    q = drawings.reversed_onto(pin)
    gpio = {p: g for g, p in pinout.PI_HEADER.items()}.get(q)
    meets_drive = gpio is None or gpio in drawings.pi_driven_gpios()  # None: a supply or GND
    return SERIES_OHMS["line"] if meets_drive else SERIES_OHMS["oled"]


def rule_problems(nl: Netlist) -> list[str]:
    """What is wrong with ``nl`` electrically, one line each (empty: nothing)."""
    out = []
    # 1. the level shifter's data input is held low when nothing drives it
    data = nl.net_of("U2", 2)
    pulled = data is not None and any(
        _is_resistor(nl, ref) and nl.net_of(ref, 3 - int(pin)) == "GND"
        for ref, pin in nl.pins_of(data)
    )
    if not pulled:
        out.append("U2 (74AHCT125) pin 2: the data input floats with nothing driving it")
    # 2. J2 reversed on the Pi's header: ground and 3.3 V meet only inputs; signals are fed
    #    through series resistors (which 3 checks)
    for net, nodes in nl.nets.items():
        for ref, pin in nodes:
            if ref != "J2":
                continue
            p = int(pin)
            if net in ("GND", "+3V3_PI") and not drawings.reversal_safe(p):
                out.append(
                    f"J2 pin {p} ({net}) lands on the Pi's pin {drawings.reversed_onto(p)} when "
                    "the cable is reversed: a supply or an output against the board's " + net
                )
            elif net not in ("GND", "+3V3_PI"):
                others = [n for n in nl.pins_of(net) if n != (ref, pin)]
                series = [r for r, _ in others if _is_resistor(nl, r)]
                if len(others) != 1 or not series:
                    out.append(f"J2 pin {p} ({net}) leaves the board without a series resistor")
                elif _ohms(nl.parts[series[0]].value) < _series_needed(p):
                    out.append(
                        f"J2 pin {p} ({net}): its series resistor is under "
                        f"{_series_needed(p)} ohm (reversed, it meets the Pi's pin "
                        f"{drawings.reversed_onto(p)})"
                    )
    # 3. J1: an over-voltage clamp from the fused input to ground
    clamp = any(
        nl.parts[r].symbol == "Device:D_TVS" and nl.net_of(r, 2) == "GND"
        for r, _ in nl.pins_of("+5V_FUSED")
    )
    if not clamp:
        out.append("J1: no over-voltage clamp (TVS) across the fused LED supply")
    # 4. the buzzer's + on the driven line
    if "BZ1" in nl.parts and nl.net_of("BZ1", BUZZER_MINUS) != "GND":
        out.append("BZ1: its - pad (pad 1) is not the one on GND")
    return out


# ── the picture ──────────────────────────────────────────────────────────────────────────────
def svg() -> str:
    W, H = 1100, 1000
    s: list[str] = []

    def text(x, y, t, size=12, anchor="start", weight="normal", fill="#222"):
        t = t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        s.append(
            f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{t}</text>'
        )

    def line(x1, y1, x2, y2, colour="#222", width=1.2, dash=""):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        s.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
            f'stroke-width="{width}"{d}/>'
        )

    def box(x, y, w, h, fill="#f4f4f4", stroke="#222"):
        s.append(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1.4" rx="4"/>'
        )

    s.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif">'
    )
    s.append(f'<rect width="{W}" height="{H}" fill="white"/>')
    text(20, 30, "Binaryon board: sensor matrix, LED chain and controller pins", 18, weight="bold")
    text(
        20,
        50,
        "Generated by hardware/schematic.py from companion/pinout.py. "
        "Pin labels: Pico GPn (Pi BCM GPIO in the GPIO build).",
        11,
        fill="#555",
    )

    # the matrix: columns vertical (files), rows horizontal (ranks, 8 at the top)
    x0, y0, step = 150, 110, 52
    for f in range(8):
        x = x0 + f * step
        line(x, y0 - 20, x, y0 + 7 * step + 20, "#1f5fbf")
        text(x, y0 + 7 * step + 38, f"{FILES[f]}", 12, "middle", "bold", "#1f5fbf")
        text(x, y0 + 7 * step + 52, f"GP{pinout.PICO_COLS[f]}", 9, "middle", fill="#1f5fbf")
        text(x, y0 + 7 * step + 63, f"GPIO{pinout.PI_COLS[f]}", 9, "middle", fill="#1f5fbf")
    for r in range(8):
        y = y0 + (7 - r) * step
        line(x0 - 30, y + 14, x0 + 7 * step + 30, y + 14, "#bf1f1f")
        text(x0 - 40, y + 18, f"{r + 1}", 12, "end", "bold", "#bf1f1f")
        text(x0 - 58, y + 12, f"GP{pinout.PICO_ROWS[r]}", 9, "end", fill="#bf1f1f")
        text(x0 - 58, y + 23, f"GPIO{pinout.PI_ROWS[r]}", 9, "end", fill="#bf1f1f")
        for f in range(8):
            x = x0 + f * step
            # switch: from the column, a short stub to the right with a contact
            line(x, y, x + 12, y)
            line(x + 12, y, x + 22, y - 6)
            line(x + 24, y, x + 24, y + 4)
            # diode: anode at the switch, cathode bar toward the row line
            s.append(
                f'<polygon points="{x + 19},{y + 4} {x + 29},{y + 4} {x + 24},{y + 10}" '
                f'fill="#222"/>'
            )
            line(x + 19, y + 10, x + 29, y + 10, width=1.6)
            line(x + 24, y + 10, x + 24, y + 14)
            s.append(f'<circle cx="{x + 24}" cy="{y + 14}" r="1.8" fill="#bf1f1f"/>')
    text(x0 - 80, y0 - 35, "ranks (rows): outputs, driven LOW one at a time", 11, fill="#bf1f1f")
    text(x0 - 80, y0 + 7 * step + 80, "files (columns): inputs with pull-ups", 11, fill="#1f5fbf")
    text(
        x0 - 80,
        y0 + 7 * step + 98,
        "each square: column -> sensor -> diode anode; diode cathode -> row.",
        11,
    )
    text(
        x0 - 80,
        y0 + 7 * step + 114,
        "A closed square reads LOW on its column while its row is selected;",
        11,
    )
    text(
        x0 - 80,
        y0 + 7 * step + 130,
        "the diodes stop ghost squares when several are closed at once.",
        11,
    )

    # controllers
    bx = 640
    box(bx, 90, 190, 150, "#eef7ee")
    text(bx + 95, 110, "Raspberry Pi Pico", 13, "middle", "bold")
    lines = [
        f"rows  GP{pinout.PICO_ROWS[0]}-GP{pinout.PICO_ROWS[-1]}",
        f"cols  GP{pinout.PICO_COLS[0]}-GP{pinout.PICO_COLS[-1]}",
        f"hall B cols GP{pinout.PICO_COLS_B[0]}..GP{pinout.PICO_COLS_B[-1]}",
        f"LED data GP{pinout.PICO_LED_DATA}",
        "USB to the Pi (2e8a:0005)",
    ]
    for i, t in enumerate(lines):
        text(bx + 12, 132 + i * 20, t, 11)
    box(bx + 230, 90, 220, 210, "#eef0fa")
    text(bx + 340, 110, "Raspberry Pi (40-pin header)", 13, "middle", "bold")
    h = pinout.PI_HEADER
    rows = [
        f"OLED SDA GPIO{pinout.PI_I2C_SDA} (pin {h[pinout.PI_I2C_SDA]})",
        f"OLED SCL GPIO{pinout.PI_I2C_SCL} (pin {h[pinout.PI_I2C_SCL]})",
    ]
    rows += [f"{n} GPIO{g} (pin {h[g]}) to GND" for n, g in pinout.PI_BUTTONS.items()]
    rows += [
        f"piezo GPIO{pinout.PI_BUZZER} (pin {h[pinout.PI_BUZZER]}), PWM tone",
        f"LED data GPIO{pinout.PI_LED_DATA} (pin {h[pinout.PI_LED_DATA]}, SPI0 MOSI)",
        "matrix and LED data: GPIO build only",
    ]
    for i, t in enumerate(rows):
        text(bx + 242, 132 + i * 20, t, 11)
    line(bx + 190, 220, bx + 230, 220, "#555", 2, "6,3")
    text(bx + 210, 212, "USB", 10, "middle", fill="#555")

    # LED chain
    ly = 330
    box(bx, ly, 450, 158, "#fff7e6")
    text(bx + 225, ly + 20, "LED chain (64 x WS2812B under the squares)", 13, "middle", "bold")
    text(bx + 12, ly + 44, "data 3.3 V (R2 10 k to GND) -> 74AHCT125 (1A->1Y, 1OE GND) ->", 11)
    text(bx + 12, ly + 62, "330 R -> DIN a1, DOUT a1 -> DIN b1 ... h1 -> a2 ... -> h8", 11)
    text(bx + 12, ly + 80, "5 V supply J1 -> F1 polyfuse (2.5 A hold, 16 V) -> D1 SMBJ5.0A TVS", 11)
    text(
        bx + 12,
        ly + 98,
        "clamp -> Q1 AO3401A reverse-polarity guard -> 5 V LED rail; 1000 uF,",
        11,
    )
    text(bx + 12, ly + 116, "100 nF per LED, 100 nF (C2) at the 74AHCT125; GND common;", 11)
    text(bx + 12, ly + 134, "current capped (Pico: 90 % of LED_SUPPLY_AMPS)", 11)
    for i in range(7):
        x = bx + 30 + i * 52
        box(x, ly + 166, 30, 22, "#fff0c0")
        text(x + 15, ly + 181, f"{FILES[i]}1", 10, "middle")
        line(x + 30, ly + 177, x + 52, ly + 177, "#b07000", 1.4)
    text(bx + 30 + 7 * 52 + 4, ly + 181, "... h8", 10)

    # sensors
    sy = 540
    box(bx, sy, 450, 190, "#f6f6f6")
    text(bx + 225, sy + 20, "Sensor per square", 13, "middle", "bold")
    for i, t in enumerate(
        [
            "switch: tact switch under a translucent square (Omron B3F-1000)",
            "presence: reed switch (Littelfuse MDSR-7-15-20) closed by a magnet",
            "polarity: two unipolar hall switches (Allegro A1120EUA-T), one",
            "  facing up (black-up discs), one facing down (white-up discs),",
            "  each with its own diode; the second on the B columns (below)",
            "magnet: axially magnetised disc, N pole toward the black face",
            "  => black up shows S downwards, white up shows N downwards",
        ]
    ):
        text(bx + 12, sy + 44 + i * 20, t, 11)

    # the polarity (hall) build: one row of the Pico build drawn in full
    hy = 760
    box(20, hy, 1060, 225, "#f3f7fb")
    text(
        30, hy + 22, "Polarity (hall) build, Pico only: rank n (the same for ranks 1-8)", 13,
        weight="bold",
    )  # fmt: skip
    text(30, hy + 42, "binaryon-pico-hall.net; not yet built: prototype one row first", 11,
         fill="#555")  # fmt: skip
    # the row's supply switch
    line(40, hy + 90, 120, hy + 90, "#bf1f1f", 1.6)
    text(40, hy + 84, "ROWn (GP)", 10, fill="#bf1f1f")
    box(120, hy + 70, 150, 44, "#ffffff")
    text(195, hy + 88, "AO3401A P-MOSFET", 10, "middle", "bold")
    text(195, hy + 104, "G = ROWn, S = 3V3, D = VCC_n", 9, "middle")
    text(120, hy + 130, f"{GATE_PULLUP[0]} gate pull-up to 3V3 (off in reset)", 9)
    text(120, hy + 142, f"{ROW_BYPASS[0].split()[0]} from VCC_n to GND per row", 9)
    line(195, hy + 70, 195, hy + 56, "#b07000", 1.4)
    text(203, hy + 60, "3V3(OUT), Pico pad 36", 9, fill="#b07000")
    line(270, hy + 100, 1040, hy + 100, "#b07000", 1.6)
    text(1040, hy + 94, "VCC_n: powered only while ROWn is low", 9, "end", fill="#b07000")
    # two squares, each with two sensors
    for k, f in enumerate(("a", "b")):
        for j, (plane, col, face) in enumerate(
            (("A", f"COL{f.upper()}", "marked side up: S on = x"),
             ("B", f"COLB{f.upper()}", "marked side down: N on = o"))
        ):  # fmt: skip
            x = 330 + k * 360 + j * 175
            line(x + 20, hy + 100, x + 20, hy + 120, "#b07000", 1.4)
            box(x, hy + 120, 140, 34, "#ffffff")
            text(x + 70, hy + 134, f"A1120 {plane} ({f}n)", 10, "middle", "bold")
            text(x + 70, hy + 148, face, 8, "middle")
            # output -> Schottky (cathode at the output) -> column
            line(x + 70, hy + 154, x + 70, hy + 170)
            s.append(
                f'<polygon points="{x + 64},{hy + 186} {x + 76},{hy + 186} {x + 70},{hy + 174}" '
                f'fill="#222"/>'
            )
            line(x + 64, hy + 172, x + 76, hy + 172, width=1.6)
            line(x + 70, hy + 186, x + 70, hy + 200, "#1f5fbf", 1.6)
            text(x + 80, hy + 184, "BAT43", 9)
            text(x + 70, hy + 214, col, 10, "middle", "bold", "#1f5fbf")
    text(
        30, hy + 160, "open-drain outputs pull", 10,
    )  # fmt: skip
    text(30, hy + 174, "their column low through", 10)
    text(30, hy + 188, "a Schottky (anode at the", 10)
    text(30, hy + 202, "column); sensor GND to GND", 10)
    s.append("</svg>")
    return "\n".join(s) + "\n"


# ── the bill of materials ─────────────────────────────────────────────────────────────────
VARIANTS = {
    # name: (title, netlist file, builder)
    "pico-switch": ("Pico build, LED switches", "binaryon-pico.net", lambda: pico_build()),
    "pico-reed": ("Pico build, reed switches", "binaryon-pico-reed.net",
                  lambda: pico_build("reed")),
    "pico-hall": ("Pico build, hall switches", "binaryon-pico-hall.net",
                  lambda: pico_build("hall")),
    "gpio-switch": ("GPIO build, LED switches", "binaryon-gpio.net", lambda: gpio_build()),
    "gpio-reed": ("GPIO build, reed switches", "binaryon-gpio-reed.net",
                  lambda: gpio_build("reed")),
}  # fmt: skip
ALTERNATIVES = {"U4"}  # fitted instead of another part (U4, the SPI OLED, instead of U3)


class Extra(NamedTuple):
    """A part that is not in the netlists: off the board, or mechanical."""

    what: str
    maker: str
    mpn: str
    qty: dict[str, float]  # variant -> quantity (absent: none)
    notes: str = ""


def _all(q: float, only: tuple[str, ...] = ()) -> dict[str, float]:
    return {v: q for v in VARIANTS if not only or any(v.startswith(o) for o in only)}


SWITCH = ("pico-switch", "gpio-switch")
REED = ("pico-reed", "gpio-reed")
EXTRAS = [
    Extra(
        "Raspberry Pi (Zero 2 W ... Pi 5, any 40-pin model)",
        "Raspberry Pi",
        "SC0510",
        _all(1),
        "SC0510 is the Zero 2 W; Raspberry Pi OS bookworm",
    ),
    Extra(
        "5 V 2 A supply for the LEDs, 2.1 mm plug",
        "Mean Well",
        "SGA12E05-P1J",
        _all(1),
        "LEDs only; the Pi has its own supply; set LED_SUPPLY_AMPS to its rating",
    ),
    Extra("DC jack 2.1 mm, panel mount, wired to J1", "Switchcraft", "712A", _all(1)),
    Extra("micro-USB cable, Pico to Pi", "Adafruit", "592", _all(1, ("pico",))),
    Extra(
        "40-way flat ribbon, 1.27 mm, 28 AWG (at most 300 mm)",
        "3M",
        "3365/40",
        _all(0.3),
        "metres; J2 to the Pi's header (j2-cable.svg)",
    ),
    Extra("2x20 IDC socket, 2.54 mm", "3M", "89140-0101", _all(2), "one at each end"),
    Extra(
        "hook-up wire 0.5 mm² (AWG 20), the LED power bus and rank feeds",
        "Alpha Wire",
        "3053",
        _all(3),
        "metres, red and black (see LED power distribution)",
    ),
    Extra(
        "hook-up wire 0.25 mm² (AWG 24), matrix and data", "Alpha Wire", "3051", _all(10), "metres"
    ),
    Extra(
        "cap 37 × 37 × 3 mm, frosted acrylic, cut to square.svg",
        "Röhm",
        "PLEXIGLAS Satinice 0D010 DF",
        _all(64, SWITCH),
        "caps on the switches",
    ),
    Extra(
        "top plate 324 × 324 × 3 mm, frosted acrylic",
        "Röhm",
        "PLEXIGLAS Satinice 0D010 DF",
        _all(1, REED + ("pico-hall",)),
        "fixed top over reed and hall sensors (never steel)",
    ),
    Extra(
        "grid walls, 2 mm, 3D-printed to square.svg",
        "Prusa Research",
        "Prusament PETG Jet Black",
        _all(0.25),
        "kg of filament",
    ),
    Extra(
        "playing pieces with a magnet at the centre",
        "Prusa Research",
        "Prusament PETG Signal White",
        _all(0.25, REED),
        "kg; reed: one magnet each",
    ),
    Extra(
        "two-faced disc 30 × 5 mm (black up, white up)",
        "Prusa Research",
        "Prusament PETG Jet Black + Signal White",
        _all(0.25, ("pico-hall",)),
        "kg",
    ),
    Extra(
        "disc magnet 6 × 2 mm, axially magnetised, N35 or stronger",
        "supermagnete",
        "S-06-02-N",
        _all(64, REED),
        "one per piece; either pole",
    ),
    Extra(
        f"disc magnet {drawings.MAGNET_DIAMETER_MM:g} × {drawings.MAGNET_THICK_MM:g} mm, "
        f"axially magnetised, {drawings.MAGNET_GRADE} or stronger",
        "supermagnete",
        "S-08-03-N",
        _all(64, ("pico-hall",)),
        "one per disc, N toward the black face",
    ),
    Extra(
        "M3 × 10 mm hex standoff, female-female, brass",
        "Würth Elektronik",
        "970100321",
        _all(9),
        "between the base and the board",
    ),
    Extra("M3 × 6 mm screw, ISO 7380 button head, A2", "Bossard", "BN 4836 M3x6", _all(18)),
]


def _ref_ranges(refs: set[str]) -> str:
    """ "C1, C2, C_a1..C_h8": each family of references as its first and last."""
    families: dict[str, list[str]] = defaultdict(list)
    for ref in refs:
        square = re.sub(r"_[a-h][1-8]$", "_square", ref)
        families[square if square != ref else re.sub(r"\d+$", "", ref)].append(ref)
    out = []
    for fam in sorted(families, key=_natural):
        members = sorted(families[fam], key=_natural)
        out.append(members[0] if len(members) == 1 else f"{members[0]}..{members[-1]}")
    return ", ".join(out)


def bom_lines() -> list[tuple[str, str, str, dict[str, float], str]]:
    """(what, maker, MPN, quantity per variant, refs or notes), netlist parts first."""
    rows: dict[tuple[str, str], list] = {}
    for variant, (_, _, build) in VARIANTS.items():
        nl = build()
        for ref, part in nl.parts.items():
            key = (part.maker, part.mpn)
            row = rows.setdefault(key, [part.what, part.maker, part.mpn, {}, set()])
            row[4].add(ref)
            if ref not in ALTERNATIVES:
                row[3][variant] = row[3].get(variant, 0) + 1
    out = [(w, m, p, q, _ref_ranges(refs)) for w, m, p, q, refs in rows.values()]
    out += [(e.what, e.maker, e.mpn, e.qty, e.notes) for e in EXTRAS]
    return out


def bom_md() -> str:
    names = list(VARIANTS)
    head = [
        "# Bill of materials",
        "",
        "Generated by `hardware/schematic.py` from the netlists (every part on the board, with "
        "its manufacturer part number) and the parts off the board; `--check` keeps it true. "
        "One column per build: the quantity to buy for that one. Another part with the same "
        "ratings and footprint does as well.",
        "",
        "| part | manufacturer | part number | " + " | ".join(names) + " | refs / notes |",
        "|---|---|---|" + "---|" * len(names) + "---|",
    ]

    def qty(v: float | None) -> str:
        return "—" if not v else f"{v:g}"

    rows = [
        f"| {w} | {m} | {p} | " + " | ".join(qty(q.get(n)) for n in names) + f" | {note} |"
        for w, m, p, q, note in bom_lines()
    ]
    tail = [
        "",
        "U3 and U4 are the same OLED module wired two ways: fit one (U4, SPI, Pico build only, "
        "needs its five 470 Ω RJ resistors; U3, I2C, its two 100 Ω). Prices and stock change: "
        "the part numbers name what was designed with.",
    ]
    return "\n".join(head + rows + tail) + "\n"


OUTPUTS = {
    **{net: (lambda b=build: b().text()) for _, net, build in VARIANTS.values()},
    "bom.md": bom_md,
    "schematic.svg": svg,
    "square.svg": drawings.square_svg,
    "j2-cable.svg": drawings.cable_svg,
}


OUTPUTS.update(build_guide.outputs(VARIANTS, bom_lines))

USAGE = __doc__


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help") or len(argv) > 1:
        print(USAGE)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    if argv[0] not in ("--check", "--write"):
        print(f"unknown option {argv[0]!r}: --check or --write (--help says more)")
        return 2
    write = argv[0] == "--write"
    problems = []
    for _, net, build in VARIANTS.values():
        problems += [f"{net}: {p}" for p in rule_problems(build())]
    stale = []
    for name, make in OUTPUTS.items():
        path = HERE / name
        content = make()
        if write:
            if not path.exists() or path.read_text() != content:
                path.parent.mkdir(exist_ok=True)
                path.write_text(content)
                print(f"wrote {path}")
        elif not path.exists() or path.read_text() != content:
            stale.append(name)
    for p in problems:
        print(p)
    if stale:
        print("out of date (run python hardware/schematic.py --write): " + ", ".join(stale))
    return 1 if problems or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
