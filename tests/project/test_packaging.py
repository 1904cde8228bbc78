"""The package as pyproject.toml builds it: the version written in one place, the hardware
modules in extras, package data that exists, the pins and warning filters, and the firmware
shipped inside the package (the built copy found and simulated away from the checkout).
"""

from __future__ import annotations

import filecmp
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

from tests.paths import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())


def test_the_version_is_written_in_one_place():
    """companion.VERSION, read by pyproject.toml: no other file spells it."""
    import companion

    assert PYPROJECT["project"]["dynamic"] == ["version"] and "version" not in PYPROJECT["project"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "companion.VERSION"}
    assert companion.__version__ == companion.VERSION == version("binaryon-companion")
    written = [
        p
        for p in (REPO / "companion").rglob("*.py")
        if re.search(r"""__version__\s*=\s*["']""", p.read_text())
    ]
    assert written == []


def test_optional_hardware_modules_are_declared_in_extras():
    extras = PYPROJECT["project"]["optional-dependencies"]
    declared = " ".join(" ".join(v) for v in extras.values())
    assert "smbus2" in declared and "rpi_ws281x" in declared


def test_no_package_data_names_a_missing_folder():
    data = PYPROJECT.get("tool", {}).get("setuptools", {}).get("package-data", {})
    for package, patterns in data.items():
        base = REPO / package.replace(".", "/")
        for pattern in patterns:
            assert list(base.glob(pattern)), f"{package}: {pattern} matches nothing"


def test_pillow_is_pinned_below_the_release_that_drops_getdata():
    pillow = next(d for d in PYPROJECT["project"]["dependencies"] if d.startswith("pillow"))
    assert "<14" in pillow


def test_warnings_are_errors_with_narrow_ignores():
    rules = PYPROJECT["tool"]["pytest"]["ini_options"]["filterwarnings"]
    assert rules[0] == "error"
    for rule in rules[1:]:
        action, message, category, module = rule.split(":")[:4]
        assert action == "ignore" and message and category and module  # never a blanket ignore


def test_firmware_location_prefers_the_packaged_copy(tmp_path):
    from companion.firmware_location import firmware_dir

    package = tmp_path / "site" / "companion"
    (package / "firmware" / "boardfw").mkdir(parents=True)
    assert firmware_dir(package) == tmp_path / "site" / "firmware"  # no main.py: not firmware
    (package / "firmware" / "main.py").write_text("")
    assert firmware_dir(package) == package / "firmware"


def test_in_a_checkout_the_simulator_uses_the_top_level_firmware():
    from companion.hardware.simulated.pico_firmware import FIRMWARE_DIR

    assert FIRMWARE_DIR == REPO / "firmware"


def test_the_build_ships_the_firmware_and_the_built_package_simulates_it(tmp_path):
    lib = tmp_path / "lib"
    build = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert build.returncode == 0, build.stderr
    shipped = lib / "companion" / "firmware"
    source = REPO / "firmware"
    files = sorted(
        p.relative_to(source)
        for p in source.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )
    assert files and (Path("boardfw") / "app.py") in files
    for rel in files:
        assert filecmp.cmp(source / rel, shipped / rel, shallow=False), rel
    assert os.access(shipped / "install.sh", os.X_OK)  # the flashing script stays runnable
    # the built package, away from the checkout, runs that copy in the simulated Pico
    probe = (
        "from companion.hardware.simulated.pico_firmware import FIRMWARE_DIR\n"
        "from companion.hardware.simulated.pico_sim import SimulatedPico\n"
        "pico = SimulatedPico(size=8)\n"
        "print(FIRMWARE_DIR)\n"
        "pico.close()\n"
    )
    env = dict(os.environ, PYTHONPATH=str(lib))
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(shipped)
