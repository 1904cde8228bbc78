"""Place and route the board of one build from its netlist (hardware/schematic.py), with KiCad's
pcbnew module (system Python 3, Debian's ``kicad`` package). Used by ``hardware/make-fab``.

The 8x8 matrix is laid out by construction, the same in every square (40 mm pitch):

- the WS2812B at the square's centre, its 100 nF beside it; the data runs DOUT -> next DIN on
  the top layer, and at the end of a rank back to the a-file of the next rank (top layer, a
  via, a short run on the bottom layer);
- the sensor above the LED, its diode on the left; the column (file) runs on the bottom layer
  down the board, the row (rank) on the top layer across it, into the left margin and down;
- the LED supply: a 2 mm rail per rank on the top layer, fed at its a end from a 4 mm bus in
  the left margin (bottom layer); ground is a copper zone on both layers, every SMD ground pad
  with its own via.

The controller strip under rank 1 (Pico or J2's lines, the LED driver, the supply's input,
buttons, OLED, piezo) is routed by a small grid router below: straight tracks on a 0.5 mm
grid, the top layer preferring horizontal runs and the bottom layer vertical ones, a via
where a track changes layer, every track kept 0.2 mm from any other net's copper.
"""

from __future__ import annotations

import heapq
import math
from pathlib import Path

import numpy as np
import pcbnew

HERE = Path(__file__).resolve().parent
LIBS = Path("/usr/share/kicad/footprints")
OWN_LIBS = HERE / "footprints"

PITCH = 40.0
X0, Y0 = 30.0, 30.0  # the a8 square's top-left corner (a1 is bottom-left, as seen from white)
MARGIN_L = 14.0  # left margin: the LED bus and the eight row lines
STRIP = 60.0  # the controller strip under rank 1
S = Y0 + 8 * PITCH  # top of the strip
BOARD = (X0 - MARGIN_L, Y0, X0 + 8 * PITCH, S + STRIP)  # x0, y0, x1, y1 in mm
CLEARANCE = 0.2
SIGNAL_W = 0.3  # matrix signals
ROUTE_W = 0.2  # routed signals in the strip
RAIL_W = 2.0  # a rank's LED supply rail (1 oz copper)
BUS_W = 4.0  # the LED supply bus along the left margin
POWER_W = 1.5  # the supply's path in the strip
VIA = (0.6, 0.3)
POWER_VIA = (1.2, 0.6)  # the supply changes layer here: a 0.6 mm plated hole for 1.8 A
GRID = 0.5
FILES = "abcdefgh"
MOUNTING_HOLES = [
    (X0 + 40, Y0 + 40),
    (X0 + 280, Y0 + 40),
    (X0 + 40, Y0 + 280),
    (X0 + 280, Y0 + 280),
    (X0 - 10, Y0 + 4),
    (X0 - 7, S + 35),
    (X0 + 316, S + STRIP - 5),
]
POWER_NETS = {"+5V_IN", "+5V_FUSED", "+5V_LED"}


def mm(v: float) -> int:
    return pcbnew.FromMM(v)


def pt(x: float, y: float) -> pcbnew.wxPoint:
    return pcbnew.wxPoint(mm(x), mm(y))


def square_centre(f: int, rank: int) -> tuple[float, float]:
    """Centre of file f (0 = a) and rank 1..8 (rank 8 at the top of the board)."""
    return X0 + PITCH * f + PITCH / 2, Y0 + PITCH * (8 - rank) + PITCH / 2


def load_footprint(name: str) -> pcbnew.FOOTPRINT:
    lib, fp = name.split(":")
    own = OWN_LIBS / f"{lib}.pretty"
    path = own if own.is_dir() else LIBS / f"{lib}.pretty"
    footprint = pcbnew.FootprintLoad(str(path), fp)
    if footprint is None:
        raise SystemExit(f"make-fab: footprint {name} not found in {path}")
    return footprint


class Layout:
    """A board being built: parts from the netlist, tracks, vias and the router's grid."""

    def __init__(self, nl, title: str):
        self.nl = nl
        self.board = pcbnew.BOARD()
        self.nets: dict[str, pcbnew.NETINFO_ITEM] = {}
        self.fp: dict[str, pcbnew.FOOTPRINT] = {}
        self.geometry: list[tuple] = []  # (kind, net, layers, params) of tracks and vias
        self.title = title
        ds = self.board.GetDesignSettings()
        nc = ds.GetNetClasses().GetDefault()
        nc.SetClearance(mm(CLEARANCE))
        nc.SetTrackWidth(mm(ROUTE_W))
        nc.SetViaDiameter(mm(VIA[0]))
        nc.SetViaDrill(mm(VIA[1]))
        ds.m_CopperEdgeClearance = mm(0.5)
        ds.SetBoardThickness(mm(1.6))
        for name in sorted(nl.nets):
            net = pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(net)
            self.nets[name] = net
        for ref, part in nl.parts.items():
            footprint = load_footprint(part.footprint)
            footprint.SetReference(ref)
            footprint.SetValue(part.value[:40])
            self.board.Add(footprint)
            self.fp[ref] = footprint
        for name, nodes in nl.nets.items():
            for ref, pin in nodes:
                for pad in self.fp[ref].Pads():
                    if pad.GetNumber() == pin:
                        pad.SetNet(self.nets[name])

    # ── placing ────────────────────────────────────────────────────────────────────────
    def place(self, ref: str, x: float, y: float, rot: float = 0, show_ref: bool = True) -> None:
        footprint = self.fp[ref]
        footprint.SetPosition(pt(x, y))
        if rot:
            footprint.SetOrientationDegrees(rot)
        footprint.Reference().SetVisible(show_ref)
        footprint.Value().SetVisible(False)

    def pad(self, ref: str, pin: str | int, near: tuple[float, float] | None = None):
        pads = [p for p in self.fp[ref].Pads() if p.GetNumber() == str(pin)]
        if near:
            pads.sort(key=lambda p: math.dist(self.xy(p), near))
        return pads[0]

    @staticmethod
    def xy(pad) -> tuple[float, float]:
        p = pad.GetPosition()
        return pcbnew.ToMM(p.x), pcbnew.ToMM(p.y)

    # ── copper ─────────────────────────────────────────────────────────────────────────
    def track(self, a, b, net: str, layer: int, width: float = SIGNAL_W) -> None:
        if math.dist(a, b) < 1e-6:
            return
        t = pcbnew.PCB_TRACK(self.board)
        t.SetStart(pt(*a))
        t.SetEnd(pt(*b))
        t.SetWidth(mm(width))
        t.SetLayer(layer)
        t.SetNet(self.nets[net])
        self.board.Add(t)
        self.geometry.append(("seg", net, (layer,), (a[0], a[1], b[0], b[1], width / 2)))

    def path(self, points, net: str, layer: int, width: float = SIGNAL_W) -> None:
        for a, b in zip(points[:-1], points[1:], strict=True):
            self.track(a, b, net, layer, width)

    def via(self, p, net: str, size: tuple[float, float] = VIA) -> None:
        v = pcbnew.PCB_VIA(self.board)
        v.SetPosition(pt(*p))
        v.SetWidth(mm(size[0]))
        v.SetDrill(mm(size[1]))
        v.SetNet(self.nets[net])
        self.board.Add(v)
        self.geometry.append(("circle", net, (pcbnew.F_Cu, pcbnew.B_Cu), (p[0], p[1], size[0] / 2)))

    def text(self, s: str, x: float, y: float, size: float = 2.0, layer=pcbnew.F_SilkS) -> None:
        t = pcbnew.PCB_TEXT(self.board)
        t.SetText(s)
        t.SetPosition(pt(x, y))
        t.SetLayer(layer)
        t.SetTextSize(pcbnew.wxSize(mm(size), mm(size)))
        t.SetTextThickness(mm(size * 0.15))
        if layer == pcbnew.B_SilkS:
            t.SetMirrored(True)
        self.board.Add(t)

    def outline(self) -> None:
        x0, y0, x1, y1 = BOARD
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            s = pcbnew.PCB_SHAPE(self.board)
            s.SetShape(pcbnew.SHAPE_T_SEGMENT)
            s.SetStart(pt(*a))
            s.SetEnd(pt(*b))
            s.SetLayer(pcbnew.Edge_Cuts)
            s.SetWidth(mm(0.1))
            self.board.Add(s)
        for i, (x, y) in enumerate(MOUNTING_HOLES):
            hole = load_footprint("MountingHole:MountingHole_3.2mm_M3")
            hole.SetReference(f"H{i + 1}")
            hole.SetPosition(pt(x, y))
            hole.Reference().SetVisible(False)
            hole.Value().SetVisible(False)
            self.board.Add(hole)

    def zones(self) -> None:
        add_ground_zones(self.board)


def add_ground_zones(board) -> None:
    """A ground zone over the whole board on both layers, filled (on a board loaded from a
    file: filling the one being built crashes pcbnew 6)."""
    x0, y0, x1, y1 = BOARD
    if True:
        gnd = board.FindNet("GND")
        for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
            z = pcbnew.ZONE(board)
            z.SetLayer(layer)
            z.SetNet(gnd)
            z.SetLocalClearance(mm(0.3))
            z.SetMinThickness(mm(0.25))
            z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
            z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
            ol = z.Outline()
            ol.NewOutline()
            for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
                ol.Append(mm(x), mm(y))
            board.Add(z)
        board.BuildConnectivity()
        pcbnew.ZONE_FILLER(board).Fill(board.Zones())


# ── the matrix, by construction ──────────────────────────────────────────────────────────
def lay_out_matrix(lo: Layout, sensor: str) -> None:
    F, B = pcbnew.F_Cu, pcbnew.B_Cu
    hall = sensor == "hall"
    ret_x, ret_y = (18, -18) if hall else (16, -17)  # the data's way back, in the h square
    for rank in range(1, 9):
        for f in range(8):
            sq = f"{FILES[f]}{rank}"
            cx, cy = square_centre(f, rank)
            lo.place(f"LED_{sq}", cx, cy, 180, show_ref=False)
            lo.place(f"C_{sq}", cx + 6, cy + 4.5, 90, show_ref=False)
            if hall:
                hall_square(lo, f, rank)
            else:
                switch_square(lo, f, rank, sensor)
            lo.text(sq, cx - 14, cy + 17, 2.5)
            # LED pads (rotated 180): 1 VDD bottom right, 2 DOUT top right, 3 VSS top left,
            # 4 DIN bottom left
            vdd = lo.xy(lo.pad(f"LED_{sq}", 1))
            vss = lo.xy(lo.pad(f"LED_{sq}", 3))
            dout = lo.xy(lo.pad(f"LED_{sq}", 2))
            lo.track(vdd, (vdd[0], cy + 8), "+5V_LED", F, 0.8)
            lo.track(vss, (vss[0], cy - 4.0), "GND", F, 0.5)
            lo.via((vss[0], cy - 4.0), "GND")
            c_plus = lo.xy(lo.pad(f"C_{sq}", 1))
            c_gnd = lo.xy(lo.pad(f"C_{sq}", 2))
            lo.track(c_plus, (c_plus[0], cy + 8), "+5V_LED", F, 0.8)
            lo.track(c_gnd, (c_gnd[0] + 1.6, c_gnd[1]), "GND", F, 0.5)
            lo.via((c_gnd[0] + 1.6, c_gnd[1]), "GND")
            # data out: to the next LED of the rank, or back to the a-file of the next rank
            nxt = lo.nl.net_of(f"LED_{sq}", 2)
            if f < 7:
                lo.path(
                    [dout, (cx + 20, dout[1]), (cx + 20, cy + 1.65), (cx + 40 - 2.45, cy + 1.65)],
                    nxt,
                    F,
                )
            elif rank < 8:
                ax, _ = square_centre(0, rank)
                ny = cy - PITCH + 1.65
                back = [dout, (cx + ret_x, dout[1]), (cx + ret_x, cy + ret_y), (X0 + 4, cy + ret_y)]
                lo.path(back, nxt, F)
                lo.via((X0 + 4, cy + ret_y), nxt)
                lo.track((X0 + 4, cy + ret_y), (X0 + 4, ny), nxt, B)
                lo.via((X0 + 4, ny), nxt)
                lo.track((X0 + 4, ny), (ax - 2.45, ny), nxt, F)
        # the rank's supply rail, from the left margin
        _, cy = square_centre(0, rank)
        hx, _ = square_centre(7, rank)
        lo.track((X0 - 12, cy + 8), (hx + 6, cy + 8), "+5V_LED", F, RAIL_W)
        for dx in (-12.0, -10.5):
            lo.via((X0 + dx, cy + 8), "+5V_LED", POWER_VIA)
        if hall:
            hall_rank(lo, rank)
        else:  # the row lane, into the left margin and down to the strip
            rx = X0 - 8 + (rank - 1)
            lo.track((rx, cy + 13), (hx - 10, cy + 13), f"ROW{rank}", F)
            lo.via((rx, cy + 13), f"ROW{rank}")
            lo.track((rx, cy + 13), (rx, S + 2), f"ROW{rank}", B)
    top = square_centre(0, 8)[1] + 8
    lo.track((X0 - 11, top), (X0 - 11, S + 4), "+5V_LED", B, BUS_W)
    for f in range(8):
        cx, cy = square_centre(f, 8)
        for name, dx, y_top in column_tops(sensor, f):
            lo.track((cx + dx, cy + y_top), (cx + dx, S + 2), name, B)


def column_tops(sensor: str, f: int) -> list[tuple[str, float, float]]:
    """(net, x from the square's centre, top end in rank 8) of file f's column lines."""
    col = f"COL{FILES[f].upper()}"
    if sensor == "hall":
        return [(col, 12, -13.5), (f"COLB{FILES[f].upper()}", 16, -16.5)]
    return [(col, 12, -14 if sensor == "switch" else -15)]


def switch_square(lo: Layout, f: int, rank: int, sensor: str) -> None:
    """Tact switch (or reed) above the LED, its diode on the left, cathode to the row lane."""
    F, B = pcbnew.F_Cu, pcbnew.B_Cu
    sq = f"{FILES[f]}{rank}"
    cx, cy = square_centre(f, rank)
    lo.place(f"D_{sq}", cx - 10, cy - 1.88, 90, show_ref=False)
    if sensor == "switch":
        lo.place(f"SW_{sq}", cx - 3.25, cy - 14, 0, show_ref=False)
        lo.track((cx - 3.25, cy - 14), (cx + 12, cy - 14), f"COL{FILES[f].upper()}", B)
        lo.track((cx + 3.25, cy - 9.5), (cx - 10, cy - 9.5), f"SQ_{sq}", F)
    else:  # reed: 20.32 mm between its pads, COL on the right
        lo.place(f"SW_{sq}", cx + 10.32, cy - 15, 180, show_ref=False)
        col_pad = lo.xy(lo.pad(f"SW_{sq}", 1))
        lo.track(col_pad, (cx + 12, cy - 15), f"COL{FILES[f].upper()}", B)
        lo.track((cx - 10, cy - 15), (cx - 10, cy - 9.5), f"SQ_{sq}", F)
    row = f"ROW{rank}"
    lo.track((cx - 10, cy - 1.88), (cx - 10, cy + 13), row, B)
    lo.via((cx - 10, cy + 13), row)


def hall_square(lo: Layout, f: int, rank: int) -> None:
    """Two hall switches side by side above the LED (1 VCC, 2 GND, 3 OUT, 1.27 mm apart),
    VCC up to the rank's switched supply lane, GND to a via, OUT up on the bottom layer to its
    Schottky's cathode; the anodes run on the top layer to a via onto their column."""
    F, B = pcbnew.F_Cu, pcbnew.B_Cu
    sq = f"{FILES[f]}{rank}"
    cx, cy = square_centre(f, rank)
    vcc = f"HALL_VCC_{rank}"
    for plane, hx, dy, col_dx in (("A", -14.0, -13.5, 12.0), ("B", -4.0, -16.5, 16.0)):
        lo.place(f"H{plane}_{sq}", cx + hx, cy - 8, 0, show_ref=False)
        lo.place(f"D{plane}_{sq}", cx + hx + 2.54, cy + dy, 0, show_ref=False)
        lo.track((cx + hx, cy - 8), (cx + hx, cy - 11), vcc, F)
        lo.track((cx + hx + 1.27, cy - 8), (cx + hx + 1.27, cy - 5.5), "GND", F)
        lo.via((cx + hx + 1.27, cy - 5.5), "GND")
        out = f"OUT{plane}_{sq}"
        lo.track((cx + hx + 2.54, cy - 8), (cx + hx + 2.54, cy + dy), out, B)
        col = f"COL{plane.replace('A', '')}{FILES[f].upper()}"
        lo.track((cx + hx + 2.54 + 7.62, cy + dy), (cx + col_dx, cy + dy), col, F)
        lo.via((cx + col_dx, cy + dy), col)


def hall_rank(lo: Layout, rank: int) -> None:
    """The rank's P-MOSFET and gate pull-up in the left margin (the router joins them to the
    row and the Pico's 3.3 V), its switched supply lane, and its bypass capacitor at mid-rank."""
    F = pcbnew.F_Cu
    _, cy = square_centre(0, rank)
    hx, _ = square_centre(7, rank)
    vcc = f"HALL_VCC_{rank}"
    lo.place(f"Q_ROW{rank}", X0 - 4, cy - 11, 0, show_ref=False)
    lo.place(f"R_ROW{rank}", X0 - 4, cy - 15, 0, show_ref=False)
    drain = lo.xy(lo.pad(f"Q_ROW{rank}", 3))
    lo.track(drain, (hx - 4, cy - 11), vcc, F)
    dx, _ = square_centre(3, rank)
    lo.place(f"C_ROW{rank}", dx + 20, cy - 13, 90, show_ref=False)
    c_vcc = lo.xy(lo.pad(f"C_ROW{rank}", 1))
    c_gnd = lo.xy(lo.pad(f"C_ROW{rank}", 2))
    lo.track(c_vcc, (c_vcc[0], cy - 11), vcc, F)
    lo.track(c_gnd, (c_gnd[0], cy - 15.5), "GND", F, 0.5)
    lo.via((c_gnd[0], cy - 15.5), "GND")
    lo.text(f"rank {rank}", X0 - 7, cy + 3, 1.2)


# ── the controller strip ─────────────────────────────────────────────────────────────────
def place_strip(lo: Layout) -> None:
    parts = lo.fp
    lo.place("J1", X0 - 10, S + 52, 0)
    lo.place("F1", X0 + 6, S + 52, 0)
    lo.place("D1", X0 + 6, S + 42, 0)
    lo.place("Q1", X0 + 16, S + 52, 180)
    lo.place("C1", X0 + 24, S + 52, 0)
    lo.place("U2", X0 + 48, S + 24, 0)
    lo.place("C2", X0 + 52, S + 46, 0)
    lo.place("R1", X0 + 28, S + 16, 0)
    lo.place("R2", X0 + 62, S + 44, 0)
    if "U1" in parts:
        lo.place("U1", X0 + 110, S + 32, 90)
    lo.place("J2", X0 + 170, S + 52, 90)
    rj = sorted((r for r in parts if r.startswith("RJ")), key=lambda r: int(r[2:]))
    x_rj = X0 + 145 if "U1" in parts else X0 + 90
    for i, ref in enumerate(rj):
        lo.place(ref, x_rj + 5 * i, S + 37, 90)
    lo.place("SW_CONFIRM", X0 + 240, S + 16, 0)
    lo.place("SW_UNDO", X0 + 262, S + 16, 0)
    lo.place("SW_MENU", X0 + 284, S + 16, 0)
    lo.place("U3", X0 + 240, S + 50, 90)
    if "U4" in parts:
        lo.place("U4", X0 + 256, S + 50, 90)
    lo.place("BZ1", X0 + 300, S + 40, 0)
    lo.text("J1: 5 V LED supply (+ left)", X0 + 4, S + 58, 1.5)
    lo.text("J2 (keyed box header): to the Pi's header, pin 1 = square pad", X0 + 180, S + 43, 1.5)
    lo.text("Binaryon " + lo.title, X0 + 200, S + 4, 2.0)
    if "HA_a1" in parts:
        lo.text("hall: HA marked face up, HB marked face down", X0 + 200, S + 8, 1.5)


# ── the grid router ──────────────────────────────────────────────────────────────────────
class Router:
    """Shortest paths on a 0.5 mm grid, two layers, with clearance to other nets' copper."""

    MARGIN = 0.06  # a diagonal neighbour of a grid point can come this much closer

    def __init__(self, lo: Layout):
        self.lo = lo
        x0, y0, x1, y1 = BOARD
        self.x0, self.y0 = x0, y0
        self.nx = int(round((x1 - x0) / GRID)) + 1
        self.ny = int(round((y1 - y0) / GRID)) + 1
        self.code = {name: i + 1 for i, name in enumerate(sorted(lo.nets))}
        # owner of each cell, per layer: 0 free, a net's code, or -1 (two nets, or the edge)
        self.own_t = np.zeros((2, self.ny, self.nx), np.int32)  # for a track's centre
        self.own_v = np.zeros((2, self.ny, self.nx), np.int32)  # for a via's centre
        self.gx = x0 + GRID * np.arange(self.nx)
        self.gy = y0 + GRID * np.arange(self.ny)
        edge = 0.5 + ROUTE_W
        xs, ys = self.gx, self.gy
        bad = (
            (xs[None, :] < x0 + edge)
            | (xs[None, :] > x1 - edge)
            | (ys[:, None] < y0 + edge)
            | (ys[:, None] > y1 - edge)
        )
        for own in (self.own_t, self.own_v):
            own[:, bad] = -1
        for fp in lo.board.GetFootprints():
            for pad in fp.Pads():
                self.add_pad(pad)
        for kind, net, layers, params in lo.geometry:
            self.add(kind, self.code[net], layers, params)

    def layer_index(self, layer: int) -> int:
        return 0 if layer == pcbnew.F_Cu else 1

    def add_pad(self, pad) -> None:
        net = pad.GetNetname()
        code = self.code.get(net, -1) if net else -1
        layers = [la for la in (pcbnew.F_Cu, pcbnew.B_Cu) if pad.IsOnLayer(la)]
        if pad.GetDrillSize().x > 0:
            layers = [pcbnew.F_Cu, pcbnew.B_Cu]
        bb = pad.GetBoundingBox()
        x, y = pcbnew.ToMM(bb.GetCenter().x), pcbnew.ToMM(bb.GetCenter().y)
        hw, hh = pcbnew.ToMM(bb.GetWidth()) / 2, pcbnew.ToMM(bb.GetHeight()) / 2
        hole = pcbnew.ToMM(pad.GetDrillSize().x) / 2
        if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE and abs(hw - hh) < 1e-3:
            self.add("circle", code, layers, (x, y, max(hw, hole)))
        else:
            self.add("rect", code, layers, (x, y, max(hw, hole), max(hh, hole)))

    def _dist(self, kind: str, params, xs, ys):
        if kind == "circle":
            x, y, r = params
            return np.hypot(xs - x, ys - y) - r
        if kind == "rect":
            x, y, hw, hh = params
            dx = np.maximum(np.abs(xs - x) - hw, 0)
            dy = np.maximum(np.abs(ys - y) - hh, 0)
            return np.hypot(dx, dy)
        x1, y1, x2, y2, hw = params
        vx, vy = x2 - x1, y2 - y1
        ln = vx * vx + vy * vy
        t = np.clip(((xs - x1) * vx + (ys - y1) * vy) / ln, 0, 1) if ln else 0
        return np.hypot(xs - x1 - t * vx, ys - y1 - t * vy) - hw

    def add(self, kind: str, code: int, layers, params) -> None:
        if kind == "circle":
            x, y, r = params
            ext = (x - r, y - r, x + r, y + r)
        elif kind == "rect":
            x, y, hw, hh = params
            ext = (x - hw, y - hh, x + hw, y + hh)
        else:
            x1, y1, x2, y2, hw = params
            ext = (min(x1, x2) - hw, min(y1, y2) - hw, max(x1, x2) + hw, max(y1, y2) + hw)
        for own, extra in (
            (self.own_t, ROUTE_W / 2 + CLEARANCE + self.MARGIN),
            (self.own_v, VIA[0] / 2 + CLEARANCE + self.MARGIN),
        ):
            i0 = max(int((ext[0] - extra - self.x0) / GRID), 0)
            i1 = min(int((ext[2] + extra - self.x0) / GRID) + 2, self.nx)
            j0 = max(int((ext[1] - extra - self.y0) / GRID), 0)
            j1 = min(int((ext[3] + extra - self.y0) / GRID) + 2, self.ny)
            if i0 >= i1 or j0 >= j1:
                continue
            xs, ys = np.meshgrid(self.gx[i0:i1], self.gy[j0:j1])
            near = self._dist(kind, params, xs, ys) < extra
            for layer in layers:
                li = self.layer_index(layer)
                win = own[li, j0:j1, i0:i1]
                cur = win[near]
                win[near] = np.where((cur == 0) | (cur == code), code, -1)

    def cells_of_pad(self, pad) -> set[tuple[int, int, int]]:
        bb = pad.GetBoundingBox()
        x, y = pcbnew.ToMM(bb.GetCenter().x), pcbnew.ToMM(bb.GetCenter().y)
        hw, hh = pcbnew.ToMM(bb.GetWidth()) / 2, pcbnew.ToMM(bb.GetHeight()) / 2
        if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
            hw = hh = hw * 0.7
        cells = set()
        layers = [la for la in (pcbnew.F_Cu, pcbnew.B_Cu) if pad.IsOnLayer(la)]
        for layer in layers:
            li = self.layer_index(layer)
            for i in range(int((x - hw - self.x0) / GRID), int((x + hw - self.x0) / GRID) + 2):
                for j in range(int((y - hh - self.y0) / GRID), int((y + hh - self.y0) / GRID) + 2):
                    gx, gy = self.x0 + GRID * i, self.y0 + GRID * j
                    if abs(gx - x) <= hw - 0.05 and abs(gy - y) <= hh - 0.05:
                        cells.add((li, j, i))
        if not cells:
            i = int(round((x - self.x0) / GRID))
            j = int(round((y - self.y0) / GRID))
            cells = {(self.layer_index(la), j, i) for la in layers}
        return cells

    def cell(self, x: float, y: float, li: int) -> tuple[int, int, int]:
        return (li, int(round((y - self.y0) / GRID)), int(round((x - self.x0) / GRID)))

    def route(self, net: str, terminals: list[set], width: float) -> list[str]:
        """Join the terminals (sets of cells) into one tree; returns the problems."""
        code = self.code[net]
        blocked = (self.own_t != 0) & (self.own_t != code)
        vblocked = ((self.own_v != 0) & (self.own_v != code)).any(axis=0)
        k = max(0, math.ceil((width / 2 - ROUTE_W / 2) / GRID - 1e-9))
        for _ in range(k):
            b = blocked.copy()
            b[:, 1:, :] |= blocked[:, :-1, :]
            b[:, :-1, :] |= blocked[:, 1:, :]
            b[:, :, 1:] |= blocked[:, :, :-1]
            b[:, :, :-1] |= blocked[:, :, 1:]
            blocked = b
        via = POWER_VIA if width > 0.5 else VIA
        tree = set(terminals[0])
        problems = []
        rest = list(terminals[1:])
        while rest:
            rest.sort(
                key=lambda t: min(abs(a[1] - b[1]) + abs(a[2] - b[2]) for a in t for b in tree)
            )
            target = rest.pop(0)
            if target & tree:
                continue
            found = self._astar(tree, target, blocked, vblocked)
            if found is None:
                problems.append(f"{net}: no path")
                continue
            self._commit(found, net, code, width, via)
            tree |= set(found) | target
        return problems

    def _astar(self, sources, target, blocked, vblocked):
        tj = [c[1] for c in target]
        ti = [c[2] for c in target]
        tj0, tj1, ti0, ti1 = min(tj), max(tj), min(ti), max(ti)

        def h(j, i):
            return max(tj0 - j, 0, j - tj1) + max(ti0 - i, 0, i - ti1)

        start = [c for c in sources if not blocked[c]]
        heap = [(h(c[1], c[2]), 0.0, c, -1) for c in start]
        heapq.heapify(heap)
        came: dict = {c: None for c in start}
        cost = {c: 0.0 for c in start}
        ny, nx = self.ny, self.nx
        while heap:
            _, g, c, d = heapq.heappop(heap)
            if g > cost.get(c, 1e18):
                continue
            if c in target:
                path = [c]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return path[::-1]
            li, j, i = c
            for nd, (dj, di) in enumerate(((0, 1), (0, -1), (1, 0), (-1, 0))):
                nj, ni = j + dj, i + di
                if not (0 <= nj < ny and 0 <= ni < nx) or blocked[li, nj, ni]:
                    continue
                step = 1.0 if (dj == 0) == (li == 0) else 2.5
                if d != -1 and d != nd:
                    step += 1.0
                n = (li, nj, ni)
                ng = g + step
                if ng < cost.get(n, 1e18):
                    cost[n] = ng
                    came[n] = c
                    heapq.heappush(heap, (ng + h(nj, ni), ng, n, nd))
            o = (1 - li, j, i)
            if not vblocked[j, i] and not blocked[o]:
                ng = g + 12.0
                if ng < cost.get(o, 1e18):
                    cost[o] = ng
                    came[o] = c
                    heapq.heappush(heap, (ng + h(j, i), ng, o, -1))
        return None

    def _commit(self, path, net, code, width, via) -> None:
        layers = (pcbnew.F_Cu, pcbnew.B_Cu)

        def xy(c):
            return (self.x0 + GRID * c[2], self.y0 + GRID * c[1])

        run = [path[0]]
        for c in path[1:]:
            prev = run[-1]
            if c[0] != prev[0]:
                self._emit(run, net, code, width, layers)
                self.lo.via(xy(c), net, via)
                self.add("circle", code, layers, (*xy(c), via[0] / 2))
                run = [c]
                continue
            if len(run) >= 2:
                a = run[-2]
                if (a[1] - prev[1], a[2] - prev[2]) != (prev[1] - c[1], prev[2] - c[2]):
                    self._emit(run, net, code, width, layers)
                    run = [prev]
            run.append(c)
        self._emit(run, net, code, width, layers)

    def _emit(self, run, net, code, width, layers) -> None:
        if len(run) < 2:
            return
        a, b = run[0], run[-1]
        pa = (self.x0 + GRID * a[2], self.y0 + GRID * a[1])
        pb = (self.x0 + GRID * b[2], self.y0 + GRID * b[1])
        self.lo.track(pa, pb, net, layers[a[0]], width)
        self.add("seg", code, (layers[a[0]],), (*pa, *pb, width / 2))


def route_strip(lo: Layout, sensor: str, first: tuple[str, ...] = ()) -> list[str]:
    """Route every net's pads in the strip, joined to what the matrix already laid down."""
    r = Router(lo)
    strip_refs = {ref for ref, fp in lo.fp.items() if pcbnew.ToMM(fp.GetPosition().y) > S - 1}
    ends: dict[str, list[set]] = {}
    for f in range(8):
        cx, _ = square_centre(f, 1)
        for name, dx, _top in column_tops(sensor, f):
            ends[name] = [{r.cell(cx + dx, S + 2, 1)}]
    if sensor != "hall":
        for rank in range(1, 9):
            ends[f"ROW{rank}"] = [{r.cell(X0 - 8 + rank - 1, S + 2, 1)}]
    else:  # the row switches in the margin: routed to the Pico like the strip's parts
        strip_refs |= {f"{k}_ROW{rank}" for k in ("Q", "R") for rank in range(1, 9)}
    ends["+5V_LED"] = [{r.cell(X0 - 11, y, 1) for y in (S + 3, S + 3.5, S + 4)}]
    problems = []
    order = sorted(
        lo.nl.nets,
        key=lambda n: (n not in first, n not in POWER_NETS, n == "GND", len(lo.nl.nets[n])),
    )
    for net in order:
        terminals = list(ends.get(net, []))
        if net == "LED_DIN_a1":  # the chain's first LED, in the matrix
            terminals.append(r.cells_of_pad(lo.pad("LED_a1", 4)))
        for ref, pin in lo.nl.nets[net]:
            if ref in strip_refs:
                terminals.append(r.cells_of_pad(lo.pad(ref, pin)))
        if len(terminals) < 2:
            continue
        width = POWER_W if net in POWER_NETS else 0.5 if net == "GND" else ROUTE_W
        problems += r.route(net, terminals, width)
    # the pads of a footprint that share a number (the tact switches' pairs) are joined by
    # their part; KiCad still wants copper between them
    for ref in sorted(strip_refs):
        fp = lo.fp[ref]
        by_num: dict[str, list] = {}
        for pad in fp.Pads():
            if pad.GetNetname():
                by_num.setdefault(pad.GetNumber(), []).append(pad)
        for pads in by_num.values():
            if len(pads) > 1:
                net = pads[0].GetNetname()
                width = POWER_W if net in POWER_NETS else ROUTE_W
                problems += r.route(net, [r.cells_of_pad(p) for p in pads], width)
    return problems


def build(nl, title: str, sensor: str, tries: int = 4) -> tuple[Layout, list[str]]:
    """Lay out and route; a net that finds no path is routed first on the next try."""
    first: tuple[str, ...] = ()
    for _ in range(tries):
        lo = Layout(nl, title)
        lo.outline()
        lay_out_matrix(lo, sensor)
        place_strip(lo)
        problems = route_strip(lo, sensor, first)
        if not problems:
            break
        first = tuple(dict.fromkeys(first + tuple(p.split(":")[0] for p in problems)))
    return lo, problems
