"""A simulated Pico: the real firmware (firmware/boardfw) running under CPython.

Small stand-ins for MicroPython's ``machine``, ``neopixel``, ``micropython`` and ``rp2`` modules
go into ``sys.modules``; they route every pin, LED and watchdog call to the ``SimulatedPico``
that owns the calling thread. The simulated key matrix is electrical: the firmware drives a row
low and reads the columns, and a closed sensor (with its diode) pulls its column low only on the
driven row. The firmware talks through a pseudo-terminal pair; ``.port`` is a stable symlink to
the slave side (like a udev by-id link), so the real SerialBoard opens it like a USB port.

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
import importlib
import importlib.util
import os
import runpy
import shutil
import sys
import tempfile
import threading
import time
import tty
import types

from companion.core.squares import check_size
from companion.firmware_location import firmware_dir
from companion.hardware.interfaces import IDLE_READING

FIRMWARE_DIR = firmware_dir()  # companion/firmware/ when installed, firmware/ in a checkout
PWRON_RESET, WDT_RESET = 1, 3  # the values MicroPython's rp2 port uses
SIO_GPIO_IN = 0xD0000004
IDLE = IDLE_READING
READINGS = {"switch": "01", "presence": "01", "polarity": "xo."}

_current = threading.local()


class SimReset(BaseException):  # noqa: N818 - a control-flow signal, not an error
    """Raised by the stand-in ``machine.reset()``: the simulation restarts the firmware."""


def _pico() -> SimulatedPico:
    pico = getattr(_current, "pico", None)
    if pico is None:
        raise RuntimeError("MicroPython stand-in used outside a SimulatedPico thread")
    return pico


# -- stand-in MicroPython modules ------------------------------------------------------------


class _Pin:
    IN, OUT, OPEN_DRAIN = 0, 1, 2
    PULL_UP, PULL_DOWN = 1, 2
    IRQ_FALLING, IRQ_RISING = 4, 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None, **_kw):  # noqa: A002
        self._pico = _pico()
        self.id = id
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, **_kw):
        if value is not None:
            self._pico._pin_write(self.id, value)

    def value(self, v=None):
        if v is None:
            return self._pico._pin_read(self.id)
        self._pico._pin_write(self.id, 1 if v else 0)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high, low = on, off


class _WDT:
    def __init__(self, id=0, timeout=5000):  # noqa: A002
        self._pico = _pico()
        self.timeout = timeout
        self._pico.watchdog_feeds = 0

    def feed(self):
        self._pico.watchdog_feeds += 1


class _Mem32:
    def __getitem__(self, addr):
        if addr == SIO_GPIO_IN:
            return _pico()._gpio_in()
        return 0

    def __setitem__(self, addr, value):
        pass


def _machine_reset():
    raise SimReset


class _NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self._pico = _pico()
        self.n = n
        self.buf = [(0,) * bpp] * n

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        self.buf[i] = tuple(rgb)

    def __getitem__(self, i):
        return self.buf[i]

    def fill(self, rgb):
        self.buf = [tuple(rgb)] * self.n

    def write(self):
        self._pico._pixels_written(list(self.buf))


class _StateMachine:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("PIO state machines are not simulated")


def _identity_decorator(*_args, **_kwargs):
    return lambda f: f


def _module(name: str, **attrs) -> types.ModuleType:
    mod = types.ModuleType(name, f"Desktop stand-in for MicroPython's {name} (pico_sim)")
    mod.__dict__.update(attrs)
    mod.__dict__["__pico_sim__"] = True
    return mod


def install_stand_ins() -> None:
    """Put the stand-in modules into sys.modules (idempotent)."""
    if getattr(sys.modules.get("machine"), "__pico_sim__", False):
        return
    sys.modules["machine"] = _module(
        "machine",
        Pin=_Pin,
        WDT=_WDT,
        mem32=_Mem32(),
        reset=_machine_reset,
        soft_reset=_machine_reset,
        reset_cause=lambda: _pico()._reset_cause,
        PWRON_RESET=PWRON_RESET,
        WDT_RESET=WDT_RESET,
        unique_id=lambda: b"\x00sim\x00pico",
        freq=lambda *a: 125_000_000,
        idle=lambda: None,
    )
    sys.modules["neopixel"] = _module("neopixel", NeoPixel=_NeoPixel)
    sys.modules["micropython"] = _module(
        "micropython",
        const=lambda x: x,
        kbd_intr=lambda c: None,
        opt_level=lambda *a: 0,
        mem_info=lambda *a: None,
        schedule=lambda f, a: f(a),
        native=lambda f: f,
        viper=lambda f: f,
    )
    sys.modules["rp2"] = _module(
        "rp2",
        asm_pio=_identity_decorator,
        StateMachine=_StateMachine,
        PIO=types.SimpleNamespace(OUT_LOW=0, OUT_HIGH=1, IN_LOW=0, IN_HIGH=1, SHIFT_LEFT=0),
        bootsel_button=lambda: 0,
    )


_fw_lock = threading.Lock()


def load_firmware() -> types.ModuleType:
    """Import firmware/boardfw (as the top-level package ``boardfw``) and return boardfw.app."""
    with _fw_lock:
        install_stand_ins()
        if "boardfw" in sys.modules:
            return importlib.import_module("boardfw.app")
        # No __pycache__ in firmware/: `mpremote cp -r` would copy it onto the Pico.
        saved, sys.dont_write_bytecode = sys.dont_write_bytecode, True
        try:
            pkg_dir = FIRMWARE_DIR / "boardfw"
            if not pkg_dir.is_dir():
                raise FileNotFoundError(f"firmware not found at {pkg_dir}")
            spec = importlib.util.spec_from_file_location(
                "boardfw", pkg_dir / "__init__.py", submodule_search_locations=[str(pkg_dir)]
            )
            assert spec and spec.loader
            pkg = importlib.util.module_from_spec(spec)
            sys.modules["boardfw"] = pkg
            spec.loader.exec_module(pkg)
            return importlib.import_module("boardfw.app")
        finally:
            sys.dont_write_bytecode = saved


def firmware_config(size: int = 8, kind: str = "switch", **overrides) -> types.SimpleNamespace:
    """firmware/config.py's settings with the board size, kind and any overrides applied."""
    values = {k: v for k, v in runpy.run_path(str(FIRMWARE_DIR / "config.py")).items()
              if k.isupper()}  # fmt: skip
    values.update(SIZE=size, KIND=kind)
    if size <= len(values["ROW_PINS"]):
        for key in ("ROW_PINS", "COL_PINS", "COL_PINS_B"):
            values[key] = tuple(values[key][:size])
    else:  # more lines than a Pico has: virtual pin numbers, per-pin reads
        values.update(ROW_PINS=tuple(range(size)), COL_PINS=tuple(range(32, 32 + size)),
                      COL_PINS_B=tuple(range(64, 64 + size)), FAST_IO=False)  # fmt: skip
    values.update(overrides)
    return types.SimpleNamespace(**values)


# -- the pty port the firmware writes to -----------------------------------------------------


class _PtyPort:
    """The firmware's side of the cable: non-blocking reads/writes on the pty master, with the
    interface of boardfw.usbio.UsbPort (read_into, write -> sent?, drain)."""

    def __init__(self, pico: SimulatedPico, fd: int) -> None:
        self._pico = pico
        self._fd = fd
        self._pending = b""

    def read_into(self, buf) -> int:
        data = self._pending + self._pico._take_injected_input()
        if len(data) < len(buf):
            # nothing waiting (EAGAIN), or the cable is gone (EIO)
            with contextlib.suppress(OSError):
                data += self._pico._filter_incoming(os.read(self._fd, len(buf) - len(data)))
        n = min(len(buf), len(data))
        buf[:n] = data[:n]
        self._pending = data[n:]
        return n

    def write(self, data: bytes) -> bool:
        data = self._pico._filter_outgoing(bytes(data))
        if not data:
            return True  # lost on the wire, not refused by the port
        try:
            self._pico.bytes_out += os.write(self._fd, data)
            return True
        except OSError:  # nobody reading and the buffer full, or unplugged
            return False

    def drain(self, ms: int, feed=None) -> None:
        pass


# -- the simulated board ---------------------------------------------------------------------


class SimulatedPico:
    """A Pico with the board link firmware, a sensor matrix and an LED chain, on a pty.

    Controller API (any thread): press/release/tap/bounce/set_reading change the sensors;
    unplug/replug/reset model the cable and the watchdog; inject_raw, drop_next_line and
    corrupt_next_line damage the board -> host stream; leds is the last LED frame received.
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
        self._scans = 0
        self._reset_cause = PWRON_RESET
        self._reset_request: int | None = None
        self._drops: list[bytes | None] = []
        self._corrupts: list[bytes | None] = []
        self._command_drops: list[bytes | None] = []
        self._partial_in = b""
        self._port: _PtyPort | None = None
        self._injected_input = b""
        self._fw = None
        self._pixels: list[tuple[int, ...]] = [(0, 0, 0)] * n2
        self.watchdog_feeds = 0
        self.crashed: BaseException | None = None  # an exception that stopped the loop thread
        self.boots = 0
        self.lines_sent = 0
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
            self._stop = threading.Event()
            self._port = _PtyPort(self, master)
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

    def reset(self, watchdog: bool = True) -> None:
        """Restart the firmware without touching the cable (a watchdog reset by default)."""
        with self._lock:
            self._reset_request = WDT_RESET if watchdog else PWRON_RESET

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

    # -- damage on the wire ------------------------------------------------------------------
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
    def pixels(self) -> tuple[tuple[int, ...], ...]:
        """What the chain shows, per square (brightness applied)."""
        fw = self._fw
        with self._lock:
            px = list(self._pixels)
        if fw is None:
            return tuple(px)
        return tuple(px[fw.leds.order[sq]] for sq in range(self.size * self.size))

    @property
    def firmware(self):
        """The running firmware object (for tests that look inside)."""
        return self._fw

    # -- the firmware thread -----------------------------------------------------------------
    def _ticks(self) -> int:
        return self._clock_ms & ((1 << 30) - 1)

    def _boot(self, port: _PtyPort) -> None:
        with self._lock:
            self.boots += 1
            self._out.clear()
        # Boards larger than a Pico can wire get virtual pin numbers: any GPIO is accepted.
        gpios = None if self.size > 8 else self._app.PICO_GPIOS
        fw = self._app.Firmware(port, self.cfg, ticks_ms=self._ticks, gpios=gpios)
        fw.start_watchdog()  # as Firmware.run() does before its loop
        self._fw = fw

    def _main(self, stop: threading.Event, port: _PtyPort) -> None:
        _current.pico = self
        self.crashed = None
        try:
            self._boot(port)
            while not stop.is_set():
                self._one_step(port)
                stop.wait(self.step_ms / 1000)
        except Exception as e:  # keep the failure visible to tests
            self.crashed = e
            raise

    def _one_step(self, port: _PtyPort) -> None:
        with self._lock:
            cause, self._reset_request = self._reset_request, None
            self._advance_queues()
        if cause is not None:
            self._reset_cause = cause
            self._boot(port)
        try:
            self._fw.step()
        except SimReset:  # machine.reset() from the firmware (MAINT)
            self._reset_cause = WDT_RESET
            self._boot(port)
        with self._lock:
            self._clock_ms += self.step_ms
            self._scans += 1

    def step(self, count: int = 1) -> None:
        """Run ``count`` firmware loop passes in this thread (only when autorun=False)."""
        if self.autorun:
            raise RuntimeError("this SimulatedPico runs its own loop thread")
        if not self.plugged or self._port is None:
            return
        _current.pico = self
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

    # -- electrical model --------------------------------------------------------------------
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

    # -- hooks used by the firmware's port ---------------------------------------------------
    def _pixels_written(self, pixels: list[tuple[int, ...]]) -> None:
        with self._lock:
            self._pixels = pixels

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
            self.lines_sent += 1
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
