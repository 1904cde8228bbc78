"""Stand-in for ``select`` under the MicroPython unix port: the real module, except with
MPY_USB_POLLOUT=always, where a poll that watches stdout for POLLOUT always reports it. That is
what rp2's USB CDC does while its FIFO has a single byte free (a host that reads only a
trickle): the firmware then writes, and the write waits up to 500 ms for room (the socket's
SO_SNDTIMEO, like rp2's USB write timeout) before it returns. Otherwise the real poll objects
are returned, untouched."""

# ruff: noqa: F403, F405
import os
import sys

from uselect import *  # the built-in module (this file hides it as ``select``)
from uselect import poll as _poll

_ALWAYS = os.getenv("MPY_USB_POLLOUT") == "always"


class _StdoutAlwaysWritable:
    def __init__(self):
        self.real = _poll()
        self.ready = None

    def register(self, obj, mask=POLLIN | POLLOUT):
        if obj is sys.stdout and mask & POLLOUT:
            self.ready = [(obj, POLLOUT)]
        self.real.register(obj, mask)

    def unregister(self, obj):
        self.real.unregister(obj)

    def modify(self, obj, mask):
        self.real.modify(obj, mask)

    def poll(self, timeout=-1):
        return self.ready if self.ready is not None else self.real.poll(timeout)

    def ipoll(self, timeout=-1, flags=0):
        return self.ready if self.ready is not None else self.real.ipoll(timeout, flags)


def poll():
    return _StdoutAlwaysWritable() if _ALWAYS else _poll()
