"""The firmware main loop: scan, debounce, report, obey the host (protocol in docs/protocol.md).

``Firmware(port, cfg)`` takes any port with ``read(limit) -> bytes`` and ``write(bytes)``:
USB CDC on the Pico (boardfw.usbio), a pseudo-terminal in the desktop simulation.
"""

# MicroPython subset: no contextlib, and %-formatting is the cheapest there.
# ruff: noqa: UP031, SIM105, SIM110

import os

import machine

from boardfw import proto
from boardfw.clock import sleep_ms, ticks_diff
from boardfw.clock import ticks_ms as _ticks_ms
from boardfw.debounce import Debouncer
from boardfw.leds import Leds, budget_ma
from boardfw.matrix import Matrix

FW_VERSION = "1.0.0"
KINDS = ("switch", "presence", "polarity")
RING = 64  # recent board lines kept for RESEND
MAINT_FLAG = "maint.flag"  # present at boot: leave the REPL free (MAINT, firmware/install.sh)
RESET_FLAG = "reset.flag"  # present at boot: the last reset was asked for, not the watchdog's
MAX_CHANGES = 64  # squares in one LEDD line
RX_CHUNK = 512  # host bytes taken per loop pass
# Host input, reports, LEDs, snapshot and the watchdog are served this often (ms); the scan
# runs on every pass between (a poll of the USB port costs as much as a scan).
HOUSE_MS = 8
DRAIN_MS = 200  # time given to USB to send the last lines before an intentional reset
COUNT_MASK = (1 << 29) - 1  # counters wrap here and stay small ints (no allocation) on the Pico
# GPIOs on the Pico's pads: GP23 (power save), GP24 (VBUS sense), GP25 (LED) and GP29 (VSYS/3)
# are wired on the board itself.
PICO_GPIOS = tuple(range(23)) + (26, 27, 28)
HALL_MIN_SETTLE_US = 50  # hall switches need their power-on time after the row powers them
# A repeated error is counted, not sent, for this long after its line; then one "ERR CODE xN".
ERR_WINDOW_MS = 1000
MAX_HELD = 8  # kinds of error counted apart (code and detail); more are counted by code
SAFE_AFTER = 5  # loop failures in a row (with restarts between them) before safe mode
STABLE_MS = 60000  # a failure after running this long starts the count again
RESTART_BACKOFF_MS = 1000  # the wait before the first restart; doubles at each one in a row
# The watchdog's REASON register: bit 0 the timer ran out (not fed), bit 1 a forced reset
# (machine.reset(), mpremote's reset). rp2's reset_cause() calls both WDT_RESET. Its address
# depends on the chip (the datasheets' WATCHDOG_BASE + 8): on an RP2350 (Pico 2) the RP2040's
# address is PLL_USB's FBDIV_INT, whose low bits would read as "the timer ran out".
WDT_REASONS = (("RP2040", 0x40058008), ("RP2350", 0x400D8008))
WDT_REASON = WDT_REASONS[0][1]
REASON_TIMER = 1
REASON_FORCE = 2


class Firmware:
    def __init__(self, port, cfg, ticks_ms=None, gpios=PICO_GPIOS):
        """``port``: read_into(buf) -> count, write(line) -> sent?, drain(ms, feed).
        ``gpios``: the GPIO numbers the chip has (None: any, for a simulated chip)."""
        self.port = port
        self.cfg = cfg
        self.ticks = ticks_ms or _ticks_ms
        problem = config_problem(cfg, gpios)
        if problem is not None:
            raise ValueError(problem)
        n = cfg.SIZE
        kind = cfg.KIND
        polar = kind == "polarity"
        self.n = n
        self.kind = kind
        self.matrix = Matrix(
            cfg.ROW_PINS, cfg.COL_PINS, cfg.COL_PINS_B if polar else None,
            cfg.FAST_IO, cfg.HALL_SETTLE_US if polar else cfg.ROW_SETTLE_US, HOUSE_MS * 1000,
        )  # fmt: skip
        # the machine-code scan (rp2) goes on for up to HOUSE_MS between services; elsewhere
        # every pass serves the host, as a pass is one slow scan
        self.house_ms = HOUSE_MS if self.matrix.native is not None else 0
        self.leds = Leds(cfg.LED_PIN, n, cfg.LED_SERPENTINE, cfg.BRIGHTNESS, cfg.LED_SUPPLY_AMPS)
        self.rx = bytearray(RX_CHUNK)
        self.rows_a = [0] * n
        self.rows_b = [0] * n if polar else None
        self.prev_a = [0] * n
        self.prev_b = [0] * n
        self.seq = 0
        self.ring = [None] * RING
        self.lines = proto.LineBuffer()
        self.bad_lines = 0
        self.held = {}  # error code -> [tick of its last line, occurrences since] (coalescing)
        self.scans = 0  # modulo 2**29
        self.scans_at_snap = 0
        self.rate = 0  # full scans per second over the last snapshot period
        self.dropped = 0  # lines the port could not take
        self.wdt = None  # started by run(): a failed start must not be reset by it
        # A random id per boot: the host tells a restart from a repeated HELLO by it.
        self.boot_id = "%08x" % int.from_bytes(os.urandom(4), "big")
        now = self.ticks()
        self.matrix.scan(self.rows_a, self.rows_b)
        values = []
        for sq in range(n * n):
            values.append(self.value(sq))
        self._remember_rows()
        self.deb = Debouncer(values, cfg.DEBOUNCE_MS)
        self.last_snap = now
        # Uptime is summed pass by pass: one ticks_diff over days would wrap (2**29 ms).
        self.last_tick = now
        self.up_s = 0
        self.up_ms = 0
        asked = take_flag(RESET_FLAG)  # always removed: it speaks for the last reset only
        self.cause = boot_cause(asked)
        # restarts in a row after repeated errors, up to this boot ("failure N" in the flag)
        self.restarts = _failures(asked) if self.cause == "failure" else 0
        self.hello()
        self.snapshot()
        if self.cause == "watchdog":
            self.send("ERR wdt restarted by watchdog")
        elif self.cause == "failure":
            self.send("ERR internal restarted after repeated errors")

    # -- reporting -----------------------------------------------------------------------
    def send(self, body):
        seq = self.seq
        line = proto.frame("%02x %s" % (seq, body))
        self.ring[seq % RING] = (seq, line)
        self.seq = (seq + 1) & 0xFF
        if not self.port.write(line):
            self.dropped += 1

    def error(self, code, detail=""):
        """``ERR code detail``, unless the same error was sent less than ERR_WINDOW_MS ago:
        then it is only counted, and the count goes out as one ``ERR code xN detail`` line
        when the window ends (``flush_errors``). So a flood of bad lines cannot push events out
        of the RESEND ring: each kind of error takes at most one line per window."""
        key = code + " " + detail if detail else code
        held = self.held.get(key)
        if held is None and len(self.held) >= MAX_HELD:  # many kinds at once: count by code
            key = code
            held = self.held.get(key)
        if held is not None:
            held[1] += 1
            return
        self.held[key] = [self.ticks(), 0]
        self.send("ERR " + key)

    def flush_errors(self, now):
        for key in list(self.held):
            held = self.held[key]
            if ticks_diff(now, held[0]) >= ERR_WINDOW_MS:
                if held[1]:  # more came in the window: say how many, open a new window
                    code, _, detail = key.partition(" ")
                    self.send("ERR %s x%d%s" % (code, held[1], " " + detail if detail else ""))
                    self.held[key] = [now, 0]
                else:
                    del self.held[key]

    def hello(self):
        self.send(
            "HELLO proto=%d fw=%s size=%d kind=%s boot=%s leds=%d debounce=%d reset=%s"
            % (proto.PROTO, FW_VERSION, self.n, self.kind, self.boot_id, self.n * self.n,
               self.deb.ms, self.cause)
        )  # fmt: skip

    def snapshot(self):
        self.send("SNAP " + "".join(self.deb.reported))

    def value(self, sq):
        """The reading of one square from the last scan: '1'/'0', or 'x'/'o'/'.' for polarity."""
        r, c = sq // self.n, sq % self.n
        a = (self.rows_a[r] >> c) & 1
        if self.rows_b is None:
            return "1" if a else "0"
        b = (self.rows_b[r] >> c) & 1
        if a and not b:
            return "x"
        if b and not a:
            return "o"
        return "."

    def _remember_rows(self):
        for r in range(self.n):
            self.prev_a[r] = self.rows_a[r]
            if self.rows_b is not None:
                self.prev_b[r] = self.rows_b[r]

    # -- the loop ------------------------------------------------------------------------
    def step(self):
        """One pass: a full scan, debounced reports, host commands, LEDs, periodic snapshot.

        On the rp2 port one pass is machine-code scans for up to HOUSE_MS (until one sees a
        change); the rest (counted in milliseconds) runs once every HOUSE_MS, so the scan rate
        is not spent on polling the port."""
        changed = self.matrix.scan(self.rows_a, self.rows_b)
        now = self.ticks()  # after the scan: it may have run for up to HOUSE_MS
        n = self.n
        if changed:
            rows_a, rows_b = self.rows_a, self.rows_b
            for r in range(n):
                if rows_a[r] != self.prev_a[r] or (
                    rows_b is not None and rows_b[r] != self.prev_b[r]
                ):
                    for c in range(n):
                        sq = r * n + c
                        self.deb.seen(sq, self.value(sq), now)
            self._remember_rows()
        self.scans = (self.scans + self.matrix.scans) & COUNT_MASK
        if ticks_diff(now, self.last_tick) < self.house_ms:
            return
        for sq in self.deb.due(now):
            self.send("EV %d %s" % (sq, self.deb.reported[sq]))
        got = self.port.read_into(self.rx)
        if got:
            for line in self.lines.feed(self.rx, got):
                self.handle(line)
        if self.lines.overflows:
            self.bad_lines += self.lines.overflows
            self.lines.overflows = 0
            self.error("long", "line over %d bytes dropped" % proto.MAX_LINE)
        if self.held:  # (an empty dict is skipped without allocating)
            self.flush_errors(now)
        if self.leds.dirty:
            self.leds.show()
        self.up_ms += ticks_diff(now, self.last_tick)
        self.last_tick = now
        if self.up_ms >= 1000:
            self.up_s += self.up_ms // 1000
            self.up_ms %= 1000
        elapsed = ticks_diff(now, self.last_snap)
        if elapsed >= self.cfg.SNAPSHOT_MS:
            done = (self.scans - self.scans_at_snap) & COUNT_MASK
            self.rate = done * 1000 // max(1, elapsed)
            self.scans_at_snap = self.scans
            self.last_snap = now
            self.snapshot()
        if self.wdt is not None:
            self.wdt.feed()

    def uptime_ms(self):
        return self.up_s * 1000 + self.up_ms

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()

    def start_watchdog(self):
        """Arm the hardware watchdog (it cannot be stopped again until the next reset)."""
        if self.cfg.WATCHDOG_MS and self.wdt is None:
            self.wdt = machine.WDT(timeout=self.cfg.WATCHDOG_MS)

    def run(self):
        """The loop. Returns (why, in one line) after 50 failed passes in a row."""
        self.start_watchdog()
        failures = 0
        while True:
            try:
                self.step()
                failures = 0
            except Exception as e:  # report, keep scanning; the watchdog covers a real hang
                failures += 1
                why = _printable(repr(e))
                if failures > 50:
                    return why
                try:
                    self.error("internal", why)
                except Exception:
                    pass

    def restart_or_stay_safe(self, why):
        """After repeated errors: restart after a delay that doubles at each restart in a row,
        and after SAFE_AFTER failures in a row stay in safe mode instead (no more resets, no
        more flash writes) saying why. A failure after STABLE_MS of running counts from 1."""
        failures = self.restarts + 1 if self.uptime_ms() < STABLE_MS else 1
        if failures >= SAFE_AFTER:
            self.safe_mode("%d failures: %s" % (failures, why))
        delay = getattr(self.cfg, "RESTART_BACKOFF_MS", RESTART_BACKOFF_MS) << (failures - 1)
        self.safe_mode("failure %d, restart in %d ms: %s" % (failures, delay, why), delay)
        put_flag(RESET_FLAG, "failure %d" % failures)
        machine.reset()

    def safe_mode(self, why, ms=-1):
        """No scanning, LEDs dark, no flash writes: a ``SAFE why`` line now, at every host line
        and every SNAPSHOT_MS, for ``ms`` ms (-1: until a reset). MAINT still works, so new
        firmware can be copied."""
        for sq in range(self.n):
            self.leds.set(sq, 0)
        try:
            self.leds.show()
        except Exception:
            pass
        line = "SAFE " + why[:200]
        self.send(line)
        start = last = self.ticks()
        while True:
            now = self.ticks()
            if 0 <= ms <= ticks_diff(now, start):
                return
            got = self.port.read_into(self.rx)
            if got:
                for raw in self.lines.feed(self.rx, got):
                    body = proto.unframe(raw)
                    if body == "MAINT":
                        self.maintenance()
                    elif body is not None:  # HELLO, PING, anything: why nothing else runs
                        self.send(line)
            if ticks_diff(now, last) >= self.cfg.SNAPSHOT_MS:
                last = now
                self.send(line)
            self.feed()
            sleep_ms(10)

    # -- commands from the host ----------------------------------------------------------
    def handle(self, line):
        if not line or line == b"\r":
            return
        body = proto.unframe(line)
        if body is None:
            self.bad_lines += 1
            self.error("crc")
            return
        parts = body.split(" ")
        cmd = parts[0]
        args = parts[1:]
        if cmd == "HELLO":
            self.hello()
            self.snapshot()
        elif cmd == "SNAP":
            self.snapshot()
        elif cmd == "PING":
            self.send("PONG")
        elif cmd == "LEDS":
            self.cmd_leds(args)
        elif cmd == "LEDD":
            self.cmd_ledd(args)
        elif cmd == "BRIGHT":
            if len(args) == 2 and proto.is_token(args[0]) and proto.is_uint(args[1], 255):
                self.leds.set_brightness(int(args[1]))
                self.send("ACK " + args[0])
            else:
                self.bad_args(cmd)
        elif cmd == "DEBOUNCE":
            ok = len(args) == 2 and proto.is_token(args[0]) and proto.is_uint(args[1], 1000)
            if ok and int(args[1]) >= 1:
                self.deb.ms = int(args[1])
                self.send("ACK " + args[0])
            else:
                self.bad_args(cmd)
        elif cmd == "RESEND":
            if len(args) == 1 and len(args[0]) == 2 and proto.is_hex(args[0]):
                self.resend(int(args[0], 16))
            else:
                self.bad_args(cmd)
        elif cmd == "STAT":
            self.send(
                "STAT scans=%d rate=%d bad=%d uptime=%d drop=%d led_ma=%d led_budget=%d"
                % (self.scans, self.rate, self.bad_lines, self.uptime_ms(), self.dropped,
                   self.leds.ma, self.leds.budget)
            )  # fmt: skip
        elif cmd == "MAINT":
            self.maintenance()
        else:
            self.bad_lines += 1
            self.error("unknown", _printable(cmd[:16]))

    def bad_args(self, cmd):
        self.bad_lines += 1
        self.error("args", cmd)

    def cmd_leds(self, args):
        count = self.n * self.n
        if len(args) != 2 or not proto.is_token(args[0]):
            return self.bad_args("LEDS")
        hexes = args[1]
        if len(hexes) != count * 6 or not proto.is_hex(hexes):
            return self.bad_args("LEDS")
        for sq in range(count):
            self.leds.set(sq, int(hexes[sq * 6 : sq * 6 + 6], 16))
        self.send("ACK " + args[0])

    def cmd_ledd(self, args):
        if len(args) < 1 or not proto.is_token(args[0]) or len(args) - 1 > MAX_CHANGES:
            return self.bad_args("LEDD")
        changes = []
        for item in args[1:]:
            sq, _, rgb = item.partition(":")
            if not proto.is_uint(sq, self.n * self.n - 1) or len(rgb) != 6 or not proto.is_hex(rgb):
                return self.bad_args("LEDD")
            changes.append((int(sq), int(rgb, 16)))
        for sq, rgb in changes:
            self.leds.set(sq, rgb)
        self.send("ACK " + args[0])

    def resend(self, first):
        """Send again, unchanged, every line from sequence number ``first`` on."""
        count = (self.seq - first) & 0xFF
        lines = []
        for k in range(count):
            s = (first + k) & 0xFF
            entry = self.ring[s % RING]
            if count > RING or entry is None or entry[0] != s:
                self.send("ERR resend %02x" % first)
                return
            lines.append(entry[1])
        for line in lines:
            if not self.port.write(line):  # the host is not reading: it asks again later
                self.dropped += 1
                return
            self.feed()  # a byte a write: 64 lines take about 0.5 s on the rp2 port

    def maintenance(self):
        """Reboot into the REPL (no scanning, no watchdog) so mpremote can update the files."""
        if not put_flag(MAINT_FLAG, "1") or not put_flag(RESET_FLAG, "maint"):
            take_flag(MAINT_FLAG)
            self.send("ERR maint cannot write flag file")
            return
        self.send("ACK maint")
        self.port.drain(DRAIN_MS, self.feed)  # or the reset loses the ACK still in the USB FIFO
        machine.reset()


def _printable(text):
    out = ""
    for ch in text:
        out += ch if " " <= ch <= "~" and ch != "*" else "?"
    return out


def put_flag(name, text):
    """Write a small flag file to the flash; False if it cannot be written."""
    try:
        with open(name, "w") as f:
            f.write(text)
        return True
    except OSError:
        return False


def take_flag(name):
    """The text of a flag file, which is removed; None if there was none."""
    try:
        with open(name) as f:
            text = f.read()
    except OSError:
        return None
    try:
        os.remove(name)
    except OSError:
        pass
    return text.strip()


def _failures(asked):
    """N from a reset flag "failure N" (an older firmware wrote just "failure": 1)."""
    parts = asked.split()
    if len(parts) == 2 and proto.is_uint(parts[1], 1000):
        return int(parts[1])
    return 1


def watchdog_reason_address():
    """The REASON register of the chip rp2's ``os.uname().machine`` names ("... with RP2350"
    on a Pico 2); the RP2040's for any other name (the Pico, and the desktop and unix-port
    stand-ins, which model it)."""
    try:
        name = os.uname().machine
    except Exception:
        name = ""
    for chip, address in WDT_REASONS:
        if chip in name:
            return address
    return WDT_REASON


def _watchdog_reason():
    """The chip's record of why its watchdog reset it (REASON_TIMER/REASON_FORCE), or 0 when
    it cannot be read (another port)."""
    try:
        return machine.mem32[watchdog_reason_address()] & 3
    except Exception:
        return 0


def boot_cause(asked):
    """Why this boot, from the chip and the reset flag (``asked``, its text or None):
    "power" (power-on or the RUN pin), "watchdog" (the loop stalled), or a reset asked for:
    the flag's word ("maint", "install", "failure") or "reset" (machine.reset() with no flag:
    mpremote's reset after a bare copy, a user at the REPL)."""
    if machine.reset_cause() != machine.WDT_RESET:
        return "power"  # a flag left from before the power went is stale: ignored
    reason = _watchdog_reason()
    if reason & REASON_TIMER:
        return "watchdog"
    if asked:
        word = asked.split()[0]
        if word in ("maint", "install", "failure"):
            return word
        return "reset"
    # rp2 sets bit 1 for machine.reset(); with no record at all only a flag could tell
    return "reset" if reason & REASON_FORCE else "watchdog"


def maintenance_requested():
    return take_flag(MAINT_FLAG) is not None


def bootsel_held():
    """The Pico's BOOTSEL button, held at boot: the way out of a boot loop (Ctrl-C is off)."""
    try:
        import rp2

        return bool(rp2.bootsel_button())
    except Exception:  # not an rp2 port (desktop), or no such function (old MicroPython)
        return False


def _int_in(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _gpio_problem(name, p, gpios):
    if gpios is None:
        return None if _int_in(p, 0, 255) else "%s has %r, not a GPIO number" % (name, p)
    if isinstance(p, bool) or p not in gpios:
        return "%s has %r: the Pico's pads are GP0..GP22, GP26..GP28" % (name, p)
    return None


def _pins(cfg, name, n, gpios):
    pins = getattr(cfg, name, None)
    if not isinstance(pins, (tuple, list)) or len(pins) != n:
        return None, "%s needs %d GPIO numbers (SIZE is %d)" % (name, n, n)
    for p in pins:
        why = _gpio_problem(name, p, gpios)
        if why is not None:
            return None, why
    return pins, None


def _number_in(value, low, high):
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return ok and low <= value <= high


def config_problem(cfg, gpios=PICO_GPIOS):
    """What is wrong with config.py in one line, or None. Checked before anything starts.
    ``gpios``: the GPIO numbers the chip has (None: any 0..255, a simulated chip)."""
    n = getattr(cfg, "SIZE", None)
    if not _int_in(n, 4, 16):
        return "SIZE must be 4..16, got %r" % (n,)
    kind = getattr(cfg, "KIND", None)
    if kind not in KINDS:
        return "KIND %r is not one of switch, presence, polarity" % (kind,)
    used = []
    names = ("ROW_PINS", "COL_PINS", "COL_PINS_B") if kind == "polarity" else (
        "ROW_PINS", "COL_PINS")  # fmt: skip
    for name in names:
        pins, why = _pins(cfg, name, n, gpios)
        if why is not None:
            return why
        used.extend(pins)
    led = getattr(cfg, "LED_PIN", None)
    why = _gpio_problem("LED_PIN", led, gpios)
    if why is not None:
        return why
    used.append(led)
    for i in range(len(used)):
        if used[i] in used[i + 1 :]:
            return "GPIO %d is used twice (ROW_PINS, COL_PINS, COL_PINS_B, LED_PIN)" % used[i]
    limits = [
        ("BRIGHTNESS", 0, 255), ("DEBOUNCE_MS", 1, 1000), ("SNAPSHOT_MS", 100, 60000),
        ("ROW_SETTLE_US", 0, 10000),
    ]  # fmt: skip
    if kind == "polarity":
        limits.append(("HALL_SETTLE_US", HALL_MIN_SETTLE_US, 10000))
    for name, low, high in limits:
        value = getattr(cfg, name, None)
        if not _int_in(value, low, high):
            return "%s must be %d..%d, got %r" % (name, low, high, value)
    wdt = getattr(cfg, "WATCHDOG_MS", None)
    # rp2 refuses more than 8388 ms. The longest time between feeds, measured on the rp2 port
    # (tests/firmware/test_rp2.py): 0.54 s with a host that stops reading (one 500 ms wait
    # for USB room, boardfw/usbio.py), 0.46 s for a RESEND of 63 lines (fed between lines);
    # 1000 keeps a margin of almost 2.
    if not (_int_in(wdt, 1000, 8388) or (_int_in(wdt, 0, 0))):
        return "WATCHDOG_MS must be 0 (off) or 1000..8388, got %r" % (wdt,)
    amps = getattr(cfg, "LED_SUPPLY_AMPS", None)
    if not _number_in(amps, 0.5, 50):
        return "LED_SUPPLY_AMPS must be 0.5..50 (the LED supply in A), got %r" % (amps,)
    if budget_ma(amps, n * n) <= 0:
        return "LED_SUPPLY_AMPS %r is too small for %d LEDs" % (amps, n * n)
    for name in ("LED_SERPENTINE", "FAST_IO"):
        if not isinstance(getattr(cfg, name, None), bool):
            return "%s must be True or False" % name
    backoff = getattr(cfg, "RESTART_BACKOFF_MS", RESTART_BACKOFF_MS)  # optional: older files
    if not _int_in(backoff, 10, 60000):
        return "RESTART_BACKOFF_MS must be 10..60000, got %r" % (backoff,)
    return None


def main(cfg):
    """Entry point on the Pico (firmware/main.py).

    A mistake in config.py, or a start-up failure, prints one line and returns to the REPL
    with Ctrl-C still working (a reset would only repeat it). Once the scan loop runs, Ctrl-C
    is off and a failure resets the board.
    """
    if bootsel_held():
        print("board link: BOOTSEL held at boot: firmware not started, REPL left free")
        return
    if maintenance_requested():
        print("board link: maintenance boot, REPL left free for mpremote")
        return
    problem = config_problem(cfg)
    if problem is not None:
        print("board link: config.py: %s; fix it, copy it to the Pico, reset" % problem)
        return
    import micropython

    from boardfw.usbio import UsbPort

    try:
        fw = Firmware(UsbPort(), cfg)
    except Exception as e:
        print("board link: cannot start: %s" % _printable(repr(e)))
        return
    micropython.kbd_intr(-1)  # a 0x03 byte from the host must not stop the firmware
    try:
        why = fw.run()
    except Exception as e:  # not from a pass (run itself): count it all the same
        why = _printable(repr(e))
    try:
        fw.restart_or_stay_safe(why)  # returns only when it failed itself
    except Exception:
        pass
    put_flag(RESET_FLAG, "failure")
    machine.reset()
