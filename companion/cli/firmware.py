"""``binaryon firmware install [--port PORT] [--dry-run]``: flash the board link firmware that
ships with the companion (companion/firmware/ in a wheel, firmware/ in a checkout) onto the
Pico, with a config.py written from the companion's config ([board] size, kind, debounce_ms;
[leds] brightness; [firmware] pins and the rest), so nothing is edited inside site-packages.

Steps: stop binaryon.service if it runs (it holds the port), ask the running firmware for a
maintenance reboot (MAINT), copy the files with mpremote (the ``firmware`` extra) and reset
the Pico with the reset flag that says "install", then start the service again, also when a
step failed. ``--dry-run`` prints all of that, with the generated config.py, and touches
nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SERVICE = "binaryon.service"
MAINT_WAIT = 3.0  # s: the Pico's reboot into the REPL and USB re-enumeration
FLAG = 'open("reset.flag", "w").write("install")'
SKIP = {"__pycache__"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=["install"], help="install: copy the firmware to the Pico")
    p.add_argument("--port", metavar="PORT", help="the Pico's port (default: [board] driver's "
                   "serial:PORT, else the first Pico found)")  # fmt: skip
    p.add_argument("--config", metavar="FILE", help="the companion's TOML config")
    p.add_argument("--dry-run", action="store_true", help="print what would be done and written")


def firmware_files(firmware: Path) -> list[Path]:
    """The firmware's files to copy (relative), without caches and the shipped config.py."""
    return sorted(
        p.relative_to(firmware)
        for p in firmware.rglob("*")
        if p.is_file()
        and not SKIP & set(p.relative_to(firmware).parts)
        and p.suffix == ".py"
        and p.relative_to(firmware) != Path("config.py")
    )


def mpremote_program() -> str | None:
    here = Path(sys.executable).parent / "mpremote"
    return str(here) if here.exists() else shutil.which("mpremote")


def copy_command(mpremote: str, port: str, stage: Path) -> list[str]:
    """The one mpremote command: copy, write the reset flag, reset."""
    return [
        mpremote, "connect", port,
        "cp", "-r", str(stage / "boardfw"), str(stage / "config.py"), str(stage / "main.py"), ":",
        "+", "exec", FLAG, "+", "reset",
    ]  # fmt: skip


def _port(args: argparse.Namespace, config) -> str:
    if args.port:
        return args.port
    driver = config.board.driver
    if driver.startswith("serial:") and driver.split(":", 1)[1] not in ("", "auto"):
        return driver.split(":", 1)[1]
    from companion.hardware.pico_port import find_pico_port

    return find_pico_port()  # BoardNotFound: one line


def _found_config() -> str:
    """Which file load_config read when none was named (for config.py's header)."""
    from companion.service.app import CONFIG_PLACES

    for place in CONFIG_PLACES:
        if os.path.exists(os.path.expanduser(place)):
            return place
    return "the companion's default settings"


def _sudo() -> list[str]:
    return [] if os.geteuid() == 0 else ["sudo"]


def service_running() -> bool:
    if shutil.which("systemctl") is None:
        return False
    done = subprocess.run(
        ["systemctl", "is-active", "--quiet", SERVICE],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    return done.returncode == 0


def stage_files(firmware: Path, config_py: str, stage: Path) -> list[Path]:
    """The files to copy, laid out in ``stage`` as they go on the Pico."""
    files = firmware_files(firmware)
    for rel in files:
        (stage / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(firmware / rel, stage / rel)
    (stage / "config.py").write_text(config_py)
    return [*files, Path("config.py")]


def maintenance_reboot(port: str) -> str | None:
    """Ask a running firmware to reboot into the REPL (harmless on a Pico without it); why
    the port could not be used, or None."""
    import serial

    from companion.hardware import link_protocol as lp

    if not os.path.exists(port):
        return f"no port {port}: is the Pico plugged in? (--port names another)"
    try:
        with serial.Serial(port, 115200, timeout=0.2, write_timeout=1) as ser:
            ser.write(lp.CMD_MAINTENANCE)
            ser.flush()
    except (OSError, serial.SerialException) as e:
        return f"cannot open {port}: {' '.join(str(e).split())}"
    time.sleep(MAINT_WAIT)
    return None


def _failed(line: str) -> int:
    """One line on stderr, and the command's exit status."""
    print(f"binaryon firmware install: {line}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    from companion.core.config import ConfigError
    from companion.firmware_location import firmware_dir, is_firmware
    from companion.hardware.firmware_settings import FirmwareSettingsError, config_text
    from companion.hardware.pico_port import BoardNotFound
    from companion.service.app import load_config

    firmware = firmware_dir()
    if not is_firmware(firmware):
        return _failed(f"no firmware at {firmware} (a broken install?)")
    try:
        config = load_config(args.config)
        source = args.config or os.environ.get("BINARYON_CONFIG") or _found_config()
        config_py = config_text(config, firmware, source)
    except (ConfigError, FirmwareSettingsError) as e:
        return _failed(str(e))
    mpremote = mpremote_program()
    try:
        port = _port(args, config)
    except BoardNotFound as e:
        if not args.dry_run:
            return _failed(str(e))
        port = "PORT"
        print(f"(dry run) {e}")
    missing = (
        "mpremote is missing: pip install 'binaryon-companion[firmware]' (or pip install mpremote)"
    )
    if mpremote is None and not args.dry_run:
        return _failed(missing)
    if mpremote is None:  # the plan is printed all the same: it would stop here
        print(f"(dry run) {missing}")
    with tempfile.TemporaryDirectory(prefix="binaryon-fw-") as tmp:
        stage = Path(tmp)
        files = stage_files(firmware, config_py, stage)
        command = copy_command(mpremote or "mpremote", port, stage)
        if args.dry_run:
            print_plan(port, firmware, files, command, config_py)
            return 0
        return flash(port, command)


def print_plan(port: str, firmware: Path, files: list[Path], command: list[str], text: str) -> None:
    print("binaryon firmware install --dry-run: nothing is done; the steps would be:")
    print(f"1. if {SERVICE} runs: {shlex.join([*_sudo(), 'systemctl', 'stop', SERVICE])}")
    print(f"2. maintenance reboot: MAINT to {port}, then wait {MAINT_WAIT:g} s")
    print(f"3. copy (from a temporary folder laid out as below) and reset: {shlex.join(command)}")
    print(f"4. if it ran: {shlex.join([*_sudo(), 'systemctl', 'start', SERVICE])}")
    print(f"Files written on the Pico (from {firmware}, config.py generated):")
    for rel in files:
        print(f"  {rel.as_posix()}")
    print('  reset.flag ("install": the next boot is no watchdog reset)')
    print("--- config.py ---")
    print(text, end="")
    print("--- end of config.py ---")


def flash(port: str, command: list[str]) -> int:
    stopped = False
    try:
        if service_running():
            print(f"stopping {SERVICE} for the copy")
            subprocess.run([*_sudo(), "systemctl", "stop", SERVICE], check=True)
            stopped = True
        problem = maintenance_reboot(port)
        if problem is not None:
            return _failed(problem)
        print(f"copying the firmware to {port}")
        done = subprocess.run(command, check=False)
        if done.returncode != 0:
            return _failed(f"mpremote failed (exit {done.returncode})")
        print(f"firmware installed on {port}")
        return 0
    except subprocess.CalledProcessError as e:
        return _failed(f"{' '.join(e.cmd)} failed (exit {e.returncode})")
    except OSError as e:  # e.g. no sudo to stop the service with
        return _failed(f"{e.strerror or e}: {e.filename or ''}".rstrip(": "))
    finally:
        if stopped:
            print(f"starting {SERVICE} again")
            with contextlib.suppress(OSError):
                subprocess.run([*_sudo(), "systemctl", "start", SERVICE], check=False)
