"""Generate the board's netlists (KiCad S-expression format) and the schematic picture from
companion/pinout.py, so the drawings can never disagree with the code.

    python hardware/schematic.py          # rewrites the files below
    python hardware/schematic.py --check  # exit 1 if any of them is out of date

Outputs (committed): the netlists of each build and sensor (hardware/binaryon-pico.net and
binaryon-gpio.net with LED switches, binaryon-pico-reed.net and binaryon-gpio-reed.net with
reed switches, binaryon-pico-hall.net with two hall switches per square and per-row supply
switches) and hardware/schematic.svg. The netlists import into KiCad's PCB editor (File >
Import > Netlist) with the footprints named in them: KiCad's standard libraries, except the
Pico's (see hardware/README.md, "Schematic"); the SVG is the picture in hardware/README.md.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import drawings  # noqa: E402  (hardware/drawings.py: the square and the J2 cable)

from companion.hardware import pinout  # noqa: E402

FILES = "abcdefgh"
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)
PICO_VBUS, PICO_3V3 = 40, 36
PI_5V, PI_3V3 = (2, 4), (1, 17)


class Netlist:
    def __init__(self, title: str):
        self.title = title
        self.parts: dict[str, tuple[str, str, str]] = {}  # ref -> (value, lib:part, footprint)
        self.nets: dict[str, list[tuple[str, str]]] = defaultdict(list)

    def part(self, ref: str, value: str, symbol: str, footprint: str) -> str:
        self.parts[ref] = (value, symbol, footprint)
        return ref

    def connect(self, net: str, ref: str, pin: int | str) -> None:
        self.nets[net].append((ref, str(pin)))

    def text(self) -> str:
        def q(s: str) -> str:
            return '"' + s.replace('"', "'") + '"'

        out = [
            "(export (version " + q("E") + ")",
            "  (design (source " + q(self.title) + ") (tool " + q("hardware/schematic.py") + "))",
            "  (components",
        ]
        for ref in sorted(self.parts, key=_natural):
            value, symbol, fp = self.parts[ref]
            lib, part = symbol.split(":")
            out.append(
                f"    (comp (ref {q(ref)}) (value {q(value)}) (footprint {q(fp)})"
                f" (libsource (lib {q(lib)}) (part {q(part)})))"
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
    import re

    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


SENSORS = {
    # kind: (value, symbol, footprint)
    "switch": (
        "LED switch: tact switch under a translucent square (Omron B3F-1000)",
        "Switch:SW_Push",
        "Button_Switch_THT:SW_PUSH_6mm",
    ),
    "reed": (
        "reed switch, 12.7 mm axial glass (Littelfuse MDSR-7-15-20)",
        "Switch:SW_Reed",
        # a generic axial footprint: 20.32 mm between the holes leaves 3.8 mm of straight lead
        # beyond each end of the 12.7 mm glass, so the leads are not bent at the glass seal
        "Resistor_THT:R_Axial_DIN0617_L17.0mm_D6.0mm_P20.32mm_Horizontal",
    ),
}
DIODE = ("1N4148", "Device:D", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal")  # 1 = K, 2 = A
SCHOTTKY = ("BAT43 Schottky", "Device:D_Schottky", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal")
HALL = (
    "A1120EUA-T hall switch (1 VCC, 2 GND, 3 OUT)",
    "Connector_Generic:Conn_01x03",
    "Package_TO_SOT_THT:TO-92_Inline",  # the UA package: three leads in line, 1.27 mm pitch
)
ROW_SWITCH = ("AO3401A P-MOSFET", "Device:Q_PMOS_GSD", "Package_TO_SOT_SMD:SOT-23")  # 1G 2S 3D
# Gate pull-up per row. The RP2040 leaves reset (and stays, in the bootloader and until the
# firmware claims the pin) with its pull-down on, 50-80 kohm: the gate sits on the divider
# 3.3 V * Rpd / (Rpu + Rpd), so Vgs = -3.3 V * Rpu / (Rpu + Rpd). With 100 k and 50 k that is
# -2.2 V, past the AO3401A's threshold (-0.5 V at least): every row on. With 2.2 k it is
# -0.14 V (at most), far under it; a selected row (pin low) costs 1.5 mA through it.
GATE_PULLUP_OHMS = 2200
RP2040_PULL_DOWN_MIN_OHMS = 50_000
AO3401A_VGS_TH_MIN = 0.5  # volts, magnitude
GATE_PULLUP = (f"{GATE_PULLUP_OHMS / 1000:g}k", "Device:R", "Resistor_SMD:R_0805_2012Metric")
assert 3.3 * GATE_PULLUP_OHMS / (GATE_PULLUP_OHMS + RP2040_PULL_DOWN_MIN_OHMS) < (
    AO3401A_VGS_TH_MIN / 2
), "the gate pull-up would let the rows turn on while the RP2040 pulls its pins down"
ROW_BYPASS = ("100nF 50V X7R", "Device:C", "Capacitor_SMD:C_0805_2012Metric")


def matrix(nl: Netlist, sensor: str = "switch") -> None:
    """64 squares: column -- sensor -- diode anode; diode cathode -- row (row low selects)."""
    value, symbol, footprint = SENSORS[sensor]
    for rank in range(8):
        for f in range(8):
            sq = f"{FILES[f]}{rank + 1}"
            sw = nl.part(f"SW_{sq}", value, symbol, footprint)
            d = nl.part(f"D_{sq}", *DIODE)
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
        q = nl.part(f"Q_ROW{rank + 1}", *ROW_SWITCH)
        r = nl.part(f"R_ROW{rank + 1}", *GATE_PULLUP)
        c = nl.part(f"C_ROW{rank + 1}", *ROW_BYPASS)
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
                h = nl.part(f"H{plane}_{sq}", *HALL)
                d = nl.part(f"D{plane}_{sq}", *SCHOTTKY)
                nl.connect(vcc, h, 1)
                nl.connect("GND", h, 2)
                nl.connect(f"OUT{plane}_{sq}", h, 3)
                nl.connect(f"OUT{plane}_{sq}", d, 1)  # cathode at the sensor's output
                nl.connect(col, d, 2)  # anode at the column


# The 5 V LED supply enters at J1 through a polyfuse and a reverse-polarity guard.
# - Polyfuse: holds 2.5 A (above the 1.8 A the Pico's firmware allows with the 2 A supply, with
#   room for a warm box), trips by 5 A: a short in the LED wiring fed by a bigger supply opens
#   it instead of heating the wires. Resets itself once the fault is gone.
# - Reverse polarity: a P-MOSFET in the + line, drain toward J1, gate to GND. Supply the right
#   way: the body diode conducts, Vgs goes to -5 V and the channel shorts the diode (55 mohm:
#   0.1 V and 0.18 W at 1.8 A). Supply reversed: Vgs = 0 and the body diode is reverse-biased,
#   so nothing flows. A Schottky in series would drop ~0.45 V at 1.8 A (0.8 W to shed, and the
#   LEDs' 5 V down to 4.5 V): the MOSFET is the one that suits the LED current.
POLYFUSE = (
    "polyfuse 2.5 A hold, 5 A trip, 6 V (Bourns MF-MSMF250-2)",
    "Device:Polyfuse",
    "Fuse:Fuse_1812_4532Metric",
)
REVERSE_GUARD = (
    "AO3401A P-MOSFET, reverse-polarity guard",
    "Device:Q_PMOS_GSD",
    "Package_TO_SOT_SMD:SOT-23",
)


def led_chain(nl: Netlist, data_net: str) -> None:
    """74AHCT125 lifts the 3.3 V data to 5 V; 330 R in series; 64 WS2812B a1, b1 .. h8."""
    nl.part("U2", "74AHCT125", "74xx:74AHCT125", "Package_DIP:DIP-14_W7.62mm")
    nl.part(
        "R1", "330", "Device:R", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal"
    )
    nl.part("C1", "1000uF 10V", "Device:CP", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm")
    nl.part(
        "J1",
        "5V LED supply (2 A)",
        "Connector:Screw_Terminal_01x02",
        "TerminalBlock:TerminalBlock_bornier-2_P5.08mm",
    )
    nl.connect("+5V_IN", "J1", 1)
    nl.connect("GND", "J1", 2)
    # J1 + -> polyfuse -> reverse-polarity P-MOSFET -> +5V_LED (LED_SUPPLY says why these)
    nl.part("F1", *POLYFUSE)
    nl.connect("+5V_IN", "F1", 1)
    nl.connect("+5V_FUSED", "F1", 2)
    nl.part("Q1", *REVERSE_GUARD)
    nl.connect("+5V_FUSED", "Q1", 3)  # drain toward the supply: the body diode conducts first
    nl.connect("+5V_LED", "Q1", 2)  # source toward the load
    nl.connect("GND", "Q1", 1)  # gate to GND: on (Vgs = -5 V) only when the supply is the right way
    nl.connect("+5V_LED", "C1", 1)
    nl.connect("GND", "C1", 2)
    nl.part("C2", "100nF 50V X7R", "Device:C", "Capacitor_SMD:C_0805_2012Metric")
    nl.connect("+5V_LED", "C2", 1)  # at U2's VCC (pin 14) and GND (pin 7)
    nl.connect("GND", "C2", 2)
    nl.connect(data_net, "U2", 2)  # 1A
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
        led = nl.part(
            f"LED_{sq}", "WS2812B", "LED:WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm"
        )
        cap = nl.part(
            f"C_{sq}", "100nF 50V X7R", "Device:C", "Capacitor_SMD:C_0805_2012Metric"
        )  # one per LED, next to its VDD pin
        nl.connect("+5V_LED", led, 1)
        nl.connect("GND", led, 3)
        nl.connect("+5V_LED", cap, 1)
        nl.connect("GND", cap, 2)
        nl.connect(prev, led, 4)  # DIN
        if i < 63:
            nxt = i + 1
            prev = f"LED_DIN_{FILES[nxt % 8]}{nxt // 8 + 1}"
            nl.connect(prev, led, 2)  # DOUT


def pi_side(nl: Netlist) -> None:
    """Header J2: OLED on I2C, three buttons to GND, piezo buzzer, power."""
    nl.part(
        "J2",
        "to the Pi's 40-pin header: keyed 2x20 box header, 40-way ribbon (see j2-cable.svg)",
        "Connector_Generic:Conn_02x20_Odd_Even",
        drawings.J2_FOOTPRINT,
    )
    h = pinout.PI_HEADER
    for p in pinout.PI_GROUND_PINS:
        nl.connect("GND", "J2", p)
    for p in PI_3V3:
        nl.connect("+3V3_PI", "J2", p)
    nl.part(
        "U3",
        "SSD1306/SH1106 128x64 I2C OLED module",
        "Connector_Generic:Conn_01x04",
        "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
    )
    nl.connect("GND", "U3", 1)
    nl.connect("+3V3_PI", "U3", 2)
    nl.connect("OLED_SCL", "U3", 3)
    nl.connect("OLED_SDA", "U3", 4)
    nl.connect("OLED_SDA", "J2", h[pinout.PI_I2C_SDA])
    nl.connect("OLED_SCL", "J2", h[pinout.PI_I2C_SCL])
    for name, gpio in pinout.PI_BUTTONS.items():
        ref = nl.part(
            f"SW_{name.upper()}",
            f"{name} button (Omron B3F-4055)",
            "Switch:SW_Push",
            "Button_Switch_THT:SW_PUSH-12mm",
        )
        nl.connect(f"BTN_{name.upper()}", "J2", h[gpio])
        nl.connect(f"BTN_{name.upper()}", ref, 1)
        nl.connect("GND", ref, 2)
    nl.part(
        "BZ1",
        "piezo (TDK PS1240P02BT)",
        "Device:Buzzer",
        "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm",  # 5.0 mm pin pitch
    )
    nl.connect("BUZZER", "J2", h[pinout.PI_BUZZER])
    nl.connect("BUZZER", "BZ1", 1)
    nl.connect("GND", "BZ1", 2)


def pico_build(sensor: str = "switch") -> Netlist:
    nl = Netlist(f"Binaryon board, Pico build, {sensor} sensors")
    # Symbol and footprint from the third-party KiCad library ncarandini/KiCad-RP-Pico
    # (hardware/README.md says how to add it); pin numbers are the Pico's pads.
    nl.part(
        "U1",
        "Raspberry Pi Pico",
        "MCU_RaspberryPi_and_Boards:Pico",
        "MCU_RaspberryPi_and_Boards:RPi_Pico_SMD_TH",
    )
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
    pi_side(nl)  # the Pico reaches the Pi over a USB cable, not a net
    return nl


def gpio_build(sensor: str = "switch") -> Netlist:
    nl = Netlist(f"Binaryon board, GPIO build, {sensor} sensors")
    pi_side(nl)
    h = pinout.PI_HEADER
    for i, g in enumerate(pinout.PI_ROWS):
        nl.connect(f"ROW{i + 1}", "J2", h[g])
    for i, g in enumerate(pinout.PI_COLS):
        nl.connect(f"COL{FILES[i].upper()}", "J2", h[g])
    matrix(nl, sensor)
    nl.connect("LED_DATA_3V3", "J2", h[pinout.PI_LED_DATA])
    led_chain(nl, "LED_DATA_3V3")
    return nl


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
    text(bx + 12, ly + 44, "data 3.3 V -> 74AHCT125 (1A->1Y, 1OE to GND, Vcc 5 V) -> 330 R ->", 11)
    text(bx + 12, ly + 62, "DIN a1, DOUT a1 -> DIN b1 ... h1 -> a2 ... -> h8 (index = square)", 11)
    text(bx + 12, ly + 80, "5 V supply J1 -> F1 polyfuse (2.5 A hold) -> Q1 AO3401A reverse-", 11)
    text(
        bx + 12,
        ly + 98,
        "polarity guard -> 5 V LED rail; 1000 uF at the start, 100 nF per LED,",
        11,
    )
    text(bx + 12, ly + 116, "100 nF (C2) at the 74AHCT125; GND common with the controller;", 11)
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


OUTPUTS = {
    "binaryon-pico.net": lambda: pico_build("switch").text(),
    "binaryon-pico-reed.net": lambda: pico_build("reed").text(),
    "binaryon-pico-hall.net": lambda: pico_build("hall").text(),
    "binaryon-gpio.net": lambda: gpio_build("switch").text(),
    "binaryon-gpio-reed.net": lambda: gpio_build("reed").text(),
    "schematic.svg": svg,
    "square.svg": drawings.square_svg,
    "j2-cable.svg": drawings.cable_svg,
}


def main(argv: list[str]) -> int:
    stale = []
    for name, make in OUTPUTS.items():
        path = HERE / name
        content = make()
        if "--check" in argv:
            if not path.exists() or path.read_text() != content:
                stale.append(name)
        else:
            path.write_text(content)
            print(f"wrote {path}")
    if stale:
        print("out of date (run python hardware/schematic.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
