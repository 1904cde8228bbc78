"""The build step pyproject.toml cannot express: ship the board firmware in the package.

The firmware lives at the top of the repository (``firmware/``, where ``mpremote`` and
``firmware/install.sh`` expect it); the wheel carries a copy as ``companion/firmware/`` so an
installed companion can run it in the simulator (``binaryon sim --link serial``) and flash it.
Everything else is configured in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

FIRMWARE = Path(__file__).resolve().parent / "firmware"
SKIP = {"__pycache__"}


def firmware_files() -> list[Path]:
    """The firmware's files, relative to firmware/ (no caches)."""
    return sorted(
        p.relative_to(FIRMWARE)
        for p in FIRMWARE.rglob("*")
        if p.is_file() and not SKIP & set(p.relative_to(FIRMWARE).parts) and p.suffix != ".pyc"
    )


class BuildWithFirmware(build_py):
    """build_py, then firmware/ copied to companion/firmware/ in the build (modes kept)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # a checkout uses firmware/ where it is
            return
        target = Path(self.build_lib) / "companion" / "firmware"
        for rel in firmware_files():
            self.mkpath(str((target / rel).parent))
            self.copy_file(str(FIRMWARE / rel), str(target / rel))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        target = Path(self.build_lib) / "companion" / "firmware"
        return outputs + [str(target / rel) for rel in firmware_files()]


setup(cmdclass={"build_py": BuildWithFirmware})
