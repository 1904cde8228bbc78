"""boardfw/usbio.py's write policy under CPython, with stand-in pollers and output: a line goes
out a byte at a time (rp2 waits twice for a longer write that does not fit, once for a byte),
drop a line the port does not take, end a line cut short before the next, trust POLLOUT once
seen."""

from __future__ import annotations

import importlib

import pytest

from companion.hardware.simulated import pico_sim

POLLOUT = 4


class Poller:
    def __init__(self) -> None:
        self.events = POLLOUT

    def ipoll(self, timeout):
        return iter([(None, self.events, None)] if self.events else [])  # 3-tuples: allowed


class Out:
    """A USB FIFO with ``room`` bytes free; write returns the count taken, as rp2 does."""

    def __init__(self, room: int = 10_000) -> None:
        self.room = room
        self.data = b""

    def write(self, data):
        n = min(len(data), self.room)
        self.data += bytes(data[:n])
        self.room -= n
        return n


@pytest.fixture
def port():
    pico_sim.load_firmware()
    usbio = importlib.import_module("boardfw.usbio")
    p = usbio.UsbPort.__new__(usbio.UsbPort)  # no sys.stdin/stdout polling under pytest
    p.tx, p.out, p.torn, p.polls_out = Poller(), Out(), False, False
    p.stalled, p.stalled_at, p.byte, p.bytewise = False, 0, bytearray(1), True  # as on rp2
    return p


def test_a_line_is_written_when_the_port_is_writable(port):
    assert port.write(b"00 PONG*1234\n") and port.out.data == b"00 PONG*1234\n"


def test_a_line_the_port_does_not_take_is_dropped_not_waited_for(port):
    assert port.write(b"a\n")
    port.tx.events = 0  # the host stopped reading: no room
    assert not port.write(b"b\n") and port.out.data == b"a\n"


def test_a_line_cut_short_is_ended_before_the_next_one(port, monkeypatch):
    usbio = importlib.import_module("boardfw.usbio")
    now = [0]
    monkeypatch.setattr(usbio, "ticks_ms", lambda: now[0])
    port.out.room = 4
    assert not port.write(b"01 EV 3 1*ABCD\n")  # only "01 E" fits
    port.out.room = 100
    now[0] += usbio.STALL_MS  # (no write is tried meanwhile)
    assert port.write(b"02 PONG*0000\n")
    assert port.out.data == b"01 E\n02 PONG*0000\n"  # the host drops one garbled line


def test_a_port_that_never_reports_pollout_is_written_to_as_before(port):
    port.tx.events = 0  # an old MicroPython: stdio poll knows only POLLIN
    assert port.write(b"a\n") and port.write(b"b\n")
    assert port.out.data == b"a\nb\n"


def test_after_a_write_that_did_not_go_out_whole_nothing_is_tried_for_a_while(port, monkeypatch):
    usbio = importlib.import_module("boardfw.usbio")
    now = [1000]
    monkeypatch.setattr(usbio, "ticks_ms", lambda: now[0])
    port.out.room = 4  # POLLOUT says writable, but the line does not fit: rp2 waits 500 ms
    assert not port.write(b"01 EV 3 1*ABCD\n")
    port.out.room = 100
    writes = []
    monkeypatch.setattr(port.out, "write", lambda data: writes.append(bytes(data)) or len(data))
    now[0] += usbio.STALL_MS - 1
    assert not port.write(b"02 PONG*0000\n") and writes == []  # dropped without waiting
    now[0] += 1
    assert port.write(b"03 PONG*0000\n")
    assert b"".join(writes) == b"\n03 PONG*0000\n"  # the cut line ended first
    assert all(len(w) == 1 for w in writes)  # one byte a write: one 500 ms wait at most


def test_elsewhere_a_line_goes_out_in_one_write_and_a_short_one_pauses_writing(port, monkeypatch):
    usbio = importlib.import_module("boardfw.usbio")
    monkeypatch.setattr(usbio, "ticks_ms", lambda: 5)
    port.bytewise = False
    assert port.write(b"00 PONG*1234\n") and port.out.data == b"00 PONG*1234\n"
    port.out.room = 3
    assert not port.write(b"01 PONG*1234\n") and port.torn and port.stalled
    port.out.room = 100
    assert not port.write(b"02 PONG*1234\n")  # within STALL_MS: not tried
    assert port.out.data == b"00 PONG*1234\n01 "


def test_a_byte_that_does_not_fit_gives_up_the_line_at_once(port, monkeypatch):
    usbio = importlib.import_module("boardfw.usbio")
    monkeypatch.setattr(usbio, "ticks_ms", lambda: 7)
    writes = []

    def write(data):  # room for 3 bytes, then every write "waits" and takes nothing
        writes.append(bytes(data))
        return 1 if len(writes) <= 3 else 0

    monkeypatch.setattr(port.out, "write", write)
    assert not port.write(b"01 EV 3 1*ABCD\n")
    assert len(writes) == 4  # the fourth byte waited in vain: no fifth try
    assert not port.write(b"02 PONG*0000\n") and len(writes) == 4  # stalled: not tried
