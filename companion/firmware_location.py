"""Where the board firmware (MicroPython, for the Pico) is on this machine.

An installed wheel carries it as ``companion/firmware/`` (setup.py copies it there); a
checkout, editable installs included, has it at the top of the repository as ``firmware/``.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def is_firmware(folder: Path) -> bool:
    return (folder / "main.py").is_file() and (folder / "boardfw").is_dir()


def firmware_dir(package: Path = PACKAGE) -> Path:
    """The packaged copy when there is one, else the checkout's ``firmware/`` (also the
    path named in errors when neither is there)."""
    packaged, checkout = package / "firmware", package.parent / "firmware"
    return packaged if is_firmware(packaged) else checkout
