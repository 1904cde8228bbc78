"""`binaryon doctor` on this machine, on a faked Pi file tree, and its LED/button self-test."""

from __future__ import annotations

import argparse
import io
import itertools
import json

from companion.cli import doctor
from companion.cli.doctor import MISSING, OK, Probe, report, run_checks, self_test
from companion.hardware import pinout
from companion.hardware.buttons import Buttons
from companion.hardware.pi_leds import open_leds


class FakePi(Probe):
    """A Pi file tree under tmp_path; bus, USB and pins answer as told."""

    def __init__(self, root, *, answers=(), ports=(), rest=None, groups=("gpio", "i2c")):
        super().__init__(root)
        self.answers = set(answers)
        self.ports = list(ports)
        self.rest = rest if rest is not None else dict.fromkeys(pinout.PI_BUTTONS, False)
        self.groups = set(groups)

    def i2c_answers(self, port, address):
        return address in self.answers

    def usb_serial_ports(self):
        return self.ports

    def has_module(self, name):
        return name == "lgpio"

    def user_groups(self):
        return self.groups

    def buttons_at_rest(self, pins):
        return self.rest

    def service_state(self):
        return None

    def is_root(self):
        return False


def make_tree(root, *devices, model="Raspberry Pi 4 Model B Rev 1.4"):
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_text(model + "\0")
    (root / "dev").mkdir()
    for d in devices:
        (root / "dev" / d).write_text("")


def by_name(checks):
    return {c.name: c for c in checks}


def test_this_machine_reports_without_crashing():
    checks = run_checks(Probe())
    assert checks[0].name == "machine"
    out = io.StringIO()
    report(checks, out)
    assert "machine" in out.getvalue()


def test_not_a_pi_skips_hardware_and_finds_nothing_missing(tmp_path):
    checks = run_checks(FakePi(tmp_path))
    assert [c.status for c in checks] == ["info", "info"]
    assert "simulated board" in checks[0].detail


def test_bare_pi_says_what_to_enable(tmp_path):
    make_tree(tmp_path)
    checks = by_name(run_checks(FakePi(tmp_path)))
    assert checks["machine"].status == OK
    assert checks["I2C"].status == MISSING
    assert checks["I2C"].fix == "sudo raspi-config nonint do_i2c 0, then reboot"
    assert "do_spi 0" in checks["SPI (Pi-driven LEDs)"].fix
    assert checks["GPIO"].status == MISSING
    assert checks["board link"].status == MISSING
    assert "spi, dialout" in checks["groups"].detail
    out = io.StringIO()
    report(list(checks.values()), out)
    text = out.getvalue()
    assert "fix: sudo raspi-config nonint do_i2c 0" in text and "problems found" in text


def test_working_pi(tmp_path):
    make_tree(tmp_path, "i2c-1", "gpiochip0", "spidev0.0", "ttyACM0", "binaryon-board")
    probe = FakePi(
        tmp_path,
        answers={0x3C},
        ports=[("/dev/ttyACM0", 0x2E8A, 0x0005, "Board in FS mode")],
        groups=("gpio", "i2c", "spi", "dialout"),
    )
    checks = run_checks(probe)
    assert [c.name for c in checks if c.status == MISSING] == []
    assert by_name(checks)["display"].detail.startswith("a device answers at 0x3C")


def test_display_at_the_other_address_and_pico_without_udev_name(tmp_path):
    make_tree(tmp_path, "i2c-1", "gpiochip0", "ttyACM0")
    probe = FakePi(tmp_path, answers={0x3D}, ports=[("/dev/ttyACM0", 0x2E8A, 0x0005, "")])
    checks = by_name(run_checks(probe))
    assert "0x3D" in checks["display"].detail and "i2c_address = 0x3D" in checks["display"].fix
    assert checks["board name"].status == MISSING
    assert "install-service" in checks["board name"].fix


def test_stuck_button_is_named_with_its_pin(tmp_path):
    make_tree(tmp_path, "gpiochip0")
    rest = {"confirm": False, "undo": True, "menu": False}
    checks = by_name(run_checks(FakePi(tmp_path, rest=rest)))
    assert checks["buttons"].status == MISSING
    assert f"undo (GPIO{pinout.PI_BUTTONS['undo']})" in checks["buttons"].detail


def test_json_output(capsys, monkeypatch):
    monkeypatch.delenv("BINARYON_CONFIG", raising=False)
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    code = doctor.run(parser.parse_args(["--json"]))
    data = json.loads(capsys.readouterr().out)
    assert data[0]["name"] == "machine" and {"status", "detail", "fix"} <= set(data[0])
    assert code == int(any(c["status"] == MISSING for c in data))


def test_bad_config_is_one_line(tmp_path, capsys):
    bad = tmp_path / "c.toml"
    bad.write_text("[display\n")
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    assert doctor.run(parser.parse_args(["--config", str(bad)])) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("binaryon: ") and "\n" not in err


def test_self_test_walks_the_leds_and_waits_for_each_button(factory):
    """Each button is pressed only once the test asks for it (an event, not a delay), so a
    busy machine cannot make a press come before its button is watched."""
    leds = open_leds("dummy")
    shown = []
    real_write = leds.writer.write
    leds.writer.write = lambda frame: (shown.append(list(frame)), real_write(frame))
    ticks = itertools.count(step=0.05)  # each press lasts 0.05 s on the buttons' clock
    asked = []

    def press(name):
        asked.append(name)
        pin = factory.pin(pinout.PI_BUTTONS[name])
        pin.drive_low()
        pin.drive_high()

    def buttons(sink):
        return Buttons(pinout.PI_BUTTONS, sink, pin_factory=factory, clock=lambda: next(ticks))

    out = io.StringIO()
    assert self_test(leds, buttons, wait=60, out=out, sleep=lambda s: None, asking=press)
    assert asked == ["confirm", "undo", "menu"]
    lit = [next(i for i, c in enumerate(f) if c != (0, 0, 0)) for f in shown if any(map(any, f))]
    assert lit == list(range(64)) * 3  # one dot walking a1..h8, three times
    assert shown[-1] == [(0, 0, 0)] * 64
    assert out.getvalue().count(": ok") == 3
    leds.close()


def test_self_test_reports_a_dead_button(factory):
    leds = open_leds("dummy")
    out = io.StringIO()
    ok = self_test(
        leds,
        lambda sink: Buttons(pinout.PI_BUTTONS, sink, pin_factory=factory),
        wait=0.05,
        out=out,
        sleep=lambda s: None,
    )
    assert not ok and "confirm: nothing in 0.05s" in out.getvalue()
    leds.close()


def test_leds_self_test_off_a_pi_says_so_in_one_line(tmp_path, capsys, monkeypatch, recwarn):
    monkeypatch.delenv("BINARYON_CONFIG", raising=False)
    monkeypatch.setattr(doctor, "Probe", lambda: FakePi(tmp_path))  # no Pi file tree
    started = []
    monkeypatch.setattr(doctor, "run_self_test", lambda config: started.append(config) or 1)
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    assert doctor.run(parser.parse_args(["--leds"])) == 0
    captured = capsys.readouterr()
    lines = [ln for ln in captured.out.splitlines() if "--leds" in ln]
    assert len(lines) == 1 and "no Pi hardware here to test" in lines[0]
    assert captured.err == "" and started == [] and len(recwarn) == 0
    assert doctor.run(parser.parse_args(["--leds", "--json"])) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)[0]["status"] == "info"  # the JSON stays clean
    assert "no Pi hardware here to test" in captured.err


def test_leds_self_test_runs_on_a_pi(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("BINARYON_CONFIG", raising=False)
    make_tree(tmp_path, "i2c-1", "gpiochip0", "spidev0.0")
    monkeypatch.setattr(doctor, "Probe", lambda: FakePi(tmp_path, answers={0x3C}))
    started = []
    monkeypatch.setattr(doctor, "run_self_test", lambda config: started.append(config) or 0)
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    doctor.run(parser.parse_args(["--leds"]))
    assert len(started) == 1 and "no Pi hardware" not in capsys.readouterr().out


def test_doctor_text_shows_every_fix_the_json_shows(tmp_path, monkeypatch):
    from companion.cli.doctor import INFO, Check, Probe, report, run_checks

    monkeypatch.setattr(Probe, "usb_serial_ports", lambda self: [])
    checks = run_checks(Probe(tmp_path))  # not a Pi, no Pico: hints only
    assert any(c.status == INFO and c.fix for c in checks)
    out = io.StringIO()
    report([*checks, Check("extra", INFO, "a hint", "do this")], out)
    text = out.getvalue()
    for c in checks:
        if c.fix:
            assert f"fix: {c.fix}" in text
    assert "fix: do this" in text
