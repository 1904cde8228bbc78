"""The build guides (hardware/build/<variant>.md) and their layer drawings (hardware/build/*.svg).

Both come from the netlists hardware/schematic.py builds, so a guide's wiring plan, its
drawings and the netlist a PCB would be made from cannot disagree: every wire in a plan is a
net, listed with the pins it joins; every label at a drawing's edge is read from the same net.
schematic.py writes them (--write) and checks them (--check).
"""

from __future__ import annotations

import re
from collections import defaultdict

import drawings
from drawings import Svg

FILES = "abcdefgh"
PX = 2.0  # drawing scale: px per mm
PITCH = drawings.SQUARE_PITCH_MM * PX
X0, Y0 = 150, 110  # the top-left corner of the playing field in the drawings (rank 8 on top)


# ── reading the netlist ────────────────────────────────────────────────────────────────────
def _family(ref: str) -> str:
    square = re.sub(r"_[a-h][1-8]$", "_*", ref)
    return square if square != ref else ref


def describe(nodes, parts) -> str:
    """A net's pins in words: families of the same part and pin shown once, with a count."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for ref, pin in nodes:
        groups[(_family(ref), pin)].append(ref)
    out = []
    for (_fam, pin), refs in sorted(groups.items(), key=lambda g: _natural(g[0][0] + g[0][1])):
        refs.sort(key=_natural)
        name = refs[0] if len(refs) == 1 else f"{refs[0]}..{refs[-1]} ({len(refs)})"
        out.append(f"{name} pin {pin}")
    return ", ".join(out)


def _natural(s: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def controller_end(nl, net: str) -> str:
    """Where ``net`` leaves for the controller: a Pico pad, or J2's pin through its resistor."""
    for ref, pin in sorted(nl.nets.get(net, ())):
        if ref == "U1":
            return f"Pico pad {pin}"
        if ref.startswith("RJ"):
            return f"{ref} to J2 pin {ref[2:]}"
    return "—"


# ── the wiring plan ────────────────────────────────────────────────────────────────────────
def _net_groups(nl) -> list[tuple[str, list[str]]]:
    """(heading, net names) in the order a maker wires them."""
    names = sorted(nl.nets, key=_natural)

    def pick(pattern: str) -> list[str]:
        return [n for n in names if re.fullmatch(pattern, n)]

    hall = "HALL_VCC_1" in nl.nets
    groups = []
    if hall:
        groups.append(("Each square's sensors to their Schottky diodes", pick(r"OUT[AB]_.*")))
        groups.append(("Row supply switches (one P-MOSFET per rank)", pick(r"HALL_VCC_\d")))
    else:
        groups.append(("Each square's sensor to its diode's anode", pick(r"SQ_.*")))
    groups.append(("Row wires (ranks)", pick(r"ROW\d")))
    groups.append(("Column wires (files)", pick(r"COL[A-H]") + pick(r"COLB[A-H]")))
    groups.append(("LED data chain", pick(r"LED_DATA_3V3|LED_5V_DATA|LED_DIN_.*")))
    groups.append(("LED supply input", pick(r"\+5V_IN|\+5V_FUSED")))
    groups.append(("J2 and its series resistors", pick(r"J2_\d+")))
    groups.append(("Buttons, buzzer, OLED", pick(r"BTN_.*|BUZZER|OLED_.*|\+3V3_PI|\+3V3_PICO")))
    groups.append(("Power rails (last: the bus of *LED power distribution*)", ["+5V_LED", "GND"]))
    return [(h, [n for n in ns if n in nl.nets]) for h, ns in groups if ns]


def wiring_plan(nl) -> list[str]:
    """Numbered Markdown lines: one wire (net) each, with every pin it joins."""
    out, step = [], 0
    for heading, nets in _net_groups(nl):
        out.append(f"**{heading}**")
        out.append("")
        shapes: dict[tuple, list[str]] = defaultdict(list)
        for net in nets:
            if re.search(r"_[a-h][1-8]$", net):
                shapes[tuple(sorted((_family(r), p) for r, p in nl.nets[net]))].append(net)
        for same in shapes.values():
            if len(same) < 8:
                continue
            step += 1  # links of the same shape, one per square: one step for the lot
            out.append(
                f"{step}. For each of {len(same)} squares ({same[0][-2:]} to {same[-1][-2:]}), "
                f"one short link like `{same[0]}`: {describe(nl.nets[same[0]], nl.parts)}."
            )
            nets = [n for n in nets if n not in same]
        for net in nets:
            step += 1
            out.append(f"{step}. `{net}`: {describe(nl.nets[net], nl.parts)}.")
        out.append("")
    return out


# ── the drawings ───────────────────────────────────────────────────────────────────────────
def _square_xy(rank: int, file: int) -> tuple[float, float]:
    """Top-left corner of a square in the drawing (rank 0 = rank 1, at the bottom)."""
    return X0 + file * PITCH, Y0 + (7 - rank) * PITCH


def _field(svg: Svg) -> None:
    for rank in range(8):
        for f in range(8):
            x, y = _square_xy(rank, f)
            svg.rect(x, y, PITCH, PITCH, "#fafafa", "#ccc", 0.8)
            svg.text(x + 4, y + 11, f"{FILES[f]}{rank + 1}", 8, fill="#999")


def matrix_svg(nl, title: str) -> str:
    """Layer 1, the sensors: each square's sensor and diode, the row and column wires, and where
    each wire goes (from the netlist)."""
    hall = "HALL_VCC_1" in nl.nets
    svg = Svg(1100, 860, f"Layer 1: sensor matrix ({title})", "Generated by hardware/"
              "build_guide.py from the netlist. Seen from above; rank 8 at the top. Red: row "
              "wires; blue: column wires.")  # fmt: skip
    _field(svg)
    for rank in range(8):
        y_row = _square_xy(rank, 0)[1] + PITCH - 8
        svg.line(X0 - 10, y_row, X0 + 8 * PITCH, y_row, "#bf1f1f", 1.6)
        row = f"ROW{rank + 1}"
        svg.text(X0 - 14, y_row + 4, f"{row} → {controller_end(nl, row)}", 10, "end",
                 fill="#bf1f1f")  # fmt: skip
        if hall:
            vcc = y_row - 12
            svg.line(X0, vcc, X0 + 8 * PITCH, vcc, "#b07000", 1.0)
            svg.text(X0 + 8 * PITCH + 6, y_row + 4, f"Q_ROW{rank + 1} R_ROW{rank + 1} "
                     f"C_ROW{rank + 1}: HALL_VCC_{rank + 1}", 9, fill="#b07000")  # fmt: skip
    planes = (("A", "COL", 10), ("B", "COLB", 22)) if hall else (("", "COL", 10),)
    for f in range(8):
        for _, prefix, dx in planes:
            x_col = X0 + f * PITCH + dx
            svg.line(x_col, Y0 - 6, x_col, Y0 + 8 * PITCH + 8, "#1f5fbf", 1.4)
            col = f"{prefix}{FILES[f].upper()}"
            svg.text(x_col, Y0 + 8 * PITCH + 22 + (14 if prefix == "COLB" else 0) + 28 * (f % 2),
                     f"{col} → {controller_end(nl, col)}", 8, "middle", fill="#1f5fbf")  # fmt: skip
        for rank in range(8):
            x, y = _square_xy(rank, f)
            cx, cy = x + PITCH / 2, y + PITCH / 2
            if hall:
                for dx in (-9, 9):
                    svg.rect(cx + dx - 5, cy - 4, 10, 8, "#ffffff", "#222", 1)
                    svg.line(cx + dx, cy + 4, cx + dx, y + PITCH - 20, "#b07000", 0.8)  # VCC
                svg.line(cx - 14, cy - 2, x + 10, cy - 2, "#1f5fbf", 1)  # A -> BAT43 -> COL
                svg.line(cx + 9, cy - 4, cx + 9, cy - 10, "#1f5fbf", 1)  # B -> BAT43 -> COLB
                svg.line(cx + 9, cy - 10, x + 22, cy - 10, "#1f5fbf", 1)
            else:
                svg.rect(cx - 6, cy - 6, 12, 12, "#dddddd", "#222", 1)  # the sensor
                svg.line(cx - 6, cy, x + 10, cy, "#1f5fbf", 1)  # to the column
                # the diode, band (cathode) toward the row wire below
                svg.line(cx, cy + 6, cx, y + PITCH - 8)
                svg.out.append(f'<polygon points="{cx - 4:.1f},{cy + 14:.1f} {cx + 4:.1f},'
                               f'{cy + 14:.1f} {cx:.1f},{cy + 21:.1f}" fill="#222"/>')  # fmt: skip
                svg.line(cx - 4, cy + 22, cx + 4, cy + 22, width=1.8)
    legend = (
        "each square: A/B hall sensors -> BAT43 (cathode at the sensor) -> COL/COLB; "
        "orange: the rank's switched supply HALL_VCC_n"
        if hall
        else "each square: column -> sensor -> diode (band toward the row) -> row"
    )
    svg.text(X0, Y0 + 8 * PITCH + 90, legend, 12)
    return svg.done()


def leds_svg(nl) -> str:
    """Layer 2, the LEDs: where each LED sits, the data chain a1 -> h8, the power bus along the
    a-file and each rank's feed (the injection points)."""
    svg = Svg(1100, 860, "Layer 2: LED chain and LED power", "Generated by hardware/"
              "build_guide.py from the netlist. Seen from above; orange: data, a1 -> h8; red/"
              "black: the 5 V bus and each rank's feed.")  # fmt: skip
    _field(svg)
    off = drawings.LED_OFFSET_MM * PX
    prev = None
    for i in range(64):
        rank, f = divmod(i, 8)
        x, y = _square_xy(rank, f)
        lx, ly = x + PITCH / 2, y + PITCH / 2 - off
        assert (f"LED_{FILES[f]}{rank + 1}", "4") in nl.nets[f"LED_DIN_{FILES[f]}{rank + 1}"]
        svg.rect(lx - 5, ly - 5, 10, 10, "#fff0c0", "#b07000", 1)
        if prev is not None:
            svg.line(prev[0] + 5, prev[1], lx - 5, ly, "#d68910", 1.2)
        prev = (lx, ly)
    for rank in range(8):
        y = _square_xy(rank, 0)[1] + PITCH / 2 - off
        svg.line(X0 - 40, y + 8, X0 + 8 * PITCH - 10, y + 8, "#c0392b", 1.0)  # + along the rank
        svg.line(X0 - 40, y + 12, X0 + 8 * PITCH - 10, y + 12, "#333", 1.0)  # GND
        svg.circle(X0 - 40, y + 10, 3, "#c0392b", "#c0392b")  # the injection point
    svg.line(X0 - 40, Y0, X0 - 40, Y0 + 8 * PITCH + 30, "#c0392b", 3)
    svg.line(X0 - 46, Y0, X0 - 46, Y0 + 8 * PITCH + 30, "#333", 3)
    ins = " -> ".join(r for r in ("J1", "F1", "D1", "Q1", "C1") if r in nl.parts)
    svg.text(X0 - 46, Y0 + 8 * PITCH + 48, f"5 V in: {ins} -> bus (AWG 20), a feed per rank "
             "(AWG 24 or a 2 mm trace)", 11)  # fmt: skip
    data_in = describe(nl.nets["LED_DIN_a1"], nl.parts)
    svg.text(X0 - 46, Y0 + 8 * PITCH + 66, f"data in at a1: {data_in}", 11, fill="#d68910")
    svg.text(X0 - 46, Y0 + 8 * PITCH + 84, "100 nF per LED at its VDD (C_a1..C_h8)", 11)
    return svg.done()


def controller_svg(nl, title: str) -> str:
    """Layer 3, the controller: every pin of the Pico (or of J2) in use, its net and the far
    end, from the netlist; then the level shifter's pins."""
    svg = Svg(
        1100,
        1000,
        f"Layer 3: controller and J2 ({title})",
        "Generated by hardware/build_guide.py from the netlist: every pin in use and the net "
        "it carries.",
    )
    rows: list[tuple[str, str, str]] = []
    for ref in ("U1", "J2", "U2"):
        if ref not in nl.parts:
            continue
        pins = sorted(
            {(int(p), net) for net, nodes in nl.nets.items() for r, p in nodes if r == ref}
        )
        for pin, net in pins:
            others = [(r, p) for r, p in nl.nets[net] if r != ref]
            if net.startswith("J2_"):  # through the series resistor to the board's line
                ((r, _),) = others
                beyond = next(n for n, nodes in nl.nets.items() if (r, "2") in nodes)
                far = f"{r} ({nl.parts[r].value} Ω) to {beyond}"
            elif len(others) > 40:
                far = f"the {net} rail ({len(others)} pins)"
            else:
                far = describe(others, nl.parts)
            rows.append((f"{ref} pin {pin}", net, far if len(far) < 75 else far[:72] + "..."))
    y = 80
    col = 0
    for label, net, far in rows:
        if y > 960:
            y, col = 80, col + 1
        x = 20 + col * 545
        svg.text(x, y, label, 10, weight="bold")
        svg.text(x + 80, y, net, 10, fill="#1f5fbf")
        svg.text(x + 200, y, far, 9, fill="#444")
        y += 13
    return svg.done()


# ── the guides ─────────────────────────────────────────────────────────────────────────────
ASSEMBLY = {
    "common_first": [
        "Cut the base and the top (see `square.svg` for the pitch and the walls) and mark the "
        "64 square centres on the board that carries the parts.",
    ],
    "switch": [
        "Solder the 64 tact switches at the square centres and the 64 1N4148 diodes next to "
        "them, each band toward the row wire (layer 1).",
    ],
    "reed": [
        "Glue the 64 reed switches flat at the square centres (bend their leads 3 mm away from "
        "the glass) and solder the 64 1N4148 diodes, each band toward the row wire (layer 1).",
    ],
    "hall": [
        "Prototype one rank first. Then lay the 128 A1120 flat (marked side up for A, down for "
        "B, leads bent clear of the body), each with its BAT43 (cathode at the sensor), and "
        "the 8 row switches (Q_ROW, R_ROW, C_ROW) at the rank ends (layer 1).",
    ],
    "common_then": [
        "Run the row and column wires (layer 1), checking each with a meter against the "
        "wiring plan before the next.",
        "Place the 64 LEDs 12 mm above each square centre, each with its 100 nF, and chain the "
        "data a1 -> h8 (layer 2).",
        "Run the power bus along the a-file and one feed per rank (layer 2); fit J1, F1, D1, "
        "Q1 and C1 at its start. Before any LED sees power: 5 V at J1 from a current-limited "
        "bench supply (200 mA), measure 5 V at a8's and h8's VDD.",
        "Fit the controller side (layer 3): U2 with C2, R1 and R2; J2 with its series "
        "resistors; the buttons, the buzzer (its + pad on the resistor side) and the OLED.",
    ],
    "pico": [
        "Solder the Pico (socket it if you like: R2 keeps the LED data low while it is out), "
        "install the firmware (`binaryon firmware install`), plug its USB into the Pi.",
    ],
    "gpio": [
        "Press the ribbon's two IDC sockets on, key to the same side, red stripe at pin 1; plug "
        "J2, then the Pi's header (pin 1 nearest the microSD card). Reversed, it harms nothing: "
        "it just does not answer.",
    ],
    "common_last": [
        "Put the walls and caps (or the top plate) on only after the bring-up test passes.",
    ],
}


def guide_md(variant: str, title: str, netfile: str, nl, bom_rows) -> str:
    build, sensor = variant.split("-")
    mine: dict[str, list[str]] = defaultdict(list)  # this build's refs of each part number
    for ref, part in nl.parts.items():
        mine[part.mpn].append(ref)
    column = []
    for w, m, p, q, note in bom_rows:
        if not q.get(variant):
            continue
        if p in mine:
            families: dict[str, list[str]] = defaultdict(list)
            for ref in mine[p]:
                families[re.sub(r"\d+$", "", _family(ref))].append(ref)
            note = ", ".join(
                refs[0] if len(refs) == 1 else f"{refs[0]}..{refs[-1]}"
                for refs in (sorted(r, key=_natural) for _, r in sorted(families.items()))
            )
        column.append((w, m, p, q[variant], note))
    layer1, layer3 = f"layer-matrix-{variant}.svg", f"layer-controller-{variant}.svg"
    lines = [
        f"# Build guide: {title}",
        "",
        f"Generated by `hardware/schematic.py` from `{netfile}` (the same netlist a PCB would "
        "be made from), so this plan and its drawings cannot disagree with it. Read "
        "`hardware/README.md` first for the why of each part.",
        "",
        "## 1. What to buy",
        "",
        "| qty | part | manufacturer | part number | refs / notes |",
        "|---|---|---|---|---|",
        *[f"| {q:g} | {w} | {m} | {p} | {note} |" for w, m, p, q, note in column],
        "",
        "## 2. Drawings, one per layer",
        "",
        f"![Layer 1: the sensor matrix]({layer1})",
        "",
        "![Layer 2: the LED chain and its power](layer-leds.svg)",
        "",
        f"![Layer 3: the controller and J2]({layer3})",
        "",
        "## 3. Assembly order",
        "",
    ]
    steps = ASSEMBLY["common_first"] + ASSEMBLY[sensor] + ASSEMBLY["common_then"]
    steps += ASSEMBLY[build] + ASSEMBLY["common_last"]
    lines += [f"{i}. {s}" for i, s in enumerate(steps, start=1)]
    lines += [
        "",
        "## 4. Hand-wiring plan",
        "",
        "Each numbered line is one wire (one net of the netlist) and every pin it joins. Tick "
        "them off as you go; a meter's continuity test checks each against this list.",
        "",
        *wiring_plan(nl),
        "## 5. Bring-up test",
        "",
        "With the Pi running the companion's software (`binaryon doctor` shows every check "
        "green), stop the service and run the walk:",
        "",
        "```sh",
        "sudo systemctl stop binaryon",
        "binaryon doctor --bring-up",
        "```",
        "",
        "1. Every square in turn, a1 to h8: its LED lights; "
        + {
            "switch": "press the lit square",
            "reed": "put a piece on the lit square, then take it off",
            "hall": "put a disc black side up on the lit square, turn it white side up, take "
            "it off",
        }[sensor]
        + ". A wrong square names the crossed wires (or the LED chain's order, when the lit "
        "LED is under another square); no answer names the sensor, diode and wires to check; "
        "another square reading at the same time is a diode in backwards.",
        "2. Every LED red, then green, then blue: press confirm if all of them show the colour, "
        "undo if one does not.",
        "3. The OLED shows `BRING-UP / OLED OK?`: press confirm if you can read it, undo if not.",
        "4. Each button when asked: confirm, undo, menu.",
        "5. It ends with `bring-up: 64/64 squares, 3/3 buttons, LED colours ok, OLED ok: all "
        "good`, or the list of what to fix. Then `sudo systemctl start binaryon`.",
        "",
    ]
    return "\n".join(lines)


def outputs(variants: dict, bom_rows_fn) -> dict[str, object]:
    """build/<file> -> a function giving its text."""
    out: dict[str, object] = {}
    nets = {v: build() for v, (_, _, build) in variants.items()}
    for v, (title, netfile, _) in variants.items():
        out[f"build/{v}.md"] = lambda v=v, title=title, netfile=netfile: guide_md(
            v, title, netfile, nets[v], bom_rows_fn()
        )
    for v, (title, _, _) in variants.items():
        out[f"build/layer-matrix-{v}.svg"] = lambda v=v, t=title: matrix_svg(nets[v], t)
        out[f"build/layer-controller-{v}.svg"] = lambda v=v, t=title: controller_svg(nets[v], t)
    out["build/layer-leds.svg"] = lambda: leds_svg(nets["pico-switch"])
    return out
