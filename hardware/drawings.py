"""Dimensioned drawings of one square and of the J2 cable, for hardware/README.md.

hardware/schematic.py writes them (square.svg, j2-cable.svg) and checks them with --check;
the numbers here are the ones the README quotes (tests/hardware/test_files.py keeps the two
equal), and the pin labels of the cable come from companion/hardware/pinout.py.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.hardware import pinout  # noqa: E402

# ── one square ────────────────────────────────────────────────────────────────────────────
SQUARE_PITCH_MM = 40.0  # centre to centre: a 320 mm playing field
WALL_MM = 2.0  # the grid between squares
CAP_MM = 37.0  # the translucent cap of a switch square (0.5 mm play each side of the wall)
CAP_THICK_MM = 3.0  # frosted acrylic: diffuses the LED
SWITCH_MM = 6.0  # Omron B3F-1000 body, at the centre of the square
LED_MM = 5.0  # WS2812B-5050
LED_OFFSET_MM = 12.0  # LED centre from the square's centre, toward the square's top edge
PCB_MM = 1.6

# hall (polarity) squares: a fixed top plate, a two-faced disc with a magnet at its centre
TOP_MM = 3.0  # the square's top plate above the sensors (wood or acrylic, not steel)
DISC_DIAMETER_MM = 30.0
DISC_THICK_MM = 5.0
MAGNET_DIAMETER_MM = 8.0
MAGNET_THICK_MM = 3.0
MAGNET_GRADE = "N35"
MAGNET_BR_T = 1.17  # remanence of N35 (1.17-1.22 T); the field figures take the low end
SKIN_MM = (DISC_THICK_MM - MAGNET_THICK_MM) / 2  # disc material over each face of the magnet
UA_BODY_MM = (4.1, 3.0, 1.5)  # A1120EUA (UA package): width, height, thickness
UA_ELEMENT_DEPTH_MM = 0.5  # hall element below the branded (marked) face
SENSOR_SPACING_MM = 0.5  # gap between the two sensors lying side by side
MIN_FIELD_MT = 35.0  # design target at each sensor: a wide margin over a unipolar switch's BOP


def sensor_gaps_mm() -> tuple[float, float]:
    """Magnet face to hall element: sensor A (marked side up), sensor B (marked side down)."""
    a = SKIN_MM + TOP_MM + UA_ELEMENT_DEPTH_MM
    b = SKIN_MM + TOP_MM + (UA_BODY_MM[2] - UA_ELEMENT_DEPTH_MM)
    return a, b


def sensor_offset_mm() -> float:
    """Each sensor's element from the magnet's axis (the two lie side by side, centred)."""
    return (UA_BODY_MM[0] + SENSOR_SPACING_MM) / 2


def axial_field_mt(gap_mm: float, offset_mm: float = 0.0) -> float:
    """Field along the magnet's axis (mT) at ``gap_mm`` below its face and ``offset_mm`` off its
    axis: the magnet as its surface current (Br / mu0 around the side), summed by Biot-Savart."""
    r_m, length = MAGNET_DIAMETER_MM / 2e3, MAGNET_THICK_MM / 1e3
    gap, off = gap_mm / 1e3, offset_mm / 1e3
    slices, steps = 40, 240
    total = 0.0
    for i in range(slices):
        h = gap + (i + 0.5) * length / slices  # this loop's height above the point
        for j in range(steps):
            phi = 2 * math.pi * (j + 0.5) / steps
            x, y = r_m * math.cos(phi), r_m * math.sin(phi)
            dlx, dly = -y * 2 * math.pi / steps, x * 2 * math.pi / steps
            rx, ry = off - x, -y
            d = math.sqrt(rx * rx + ry * ry + h * h)
            total += (dlx * ry - dly * rx) / d**3
    # mu0 * K * dz / (4 pi), with K = Br / mu0: the mu0 cancels
    return abs(total * MAGNET_BR_T * (length / slices) / (4 * math.pi)) * 1e3


def neighbour_field_mt() -> float:
    """The field a magnet puts under the next square's sensors (one pitch away)."""
    return axial_field_mt(sensor_gaps_mm()[0], SQUARE_PITCH_MM - sensor_offset_mm())


# ── the J2 cable ──────────────────────────────────────────────────────────────────────────
J2_FOOTPRINT = "Connector_IDC:IDC-Header_2x20_P2.54mm_Vertical"
CABLE_WAYS = 40
CABLE_PITCH_MM = 1.27  # flat ribbon
CABLE_AWG = 28
CABLE_MAX_MM = 300  # Pi to board; the GPIO build's matrix and LED data run through it
PI_5V_PINS, PI_3V3_PINS = (2, 4), (1, 17)


def reversed_onto(pin: int) -> int:
    """The Pi's pin that J2's ``pin`` touches when the socket goes on the Pi's header turned
    180 degrees (the Pi's header has no key): pin n lands on pin 41 - n."""
    return 41 - pin


def pi_driven_gpios() -> set[int]:
    """BCM GPIOs that some build drives (outputs, the I2C lines with the Pi's 1.8 kOhm
    pull-ups, the SPI0 outputs): a J2 ground or supply pin must never land on one."""
    driven = {*pinout.PI_ROWS, pinout.PI_LED_DATA, pinout.PI_BUZZER}
    driven |= {pinout.PI_I2C_SDA, pinout.PI_I2C_SCL}
    driven |= {pinout.PI_SPI_OLED[k] for k in ("mosi", "sclk", "ce0", "dc", "reset")}
    return driven


def reversal_safe(pin: int) -> bool:
    """True when J2's ``pin``, reversed, meets a GPIO no build drives (an input or unused)."""
    gpio = {p: g for g, p in pinout.PI_HEADER.items()}.get(reversed_onto(pin))
    return gpio is not None and gpio not in pi_driven_gpios()


# The board's ground and 3.3 V use only the J2 pins whose reversal lands on a harmless pin;
# the Pi's other ground pins (25, 30, 34 and 39, which lands on the Pi's 5 V) and its pin 17
# stay unconnected on the board. Reversed, no supply of the Pi meets the board's ground and
# every signal meets the Pi through its series resistor.
J2_GROUND_PINS = tuple(p for p in pinout.PI_GROUND_PINS if reversal_safe(p))
J2_3V3_PINS = tuple(p for p in PI_3V3_PINS if reversal_safe(p))
CABLE_CONNECTOR = "2x20 IDC female, 2.54 mm, with strain relief"


def header_labels() -> dict[int, tuple[str, str]]:
    """Header pin -> (label, kind); kind is one of power, ground, both, gpio, pico, unused."""
    out: dict[int, tuple[str, str]] = {}
    for p in pinout.PI_GROUND_PINS:
        out[p] = ("GND", "ground") if p in J2_GROUND_PINS else ("GND: not on the board", "unused")
    for p in PI_3V3_PINS:
        out[p] = ("3V3", "power") if p in J2_3V3_PINS else ("3V3: not on the board", "unused")
    for p in (2, 4):
        out[p] = ("5V: not connected", "unused")
    by_gpio: dict[int, list[pinout.Signal]] = {}
    for s in pinout.signals():
        if s.pi_gpio is not None:
            by_gpio.setdefault(s.pi_gpio, []).append(s)
    for gpio, pin in pinout.PI_HEADER.items():
        sigs = by_gpio.get(gpio, [])
        if not sigs:
            out[pin] = (f"GPIO{gpio}", "unused")
            continue
        names = " / ".join(s.name for s in sigs)
        kinds = {s.builds for s in sigs}
        kind = "both" if "both" in kinds else ("gpio" if kinds == {"gpio"} else "pico")
        if kinds == {"gpio", "pico"}:
            kind = "gpio"  # a matrix line in one build, the SPI OLED's in the other
        out[pin] = (f"GPIO{gpio} {names}", kind)
    return out


# ── SVG helpers ───────────────────────────────────────────────────────────────────────────
class Svg:
    def __init__(self, width: int, height: int, title: str, subtitle: str):
        self.w, self.h = width, height
        self.out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
            f'<rect width="{width}" height="{height}" fill="white"/>',
            '<defs><marker id="arr" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            'fill="#333"/></marker></defs>',
        ]
        self.text(20, 30, title, 18, weight="bold")
        self.text(20, 50, subtitle, 11, fill="#555")

    def text(self, x, y, t, size=12, anchor="start", weight="normal", fill="#222", rotate=0):
        t = t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        rot = f' transform="rotate({rotate} {x} {y})"' if rotate else ""
        self.out.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}"{rot}>{t}</text>'
        )

    def line(self, x1, y1, x2, y2, colour="#222", width=1.2, dash=""):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.out.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
            f'stroke-width="{width}"{d}/>'
        )

    def rect(self, x, y, w, h, fill="#f4f4f4", stroke="#222", width=1.2, dash="", rx=0):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}" rx="{rx}"{d}/>'
        )

    def circle(self, cx, cy, r, fill="none", stroke="#222", width=1.2, dash=""):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.out.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width}"{d}/>'
        )

    def dim_h(self, x1, x2, y, label, ext_from=None, size=11):
        """A horizontal dimension line between x1 and x2 at y, with its label above."""
        if ext_from is not None:
            for x in (x1, x2):
                self.line(x, ext_from, x, y + 4, "#666", 0.8)
        self.out.append(
            f'<line x1="{x1:.1f}" y1="{y:.1f}" x2="{x2:.1f}" y2="{y:.1f}" stroke="#333" '
            f'stroke-width="1" marker-start="url(#arr)" marker-end="url(#arr)"/>'
        )
        self.text((x1 + x2) / 2, y - 4, label, size, "middle", "bold", "#333")

    def dim_v(self, x, y1, y2, label, ext_from=None, size=11, side="right"):
        """A vertical dimension line between y1 and y2 at x, its label beside it."""
        if ext_from is not None:
            for y in (y1, y2):
                self.line(ext_from, y, x + (4 if x > ext_from else -4), y, "#666", 0.8)
        self.out.append(
            f'<line x1="{x:.1f}" y1="{y1:.1f}" x2="{x:.1f}" y2="{y2:.1f}" stroke="#333" '
            f'stroke-width="1" marker-start="url(#arr)" marker-end="url(#arr)"/>'
        )
        if side == "right":
            self.text(x + 6, (y1 + y2) / 2 + 4, label, size, "start", "bold", "#333")
        else:
            self.text(x - 6, (y1 + y2) / 2 + 4, label, size, "end", "bold", "#333")

    def done(self) -> str:
        return "\n".join([*self.out, "</svg>"]) + "\n"


def _mm(v: float) -> str:
    return f"{v:g} mm"


# ── the square ────────────────────────────────────────────────────────────────────────────
def square_svg() -> str:
    svg = Svg(
        1100,
        720,
        "One square: pitch, switch, LED, magnet and sensors (dimensions in mm)",
        "Generated by hardware/drawings.py. Top view of a switch square; sections of a switch "
        "square and of a hall (polarity) square. Not to scale between the views.",
    )
    # top view, 8 px per mm
    k = 8.0
    ox, oy = 70, 120  # top-left corner of the square's pitch cell
    p = SQUARE_PITCH_MM * k
    svg.text(ox, oy - 28, "Top view (switch square)", 14, weight="bold")
    svg.rect(ox, oy, p, p, "#e8e8e8", "#999", 1, "4,3")  # the pitch cell
    w = WALL_MM * k / 2
    svg.rect(ox + w, oy + w, p - 2 * w, p - 2 * w, "#ffffff", "#777", 1)  # inside the walls
    cap = CAP_MM * k
    c0 = ox + (p - cap) / 2
    svg.rect(c0, oy + (p - cap) / 2, cap, cap, "#f2f7ff", "#1f5fbf", 1.4, rx=3)
    cx, cy = ox + p / 2, oy + p / 2
    sw = SWITCH_MM * k
    svg.rect(cx - sw / 2, cy - sw / 2, sw, sw, "#d8d8d8", "#222", 1.4)
    svg.circle(cx, cy, sw * 0.3, "#bbbbbb")
    led = LED_MM * k
    ly = cy - LED_OFFSET_MM * k
    svg.rect(cx - led / 2, ly - led / 2, led, led, "#fff0c0", "#b07000", 1.4)
    svg.circle(cx, ly, led * 0.28, "#ffffff", "#b07000")
    svg.text(cx + led / 2 + 6, ly + 4, "LED (WS2812B 5 x 5)", 11, fill="#8a5a00")
    svg.text(cx + sw / 2 + 6, cy + 16, "switch (B3F-1000, 6 x 6)", 11)
    # dimensions
    svg.dim_h(ox, ox + p, oy + p + 34, f"pitch {SQUARE_PITCH_MM:g}", ext_from=oy + p)
    svg.dim_h(c0, c0 + cap, oy - 12, f"cap {CAP_MM:g}", ext_from=oy + (p - cap) / 2)
    svg.dim_v(ox + p + 30, oy, oy + p, f"pitch {SQUARE_PITCH_MM:g}", ext_from=ox + p)
    svg.dim_v(cx - 40, ly, cy, f"{LED_OFFSET_MM:g}", ext_from=cx, side="left")
    svg.dim_h(cx - sw / 2, cx + sw / 2, cy + sw / 2 + 40, f"{SWITCH_MM:g}",
              ext_from=cy + sw / 2)  # fmt: skip
    svg.dim_h(ox, ox + w, oy + p + 62, "", ext_from=oy + p)
    svg.text(ox + w + 6, oy + p + 66, f"wall {WALL_MM:g} (half on each side of the line)", 10)
    notes = [
        "Every square is the same: the switch (or the sensor) at the centre, the",
        f"LED {LED_OFFSET_MM:g} mm toward the square's top edge, all on one board under",
        "the grid. Reed and hall squares put their sensor where the switch is.",
        "A switch square's cap rests on the switch's plunger and is guided by the",
        "walls; the LED lights it from below through the frosted acrylic.",
    ]
    for i, t in enumerate(notes):
        svg.text(ox - 20, oy + p + 100 + i * 16, t, 11)

    # section of a switch square
    sx, sy, s = 560, 120, 8.0
    svg.text(sx, sy - 28, "Section through a switch square", 14, weight="bold")
    pcb_y = sy + 120
    svg.rect(sx, pcb_y, 480, PCB_MM * s, "#3a7d3a", "#1e4d1e")
    svg.text(sx + 484, pcb_y + 10, "PCB 1.6", 10)
    sw_x = sx + 240 - SWITCH_MM * s / 2
    sw_h = 4.3 * s
    svg.rect(sw_x, pcb_y - sw_h, SWITCH_MM * s, sw_h, "#d8d8d8")
    svg.text(sw_x + SWITCH_MM * s / 2, pcb_y - sw_h / 2 + 4, "switch", 10, "middle")
    led_x = sx + 240 - LED_OFFSET_MM * s - LED_MM * s / 2
    svg.rect(led_x, pcb_y - 1.6 * s, LED_MM * s, 1.6 * s, "#fff0c0", "#b07000")
    svg.text(led_x + LED_MM * s / 2, pcb_y - 1.6 * s - 6, "LED", 10, "middle", fill="#8a5a00")
    cap_y = pcb_y - sw_h - CAP_THICK_MM * s
    cap_x = sx + 240 - CAP_MM * s / 2
    svg.rect(cap_x, cap_y, CAP_MM * s, CAP_THICK_MM * s, "#e6f0ff", "#1f5fbf", 1.4)
    svg.text(sx + 240, cap_y - 8, "translucent cap, frosted acrylic", 11, "middle", fill="#1f5fbf")
    for wx in (cap_x - 0.5 * s - WALL_MM * s, cap_x + CAP_MM * s + 0.5 * s):
        svg.rect(wx, cap_y - 2 * s, WALL_MM * s, pcb_y - cap_y + 2 * s, "#cccccc", "#777")
    svg.dim_v(cap_x + CAP_MM * s + 40, cap_y, cap_y + CAP_THICK_MM * s,
              f"{CAP_THICK_MM:g}", ext_from=cap_x + CAP_MM * s)  # fmt: skip
    svg.dim_h(led_x + LED_MM * s / 2, sx + 240, pcb_y + 40, f"{LED_OFFSET_MM:g}",
              ext_from=pcb_y)  # fmt: skip
    svg.text(sx, pcb_y + 70, "Press anywhere on the cap: the walls keep it level and its", 11)
    svg.text(sx, pcb_y + 86, "centre pushes the switch. The light comes through the cap.", 11)

    # section of a hall square
    hx, hy, h = 560, 400, 16.0  # 16 px per mm: the gaps are small
    svg.text(hx, hy - 20, "Section through a hall (polarity) square", 14, weight="bold")
    centre = hx + 240
    disc_top = hy + 10
    disc_w = 26 * h  # the disc is cut at the drawing's edge: only its centre matters here
    svg.rect(centre - disc_w / 2, disc_top, disc_w, DISC_THICK_MM * h, "#f0e6d8", "#7a5a3a")
    svg.text(centre - disc_w / 2 + 4, disc_top + 14, "disc (30 across, 5 thick)", 10,
             fill="#7a5a3a")  # fmt: skip
    mag_y = disc_top + SKIN_MM * h
    mw = MAGNET_DIAMETER_MM * h
    svg.rect(centre - mw / 2, mag_y, mw, MAGNET_THICK_MM * h / 2, "#d33", "#222")
    svg.rect(centre - mw / 2, mag_y + MAGNET_THICK_MM * h / 2, mw, MAGNET_THICK_MM * h / 2,
             "#36c", "#222")  # fmt: skip
    svg.text(centre, mag_y + 16, "N", 12, "middle", "bold", "white")
    svg.text(centre, mag_y + MAGNET_THICK_MM * h - 6, "S", 12, "middle", "bold", "white")
    svg.text(centre + mw / 2 + 8, mag_y + 18, f"magnet {MAGNET_DIAMETER_MM:g} x "
             f"{MAGNET_THICK_MM:g} {MAGNET_GRADE}, axial", 11)  # fmt: skip
    svg.text(centre + mw / 2 + 8, mag_y + 34, "N toward the black face (here: black up)", 10)
    top_y = disc_top + DISC_THICK_MM * h
    svg.rect(hx, top_y, 480, TOP_MM * h, "#e9dcc5", "#7a5a3a")
    svg.text(hx + 4, top_y + TOP_MM * h / 2 + 4, f"top plate {TOP_MM:g}", 10)
    sens_y = top_y + TOP_MM * h
    bw, bt = UA_BODY_MM[0] * h, UA_BODY_MM[2] * h
    off = sensor_offset_mm() * h
    for sign, up in ((-1, True), (1, False)):  # sensor A (marked side up), sensor B
        x = centre + sign * off - bw / 2
        svg.rect(x, sens_y, bw, bt, "#444", "#000")
        svg.text(x + bw / 2, sens_y + bt + 16, "A" if up else "B", 12, "middle", "bold")
        ey = sens_y + (UA_ELEMENT_DEPTH_MM if up else UA_BODY_MM[2] - UA_ELEMENT_DEPTH_MM) * h
        svg.line(x + bw * 0.3, ey, x + bw * 0.7, ey, "#ffcc00", 2.2)
        mark_y = sens_y + (2 if up else bt - 2)
        svg.line(x + 4, mark_y, x + bw - 4, mark_y, "#fff", 1.4, "3,2")
        # leads bent down into the board
        lead_x = x + (bw + 6 if sign > 0 else -6)
        svg.line(x + (bw if sign > 0 else 0), sens_y + bt / 2, lead_x, sens_y + bt / 2, "#888", 2)
        svg.line(lead_x, sens_y + bt / 2, lead_x, sens_y + bt + 30, "#888", 2)
    pcb2 = sens_y + bt + 30
    svg.rect(hx, pcb2, 480, PCB_MM * h, "#3a7d3a", "#1e4d1e")
    svg.text(hx + 4, pcb2 + PCB_MM * h - 6, "PCB", 10, fill="white")
    gap_a, gap_b = sensor_gaps_mm()
    mag_bottom = mag_y + MAGNET_THICK_MM * h
    ea = sens_y + UA_ELEMENT_DEPTH_MM * h
    eb = sens_y + (UA_BODY_MM[2] - UA_ELEMENT_DEPTH_MM) * h
    svg.dim_v(centre - off - bw / 2 - 40, mag_bottom, ea, f"A: {gap_a:.1f}",
              ext_from=centre - off - bw / 2, side="left")  # fmt: skip
    svg.dim_v(centre + off + bw / 2 + 40, mag_bottom, eb, f"B: {gap_b:.1f}",
              ext_from=centre + off + bw / 2)  # fmt: skip
    fa, fb = axial_field_mt(gap_a, sensor_offset_mm()), axial_field_mt(gap_b, sensor_offset_mm())
    notes = [
        f"A (marked side up, on for S) and B (marked side down, on for N): UA packages "
        f"{UA_BODY_MM[0]:g} x {UA_BODY_MM[1]:g} x {UA_BODY_MM[2]:g},",
        f"lying flat side by side, {SENSOR_SPACING_MM:g} apart, leads bent 90 degrees into "
        f"the board; yellow: the hall element",
        f"({UA_ELEMENT_DEPTH_MM:g} under the marked face). Field at the elements, "
        f"{sensor_offset_mm():g} off the axis: A {fa:.0f} mT, B {fb:.0f} mT",
        f"(target {MIN_FIELD_MT:g} mT or more); one square away: {neighbour_field_mt():.1f} mT.",
    ]
    for i, t in enumerate(notes):
        svg.text(hx - 10, pcb2 + PCB_MM * h + 24 + i * 16, t, 11)
    return svg.done()


# ── the J2 cable ──────────────────────────────────────────────────────────────────────────
KIND_COLOURS = {
    "ground": ("#333333", "white"),
    "power": ("#c0392b", "white"),
    "both": ("#2e8b57", "white"),
    "gpio": ("#1f5fbf", "white"),
    "pico": ("#d68910", "white"),
    "unused": ("#dddddd", "#555"),
}


def cable_svg() -> str:
    svg = Svg(
        1100,
        1000,
        "J2: the cable from the board to the Pi's 40-pin header",
        "Generated by hardware/drawings.py from companion/hardware/pinout.py. Header seen from "
        "above (the Pi's GPIO header, or J2 on the board, pin 1 at the top left).",
    )
    labels = header_labels()
    px, py, pitch, gap = 480, 110, 20, 60  # pin 1's centre, px per 2.54 mm, column spacing
    svg.rect(px - 40, py - 20, gap + 80, 21 * pitch, "#222", "#000", rx=3)
    svg.rect(px - 40, py + 9 * pitch - 10, 6, 2 * pitch, "#ffffff", "#000")  # the key slot
    for pin in range(1, 41):
        row, col = divmod(pin - 1, 2)
        x, y = px + col * gap, py + row * pitch
        label, kind = labels[pin]
        fill, ink = KIND_COLOURS[kind]
        if pin == 1:
            svg.rect(x - 7, y - 7, 14, 14, "#ffd700", "#000")
        else:
            svg.circle(x, y, 7, "#ffd700", "#000")
        svg.text(x + (-12 if col == 0 else 12), y + 4, str(pin), 10, "end" if col == 0 else
                 "start", "bold", "#fff")  # fmt: skip
        lx = x - 52 if col == 0 else x + 52
        anchor = "end" if col == 0 else "start"
        w = 7.0 * len(label) + 12
        svg.rect(lx - w if col == 0 else lx, y - 8, w, 16, fill, "none", rx=3)
        svg.text(lx - 6 if col == 0 else lx + 6, y + 4, label, 11, anchor, fill=ink)
    # legend
    ly = py + 20 * pitch + 50
    legend = [
        ("gpio", "GPIO build only: matrix rows/columns, LED data (SPI0 MOSI)"),
        ("both", "both builds: buttons, piezo, I2C OLED"),
        ("pico", "Pico build with an SPI OLED instead of I2C (GPIO8, 10, 11, 24, 25)"),
        ("power", "3V3 (pins 1, 17): the OLED's supply"),
        ("ground", "GND: pins " + ", ".join(map(str, J2_GROUND_PINS)) + " (reversed: inputs only)"),
        ("unused", "not connected (5V: the LEDs have their own supply)"),
    ]
    svg.text(60, ly - 24, "The white notch in the left wall of the box header is its key.", 11)
    for i, (kind, t) in enumerate(legend):
        fill, _ = KIND_COLOURS[kind]
        svg.rect(60, ly + i * 20 - 11, 28, 14, fill, "none", rx=3)
        svg.text(96, ly + i * 20, t, 11)
    svg.text(60, ly + 6 * 20 + 6, "Where a GPIO has two names, the first is the GPIO build's, "
             "the second the Pico build's (SPI OLED).", 11, fill="#555")  # fmt: skip

    # the cable itself, side view
    cy = ly + 6 * 20 + 60
    svg.text(60, cy - 10, "The cable (straight through: pin n at one end is pin n at the other)",
             14, weight="bold")  # fmt: skip
    x0, x1 = 110, 990
    svg.rect(x0 - 50, cy + 10, 50, 60, "#333", "#000", rx=3)
    svg.rect(x1, cy + 10, 50, 60, "#333", "#000", rx=3)
    svg.text(x0 - 25, cy + 90, "to the Pi", 11, "middle")
    svg.text(x1 + 25, cy + 90, "to J2 (board)", 11, "middle")
    svg.rect(x0, cy + 22, x1 - x0, 36, "#cfcfcf", "#888")
    svg.line(x0, cy + 24, x1, cy + 24, "#c0392b", 3)
    svg.text((x0 + x1) / 2, cy + 45, f"{CABLE_WAYS}-way flat ribbon, {CABLE_PITCH_MM:g} mm pitch, "
             f"{CABLE_AWG} AWG; red stripe = pin 1", 11, "middle")  # fmt: skip
    svg.dim_h(x0 - 50, x1 + 50, cy + 120, f"{CABLE_MAX_MM} mm at most, connector to connector",
              ext_from=cy + 70)  # fmt: skip
    notes = [
        f"Connectors: {CABLE_CONNECTOR}, both pressed on with the key on the same side of the",
        "ribbon and the red stripe at pin 1. On the board, J2 is a keyed 2x20 box header "
        "(the netlists' footprint),",
        "so the cable goes in one way only. The Pi's header has no key: its pin 1 is at the end "
        "nearest the microSD card",
        "(the square pad, seen from below); line the red stripe up with it.",
    ]
    for i, t in enumerate(notes):
        svg.text(60, cy + 160 + i * 16, t, 11)
    return svg.done()
