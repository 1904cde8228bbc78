"""Desktop stand-ins for MicroPython's ``machine``, ``neopixel``, ``micropython`` and ``rp2``
modules, for running the real firmware under CPython (see ``pico_sim``).

``install_stand_ins`` puts them into ``sys.modules``; they route every pin, LED and watchdog
call to the simulated Pico that owns the calling thread (``current.pico``).
"""

from __future__ import annotations

import sys
import threading
import types
from typing import Protocol

PWRON_RESET, WDT_RESET = 1, 3  # the values MicroPython's rp2 port uses
SIO_GPIO_IN = 0xD0000004
WDT_REASON = 0x40058008  # the RP2040 watchdog's record: 1 timer ran out, 2 forced (reset())

current = threading.local()


class SimReset(BaseException):  # noqa: N818 - a control-flow signal, not an error
    """Raised by the stand-in ``machine.reset()``: the simulation restarts the firmware."""


class PicoHardware(Protocol):
    """What the stand-ins drive: the SimulatedPico that owns the calling thread."""

    watchdog_feeds: int
    _reset_cause: int
    _wdt_reason: int

    def _pin_write(self, pin: int, value: int) -> None: ...

    def _pin_read(self, pin: int) -> int: ...

    def _gpio_in(self) -> int: ...

    def _pixels_written(self, pixels: list[tuple[int, ...]]) -> None: ...


def _pico() -> PicoHardware:
    pico = getattr(current, "pico", None)
    if pico is None:
        raise RuntimeError("MicroPython stand-in used outside a SimulatedPico thread")
    return pico


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
        if addr == WDT_REASON:
            return _pico()._wdt_reason
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
