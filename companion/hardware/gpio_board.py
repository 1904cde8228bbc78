"""Scan the sensor matrix straight from the Pi's GPIO (boards built without a Pico).

Rows are outputs, driven low one at a time; columns are inputs with pull-ups; a closed square
pulls its column low through its diode. A thread scans at ``scan_hz`` and debounces every
square (a new value counts once it has been stable for ``debounce_ms``), then posts
``SquareReading(debounced=True)``; a ``BoardSnapshot`` follows every (re)connection and every
``request_snapshot()``.

Backends, imported only when chosen:
- lgpio (Pi 5 and every other Pi): rows and columns are claimed as two groups, so one row
  costs one ``group_write`` and one ``group_read`` (all columns as a bitmask): 16 calls a scan.
- RPi.GPIO (or rpi-lgpio, its drop-in on a Pi 5): one ``output`` per row plus one ``input``
  per column: 72 calls a scan. A fallback only.
- any module object with either shape (tests pass tests.fake_gpio's).

After selecting a row the scan waits ``settle_us`` before it reads the columns: a column that
the previous row held low recovers only through the Pi's pull-up into the column's capacitance
(see SETTLE_US); read sooner, it still shows the previous row's square, a ghost one rank up.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable, Sequence

from companion.core.events import BoardSnapshot, Event, LinkStatus, SquareReading
from companion.core.squares import check_size
from companion.hardware.interfaces import SENSOR_KINDS, HardwareError, SensorBoard

log = logging.getLogger(__name__)

BACKENDS = ("auto", "lgpio", "rpigpio")

# A released column rises through the Pi's pad pull-up (50-65 kOhm) into the column line's
# capacitance: the pad, 8 diodes and up to 300 mm of ribbon, 40-80 pF. Worst case tau = 65 kOhm
# x 80 pF = 5.2 us; the input reads high from about 2 V, 0.9 tau in. Five time constants
# (within 0.7 % of 3.3 V) leave room for a longer cable or a weaker pull-up.
PULL_UP_OHMS_MAX = 65_000
COLUMN_FARADS_MAX = 80e-12
SETTLE_TIME_CONSTANTS = 5
SETTLE_US = SETTLE_TIME_CONSTANTS * PULL_UP_OHMS_MAX * COLUMN_FARADS_MAX * 1e6  # 26 us
HEADER_CHIP_LABELS = ("pinctrl-rp1", "pinctrl-bcm2712", "pinctrl-bcm2711", "pinctrl-bcm2835")


class GpioError(HardwareError):
    """The GPIO matrix cannot be used; the message is one line for the user."""


class _LgpioMatrix:
    """Rows and columns as two lgpio groups: per row one group_write, one group_read."""

    name = "lgpio"

    def __init__(
        self,
        lg,
        rows: Sequence[int],
        cols: Sequence[int],
        chip: int | None,
        settle: float = 0.0,
        delay: Callable[[float], None] = time.sleep,
    ):
        self._lg = lg
        self._settle, self._delay = settle, delay
        self._rows, self._cols = list(rows), list(cols)
        self._handle = lg.gpiochip_open(_header_chip(lg) if chip is None else chip)
        all_rows = (1 << len(rows)) - 1
        self._mask = all_rows
        self._selects = [all_rows & ~(1 << i) for i in range(len(rows))]
        try:
            lg.group_claim_output(self._handle, self._rows, [1] * len(rows))
            lg.group_claim_input(self._handle, self._cols, lg.SET_PULL_UP)
        except Exception:
            lg.gpiochip_close(self._handle)
            raise

    def read(self) -> list[int]:
        lg, h, row0, col0 = self._lg, self._handle, self._rows[0], self._cols[0]
        settle, delay = self._settle, self._delay
        out = []
        for select in self._selects:
            lg.group_write(h, row0, select, self._mask)
            if settle:
                delay(settle)
            got = lg.group_read(h, col0)
            if isinstance(got, tuple):  # lgpio returns (status, bits)
                status, got = got
                if status < 0:
                    raise OSError(f"lgpio group_read failed ({status})")
            out.append(got)
        return out

    def close(self) -> None:
        lg, h = self._lg, self._handle
        for action in (
            lambda: lg.group_write(h, self._rows[0], self._mask, self._mask),
            lambda: lg.group_free(h, self._rows[0]),
            lambda: lg.group_free(h, self._cols[0]),
            lambda: lg.gpiochip_close(h),
        ):
            with contextlib.suppress(Exception):  # closing must never raise
                action()


def _header_chip(lg) -> int:
    """The gpiochip of the 40-pin header: 0 on most Pis, 4 on a Pi 5 with an older kernel."""
    info = getattr(lg, "gpio_get_chip_info", None)
    if info is None:
        return 0
    for chip in (0, 4):
        try:
            h = lg.gpiochip_open(chip)
        except Exception:
            continue
        try:
            label = str(info(h)[-1])
        except Exception:
            label = ""
        finally:
            lg.gpiochip_close(h)
        if label.startswith(HEADER_CHIP_LABELS):
            return chip
    return 0


class _RpiGpioMatrix:
    """RPi.GPIO: one output call (all rows at once) and one input call per column, per row."""

    name = "RPi.GPIO"

    def __init__(
        self,
        gpio,
        rows: Sequence[int],
        cols: Sequence[int],
        settle: float = 0.0,
        delay: Callable[[float], None] = time.sleep,
    ):
        self._g = gpio
        self._settle, self._delay = settle, delay
        self._rows, self._cols = list(rows), list(cols)
        n = len(rows)
        self._levels = [[0 if j == i else 1 for j in range(n)] for i in range(n)]
        gpio.setwarnings(False)
        gpio.setmode(gpio.BCM)
        gpio.setup(self._rows, gpio.OUT, initial=gpio.HIGH)
        gpio.setup(self._cols, gpio.IN, pull_up_down=gpio.PUD_UP)

    def read(self) -> list[int]:
        g, out = self._g, []
        settle, delay = self._settle, self._delay
        for levels in self._levels:
            g.output(self._rows, levels)
            if settle:
                delay(settle)
            bits = 0
            for j, col in enumerate(self._cols):
                bits |= (1 if g.input(col) else 0) << j
            out.append(bits)
        return out

    def close(self) -> None:
        try:
            self._g.output(self._rows, [1] * len(self._rows))
            self._g.cleanup(self._rows + self._cols)
        except Exception:
            pass


def _import(name: str):
    if name == "lgpio":
        # lgpio drops .lgd-nfy* files in the working directory unless told otherwise
        os.environ.setdefault("LG_WD", tempfile.gettempdir())
    return importlib.import_module(name)


def open_matrix(
    backend,
    rows: Sequence[int],
    cols: Sequence[int],
    chip: int | None = None,
    *,
    settle_us: float = SETTLE_US,
    delay: Callable[[float], None] = time.sleep,
):
    """A matrix reader for ``backend``: a name from BACKENDS or a module-like object. It waits
    ``settle_us`` (through ``delay``, seconds) after selecting each row."""
    settle = settle_us / 1e6
    if not isinstance(backend, str):
        if hasattr(backend, "group_claim_input"):
            return _LgpioMatrix(backend, rows, cols, chip, settle, delay)
        if hasattr(backend, "setmode"):
            return _RpiGpioMatrix(backend, rows, cols, settle, delay)
        raise GpioError(f"GPIO backend {type(backend).__name__}: neither lgpio nor RPi.GPIO")
    if backend not in BACKENDS:
        raise GpioError(f"GPIO backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    reasons = []
    if backend in ("auto", "lgpio"):
        try:
            return _LgpioMatrix(_import("lgpio"), rows, cols, chip, settle, delay)
        except Exception as e:  # ImportError off a Pi, lgpio.error when a pin is busy
            reasons.append(f"lgpio: {_one_line(e)}")
    if backend in ("auto", "rpigpio"):
        try:
            return _RpiGpioMatrix(_import("RPi.GPIO"), rows, cols, settle, delay)
        except Exception as e:  # RuntimeError when not on a Pi
            reasons.append(f"RPi.GPIO: {_one_line(e)}")
    raise GpioError("no GPIO access (" + "; ".join(reasons) + "); on a Pi: sudo apt install "
                    "python3-lgpio and add the user to the gpio group")  # fmt: skip


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


class GpioBoard(SensorBoard):
    """An n x n sensor matrix on the Pi's GPIO (see the module doc)."""

    debounced = True  # the host-side debouncer can pass our readings straight on

    def __init__(
        self,
        rows: Sequence[int],
        cols: Sequence[int],
        *,
        kind: str = "switch",
        scan_hz: float = 200,
        debounce_ms: float = 20,
        backend="auto",
        chip: int | None = None,
        retry_seconds: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        settle_us: float = SETTLE_US,
        delay: Callable[[float], None] = time.sleep,
    ):
        if kind not in SENSOR_KINDS:
            raise ValueError(f"sensor kind must be one of {', '.join(SENSOR_KINDS)}, got {kind!r}")
        n = len(rows)
        try:
            check_size(n)
        except ValueError as e:
            raise ValueError(f"rows: {e}") from None
        want = 2 * n if kind == "polarity" else n
        if len(cols) != want:
            raise ValueError(f"a {n}x{n} {kind} board needs {want} column pins, got {len(cols)}")
        pins = [*rows, *cols]
        if len(set(pins)) != len(pins):
            raise ValueError("a GPIO pin is used twice in rows/cols")
        if not scan_hz > 0:
            raise ValueError(f"scan_hz must be > 0, got {scan_hz}")
        if not debounce_ms >= 0:
            raise ValueError(f"debounce_ms must be >= 0, got {debounce_ms}")
        if not settle_us >= 0:
            raise ValueError(f"settle_us must be >= 0, got {settle_us}")
        self.size = n
        self.kind = kind
        self.rows, self.cols = list(rows), list(cols)
        self.scan_hz = float(scan_hz)
        self.debounce = debounce_ms / 1000.0
        self.backend = backend
        self.chip = chip
        self.retry_seconds = retry_seconds
        self._clock = clock
        self.settle_us = float(settle_us)
        self._delay = delay
        self._sink: Callable[[Event], None] | None = None
        self._io = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._snapshot_wanted = threading.Event()
        self._last_failure: str | None = None
        squares = n * n
        empty = "." if kind == "polarity" else "0"
        self._reported = [empty] * squares
        self._candidate = [empty] * squares
        self._since = [0.0] * squares

    # ── SensorBoard ──────────────────────────────────────────────────────────────────────────
    def start(self, sink: Callable[[Event], None]) -> None:
        """Connect (posting LinkStatus + BoardSnapshot, or LinkStatus(False) with the reason)
        and start the scan thread, which keeps retrying a failed connection."""
        if self._thread is not None:
            return
        self._stop.clear()
        self.connect(sink)
        self._thread = threading.Thread(target=self._run, name="gpio-scan", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None
        self._disconnect()

    def request_snapshot(self) -> None:
        self._snapshot_wanted.set()

    # ── stepping (the thread uses these; tests call them directly) ───────────────────────────
    def connect(self, sink: Callable[[Event], None]) -> bool:
        """Open the backend and post the starting position. False (and LinkStatus(False))
        when the GPIO cannot be opened."""
        self._sink = sink
        try:
            self._io = open_matrix(
                self.backend,
                self.rows,
                self.cols,
                self.chip,
                settle_us=self.settle_us,
                delay=self._delay,
            )
            rows = self._io.read()
        except Exception as e:
            self._disconnect()
            reason = str(e) if isinstance(e, GpioError) else f"GPIO matrix: {_one_line(e)}"
            if reason != self._last_failure:  # retries repeat the same reason: say it once
                self._last_failure = reason
                log.warning("%s", reason)
                self._post(LinkStatus(False, reason))
            return False
        self._last_failure = None
        now = self._clock()
        values = self._decode(rows)
        self._reported = list(values)
        self._candidate = list(values)
        self._since = [now] * len(values)
        n = self.size
        self._post(LinkStatus(True, f"GPIO matrix {n}x{n} {self.kind} via {self._io.name}"))
        self._post(BoardSnapshot(tuple(values), now))
        return True

    @property
    def connected(self) -> bool:
        return self._io is not None

    def scan_once(self, now: float | None = None) -> None:
        """Read the whole matrix once, debounce, post what changed."""
        if self._io is None:
            return
        try:
            rows = self._io.read()
        except Exception as e:
            self._disconnect()
            self._last_failure = f"GPIO read failed: {_one_line(e)}"
            log.warning("%s", self._last_failure)
            self._post(LinkStatus(False, self._last_failure))
            return
        self.process(rows, self._clock() if now is None else now)

    def process(self, rows: Sequence[int], now: float) -> None:
        """Debounce one scan's raw rows (bit j of rows[i] = column j level, 0 = active)."""
        values = self._decode(rows)
        cand, since, rep = self._candidate, self._since, self._reported
        for sq, v in enumerate(values):
            if v != cand[sq]:
                cand[sq] = v
                since[sq] = now
            if cand[sq] != rep[sq] and now - since[sq] >= self.debounce:
                rep[sq] = cand[sq]
                self._post(SquareReading(sq, cand[sq], now, debounced=True))
        if self._snapshot_wanted.is_set():
            self._snapshot_wanted.clear()
            self._post(BoardSnapshot(tuple(rep), now))

    @property
    def reported(self) -> tuple[str, ...]:
        return tuple(self._reported)

    # ── internals ────────────────────────────────────────────────────────────────────────────
    def _decode(self, rows: Sequence[int]) -> list[str]:
        n = self.size
        out = []
        for r in range(n):
            low = ~rows[r]
            for f in range(n):
                if self.kind == "polarity":
                    south, north = low >> f & 1, low >> (n + f) & 1
                    out.append("x" if south and not north else "o" if north and not south else ".")
                else:
                    out.append("1" if low >> f & 1 else "0")
        return out

    def _post(self, event: Event) -> None:
        if self._sink is not None:
            self._sink(event)

    def _disconnect(self) -> None:
        io, self._io = self._io, None
        if io is not None:
            io.close()

    def _run(self) -> None:
        period = 1.0 / self.scan_hz
        due = time.monotonic()
        while not self._stop.is_set():
            if self._io is None:
                if self._stop.wait(self.retry_seconds):
                    break
                if self._sink is not None:
                    self.connect(self._sink)
                due = time.monotonic()
                continue
            self.scan_once()
            due += period
            delay = due - time.monotonic()
            if delay < 0:  # fell behind (a slow Pi, a long GC): do not try to catch up
                due, delay = time.monotonic(), 0.0
            self._stop.wait(delay)
