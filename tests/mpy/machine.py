"""Stand-in for MicroPython's ``machine`` on the unix port, for tests of the Pico firmware.

The unix port has its own ``machine`` whose ``mem32`` touches real memory; this one, first on
MICROPYPATH, is a Pico in front of a simulated diode matrix:

- ``Pin``: outputs keep their level; an input column reads low when a driven (low) row has a
  closed sensor on it. The diode in series with every sensor means only that direct path
  counts: no ghost squares. On polarity boards a row's hall sensors are powered by the row
  and answer only ``HALL_POWER_ON_US`` (MPY_HALL_POWER_ON_US) after it went low.
- ``mem32[0xD0000004]``: the RP2040 SIO input register, every GPIO level in one word.
- ``WDT``: refuses timeouts over 8388 ms (as rp2 does); a thread reports ``wdt expired`` when
  it is not fed in time and the test ends the process (a reset).
- ``reset()``: reports ``reset`` and never returns (the test ends the process);
  ``reset_cause()`` is MPY_RESET_CAUSE (the test sets it on each boot), and the watchdog's
  REASON register (``mem32[0x40058008]``, ``0x400D8008`` with MPY_CHIP=RP2350) MPY_WDT_REASON:
  1 its timer ran out, 2 forced.
- MPY_FAULT_AFTER=N: every read of the input register after the first N fails (OSError 5), a
  persistent fault for the firmware's loop.

The test steers the sensors and reads reports over a Unix socket (MPY_CTL), one text line
each way. Commands: ``set SQ V``, ``bounce SQ MS VALUES`` (one value every MS ms, the last one
stays), ``jump MS`` (the ticks clock), ``measure N`` (heap allocations over the next N loop
passes, counted at each watchdog feed), ``hang`` (the firmware's loop stops), ``feedgap`` (the
longest time between two watchdog feeds so far).
Reports: ``boot``, ``wdt armed MS``, ``wdt expired``, ``reset``, ``px HEX`` (neopixel),
``alloc max=BYTES nonzero=PASSES``, ``feedgap max=MS``.
"""

# MicroPython code: %-formatting is the cheapest there.
# ruff: noqa: UP031
import _thread
import gc
import os
import select
import socket
import struct
import sys

import utime

PWRON_RESET, WDT_RESET = 1, 3  # the rp2 port's values
SIO_GPIO_IN = 0xD0000004
WDT_REASON = 0x40058008
# MPY_CHIP=RP2350 (Pico 2): os.uname() names it and the REASON register sits at its address;
# the RP2040's address is then PLL_USB's FBDIV_INT (100 for the 48 MHz USB clock)
_RP2350 = os.getenv("MPY_CHIP") == "RP2350"
WDT_REASON_RP2350 = 0x400D8008
PLL_USB_FBDIV_INT = 0x40058008
_WDT_REASON_HERE = WDT_REASON_RP2350 if _RP2350 else WDT_REASON
ALL_PINS = (1 << 30) - 1
HALL_POWER_ON_US = int(os.getenv("MPY_HALL_POWER_ON_US") or "50")


def _ints(name):
    text = os.getenv(name) or ""
    return [int(t) for t in text.split(",") if t]


_size = int(os.getenv("MPY_SIZE") or "8")
_kind = os.getenv("MPY_KIND") or "switch"
_rows = _ints("MPY_ROWS")
_cols = _ints("MPY_COLS")
_cols_b = _ints("MPY_COLS_B") if _kind == "polarity" else []
_row_of = {}
for _r, _p in enumerate(_rows):
    _row_of[_p] = _r
_idle = "." if _kind == "polarity" else "0"
_values = bytearray(_size * _size)
for _i in range(len(_values)):
    _values[_i] = ord(_idle)
_pull_a = [0] * _size  # per row: GPIO bits its closed sensors pull low (plane a)
_pull_b = [0] * _size
_low = [0]  # bit mask of GPIOs driven low
_low_rows = [0]  # bit mask of rows driven low
_low_since = [0] * _size  # ticks_us when each row went low
_bounces = {}  # square -> [values, step ms, next tick, index]

# -- the control socket ---------------------------------------------------------------------
_ctl = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
_ctl.connect(struct.pack("H", socket.AF_UNIX) + os.getenv("MPY_CTL").encode() + b"\0")
_ctl_poll = select.poll()
_ctl_poll.register(_ctl, select.POLLIN)
_ctl_buf = [b""]
_send_lock = _thread.allocate_lock()


def notify(text):
    """One report line to the test."""
    _send_lock.acquire()
    try:
        _ctl.send(text.encode() + b"\n")
    finally:
        _send_lock.release()


def _recompute(r):
    a = 0
    b = 0
    n = _size
    for c in range(n):
        v = _values[r * n + c]
        if v == 49 or v == 120:  # "1" or "x": the first sensor is closed
            a |= 1 << _cols[c]
        elif v == 111:  # "o": the second (white-up) sensor
            b |= 1 << _cols_b[c]
    _pull_a[r] = a
    _pull_b[r] = b


def _set(sq, v):
    _values[sq] = ord(v)
    _recompute(sq // _size)


def _command(line):
    parts = line.decode().split()
    if not parts:
        return
    cmd = parts[0]
    if cmd == "set":
        sq = int(parts[1])
        _bounces.pop(sq, None)
        _set(sq, parts[2])
    elif cmd == "bounce":
        sq, step = int(parts[1]), int(parts[2])
        _bounces[sq] = [parts[3], step, utime.ticks_ms(), 0]
    elif cmd == "jump":
        import time

        time.jump(int(parts[1]))
        notify("jumped " + parts[1])
    elif cmd == "measure":
        gc.collect()
        gc.disable()
        _meas[0] = int(parts[1])
        _meas[1] = -1  # baseline taken at the next feed
        _meas[2] = 0
        _meas[3] = 0
    elif cmd == "hang":
        _stall()
    elif cmd == "feedgap":
        notify("feedgap max=%d" % _gap[0])
    else:
        notify("error unknown command " + cmd)


def _stall():
    """Stop here (a hung loop, or a reset under way) until the test ends the process, or ends
    this process ourselves if the test has gone away."""
    while True:
        utime.sleep_ms(50)
        for entry in _ctl_poll.ipoll(0):
            if entry[1] & (select.POLLHUP | select.POLLERR) or not _ctl.recv(1024):
                sys.exit(0)


def _advance_bounces():
    now = utime.ticks_ms()
    for sq in list(_bounces):
        b = _bounces[sq]
        if utime.ticks_diff(now, b[2]) >= 0:
            _set(sq, b[0][b[3]])
            b[3] += 1
            b[2] = utime.ticks_add(b[2], b[1])
            if b[3] >= len(b[0]):
                del _bounces[sq]


def _poll_control():
    for entry in _ctl_poll.ipoll(0):
        if entry[1] & select.POLLIN:
            data = _ctl.recv(1024)
            if not data:  # the test went away: power off
                sys.exit(0)
            buf = _ctl_buf[0] + data
            while True:
                i = buf.find(b"\n")
                if i < 0:
                    break
                _command(buf[:i])
                buf = buf[i + 1 :]
            _ctl_buf[0] = buf
    if _bounces:
        _advance_bounces()


# -- pins and the input register ------------------------------------------------------------


def _gpio_word():
    if _low_rows[0] <= 1:  # between scans (row 1 driven, or none): sensors may change now
        _poll_control()
    word = ALL_PINS & ~_low[0]
    rows = _low_rows[0]
    r = 0
    hall = _kind == "polarity"
    while rows:
        if rows & 1 and (
            not hall or utime.ticks_diff(utime.ticks_us(), _low_since[r]) >= HALL_POWER_ON_US
        ):
            word &= ~(_pull_a[r] | _pull_b[r])
        rows >>= 1
        r += 1
    return word


class Pin:
    IN, OUT, OPEN_DRAIN = 0, 1, 2
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, id, mode=-1, pull=-1, value=None):  # noqa: A002
        if not isinstance(id, int) or not 0 <= id < 30:
            raise ValueError("invalid pin")
        self.id = id
        self.bit = 1 << id
        self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            return 1 if _gpio_word() & self.bit else 0
        if v:
            _low[0] &= ~self.bit
        else:
            _low[0] |= self.bit
        r = _row_of.get(self.id, -1)
        if r >= 0:
            rbit = 1 << r
            if v:
                _low_rows[0] &= ~rbit
            elif not _low_rows[0] & rbit:
                _low_rows[0] |= rbit
                _low_since[r] = utime.ticks_us()
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


_fault = [int(os.getenv("MPY_FAULT_AFTER") or "0"), 0]  # reads before the fault, reads so far


class _Mem32:
    def __getitem__(self, addr):
        if addr == SIO_GPIO_IN:
            if _fault[0]:
                _fault[1] += 1
                if _fault[1] > _fault[0]:
                    raise OSError(5)
            return _gpio_word()
        if addr == _WDT_REASON_HERE:
            return int(os.getenv("MPY_WDT_REASON") or "0")
        if addr == PLL_USB_FBDIV_INT and _RP2350:
            return 100  # on an RP2350 the RP2040's REASON address is another register
        return 0

    def __setitem__(self, addr, value):
        pass


mem32 = _Mem32()

# -- watchdog, resets, allocation counting --------------------------------------------------

_wdt = [0, 0]  # timeout ms (0: not armed), tick of the last feed
_gap = [0]  # the longest time between two feeds (ms)
_meas = [0, -1, 0, 0]  # passes left, heap at the last feed, largest growth, passes that grew


def _watch():
    while True:
        utime.sleep_ms(5)
        timeout = _wdt[0]
        if timeout and utime.ticks_diff(utime.ticks_ms(), _wdt[1]) > timeout:
            notify("wdt expired")
            while True:
                utime.sleep_ms(1000)


class WDT:
    def __init__(self, id=0, timeout=5000):  # noqa: A002
        if timeout > 8388:
            raise ValueError("timeout exceeds 8388 ms")
        self.timeout = timeout
        _wdt[1] = utime.ticks_ms()
        if not _wdt[0]:
            _wdt[0] = timeout
            _thread.start_new_thread(_watch, ())
        notify("wdt armed %d" % timeout)

    def feed(self):
        now = utime.ticks_ms()
        gap = utime.ticks_diff(now, _wdt[1])
        if gap > _gap[0]:
            _gap[0] = gap
        _wdt[1] = now
        if _meas[0]:
            heap = gc.mem_alloc()
            if _meas[1] >= 0:
                grew = heap - _meas[1]
                if grew > 0:
                    _meas[3] += 1
                    if grew > _meas[2]:
                        _meas[2] = grew
                _meas[0] -= 1
                if not _meas[0]:
                    gc.enable()
                    notify("alloc max=%d nonzero=%d" % (_meas[2], _meas[3]))
            _meas[1] = gc.mem_alloc()


def reset():
    notify("reset")
    _stall()  # the test ends the process: nothing after machine.reset() runs


def soft_reset():
    reset()


def reset_cause():
    return int(os.getenv("MPY_RESET_CAUSE") or "1")


def unique_id():
    return b"\x00mpy\x00pico"


def freq(*args):
    return 125_000_000


def idle():
    pass


for _sq, _v in enumerate(os.getenv("MPY_INITIAL") or ""):
    if _sq < len(_values):
        _set(_sq, _v)
notify("boot cause=%d" % reset_cause())
