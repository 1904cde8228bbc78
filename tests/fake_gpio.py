"""A simulated diode matrix behind lgpio-shaped and RPi.GPIO-shaped module objects.

Neither lgpio nor RPi.GPIO ships a mock, so desktop tests, the benchmark and demos of
``--board gpio`` drive GpioBoard through these. They model the electrics, not the driver:
a column reads low only while a row that has a closed contact on it is driven low, and an
input without its pull-up floats (reads low), so a driver that forgets the pull-ups or drives
the wrong level sees garbage, as it would on a real board.

With ``tau_s`` > 0 a column line is an RC: a column that a closed contact held low rises
through the pull-up after its row is released, V = 3.3 V x (1 - exp(-t / tau)), and reads low
until it passes the input's 2.0 V. Time is the matrix's own clock (``now``): every GPIO call
takes ``call_s`` and ``sleep(seconds)`` waits, so a scan that reads too soon after selecting the
next row sees the previous row's closed square there (a ghost), on any machine.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Iterable, Sequence


class MatrixSim:
    """Contacts of a diode matrix: (row index, column index) pairs that are closed.

    Square ``rank * n + file`` sits on row ``rank``; on column ``file`` for switch and
    presence boards; on column ``file`` (south sensor) and ``n + file`` (north sensor) for
    polarity boards, whose column list is twice as long.
    """

    VDD, V_IH = 3.3, 2.0  # volts: the supply, and the level from which an input reads high

    def __init__(
        self, rows: Sequence[int], cols: Sequence[int], *, tau_s: float = 0.0, call_s: float = 1e-6
    ):
        self.rows = list(rows)
        self.cols = list(cols)
        self.closed: set[tuple[int, int]] = set()
        self._lock = threading.Lock()
        self.fail_reads = 0  # the next N column reads raise OSError (a flaky wire, a hot-unplug)
        self.tau_s, self.call_s = tau_s, call_s
        self.now = 0.0  # the simulated time, seconds
        self._held: set[int] = set()  # columns held low by the rows as last written
        self._released_at: dict[int, float] = {}  # column index -> when its hold let go

    @property
    def recovery_s(self) -> float:
        """How long a released column takes to read high: to V_IH through the RC."""
        return self.tau_s * math.log(self.VDD / (self.VDD - self.V_IH))

    def sleep(self, seconds: float) -> None:
        """A wait on the simulated clock (what GpioBoard's ``delay`` calls in tests)."""
        self.now += seconds

    def _held_by(self, levels: dict[int, int]) -> set[int]:
        low = {r for r, g in enumerate(self.rows) if levels.get(g, 1) == 0}
        with self._lock:
            return {c for r, c in self.closed if r in low}

    def rows_written(self, levels: dict[int, int]) -> None:
        """The fakes call this after every write to the row outputs."""
        self.now += self.call_s
        if not self.tau_s:
            return
        held = self._held_by(levels)
        for c in self._held - held:
            self._released_at[c] = self.now
        self._held = held

    @property
    def n(self) -> int:
        return len(self.rows)

    def set_square(self, square: int, value: str) -> None:
        """Put a reading on a square: "1"/"0" (switch, presence) or "x"/"o"/"." (polarity)."""
        rank, file = divmod(square, self.n)
        polar = len(self.cols) == 2 * self.n
        with self._lock:
            for c in (file, self.n + file) if polar else (file,):
                self.closed.discard((rank, c))
            if value in ("1", "x"):
                self.closed.add((rank, file))
            elif value == "o":
                if not polar:
                    raise ValueError("this matrix has no north-pole columns")
                self.closed.add((rank, self.n + file))
            elif value not in ("0", "."):
                raise ValueError(f"{value!r}: not a reading")

    def set_board(self, values: Iterable[str]) -> None:
        for square, value in enumerate(values):
            self.set_square(square, value)

    def column_level(self, col_gpio: int, levels: dict[int, int], pulled_up: bool) -> int:
        """Level of a column line given the row outputs' levels (gpio -> 0/1)."""
        if self.fail_reads:
            self.fail_reads -= 1
            raise OSError(5, "Input/output error")
        self.now += self.call_s
        c = self.cols.index(col_gpio)
        with self._lock:
            for r, row_gpio in enumerate(self.rows):
                if levels.get(row_gpio, 1) == 0 and (r, c) in self.closed:
                    return 0
        if not pulled_up:
            return 0
        released = self._released_at.get(c)
        return 0 if released is not None and self.now - released < self.recovery_s else 1


class FakeLgpioError(Exception):
    pass


class FakeLgpio:
    """The part of the ``lgpio`` module a matrix scan uses, wired to a MatrixSim."""

    SET_PULL_UP = 32
    SET_PULL_DOWN = 64
    GROUP_ALL = 0xFFFFFFFFFFFFFFFF
    error = FakeLgpioError

    def __init__(self, sim: MatrixSim):
        self.sim = sim
        self.calls: Counter[str] = Counter()
        self._levels: dict[int, int] = {}
        self._inputs: dict[int, int] = {}  # gpio -> flags
        self._groups: dict[int, list[int]] = {}
        self._open: set[int] = set()

    def gpiochip_open(self, gpiochip: int) -> int:
        self.calls["gpiochip_open"] += 1
        handle = 100 + gpiochip
        self._open.add(handle)
        return handle

    def gpiochip_close(self, handle: int) -> int:
        self.calls["gpiochip_close"] += 1
        self._open.discard(handle)
        return 0

    def _check(self, handle: int) -> None:
        if handle not in self._open:
            raise FakeLgpioError("unknown handle")

    def _claim(self, gpios: list[int]) -> None:
        for g in gpios:
            if g in self._levels or g in self._inputs:
                raise FakeLgpioError("GPIO busy")

    def group_claim_output(self, handle, gpio, levels=(0,), lFlags=0):  # noqa: N803
        self.calls["group_claim_output"] += 1
        self._check(handle)
        gpios = list(gpio)
        self._claim(gpios)
        padded = list(levels) + [0] * (len(gpios) - len(levels))
        for g, level in zip(gpios, padded, strict=True):
            self._levels[g] = level
        self._groups[gpios[0]] = gpios
        self.sim.rows_written(self._levels)
        return 0

    def group_claim_input(self, handle, gpio, lFlags=0):  # noqa: N803
        self.calls["group_claim_input"] += 1
        self._check(handle)
        gpios = list(gpio)
        self._claim(gpios)
        for g in gpios:
            self._inputs[g] = lFlags
        self._groups[gpios[0]] = gpios
        return 0

    def group_write(self, handle, gpio, group_bits, group_mask=GROUP_ALL):
        self.calls["group_write"] += 1
        self._check(handle)
        for i, g in enumerate(self._groups[gpio]):
            if g not in self._levels:
                raise FakeLgpioError("GPIO not an output")
            if group_mask >> i & 1:
                self._levels[g] = group_bits >> i & 1
        self.sim.rows_written(self._levels)
        return 0

    def group_read(self, handle, gpio):
        """Like lgpio: (status = group size, bits)."""
        self.calls["group_read"] += 1
        self._check(handle)
        members = self._groups[gpio]
        bits = 0
        for i, g in enumerate(members):
            if g in self._inputs:
                pulled = bool(self._inputs[g] & self.SET_PULL_UP)
                level = self.sim.column_level(g, self._levels, pulled)
            else:
                level = self._levels[g]
            bits |= level << i
        return len(members), bits

    def group_free(self, handle, gpio):
        self.calls["group_free"] += 1
        for g in self._groups.pop(gpio, []):
            self._levels.pop(g, None)
            self._inputs.pop(g, None)
        return 0

    @property
    def claimed(self) -> set[int]:
        return set(self._levels) | set(self._inputs)

    def level(self, gpio: int) -> int:
        return self._levels[gpio]


class FakeRPiGPIO:
    """The part of ``RPi.GPIO`` a matrix scan uses, wired to a MatrixSim."""

    BCM, BOARD = 11, 10
    OUT, IN = 0, 1
    LOW, HIGH = 0, 1
    PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22

    def __init__(self, sim: MatrixSim):
        self.sim = sim
        self.calls: Counter[str] = Counter()
        self.mode: int | None = None
        self._levels: dict[int, int] = {}
        self._inputs: dict[int, int] = {}

    def setmode(self, mode: int) -> None:
        self.calls["setmode"] += 1
        self.mode = mode

    def setwarnings(self, flag: bool) -> None:
        self.calls["setwarnings"] += 1

    @staticmethod
    def _list(x) -> list:
        return list(x) if isinstance(x, list | tuple) else [x]

    def setup(self, channel, direction, pull_up_down=PUD_OFF, initial=None) -> None:
        self.calls["setup"] += 1
        if self.mode != self.BCM:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode")
        for ch in self._list(channel):
            if direction == self.OUT:
                self._levels[ch] = self.LOW if initial is None else int(initial)
            else:
                self._inputs[ch] = pull_up_down

    def output(self, channel, value) -> None:
        self.calls["output"] += 1
        chans = self._list(channel)
        values = self._list(value) if isinstance(value, list | tuple) else [value] * len(chans)
        for ch, v in zip(chans, values, strict=True):
            if ch not in self._levels:
                raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
            self._levels[ch] = int(v)
        self.sim.rows_written(self._levels)

    def input(self, channel) -> int:
        self.calls["input"] += 1
        if channel in self._levels:
            return self._levels[channel]
        if channel not in self._inputs:
            raise RuntimeError("You must setup() the GPIO channel first")
        pulled = self._inputs[channel] == self.PUD_UP
        return self.sim.column_level(channel, self._levels, pulled)

    def cleanup(self, channel=None) -> None:
        self.calls["cleanup"] += 1
        chans = list(self._levels) + list(self._inputs) if channel is None else self._list(channel)
        for ch in chans:
            self._levels.pop(ch, None)
            self._inputs.pop(ch, None)

    @property
    def claimed(self) -> set[int]:
        return set(self._levels) | set(self._inputs)
