"""The real board firmware (firmware/boardfw) loaded under CPython, with the MicroPython
stand-ins installed, and its configuration (firmware/config.py) for a simulated board."""

from __future__ import annotations

import importlib
import importlib.util
import runpy
import sys
import threading
import types

from companion.firmware_location import firmware_dir
from companion.hardware.simulated.micropython_stand_ins import install_stand_ins

FIRMWARE_DIR = firmware_dir()  # companion/firmware/ when installed, firmware/ in a checkout


_fw_lock = threading.Lock()


def load_firmware() -> types.ModuleType:
    """Import firmware/boardfw (as the top-level package ``boardfw``) and return boardfw.app."""
    with _fw_lock:
        install_stand_ins()
        if "boardfw" in sys.modules:
            return importlib.import_module("boardfw.app")
        # No __pycache__ in firmware/: `mpremote cp -r` would copy it onto the Pico.
        saved, sys.dont_write_bytecode = sys.dont_write_bytecode, True
        try:
            pkg_dir = FIRMWARE_DIR / "boardfw"
            if not pkg_dir.is_dir():
                raise FileNotFoundError(f"firmware not found at {pkg_dir}")
            spec = importlib.util.spec_from_file_location(
                "boardfw", pkg_dir / "__init__.py", submodule_search_locations=[str(pkg_dir)]
            )
            assert spec and spec.loader
            pkg = importlib.util.module_from_spec(spec)
            sys.modules["boardfw"] = pkg
            spec.loader.exec_module(pkg)
            return importlib.import_module("boardfw.app")
        finally:
            sys.dont_write_bytecode = saved


def firmware_config(size: int = 8, kind: str = "switch", **overrides) -> types.SimpleNamespace:
    """firmware/config.py's settings with the board size, kind and any overrides applied."""
    values = {k: v for k, v in runpy.run_path(str(FIRMWARE_DIR / "config.py")).items()
              if k.isupper()}  # fmt: skip
    values.update(SIZE=size, KIND=kind)
    if size <= len(values["ROW_PINS"]):
        for key in ("ROW_PINS", "COL_PINS", "COL_PINS_B"):
            values[key] = tuple(values[key][:size])
    else:  # more lines than a Pico has: virtual pin numbers, per-pin reads
        values.update(ROW_PINS=tuple(range(size)), COL_PINS=tuple(range(32, 32 + size)),
                      COL_PINS_B=tuple(range(64, 64 + size)), FAST_IO=False)  # fmt: skip
    values.update(overrides)
    return types.SimpleNamespace(**values)
