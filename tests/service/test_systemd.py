"""The systemd unit, the udev rule and `binaryon install-service` (under a root prefix)."""

from __future__ import annotations

import argparse
import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli import install_service
from companion.core.config import Config
from companion.hardware import pinout
from tests.paths import REPO

UNIT = REPO / "systemd" / "binaryon.service"
RULE = REPO / "systemd" / "99-binaryon.rules"


def unit_values() -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            values.setdefault(key.strip(), []).append(value.strip())
    return values


def test_unit_runs_unprivileged_with_notify_watchdog_and_restart():
    v = unit_values()
    assert v["Type"] == ["notify"]
    assert int(v["WatchdogSec"][0]) >= 10
    assert v["Restart"] == ["on-failure"]
    assert v["User"][0] not in ("root", "0")
    assert set(v["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "spi", "dialout"}


def test_unit_devices_are_closed_except_gpio_i2c_spi_serial():
    v = unit_values()
    assert v["DevicePolicy"] == ["closed"]
    allowed = {d.split()[0] for d in v["DeviceAllow"]}
    assert {"char-gpiochip", "char-i2c", "char-spi", "char-ttyACM"} <= allowed
    assert "PrivateDevices" not in v  # it would hide /dev/gpiochip*, /dev/i2c-*, /dev/ttyACM*
    assert v["NoNewPrivileges"] == ["yes"] and v["ProtectSystem"] == ["strict"]
    assert v["CapabilityBoundingSet"] == [""]


def test_unit_lets_the_board_reach_a_club_broker_on_the_lan():
    """[club] broker: an outgoing TCP connection to any address of the LAN (the sandbox test
    runs the service against a real broker under the unit's filters)."""
    v = unit_values()
    families = set(" ".join(v["RestrictAddressFamilies"]).split())
    assert {"AF_INET", "AF_INET6"} <= families and not any(f.startswith("~") for f in families)
    assert "IPAddressDeny" not in v and "IPAddressAllow" not in v
    assert v.get("PrivateNetwork", ["no"]) == ["no"]


def test_unit_parses_as_ini():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string(UNIT.read_text().replace("DeviceAllow=", "#"))
    assert set(parser.sections()) == {"Unit", "Service", "Install"}
    assert parser["Install"]["WantedBy"] == "multi-user.target"


@pytest.fixture
def rendered(tmp_path) -> Path:
    """The unit as install-service writes it, pointing at a binaryon that exists."""
    exe = tmp_path / "bin" / "binaryon"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    out = tmp_path / "binaryon.service"
    out.write_text(install_service.render_unit(UNIT.read_text(), str(exe), "binaryon"))
    return out


def test_systemd_analyze_verify(rendered):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    r = subprocess.run([tool, "verify", str(rendered)], capture_output=True, text=True)
    # verify exits 0 even on "ignoring" warnings: any line about our file is a failure
    complaints = [ln for ln in (r.stdout + r.stderr).splitlines() if rendered.name in ln]
    assert r.returncode == 0 and complaints == [], r.stdout + r.stderr


def test_systemd_analyze_security_exposure_is_low(rendered):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed")
    r = subprocess.run(
        [tool, "security", "--offline=yes", "--threshold=30", str(rendered)],
        capture_output=True,
        text=True,
    )
    if "--offline" in r.stderr or "unrecognized option" in r.stderr:
        pytest.skip("this systemd-analyze has no offline security check")
    match = re.search(r"Overall exposure level for \S+: ([\d.]+)", r.stdout)
    assert match, r.stdout + r.stderr
    assert float(match.group(1)) <= 3.0 and r.returncode == 0


def test_render_unit_rewrites_exec_and_user():
    text = install_service.render_unit(UNIT.read_text(), "/srv/venv/bin/binaryon", "referee")
    assert "ExecStart=/srv/venv/bin/binaryon run --config /etc/binaryon/config.toml" in text
    assert "\nUser=referee\n" in text and "\nGroup=referee\n" in text
    with pytest.raises(ValueError, match="absolute"):
        install_service.render_unit(UNIT.read_text(), "binaryon", "x")


def test_udev_rule_names_the_pico():
    lines = [ln for ln in RULE.read_text().splitlines() if ln and not ln.startswith("#")]
    assert len(lines) == 1
    pairs = re.findall(r'([A-Z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|=|:=)\s*"([^"]*)"', lines[0])
    # every comma-separated part was understood
    assert len(pairs) == len(lines[0].split(", "))
    rule = {(k, op): v for k, op, v in pairs}
    vid, pid = pinout.PICO_USB_VID_PID
    assert rule[("ATTRS{idVendor}", "==")] == f"{vid:04x}"
    assert rule[("ATTRS{idProduct}", "==")] == f"{pid:04x}"
    assert rule[("SUBSYSTEM", "==")] == "tty"
    assert rule[("SYMLINK", "+=")] == "binaryon-board"
    assert rule[("GROUP", "=")] == "dialout"


def args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    install_service.add_arguments(p)
    return p.parse_args(list(argv))


def test_dry_run_writes_nothing(tmp_path, capsys):
    assert install_service.run(args("--dry-run", "--root", str(tmp_path))) == 0
    out = capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []
    assert "would install " + str(tmp_path / "etc/systemd/system/binaryon.service") in out
    assert "useradd --system" in out and "usermod --append --groups gpio,i2c,spi,dialout" in out
    assert "raspi-config nonint do_i2c 0" in out


def test_install_under_a_root_prefix(tmp_path, capsys):
    exe = tmp_path / "venv/bin/binaryon"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    code = install_service.run(args("--root", str(tmp_path), "--exec", str(exe)))
    out = capsys.readouterr().out
    assert code == 0, out
    unit = (tmp_path / "etc/systemd/system/binaryon.service").read_text()
    assert f"ExecStart={exe} run" in unit
    assert (tmp_path / "etc/udev/rules.d/99-binaryon.rules").read_text() == RULE.read_text()
    config = tmp_path / "etc/binaryon/config.toml"
    # the starter config changes nothing but turning the table page on
    assert Config.load(config) == Config.default().with_overrides(web={"listen": "0.0.0.0:8080"})
    assert "skipped (--root): create the system user" in out
    if shutil.which("systemctl"):
        link = tmp_path / "etc/systemd/system/multi-user.target.wants/binaryon.service"
        assert link.is_symlink()
    # a second run keeps the user's config
    config.write_text('[display]\ndriver = "sh1106"\n')
    assert install_service.run(args("--root", str(tmp_path), "--exec", str(exe))) == 0
    assert "sh1106" in config.read_text()
    assert f"kept {config}" in capsys.readouterr().out


@pytest.mark.parametrize(
    "exe", ["/home/pi/venv/bin/binaryon", "/root/venv/bin/binaryon", "/run/user/1000/b/binaryon"]
)
def test_a_program_the_unit_cannot_reach_is_refused_in_one_line(tmp_path, capsys, exe):
    code = install_service.run(args("--root", str(tmp_path), "--exec", exe))
    err = capsys.readouterr().err
    assert code == 1 and list(tmp_path.iterdir()) == []
    assert err.count("\n") == 1 and exe in err
    assert "ProtectHome=yes" in err and "/opt/binaryon/venv" in err and "--force" in err


def test_a_script_whose_venv_is_under_home_is_refused(tmp_path, capsys):
    exe = tmp_path / "bin/binaryon"  # e.g. /usr/local/bin/binaryon copied from a home venv
    exe.parent.mkdir()
    exe.write_text("#!/home/pi/.venv/bin/python\nfrom companion.cli.main import main\n")
    assert install_service.run(args("--root", str(tmp_path / "r"), "--exec", str(exe))) == 1
    assert "its Python (/home/pi/.venv/bin/python) is under /home" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_force_installs_anyway_and_dry_run_only_notes_it(tmp_path, capsys):
    exe = "/home/pi/venv/bin/binaryon"
    assert install_service.run(args("--dry-run", "--root", str(tmp_path), "--exec", exe)) == 0
    out = capsys.readouterr().out
    assert "note: the install would stop here:" in out and list(tmp_path.iterdir()) == []
    assert install_service.run(args("--root", str(tmp_path), "--exec", exe, "--force")) == 0
    unit = (tmp_path / "etc/systemd/system/binaryon.service").read_text()
    assert f"ExecStart={exe} run" in unit


def test_not_a_pi_refuses_a_real_install_but_dry_run_works(monkeypatch, capsys):
    monkeypatch.setattr(install_service, "on_a_pi", lambda: False)
    ran = []
    monkeypatch.setattr(install_service, "execute", lambda *a, **k: ran.append(a) or 0)
    assert install_service.run(args()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a Raspberry Pi" in err and "--force" in err
    assert ran == []
    assert install_service.run(args("--dry-run")) == 0 and len(ran) == 1
    assert ran[0][2] is True  # dry run


def test_the_checks_pass_on_a_pi_with_the_opt_recipe_and_force_skips_them(monkeypatch):
    monkeypatch.setattr(install_service, "on_a_pi", lambda: True)
    opt = install_service.DEFAULT_EXEC
    root = Path("/")
    assert install_service.refusal(args("--exec", opt), root, opt) is None
    monkeypatch.setattr(install_service, "on_a_pi", lambda: False)
    assert "not a Raspberry Pi" in install_service.refusal(args("--exec", opt), root, opt)
    assert install_service.refusal(args("--exec", opt, "--force"), root, opt) is None
    home = "/home/pi/venv/bin/binaryon"
    assert install_service.refusal(args("--exec", home, "--force"), root, home) is None
