"""Importing the package (every module of it) on a desktop never touches Pi-only modules."""

import subprocess
import sys

PI_ONLY = ("RPi", "lgpio", "spidev", "rpi_ws281x", "smbus")

CODE = f"""
import importlib, pkgutil, sys
import companion
for m in pkgutil.walk_packages(companion.__path__, "companion."):
    importlib.import_module(m.name)
bad = sorted(n for n in sys.modules if n.split(".")[0] in {PI_ONLY!r})
print(",".join(bad))
"""


def test_no_pi_only_module_is_imported():
    out = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == ""
