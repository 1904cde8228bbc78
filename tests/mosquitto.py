"""A real Mosquitto broker on a loopback port, for the club tests (Debian's ``mosquitto``,
installed by ``.ci/run``), and a listener that records everything published on it.

A broker can be stopped and started again on the same port, to show that boards and the hub
come back without losing or doubling anything.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.club.broker import stop_client
from tests import processes

CANDIDATES = ("mosquitto", "/usr/sbin/mosquitto")


def mosquitto_path() -> str | None:
    for name in CANDIDATES:
        found = shutil.which(name) or (name if os.access(name, os.X_OK) else None)
        if found:
            return found
    return None


def mosquitto_missing() -> str | None:
    """Why no broker can be started here (one line), or None."""
    return None if mosquitto_path() else "mosquitto is not installed (apt install mosquitto)"


def require_mosquitto() -> None:
    """Skips the test with one line when mosquitto is missing; CI installs it, so a CI run
    without it fails rather than skips."""
    if why := mosquitto_missing():
        import pytest

        (pytest.fail if os.environ.get("CI") else pytest.skip)(why)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """``mosquitto -c`` on 127.0.0.1:``port``, anonymous, without persistence (a restart
    forgets everything, as after a power cut: what matters must come back from the boards).
    ``secure``: the lines of ``binaryon club setup``'s password and ACL files instead of
    anonymous clients; ``tls``: (certfile, keyfile) for an ``mqtts://`` listener."""

    def __init__(
        self,
        workdir: Path,
        port: int | None = None,
        *,
        passwd: Path | None = None,
        acl: Path | None = None,
        tls: tuple[Path, Path] | None = None,
    ):
        self.exe = mosquitto_path()
        if self.exe is None:
            raise RuntimeError(mosquitto_missing())
        self.port = port or free_port()
        self.workdir = workdir
        self.config = workdir / "mosquitto.conf"
        self.log = workdir / "mosquitto.log"
        self.tls = tls is not None
        lines = [f"listener {self.port} 127.0.0.1", "persistence false"]
        if tls is not None:
            lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
        if passwd is not None:
            lines += ["allow_anonymous false", f"password_file {passwd}"]
        else:
            lines.append("allow_anonymous true")
        if acl is not None:
            lines.append(f"acl_file {acl}")
        if os.geteuid() == 0 and (passwd or acl):  # else it reads them as user mosquitto,
            lines.append("user root")  # who may not read the test's folder
        lines += ["log_dest stderr", "log_type error", "log_type warning"]
        self.config.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def start(self) -> Broker:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [self.exe, "-c", str(self.config)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log.read_text()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def kill(self) -> None:
        """SIGKILL: the broker vanishes mid-conversation."""
        if self.process is not None:
            processes.kill(self.process)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            processes.terminate(self.process)
        self.process = None


@dataclass
class Heard:
    topic: str
    payload: bytes
    retain: bool


@dataclass
class Listener:
    """A client subscribed to ``#`` that keeps every message it hears, in order."""

    url: str
    heard: list[Heard] = field(default_factory=list)
    user: str = ""  # on a broker with users: who listens (the hub's user hears everything)
    password: str = ""
    topic: str = "#"

    def __post_init__(self) -> None:
        import paho.mqtt.client as mqtt

        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        if self.user:
            self.client.username_pw_set(self.user, self.password)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(self.topic, qos=1)
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.client.on_message = self._on_message
        host, port = self.url.removeprefix("mqtt://").rsplit(":", 1)
        self.client.connect(host, int(port))
        self.client.loop_start()
        if not self._subscribed.wait(10):
            raise RuntimeError("the listener did not subscribe within 10 s")

    def _on_message(self, client, userdata, message) -> None:
        with self._lock:
            self.heard.append(Heard(message.topic, bytes(message.payload), message.retain))

    def messages(self, prefix: str = "") -> list[Heard]:
        with self._lock:
            return [h for h in self.heard if h.topic.startswith(prefix)]

    def wait_for(self, predicate, timeout: float = 20.0) -> list[Heard]:
        """Wait until ``predicate(messages)`` is true; returns the messages heard."""
        deadline = time.monotonic() + timeout
        while True:
            now = self.messages()
            if predicate(now):
                return now
            if time.monotonic() > deadline:
                raise AssertionError(f"not heard within {timeout} s; heard {len(now)} messages")
            time.sleep(0.02)

    def close(self) -> None:
        stop_client(self.client)
