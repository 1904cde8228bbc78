"""companion.service.notify against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket

import pytest

from companion.service.notify import Notifier


def notifier(monkeypatch, **env) -> Notifier:
    for key in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return Notifier()


@pytest.fixture
def systemd(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_messages_reach_the_socket(systemd, monkeypatch):
    path, sock = systemd
    n = notifier(monkeypatch, NOTIFY_SOCKET=path, WATCHDOG_USEC="10000000")
    assert n.enabled
    n.ready("playing binaryon\nmove 3")
    assert sock.recv(4096) == b"READY=1\nSTATUS=playing binaryon move 3"
    n.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    n.status("board disconnected")
    assert sock.recv(4096) == b"STATUS=board disconnected"
    n.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    assert n.interval() == 5.0
    n.close()


def test_abstract_socket_address(monkeypatch):
    name = f"binaryon-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        n = notifier(monkeypatch, NOTIFY_SOCKET="@" + name)
        n.watchdog()
        assert sock.recv(100) == b"WATCHDOG=1"
        n.close()
    finally:
        sock.close()


def test_without_systemd_everything_is_a_no_op(monkeypatch):
    n = notifier(monkeypatch)
    assert not n.enabled and n.interval() is None
    n.ready("x")
    n.watchdog()
    n.status("y")
    n.stopping()


def test_watchdog_for_another_process_is_ignored(systemd, monkeypatch):
    path, _ = systemd
    n = notifier(monkeypatch, NOTIFY_SOCKET=path, WATCHDOG_USEC="4000000", WATCHDOG_PID="1")
    assert n.interval() is None
    mine = notifier(
        monkeypatch, NOTIFY_SOCKET=path, WATCHDOG_USEC="4000000", WATCHDOG_PID=str(os.getpid())
    )
    assert mine.interval() == 2.0
    junk = notifier(monkeypatch, NOTIFY_SOCKET=path, WATCHDOG_USEC="junk")
    assert junk.interval() is None
    for x in (n, mine, junk):
        x.close()


# sdnotify drops (without closing) the socket it could not connect
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_unreachable_socket_is_not_an_error(tmp_path, monkeypatch):
    n = notifier(monkeypatch, NOTIFY_SOCKET=str(tmp_path / "missing.sock"))
    assert not n.enabled
    n.ready("fine")
