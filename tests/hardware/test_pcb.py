"""The generated boards (hardware/make-fab): each committed board loaded with KiCad's pcbnew
passes the design-rule check with no errors and no unconnected items and has exactly the
netlist's nets; the fabrication files are all there and up to date with their source.

pcbnew lives in the system Python 3 (Debian's ``kicad`` package), not in the venv: the board
checks run it in a subprocess and skip where it is missing."""

from __future__ import annotations

import csv
import importlib.machinery
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

HW = REPO / "hardware"
SYSTEM_PYTHON = "/usr/bin/python3"


def _load_make_fab():
    loader = importlib.machinery.SourceFileLoader("make_fab", str(HW / "make-fab"))
    spec = importlib.util.spec_from_loader("make_fab", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


MAKE_FAB = _load_make_fab()
BUILDS = sorted(MAKE_FAB.BUILDS)
GERBER_SUFFIXES = [suffix for _, suffix in MAKE_FAB.GERBER_LAYERS]


def _has_pcbnew() -> bool:
    if not Path(SYSTEM_PYTHON).exists():
        return False
    r = subprocess.run([SYSTEM_PYTHON, "-c", "import pcbnew"], capture_output=True)
    return r.returncode == 0


needs_kicad = pytest.mark.skipif(
    not _has_pcbnew(), reason="KiCad's pcbnew is not installed (apt-get install kicad)"
)

# Runs in the system Python: load the committed board, fill its zones, run KiCad's DRC and
# list every pad's net. Prints one JSON object.
BOARD_CHECK = r"""
import json, re, sys, tempfile, os
import pcbnew
board = pcbnew.LoadBoard(sys.argv[1])
board.BuildConnectivity()
pcbnew.ZONE_FILLER(board).Fill(board.Zones())
report = os.path.join(tempfile.mkdtemp(), "drc.txt")
pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True)
text = open(report).read()
m = re.search(r"\*\* Found (\d+) unconnected pads", text)
nets = {}
for fp in board.GetFootprints():
    for pad in fp.Pads():
        if pad.GetNetname():
            nets.setdefault(pad.GetNetname(), []).append([fp.GetReference(), pad.GetNumber()])
widths = {}
for t in board.GetTracks():
    if t.GetClass() == "PCB_TRACK":
        w = pcbnew.ToMM(t.GetWidth())
        widths[t.GetNetname()] = min(w, widths.get(t.GetNetname(), w))
print(json.dumps({
    "errors": len(re.findall(r"Severity: error", text)),
    "unconnected": int(m.group(1)) if m else -1,
    "violations": re.findall(r"^\[(\w+)\].*\n.*Severity: error", text, re.M),
    "nets": nets,
    "widths": widths,
    "size": [pcbnew.ToMM(board.GetBoardEdgesBoundingBox().GetWidth()),
             pcbnew.ToMM(board.GetBoardEdgesBoundingBox().GetHeight())],
}))
"""


@pytest.fixture(scope="module")
def checked() -> dict[str, dict]:
    out = {}
    for build in BUILDS:
        pcb = HW / "fab" / build / f"binaryon-{build}.kicad_pcb"
        r = subprocess.run(
            [SYSTEM_PYTHON, "-c", BOARD_CHECK, str(pcb)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert r.returncode == 0, r.stderr[-2000:]
        out[build] = json.loads(r.stdout.strip().splitlines()[-1])
    return out


@needs_kicad
@pytest.mark.parametrize("build", BUILDS)
def test_design_rule_check_finds_no_error_and_nothing_unconnected(checked, build):
    result = checked[build]
    assert result["unconnected"] == 0, result["violations"]
    assert result["errors"] == 0, result["violations"]


@needs_kicad
@pytest.mark.parametrize("build", BUILDS)
def test_the_layout_has_exactly_the_netlists_nets(checked, build):
    nl = MAKE_FAB.BUILDS[build][1]()
    have = {net: {tuple(node) for node in nodes} for net, nodes in checked[build]["nets"].items()}
    want = {net: set(nodes) for net, nodes in nl.nets.items()}
    assert have == want


@needs_kicad
@pytest.mark.parametrize("build", BUILDS)
def test_led_supply_tracks_are_wide_and_the_board_is_the_stated_size(checked, build):
    widths = checked[build]["widths"]
    assert widths["+5V_IN"] >= 1.5 and widths["+5V_FUSED"] >= 1.5
    # the rank rails (2 mm) and the bus (4 mm); the LED's own stubs are 0.8 mm
    assert widths["+5V_LED"] >= 0.8
    x0, y0, x1, y1 = MAKE_FAB_BOARD()
    assert checked[build]["size"] == pytest.approx([x1 - x0, y1 - y0], abs=0.2)


def MAKE_FAB_BOARD():
    # pcb_layout imports pcbnew at its top: read the outline from its source instead
    text = (HW / "pcb_layout.py").read_text()
    ns: dict = {}
    for line in text.splitlines():
        if line.startswith(("PITCH =", "X0, Y0 =", "MARGIN_L =", "STRIP =", "S =", "BOARD =")):
            exec(line.split("#")[0], ns)  # noqa: S102  (the module's own constants)
    return ns["BOARD"]


def test_the_fabrication_files_are_up_to_date_with_their_source():
    r = subprocess.run(
        [sys.executable, str(HW / "make-fab"), "--check"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_up_to_date_check_sees_a_changed_netlist(tmp_path):
    hw = tmp_path / "hardware"
    hw.mkdir()
    for name in ("make-fab", "pcb_layout.py", "schematic.py", "build_guide.py", "drawings.py"):
        shutil.copy(HW / name, hw / name)
    for net in HW.glob("*.net"):
        shutil.copy(net, hw / net.name)
    shutil.copytree(HW / "footprints", hw / "footprints")
    for build in BUILDS:
        (hw / "fab" / build).mkdir(parents=True)
        shutil.copy(HW / "fab" / build / "source.sha256", hw / "fab" / build / "source.sha256")
    cmd = [sys.executable, str(hw / "make-fab"), "--check"]
    assert subprocess.run(cmd, capture_output=True).returncode == 0
    net = hw / MAKE_FAB.BUILDS[BUILDS[0]][0]
    net.write_text(net.read_text().replace('"/GND"', '"/GND2"', 1))
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 1
    assert f"hardware/fab/{BUILDS[0]} is out of date" in r.stdout


def _kicad_version() -> str:
    r = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import pcbnew; print(pcbnew.Version())"],
        capture_output=True,
        text=True,
    )
    return r.stdout.strip()


@needs_kicad
def test_regenerating_a_board_gives_the_committed_files_byte_for_byte(tmp_path):
    build = "pico-reed"
    made_with = (HW / "fab" / build / "checks.txt").read_text().splitlines()[1]
    if made_with != f"made with: KiCad {_kicad_version()}":
        pytest.skip(f"the boards were made with another KiCad ({made_with})")
    if not Path("/usr/share/kicad/footprints/LED_SMD.pretty").is_dir():
        pytest.skip(
            "KiCad's footprint libraries are not installed (apt-get install kicad-footprints)"
        )
    hw = tmp_path / "hardware"
    hw.mkdir()
    for name in ("make-fab", "pcb_layout.py", "schematic.py", "build_guide.py", "drawings.py"):
        shutil.copy(HW / name, hw / name)
    for net in HW.glob("*.net"):
        shutil.copy(net, hw / net.name)
    shutil.copytree(HW / "footprints", hw / "footprints")
    r = subprocess.run(
        [SYSTEM_PYTHON, str(hw / "make-fab"), build],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(tmp_path)},
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr[-2000:]
    committed = HW / "fab" / build
    made = hw / "fab" / build
    names = sorted(p.relative_to(committed) for p in committed.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(made) for p in made.rglob("*") if p.is_file())
    for name in names:
        assert (made / name).read_bytes() == (committed / name).read_bytes(), name
    for side in ("top", "bottom"):
        png = f"pcb-{build}-{side}.png"
        assert (tmp_path / "docs" / png).read_bytes() == (REPO / "docs" / png).read_bytes()


@pytest.mark.parametrize("build", BUILDS)
def test_every_fabrication_file_is_there(build):
    fab = HW / "fab" / build
    gerbers = {p.name for p in (fab / "gerber").iterdir()}
    for suffix in GERBER_SUFFIXES:
        assert f"binaryon-{build}-{suffix}.gbr" in gerbers
    assert any(name.endswith(".drl") for name in gerbers)
    assert (fab / "assembly-top.svg").read_text().lstrip().startswith("<?xml")
    for side in ("top", "bottom"):
        png = REPO / "docs" / f"pcb-{build}-{side}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    checks = (fab / "checks.txt").read_text()
    assert "drc errors: 0\n" in checks and "drc unconnected: 0\n" in checks
    assert "nets equal the netlist: yes" in checks


@pytest.mark.parametrize("build", BUILDS)
def test_bom_and_pick_and_place_cover_the_netlists_parts(build):
    nl = MAKE_FAB.BUILDS[build][1]()
    fab = HW / "fab" / build
    with (fab / "bom.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    refs = [r for row in rows for r in row["Designator"].split()]
    assert sorted(refs) == sorted(nl.parts)
    for row in rows:
        assert row["MPN"] and row["Manufacturer"]
        assert int(row["Quantity"]) == len(row["Designator"].split())
    with (fab / "positions.csv").open() as fh:
        placed = {row["Designator"] for row in csv.DictReader(fh)}
    smd = {
        ref
        for ref, part in nl.parts.items()
        if part.footprint.split(":")[0].endswith("_SMD") or part.footprint.startswith("Fuse:")
    }
    assert placed == smd
    assert {f"LED_{f}{r}" for f in "abcdefgh" for r in range(1, 9)} <= placed
