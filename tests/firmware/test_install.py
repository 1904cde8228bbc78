"""Every documented way of putting the firmware on a Pico, run for real: the real ``mpremote``
copies firmware/ into the MicroPython Pico of tests/mpy_pico.py (the unix port behind a pty, in
its REPL after a maintenance boot) and resets it; the first boot must then report its cause
truthfully (``HELLO ... reset=``) and never a false ``ERR wdt``."""

# ruff: noqa: F811 - pytest fixtures imported from test_firmware_mpy are parameters here

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hardware import link_protocol as lp
from tests.firmware.test_mpy import is_, link, pico  # noqa: F401 - the fixtures
from tests.mpy_pico import PWRON_RESET, REASON_TIMER, WDT_RESET
from tests.paths import REPO

BIN = Path(sys.executable).parent


def mpremote() -> str:
    found = BIN / "mpremote"
    if found.exists():
        return str(found)
    path = shutil.which("mpremote")
    if path is None:
        pytest.fail("mpremote is missing: install the dev extras (pip install -e '.[dev]')")
    return path


def stub_bin(tmp_path: Path, active: bool = True) -> tuple[dict, Path]:
    """A PATH with a ``systemctl`` that logs its calls (with the time) and says the service
    is active or not, and a ``sudo`` that just runs the command; then the venv's mpremote."""
    stubs = tmp_path / "bin"
    stubs.mkdir()
    log = tmp_path / "systemctl.log"
    (stubs / "systemctl").write_text(
        "#!/bin/sh\n"
        f'echo "$(date +%s.%N) $*" >> {log}\n'
        f'[ "$1" = is-active ] && exit {0 if active else 3}\n'
        "exit 0\n"
    )
    (stubs / "sudo").write_text('#!/bin/sh\nexec "$@"\n')
    for f in stubs.iterdir():
        f.chmod(0o755)
    path = f"{stubs}:{Path(mpremote()).parent}:{os.environ.get('PATH', '')}"
    return dict(os.environ, PATH=path), log


def calls(log: Path) -> list[tuple[float, str]]:
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        stamp, _, args = line.partition(" ")
        out.append((float(stamp), args))
    return out


def first_boot_report(p, link):
    """The HELLO of the running boot and the errors that follow it."""
    k = link(p.port)
    k.send(lp.CMD_HELLO)
    hello = k.wait(is_(lp.Hello))
    k.wait(is_(lp.Snapshot))
    errors = [m for m in k.new(0.4) if isinstance(m, lp.BoardError)]
    return hello, errors


def not_line_noise(errors):
    """The errors that say something of the boot. A busy test machine can leave bytes of
    mpremote's last exchange in the simulated USB line across the reset (a real Pico's USB
    starts empty), and the firmware rightly reports that line as ``ERR crc``."""
    return [e for e in errors if e.code != "crc"]


def fresh_pico(pico):
    """A Pico with MicroPython only (no main.py): it sits in the REPL."""
    p = pico()
    p.wait_report("wdt armed")  # the firmware has loaded its files
    shutil.rmtree(p.flash / "boardfw")
    (p.flash / "main.py").unlink()
    (p.flash / "config.py").unlink()
    p.power_cycle(PWRON_RESET)
    p.wait(lambda: p.exits)
    return p


@pytest.mark.micropython
def test_install_sh_stops_the_service_copies_resets_and_starts_it_again(pico, link, tmp_path):
    p = pico()
    env, log = stub_bin(tmp_path, active=True)
    run = subprocess.run(
        ["sh", str(REPO / "firmware/install.sh"), p.port],
        env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    p.wait(lambda: len(p.boots) == 3)
    assert p.boots == [PWRON_RESET, WDT_RESET, WDT_RESET]  # MAINT, then mpremote's reset
    done = calls(log)
    assert [c for _, c in done] == [
        "is-active --quiet binaryon.service",
        "stop binaryon.service",
        "start binaryon.service",
    ]
    # stopped before the MAINT reboot, started again only once the copy was over
    assert done[1][0] < p.boot_times[1] < done[2][0]
    assert (p.flash / "config.py").read_bytes() == (REPO / "firmware/config.py").read_bytes()
    hello, errors = first_boot_report(p, link)
    assert not_line_noise(errors) == [] and hello.fields.get("reset") == "install"


def test_install_sh_starts_the_service_again_when_the_copy_fails(tmp_path):
    env, log = stub_bin(tmp_path, active=True)
    run = subprocess.run(
        ["sh", str(REPO / "firmware/install.sh"), str(tmp_path / "no-such-port")],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode != 0
    assert [c for _, c in calls(log)] == [
        "is-active --quiet binaryon.service",
        "stop binaryon.service",
        "start binaryon.service",
    ]


@pytest.mark.micropython
def test_install_sh_leaves_a_service_that_is_not_running_alone(pico, tmp_path):
    p = pico()
    env, log = stub_bin(tmp_path, active=False)
    run = subprocess.run(
        ["sh", str(REPO / "firmware/install.sh"), p.port],
        env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert [c for _, c in calls(log)] == ["is-active --quiet binaryon.service"]


@pytest.mark.micropython
def test_the_bare_copy_of_the_readme_boots_without_a_false_watchdog_error(pico, link):
    p = fresh_pico(pico)
    fw = REPO / "firmware"
    run = subprocess.run(
        [mpremote(), "connect", p.port, "cp", "-r", str(fw / "boardfw"), str(fw / "config.py"),
         str(fw / "main.py"), ":", "+", "reset"],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    p.wait(lambda: len(p.boots) == 3)  # power-on, then mpremote's machine.reset()
    assert p.boots[-1] == WDT_RESET and "reset.flag" not in p.flash_files()
    hello, errors = first_boot_report(p, link)
    assert not_line_noise(errors) == [] and hello.fields.get("reset") == "reset"


@pytest.mark.micropython
def test_power_on_after_a_copy_is_reported_as_such(pico, link):
    p = pico()
    (p.flash / "reset.flag").write_text("install")  # left over: the reset never came
    p.power_cycle(PWRON_RESET)  # unplugged and plugged in instead
    hello, errors = first_boot_report(p, link)
    assert errors == [] and hello.fields.get("reset") == "power"
    assert "reset.flag" not in p.flash_files()


@pytest.mark.micropython
def test_a_watchdog_reset_is_reported_even_after_an_install_flag(pico, link):
    p = pico()
    (p.flash / "reset.flag").write_text("install")
    p.power_cycle(WDT_RESET, REASON_TIMER)  # the timer ran out: the chip's record says so
    hello, errors = first_boot_report(p, link)
    assert hello.fields["reset"] == "watchdog"
    assert [(e.code, e.detail) for e in errors] == [("wdt", "restarted by watchdog")]
