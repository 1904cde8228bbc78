"""A simulated Pico: the real firmware (firmware/boardfw) running under CPython.

Small stand-ins for MicroPython's ``machine``, ``neopixel``, ``micropython`` and ``rp2`` modules
(``micropython_stand_ins``) go into ``sys.modules``; they route every pin, LED and watchdog call
to the ``SimulatedPico`` that owns the calling thread. The simulated key matrix is electrical:
the firmware drives a row low and reads the columns, and a closed sensor (with its diode) pulls
its column low only on the driven row. The firmware talks through a pseudo-terminal pair
(``pico_pty_port``); ``.port`` is a stable symlink to the slave side (like a udev by-id link),
so the real SerialBoard opens it like a USB port.

Time: each firmware loop pass advances the firmware's clock by ``step_ms`` and then sleeps that
long, so debounce and bounce behave the same however loaded the machine is, and an idle
simulation costs little CPU.

    with SimulatedPico(kind="switch") as pico:
        board = SerialBoard(pico.port)
        pico.tap(28)
"""

from __future__ import annotations

import collections
import contextlib
import os
import shutil
import tempfile
import threading
import time
import tty

from companion.core.squares import check_size
from companion.hardware.interfaces import IDLE_READING
from companion.hardware.simulated.micropython_stand_ins import (
    PWRON_RESET,
    WDT_RESET,
    SimReset,
    current,
)
from companion.hardware.simulated.pico_firmware import firmware_config, load_firmware
from companion.hardware.simulated.pico_pty_port import PtyPort

IDLE = IDLE_READING
READINGS = {"switch": "01", "presence": "01", "polarity": "xo."}


# -- the simulated board ---------------------------------------------------------------------


class SimulatedPico:
    """A Pico with the board link firmware, a sensor matrix and an LED chain, on a pty.

    Controller API (any thread): press/release/tap/bounce/set_reading change the sensors;
    unplug/replug/reset model the cable and the watchdog; inject_raw, drop_next_line and
    corrupt_next_line damage the board -> host stream; leds is the last LED frame received,
    pixels and chain what the LEDs show; advance_clock moves the firmware's clock on;
    own_this_thread and new_firmware let a test drive the firmware's parts itself.
    """

    def __init__(
        self,
        size: int = 8,
        kind: str = "switch",
        *,
        step_ms: int = 2,
        autorun: bool = True,
        link_dir: str | None = None,
        **config_overrides,
    ) -> None:
        if kind not in READINGS:
            raise ValueError(f"unknown sensor kind {kind!r}: switch, presence or polarity")
        self.size = check_size(size)
        self.kind = kind
        self.step_ms = step_ms
        self.autorun = autorun  # False: no thread, the caller runs the loop with step()
        self.cfg = firmware_config(size, kind, **config_overrides)
        self._app = load_firmware()
        self._lock = threading.RLock()
        n2 = size * size
        self._values = [IDLE[kind]] * n2  # the physical sensors
        self._queues: dict[int, collections.deque[str]] = {}
        self._out: dict[int, int] = {}  # levels of output pins
        self._rows = {p: r for r, p in enumerate(self.cfg.ROW_PINS)}
        self._cols_a = {p: c for c, p in enumerate(self.cfg.COL_PINS)}
        self._cols_b = {p: c for c, p in enumerate(self.cfg.COL_PINS_B)}
        self._clock_ms = 0
        self._last_change_ms = 0
        self._reset_cause = PWRON_RESET
        self._wdt_reason = 0  # the RP2040 watchdog's REASON register: 1 timer, 2 forced
        self._reset_request: int | None = None
        self._forced = False
        self._drops: list[bytes | None] = []
        self._corrupts: list[bytes | None] = []
        self._command_drops: list[bytes | None] = []
        self._partial_in = b""
        self._port: PtyPort | None = None
        self._injected_input = b""
        self._fw = None
        self._pixels: list[tuple[int, ...]] = [(0, 0, 0)] * n2
        self.watchdog_feeds = 0
        self.crashed: BaseException | None = None  # an exception that stopped the loop thread
        self.boots = 0
        self.bytes_out = 0  # bytes the firmware got onto the wire
        self._own_dir = link_dir is None
        self._dir = link_dir or tempfile.mkdtemp(prefix="pico-sim-")
        self.port = os.path.join(self._dir, "ttyACM-pico")
        self._master = self._slave = -1
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.plugged = False
        self.replug()

    # -- the cable ---------------------------------------------------------------------------
    def replug(self) -> None:
        """Plug the USB cable in: a fresh pty behind ``.port`` and a power-on boot."""
        with self._lock:
            if self.plugged:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            tmp = self.port + ".new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.port)
            self.plugged = True
            self._reset_cause = PWRON_RESET
            self._wdt_reason = 0
            self._stop = threading.Event()
            self._port = PtyPort(self, master)
            self._fw = None
            if self.autorun:
                self._thread = threading.Thread(
                    target=self._main, args=(self._stop, self._port), name="pico-sim", daemon=True
                )
                self._thread.start()

    def unplug(self) -> None:
        """Pull the USB cable: the firmware loses power and the port disappears."""
        with self._lock:
            if not self.plugged:
                return
            self.plugged = False
            stop, thread = self._stop, self._thread
        stop.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        with self._lock:
            for fd in (self._master, self._slave):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._master = self._slave = -1
            if os.path.lexists(self.port):
                os.unlink(self.port)
            self._fw = None

    def freeze(self) -> None:
        """The firmware hangs with the cable still in (the real watchdog would then reset it)."""
        self._stop.set()

    def reset(self, watchdog: bool = True, forced: bool = False) -> None:
        """Restart the firmware without touching the cable (a watchdog reset by default;
        ``forced``: machine.reset(), which rp2 also reports as a watchdog reset)."""
        with self._lock:
            self._reset_request = WDT_RESET if watchdog or forced else PWRON_RESET
            self._forced = forced

    def close(self) -> None:
        self.unplug()
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SimulatedPico:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the sensors -------------------------------------------------------------------------
    def _check(self, square: int, value: str | None = None) -> None:
        if not 0 <= square < self.size * self.size:
            raise ValueError(f"square {square} is not on a {self.size}x{self.size} board")
        if value is not None and (len(value) != 1 or value not in READINGS[self.kind]):
            raise ValueError(f"{value!r} is not a {self.kind} reading")

    def set_reading(self, square: int, value: str) -> None:
        """Set a sensor now and keep it there ('1'/'0', or 'x'/'o'/'.' for polarity)."""
        self._check(square, value)
        with self._lock:
            self._queues.pop(square, None)
            self._values[square] = value
            self._last_change_ms = self._clock_ms

    def _active(self) -> str:
        return "x" if self.kind == "polarity" else "1"

    def press(self, square: int) -> None:
        """Close the sensor (press a switch, put a piece on a reed; a black disc on a hall)."""
        self.set_reading(square, self._active())

    def release(self, square: int) -> None:
        self.set_reading(square, IDLE[self.kind])

    def press_many(self, squares: list[int]) -> None:
        """Close several sensors in the same instant (seen by the same scan)."""
        with self._lock:
            for sq in squares:
                self.press(sq)

    def schedule(self, square: int, values: list[str]) -> None:
        """Give the sensor these values, one per firmware scan; the last one stays."""
        for v in values:
            self._check(square, v)
        with self._lock:
            self._queues[square] = collections.deque(values)

    def tap(self, square: int, hold_ms: int = 60, bounces: int = 0) -> None:
        """Press and release, optionally bouncing on both edges."""
        on, off = self._active(), IDLE[self.kind]
        hold = [on] * max(1, hold_ms // self.step_ms)
        edge_on = [on if i % 2 == 0 else off for i in range(bounces)]
        edge_off = [off if i % 2 == 0 else on for i in range(bounces)]
        self.schedule(square, edge_on + hold + edge_off + [off])

    def bounce(self, square: int, n: int = 5, final: str | None = None) -> None:
        """A contact that chatters ``n`` times (one scan each) before settling on ``final``."""
        with self._lock:
            start = self._values[square]
            end = final if final is not None else (
                IDLE[self.kind] if start != IDLE[self.kind] else self._active()
            )  # fmt: skip
            self.schedule(square, [end if i % 2 == 0 else start for i in range(n)] + [end])

    @property
    def readings(self) -> tuple[str, ...]:
        """The physical sensors now, one reading per square, a1 first."""
        with self._lock:
            return tuple(self._values)

    def wait_quiet(self, timeout: float = 5.0) -> bool:
        """Wait until no scheduled change is left and the firmware has had time to report."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                quiet = not self._queues and (
                    self._clock_ms - self._last_change_ms > self.cfg.DEBOUNCE_MS + 4 * self.step_ms
                )
            if quiet:
                return True
            time.sleep(self.step_ms / 1000)
        return False

    # -- the LEDs ----------------------------------------------------------------------------
    @property
    def leds(self) -> tuple[tuple[int, int, int], ...] | None:
        """The last LED frame the firmware received, per square (before brightness)."""
        fw = self._fw
        if fw is None:
            return None
        f = bytes(fw.leds.frame)
        return tuple((f[i], f[i + 1], f[i + 2]) for i in range(0, len(f), 3))

    @property
    def chain(self) -> tuple[tuple[int, ...], ...]:
        """What the chain shows, pixel by pixel in the order they are wired (brightness
        applied; ``pixels`` has them per square)."""
        with self._lock:
            return tuple(self._pixels)

    @property
    def pixels(self) -> tuple[tuple[int, ...], ...]:
        """What the chain shows, per square (brightness applied)."""
        fw = self._fw
        px = self.chain
        if fw is None:
            return px
        return tuple(px[fw.leds.order[sq]] for sq in range(self.size * self.size))

    @property
    def firmware(self):
        """The running firmware object (for tests that look inside)."""
        return self._fw

    # -- the firmware thread -----------------------------------------------------------------
    def _ticks(self) -> int:
        return self._clock_ms & ((1 << 30) - 1)

    def advance_clock(self, ms: int) -> None:
        """Move the firmware's clock on by ``ms`` at once, without a loop pass: time spent
        elsewhere (a stall), or past a window the firmware counts in."""
        with self._lock:
            self._clock_ms += ms

    def own_this_thread(self) -> None:
        """Route this thread's pin, LED and watchdog calls (the MicroPython stand-ins) to this
        Pico: the firmware's thread does it, and so must one that calls the firmware directly."""
        current.pico = self

    def new_firmware(self, port: PtyPort | None = None):
        """The firmware as this Pico boots it (its port, clock, config and pins), not started:
        its watchdog is armed by its loop (``start_watchdog``)."""
        # Boards larger than a Pico can wire get virtual pin numbers: any GPIO is accepted.
        gpios = None if self.size > 8 else self._app.PICO_GPIOS
        port = port if port is not None else self._port
        return self._app.Firmware(port, self.cfg, ticks_ms=self._ticks, gpios=gpios)

    def _boot(self, port: PtyPort) -> None:
        with self._lock:
            self.boots += 1
            self._out.clear()
        fw = self.new_firmware(port)
        fw.start_watchdog()  # as Firmware.run() does before its loop
        self._fw = fw

    def _main(self, stop: threading.Event, port: PtyPort) -> None:
        self.own_this_thread()
        self.crashed = None
        try:
            self._boot(port)
            while not stop.is_set():
                self._one_step(port)
                stop.wait(self.step_ms / 1000)
        except Exception as e:  # keep the failure visible to tests
            self.crashed = e
            raise

    def _one_step(self, port: PtyPort) -> None:
        with self._lock:
            cause, self._reset_request = self._reset_request, None
            self._advance_queues()
        if cause is not None:
            self._reset_cause = cause
            # REASON: 1 the watchdog's timer ran out, 2 forced (machine.reset())
            self._wdt_reason = (2 if self._forced else 1) if cause == WDT_RESET else 0
            self._boot(port)
        try:
            self._fw.step()
        except SimReset:  # machine.reset() from the firmware (MAINT)
            self._reset_cause = WDT_RESET  # rp2 calls it a watchdog reset, REASON says forced
            self._wdt_reason = 2
            self._boot(port)
        with self._lock:
            self._clock_ms += self.step_ms

    def step(self, count: int = 1) -> None:
        """Run ``count`` firmware loop passes in this thread (only when autorun=False)."""
        if self.autorun:
            raise RuntimeError("this SimulatedPico runs its own loop thread")
        if not self.plugged or self._port is None:
            return
        self.own_this_thread()
        if self._fw is None:
            self._boot(self._port)
        for _ in range(count):
            self._one_step(self._port)

    def _advance_queues(self) -> None:
        for sq in list(self._queues):
            q = self._queues[sq]
            self._values[sq] = q.popleft()
            self._last_change_ms = self._clock_ms
            if not q:
                del self._queues[sq]

    # -- hooks used by the firmware's port ---------------------------------------------------
    def _pixels_written(self, pixels: list[tuple[int, ...]]) -> None:
        with self._lock:
            self._pixels = pixels

    # -- the key matrix's pin levels (the stand-ins call these from the firmware's thread) ---
    def _pin_write(self, pin: int, value: int) -> None:
        self._out[pin] = value

    def _column_level(self, col: int, plane: str) -> int:
        """Pull-up high unless a driven (low) row has a closed sensor on this column."""
        n = self.size
        closed = ("1", "x") if plane == "a" else ("o",)
        values = self._values
        for pin, r in self._rows.items():
            if self._out.get(pin, 1) == 0 and values[r * n + col] in closed:
                return 0
        return 1

    def _pin_read(self, pin: int) -> int:
        with self._lock:
            if pin in self._cols_a:
                return self._column_level(self._cols_a[pin], "a")
            if self.kind == "polarity" and pin in self._cols_b:
                return self._column_level(self._cols_b[pin], "b")
            return self._out.get(pin, 1)

    def _gpio_in(self) -> int:
        """The RP2040 SIO input register: every GPIO level in one word."""
        with self._lock:
            n, values = self.size, self._values
            driven = [r for pin, r in self._rows.items() if self._out.get(pin, 1) == 0]
            word = (1 << 30) - 1
            for pin, level in self._out.items():
                if pin < 30 and not level:
                    word &= ~(1 << pin)
            planes = [(self._cols_a, ("1", "x"))]
            if self.kind == "polarity":
                planes.append((self._cols_b, ("o",)))
            for cols, closed in planes:
                for pin, c in cols.items():
                    if pin < 30 and any(values[r * n + c] in closed for r in driven):
                        word &= ~(1 << pin)
            return word

    # -- damage on the USB line, both ways: asked for by the controller, applied by the port -
    def inject_raw(self, data: bytes) -> None:
        """Write bytes towards the host as if the board had sent them (noise, half lines)."""
        with self._lock:
            if self._master >= 0:
                with contextlib.suppress(OSError):
                    os.write(self._master, data)

    def inject_to_board(self, data: bytes) -> None:
        """Bytes the firmware will read as if the host had sent them."""
        with self._lock:
            self._injected_input += data

    def drop_next_line(self, match: bytes | None = None) -> None:
        """Lose the next board line (containing ``match``, if given)."""
        with self._lock:
            self._drops.append(match)

    def drop_next_command(self, match: bytes | None = None) -> None:
        """Lose the next host -> board line (containing ``match``, if given)."""
        with self._lock:
            self._command_drops.append(match)

    def corrupt_next_line(self, match: bytes | None = None) -> None:
        """Flip one bit in the next board line (containing ``match``, if given)."""
        with self._lock:
            self._corrupts.append(match)

    def _take_injected_input(self) -> bytes:
        with self._lock:
            data, self._injected_input = self._injected_input, b""
        return data

    def _filter_incoming(self, data: bytes) -> bytes:
        """Drop a whole host line when asked to (drop_next_command)."""
        with self._lock:
            if not self._command_drops and not self._partial_in:
                return data
            data = self._partial_in + data
            lines = data.split(b"\n")
            self._partial_in = lines.pop()
            out = []
            for line in lines:
                for i, match in enumerate(self._command_drops):
                    if match is None or match in line:
                        del self._command_drops[i]
                        break
                else:
                    out.append(line + b"\n")
            return b"".join(out)

    def _filter_outgoing(self, data: bytes) -> bytes:
        with self._lock:
            for i, match in enumerate(self._drops):
                if match is None or match in data:
                    del self._drops[i]
                    return b""
            for i, match in enumerate(self._corrupts):
                if match is None or match in data:
                    del self._corrupts[i]
                    pos = max(0, len(data) // 2 - 1)
                    return data[:pos] + bytes([data[pos] ^ 0x01]) + data[pos + 1 :]
        return data
