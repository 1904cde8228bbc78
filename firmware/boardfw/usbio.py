"""USB CDC on the Pico: sys.stdin/sys.stdout, polled so the scan loop never blocks."""

# MicroPython subset: no contextlib, and %-formatting is the cheapest there.
# ruff: noqa: UP031, SIM105, SIM110

import select
import sys


class UsbPort:
    def __init__(self):
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self, limit=512):
        buf = bytearray()
        while len(buf) < limit and self.poller.poll(0):
            b = self.inp.read(1)
            if not b:
                break
            buf.extend(b)
        return buf

    def write(self, data):
        try:
            self.out.write(data)
        except OSError:
            pass  # no host listening: the line is lost, sequence numbers tell the host
