"""USB CDC on the Pico: sys.stdin/sys.stdout, polled so the scan loop never blocks for long.

On the rp2 port a write to USB never raises: with the host's port open but nobody reading it
blocks up to 500 ms and then returns a partial count. So a line is written only when
``poll`` says the port is writable, and dropped otherwise (the host notices the gap in the
sequence numbers and asks for a RESEND). A line cut short is ended with a newline before the
next one, so the host drops only that line. rp2 reports the port writable while its FIFO has a
single byte free, so a write can still wait its 500 ms: after one that did not go out whole,
nothing is written for STALL_MS (lines are dropped at once), so a burst (a RESEND of 64 lines,
many RESENDs) costs at most one such wait per STALL_MS, never the watchdog's timeout.
Reading uses ``ipoll`` and preallocated buffers: an idle pass allocates nothing.
"""

# MicroPython subset: no contextlib, and %-formatting is the cheapest there.
# ruff: noqa: UP031, SIM105, SIM110

import select
import sys

from boardfw.clock import sleep_ms, ticks_diff, ticks_ms

_NEWLINE = b"\n"
STALL_MS = 500  # after a write that did not go out whole, no write is tried for this long


class UsbPort:
    def __init__(self):
        self.inp = sys.stdin.buffer  # looked up once: each `.buffer` access allocates
        self.out = sys.stdout.buffer
        self.rx = select.poll()
        self.rx.register(sys.stdin, select.POLLIN)
        self.tx = select.poll()
        self.tx.register(sys.stdout, select.POLLOUT)
        self.one = bytearray(1)
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
        """Send one line if the port takes it; False when it was dropped or cut short."""
        if self.torn:
            if not self._may_write():
                return False
            if self._put(_NEWLINE) != 1:
                self._stall()
                return False
            self.torn = False
        if not self._may_write():
            return False
        n = self._put(line)
        if n < len(line):
            self.torn = n > 0
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
