"""The firmware's start-up (config checks, Ctrl-C, resets), DEBOUNCE limits, RESEND of nothing,
and docs/protocol.md against what the firmware really sends."""

from __future__ import annotations

import importlib
import re
import sys
import threading
import time

import pytest

from companion.hardware import link_protocol as lp
from companion.hardware.simulated import pico_sim
from companion.hardware.simulated.micropython_stand_ins import SimReset
from companion.hardware.simulated.pico_firmware import FIRMWARE_DIR
from tests.firmware.test_logic import bench  # noqa: F401 - the fixture
from tests.paths import REPO


@pytest.fixture
def app(monkeypatch, tmp_path):
    """boardfw.app under the stand-ins, with kbd_intr, the USB port and resets recorded."""
    monkeypatch.chdir(tmp_path)  # no maint.flag here
    module = pico_sim.load_firmware()
    calls: list = []
    monkeypatch.setattr(sys.modules["micropython"], "kbd_intr", lambda c: calls.append(c))
    usbio = importlib.import_module("boardfw.usbio")
    monkeypatch.setattr(usbio, "UsbPort", lambda: "usb")
    module.calls = calls
    return module


@pytest.mark.parametrize(
    ("override", "words"),
    [
        ({"KIND": "reed"}, "KIND 'reed'"),
        ({"SIZE": 3}, "SIZE must be 4..16"),
        ({"ROW_PINS": (0, 1, 2)}, "ROW_PINS needs 8"),
        ({"COL_PINS": (8, 9, 10, 11, 12, 13, 14, 7)}, "GPIO 7 is used twice"),
        ({"LED_PIN": 3}, "GPIO 3 is used twice"),
        ({"DEBOUNCE_MS": 0}, "DEBOUNCE_MS must be 1..1000"),
        ({"BRIGHTNESS": 300}, "BRIGHTNESS must be 0..255"),
        ({"WATCHDOG_MS": 9000}, "WATCHDOG_MS must be 0 (off) or 1000..8388"),
        ({"WATCHDOG_MS": 300}, "WATCHDOG_MS must be 0 (off) or 1000..8388"),
        ({"FAST_IO": "yes"}, "FAST_IO must be True or False"),
        ({"COL_PINS": (8, 9, 10, 11, 12, 13, 14, 25)}, "COL_PINS has 25: the Pico's pads"),
        ({"ROW_PINS": (0, 1, 2, 3, 4, 5, 6, 30)}, "ROW_PINS has 30: the Pico's pads"),
        ({"LED_PIN": 23}, "LED_PIN has 23: the Pico's pads are GP0..GP22, GP26..GP28"),
        ({"LED_SUPPLY_AMPS": 0}, "LED_SUPPLY_AMPS must be 0.5..50"),
        ({"KIND": "polarity", "HALL_SETTLE_US": 10}, "HALL_SETTLE_US must be 50..10000"),
    ],
)
def test_a_config_mistake_prints_one_line_and_leaves_the_repl_usable(app, capsys, override, words):
    cfg = pico_sim.firmware_config(**override)
    app.main(cfg)  # returns: no SimReset (machine.reset) and no exception
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "config.py" in out and words in out, out
    assert app.calls == []  # Ctrl-C was never disabled


def test_polarity_needs_its_second_columns(app, capsys):
    app.main(pico_sim.firmware_config(kind="polarity", COL_PINS_B=(16, 17)))
    assert "COL_PINS_B needs 8" in capsys.readouterr().out and app.calls == []


def test_the_shipped_config_and_the_simulator_sizes_are_accepted():
    module = pico_sim.load_firmware()
    for kind in ("switch", "presence", "polarity"):
        for size in (4, 8):
            assert module.config_problem(pico_sim.firmware_config(size, kind)) is None
        # a 16x16 board needs more lines than a Pico has: only a simulated chip takes it
        cfg = pico_sim.firmware_config(16, kind)
        assert module.config_problem(cfg, gpios=None) is None
        assert "the Pico's pads" in module.config_problem(cfg)


def test_a_start_up_failure_returns_to_the_repl_without_a_reset(app, capsys, monkeypatch):
    def broken(port, cfg):
        raise ValueError("invalid pin")  # e.g. a GPIO this Pico does not have

    monkeypatch.setattr(app, "Firmware", broken)
    app.main(pico_sim.firmware_config())
    out = capsys.readouterr().out
    assert out.startswith("board link: cannot start") and "invalid pin" in out
    assert app.calls == []


def test_once_the_loop_runs_ctrl_c_is_off_and_a_failure_resets(app, monkeypatch):
    seen = []

    class Loop:
        def __init__(self, port, cfg):
            seen.append(("made", port, list(app.calls)))

        def run(self):
            seen.append(("run", list(app.calls)))
            raise RuntimeError("stuck")

    monkeypatch.setattr(app, "Firmware", Loop)
    with pytest.raises(SimReset):
        app.main(pico_sim.firmware_config())
    assert seen == [("made", "usb", []), ("run", [-1])]


def test_the_watchdog_is_armed_by_the_loop_not_by_construction():
    pico = pico_sim.SimulatedPico(autorun=False)
    try:
        pico.own_this_thread()  # the stand-in pins belong to this thread's Pico
        fw = pico.new_firmware()
        assert fw.wdt is None  # a failure before the loop must not end in a watchdog reset
        fw.start_watchdog()
        assert fw.wdt is not None and fw.wdt.timeout == pico.cfg.WATCHDOG_MS
    finally:
        pico.close()


def test_debounce_accepts_1_to_1000_and_rejects_0(bench):  # noqa: F811
    b = bench()
    b.run()
    for ms, ok in (("0", False), ("1", True), ("1000", True), ("1001", False)):
        b.pico.advance_clock(1000)  # a repeated error is only counted within a second
        msgs = b.send(lp.frame(f"DEBOUNCE d{ms} {ms}"))
        if ok:
            assert [m.id for m in msgs if isinstance(m, lp.Ack)] == [f"d{ms}"]
            assert b.pico.firmware.deb.ms == int(ms)
        else:
            assert [(m.code, m.detail) for m in msgs if isinstance(m, lp.BoardError)] == [
                ("args", "DEBOUNCE")
            ]
    assert b.pico.firmware.deb.ms == 1000
    assert lp.cmd_debounce("1", 0) == lp.frame("DEBOUNCE 1 1")  # the host never sends 0


def test_resend_of_the_next_number_sends_nothing(bench):  # noqa: F811
    b = bench()
    first = b.run()
    nxt = (first[-1].seq + 1) % 256
    assert b.send(lp.cmd_resend(nxt)) == []
    msgs = b.send(lp.CMD_PING)
    assert [(type(m), m.seq) for m in msgs] == [(lp.Pong, nxt)]  # numbering goes on as before


def _doc_error_codes() -> set[str]:
    text = (REPO / "docs/protocol.md").read_text()
    section = text.split("### Board errors", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z]+)` \|", section, re.M))


def test_every_error_the_firmware_sends_is_in_the_protocol_doc():
    source = (FIRMWARE_DIR / "boardfw/app.py").read_text()
    sent = set(re.findall(r'"ERR ([a-z]+)', source))
    sent |= set(re.findall(r'error\("([a-z]+)"', source))  # coalesced: Firmware.error(code)
    assert {"crc", "long", "unknown", "args", "resend", "wdt", "internal", "maint"} <= sent
    assert sent <= _doc_error_codes()


def test_the_docs_agree_on_which_pole_is_which():
    """Black up shows the south pole to the sensor: the first sensor (COL_PINS) reads x."""
    protocol = " ".join((REPO / "docs/protocol.md").read_text().split())
    hardware = " ".join((REPO / "hardware/README.md").read_text().split())
    firmware = " ".join((FIRMWARE_DIR / "README.md").read_text().split())
    assert "south pole (disc black side up, `x`)" in protocol
    assert "north pole (white up, `o`)" in protocol
    assert "black-up shows its south pole" in hardware
    assert "south pole facing the sensors → `x` (disc black side up)" in firmware
    assert "north → `o` (white up)" in firmware
    assert "on for a south pole: a black-up disc" in hardware
    for text in (protocol, hardware, firmware):
        assert "north pole (disc black side up" not in text and "north → `x`" not in text


def test_a_reset_the_firmware_asked_for_is_not_reported_as_a_watchdog_reset(
    bench,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    monkeypatch.chdir(tmp_path)
    b = bench()
    b.run()
    msgs = b.send(lp.CMD_MAINTENANCE)  # rp2 reports machine.reset() as a watchdog reset
    assert b.pico.boots == 2 and any(isinstance(m, lp.Hello) for m in msgs)
    assert not [m for m in msgs if isinstance(m, lp.BoardError)]
    assert not (tmp_path / "reset.flag").exists()  # used up by that boot
    b.pico.reset(watchdog=True)  # a real watchdog reset is still reported
    assert [m.code for m in b.run() if isinstance(m, lp.BoardError)] == ["wdt"]


def test_a_restart_after_repeated_errors_is_reported_as_such(bench, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    app = pico_sim.load_firmware()
    b = bench()
    b.run()
    assert app.put_flag(app.RESET_FLAG, "failure")  # what main() writes before machine.reset()
    b.pico.reset(forced=True)
    errs = [(m.code, m.detail) for m in b.run() if isinstance(m, lp.BoardError)]
    assert errs == [("internal", "restarted after repeated errors")]


def test_bootsel_held_at_boot_skips_the_firmware(app, capsys, monkeypatch):
    monkeypatch.setattr(sys.modules["rp2"], "bootsel_button", lambda: 1)
    app.main(pico_sim.firmware_config())
    out = capsys.readouterr().out
    assert out.startswith("board link: BOOTSEL held at boot") and app.calls == []


def test_uptime_and_counters_do_not_wrap_negative(bench):  # noqa: F811
    b = bench()
    b.run()
    fw = b.pico.firmware
    step = 1 << 28  # below ticks_diff's 2**29 limit, as the loop passes always are
    for _ in range(5):
        b.pico.advance_clock(step)
        b.run()
    stat = [m for m in b.send(lp.CMD_STAT) if isinstance(m, lp.Stat)][0]
    assert int(stat.fields["uptime"]) >= 5 * step > (1 << 30)
    fw.scans = (1 << 29) - 1
    b.run(2)
    assert fw.scans == 1  # wraps, stays a small int on the Pico


@pytest.mark.parametrize(
    ("how", "flag", "cause", "errors"),
    [
        ("power", None, "power", []),
        ("power", "install", "power", []),  # left by a reset that never came: stale
        ("forced", None, "reset", []),  # the README's bare copy: mpremote's machine.reset()
        ("forced", "install", "install", []),  # install.sh, binaryon firmware install
        ("forced", "maint", "maint", []),
        ("forced", "failure 2", "failure", [("internal", "restarted after repeated errors")]),
        ("watchdog", None, "watchdog", [("wdt", "restarted by watchdog")]),
        ("watchdog", "install", "watchdog", [("wdt", "restarted by watchdog")]),
    ],
)
def test_every_boot_says_why_it_happened(bench, tmp_path, monkeypatch, how, flag, cause, errors):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    b = bench()
    b.run()
    if flag is not None:
        (tmp_path / "reset.flag").write_text(flag)
    if how == "power":
        b.pico.reset(watchdog=False)
    else:  # rp2 reports both as WDT_RESET; the watchdog's REASON register tells them apart
        b.pico.reset(forced=how == "forced")
    msgs = b.run()
    hello = next(m for m in msgs if isinstance(m, lp.Hello))
    assert hello.fields["reset"] == cause
    assert [(m.code, m.detail) for m in msgs if isinstance(m, lp.BoardError)] == errors
    assert not (tmp_path / "reset.flag").exists()


def _safe_reasons(msgs) -> list[str]:
    return [m.reason for m in msgs if isinstance(m, lp.Safe)]


def test_repeated_failures_back_off_then_stay_in_safe_mode_until_maint(
    bench,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    monkeypatch.chdir(tmp_path)
    b = bench(RESTART_BACKOFF_MS=10)
    b.run()
    fw = b.pico.firmware
    fw.ticks = lambda: int(time.monotonic() * 1000) & ((1 << 30) - 1)  # runs while it waits
    flag = tmp_path / "reset.flag"
    for restarts, up_s, wait, then in (
        (0, 0, 10, 1),
        (1, 0, 20, 2),
        (3, 0, 80, 4),
        (4, 120, 10, 1),
    ):
        fw.restarts, fw.up_s = restarts, up_s  # (after two minutes running, count from 1)
        start = time.monotonic()
        with pytest.raises(SimReset):  # machine.reset(), after the wait
            fw.restart_or_stay_safe("OSError(5,)")
        assert time.monotonic() - start >= (wait - 1) / 1000  # (whole ms ticks)
        assert _safe_reasons(b.run(0)) == [f"failure {then}, restart in {wait} ms: OSError(5,)"]
        assert flag.read_text() == f"failure {then}"
        flag.unlink()
    fw.restarts, fw.up_s = 4, 0  # the fifth failure in a row: no reset, no flash write
    ended: list = []

    def stay() -> None:
        b.pico.own_this_thread()
        try:
            fw.restart_or_stay_safe("OSError(5,)")
        except SimReset:
            ended.append("reset")

    thread = threading.Thread(target=stay, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    said = _safe_reasons(b.run(0))
    while not said and time.monotonic() < deadline:
        said = _safe_reasons(b.run(0))
    assert said[0] == "5 failures: OSError(5,)"
    b.ser.write(lp.CMD_HELLO + lp.CMD_PING)  # answered with the reason, nothing else
    got: list = []
    while len(_safe_reasons(got)) < 2 and time.monotonic() < deadline + 10:
        got += b.run(0)
    assert {type(m) for m in got} == {lp.Safe} and not flag.exists() and not ended
    b.ser.write(lp.CMD_MAINTENANCE)  # still obeyed: new firmware can be copied
    thread.join(10)
    assert ended == ["reset"] and flag.read_text() == "maint"
