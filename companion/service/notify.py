"""Tell systemd how the daemon is doing (``Type=notify`` with a watchdog).

READY=1 once the board, display and journal are up; WATCHDOG=1 about every half of the
unit's WatchdogSec (systemd passes it as WATCHDOG_USEC), so a hung loop gets restarted;
STATUS=... shows in ``systemctl status``. Outside systemd (no NOTIFY_SOCKET) every call does
nothing, so the same code runs from a terminal.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self) -> None:
        env = os.environ  # sdnotify reads NOTIFY_SOCKET from here too
        self.socket_path = env.get("NOTIFY_SOCKET") or None
        self._interval = _watchdog_interval(env)
        self._notifier = None
        if self.socket_path:
            import sdnotify  # small and pure Python; imported only under systemd

            self._notifier = sdnotify.SystemdNotifier()
            if self._notifier.socket is None:
                log.warning("cannot reach systemd's notify socket %s", self.socket_path)
                self._notifier = None

    @property
    def enabled(self) -> bool:
        return self._notifier is not None

    def interval(self) -> float | None:
        """Seconds between watchdog pings (half of WatchdogSec), or None without a watchdog."""
        return self._interval if self.enabled else None

    def ready(self, status: str | None = None) -> None:
        self._send("READY=1" + (f"\nSTATUS={_line(status)}" if status else ""))

    def watchdog(self) -> None:
        self._send("WATCHDOG=1")

    def status(self, text: str) -> None:
        self._send(f"STATUS={_line(text)}")

    def stopping(self) -> None:
        self._send("STOPPING=1")

    def close(self) -> None:
        if self._notifier is not None:
            self._notifier.socket.close()
            self._notifier = None

    def _send(self, message: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(message)


def _line(text: str) -> str:
    """One line: systemd reads the notify message line by line."""
    return " ".join(str(text).split())[:200]


def _watchdog_interval(env: Mapping[str, str]) -> float | None:
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None  # the watchdog is meant for another process (e.g. a wrapper)
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds / 2 if seconds > 0 else None
