"""Ending the child processes the tests start (a broker, a hub, a companion)."""

from __future__ import annotations

import signal
import subprocess


def kill(process: subprocess.Popen, timeout: float = 10) -> None:
    """SIGKILL, as a power cut would: the process vanishes mid-conversation (already gone:
    nothing to do); returns once it is reaped."""
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=timeout)


def terminate(process: subprocess.Popen, timeout: float = 10) -> None:
    """SIGTERM, a clean stop; SIGKILL when it has not ended within ``timeout``."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill(process, timeout)
