"""The build guides in hardware/build/: one per build and sensor, each with what to buy (its
column of the BOM), a drawing per layer, the assembly order, a hand-wiring plan that names
every net of its netlist, and the bring-up test; the drawings' wire labels read from the same
netlist."""

from __future__ import annotations

import re
import sys

import pytest

from companion.hardware import pinout
from tests.hardware.netlists import nets
from tests.paths import REPO

HW = REPO / "hardware"
sys.path.insert(0, str(HW))
import schematic  # noqa: E402

VARIANTS = list(schematic.VARIANTS)
FILES = "abcdefgh"


def guide(variant: str) -> str:
    return (HW / "build" / f"{variant}.md").read_text()


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_guide_has_its_five_parts_and_its_drawings(variant):
    text = guide(variant)
    for heading in ("## 1. What to buy", "## 2. Drawings, one per layer", "## 3. Assembly order",
                    "## 4. Hand-wiring plan", "## 5. Bring-up test"):  # fmt: skip
        assert heading in text
    drawings = re.findall(r"\]\(([^)]+\.svg)\)", text)
    assert len(drawings) == 3
    for name in drawings:
        svg = (HW / "build" / name).read_text()
        assert svg.startswith("<svg") and "Layer" in svg
    assert "binaryon doctor --bring-up" in text


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_wiring_plan_names_every_net_of_the_netlist(variant):
    _, netfile, _ = schematic.VARIANTS[variant]
    all_nets = nets(HW / netfile)
    text = guide(variant)
    plan = text[text.index("## 4. Hand-wiring plan") : text.index("## 5. Bring-up test")]
    single = re.findall(r"^\d+\. `([^`]+)`: ", plan, re.M)
    grouped = re.findall(r"^\d+\. For each of (\d+) squares \(a\d to h\d\), one short link like "
                         r"`([^`]+)`", plan, re.M)  # fmt: skip
    assert set(single) <= set(all_nets)
    assert len(single) + sum(int(n) for n, _ in grouped) == len(all_nets)
    steps = [int(s) for s in re.findall(r"^(\d+)\. ", plan, re.M)]
    assert steps == list(range(1, len(steps) + 1))  # numbered in order
    for net in single:  # each line lists the pins its net joins
        line = re.search(rf"^\d+\. `{re.escape(net)}`: (.*)$", plan, re.M).group(1)
        if len(all_nets[net]) <= 4:
            for ref, pin in all_nets[net]:
                assert f"{ref} pin {pin}" in line, (net, ref, pin)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_matrix_drawing_labels_each_wire_with_its_netlist_end(variant):
    _, netfile, _ = schematic.VARIANTS[variant]
    n = nets(HW / netfile)
    svg = (HW / "build" / f"layer-matrix-{variant}.svg").read_text()
    cols = [f"COL{f.upper()}" for f in FILES]
    if variant == "pico-hall":
        cols += [f"COLB{f.upper()}" for f in FILES]
    for net in [f"ROW{r}" for r in range(1, 9)] + cols:
        (end,) = [(r, p) for r, p in n[net] if r == "U1" or r.startswith("RJ")]
        expect = f"Pico pad {end[1]}" if end[0] == "U1" else f"{end[0]} to J2 pin {end[0][2:]}"
        assert f">{net} → {expect}<" in svg, (net, expect)
    if variant.startswith("gpio"):  # and that is the pinout's header pin
        row1 = pinout.PI_HEADER[pinout.PI_ROWS[0]]
        assert f">ROW1 → RJ{row1} to J2 pin {row1}<" in svg


@pytest.mark.parametrize("variant", VARIANTS)
def test_what_to_buy_is_the_boms_column_for_the_build(variant):
    column = 3 + VARIANTS.index(variant)
    bom = {}
    for line in (HW / "bom.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and not line.startswith("| part |") and cells[column] != "—":
            bom[cells[2]] = cells[column]
    text = guide(variant)
    buy = text[text.index("## 1. What to buy") : text.index("## 2.")]
    rows = re.findall(r"^\| ([\d.]+) \| [^|]+ \| [^|]+ \| ([^|]+) \|", buy, re.M)
    assert {mpn.strip(): qty for qty, mpn in rows} == bom


def test_the_led_drawing_follows_the_chain_and_shows_the_feeds():
    svg = (HW / "build" / "layer-leds.svg").read_text()
    assert "data in at a1: LED_a1 pin 4, R1 pin 2" in svg
    assert "5 V in: J1 -&gt; F1 -&gt; D1 -&gt; Q1 -&gt; C1 -&gt; bus (AWG 20)" in svg
    assert svg.count('fill="#fff0c0"') == 64  # every LED drawn


def test_the_readme_links_every_guide():
    readme = (HW / "README.md").read_text()
    for variant in VARIANTS:
        assert f"(build/{variant}.md)" in readme
