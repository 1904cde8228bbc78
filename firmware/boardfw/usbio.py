"""USB CDC on the Pico: sys.stdin/sys.stdout, polled so the scan loop never blocks for long.

On the rp2 port a write to USB never raises: with the host's port open but nobody reading it,
a write of more bytes than the FIFO has room for waits 500 ms, writes what fits, and (the rest
still pending) waits 500 ms more: 1.0 s on MicroPython 1.27 and later, 1.5 s before. So a line
is written a byte at a time: a byte that does not fit waits at most one 500 ms (while it
waits, rp2 runs the USB stack, so a host that reads makes room within a millisecond or two),
and a byte that still did not go gives up the line and stops all writes for STALL_MS. A write
therefore never blocks longer than 500 ms, and that at most once per STALL_MS: the loop feeds
the watchdog at least every 0.5 s plus one pass. A line is started only when ``poll`` says the
port is writable, so with a FIFO already full lines are dropped at once. A dropped or cut line
is counted (``drop`` in STAT); the host notices the gap in the sequence numbers and asks for a
RESEND. A cut line is ended with a newline before the next one, so the host drops only it.
On other ports (the unix port's stand-in link in the tests) a line goes out in one write,
with the same pause after one that did not go out whole.
Reading uses ``ipoll`` and preallocated buffers: an idle pass allocates nothing.
"""

# MicroPython subset: no contextlib, and %-formatting is the cheapest there.
# ruff: noqa: UP031, SIM105, SIM110

import select
import sys

from boardfw.clock import sleep_ms, ticks_diff, ticks_ms

STALL_MS = 500  # after a byte the port did not take, no write is tried for this long


class UsbPort:
    def __init__(self):
        self.inp = sys.stdin.buffer  # looked up once: each `.buffer` access allocates
        self.out = sys.stdout.buffer
        self.rx = select.poll()
        self.rx.register(sys.stdin, select.POLLIN)
        self.tx = select.poll()
        self.tx.register(sys.stdout, select.POLLOUT)
        self.one = bytearray(1)
        self.byte = bytearray(1)  # the byte being written
        # rp2's wait for room is per write call: a byte at a time bounds it there. Elsewhere
        # (the unix port's stand-in link) a line goes in one write.
        self.bytewise = sys.platform == "rp2"
        self.torn = False  # the last line went out cut short
        self.polls_out = False  # the port has reported POLLOUT at least once
        self.stalled = False  # a write did not go out whole (it may have waited 500 ms) ...
        self.stalled_at = 0  # ... at this tick

    def _ready(self, poller, event):
        for entry in poller.ipoll(0):  # (obj, events, ...): the size may vary by port
            if entry[1] & event:
                return True
        return False

    def read_into(self, buf):
        """Bytes the host sent, as many as are waiting (up to len(buf)); returns the count."""
        n = 0
        limit = len(buf)
        one = self.one
        while n < limit and self._ready(self.rx, select.POLLIN):
            try:
                got = self.inp.readinto(one)
            except OSError:
                break
            if not got:
                break
            buf[n] = one[0]
            n += 1
        return n

    def _put(self, data):
        try:
            n = self.out.write(data)
        except OSError:
            return 0
        return n or 0  # None: nothing could be written (a non-blocking port)

    def _may_write(self):
        if self.stalled:
            if ticks_diff(ticks_ms(), self.stalled_at) < STALL_MS:
                return False
            self.stalled = False
        if self._ready(self.tx, select.POLLOUT):
            self.polls_out = True
            return True
        # A port whose stdio poll never reports POLLOUT (an old MicroPython) is written to
        # blindly, as before; once it has reported it, "not writable" is believed.
        return not self.polls_out

    def write(self, line):
        """Send one line, a byte at a time; False when it was dropped or cut short (at most
        one 500 ms wait per STALL_MS: see the module's docstring)."""
        if not self._may_write():  # stalled, or the FIFO is full: dropped without a wait
            return False
        if self.torn:
            if not self._put_byte(10):
                return False
            self.torn = False
        if not self.bytewise:
            n = self._put(line)
            if n < len(line):
                self.torn = n > 0
                self._stall()
                return False
            return True
        for i in range(len(line)):
            if not self._put_byte(line[i]):
                self.torn = i > 0
                return False
        return True

    def _put_byte(self, value):
        if self.stalled:
            return False
        self.byte[0] = value
        if self._put(self.byte) != 1:  # it waited 500 ms for room, in vain
            self._stall()
            return False
        return True

    def _stall(self):
        self.stalled = True
        self.stalled_at = ticks_ms()

    def drain(self, ms, feed=None):
        """Give USB ``ms`` milliseconds to send what was written (before a reset)."""
        try:
            self.out.flush()
        except (AttributeError, OSError):
            pass
        while ms > 0:
            sleep_ms(10)
            ms -= 10
            if feed is not None:
                feed()
