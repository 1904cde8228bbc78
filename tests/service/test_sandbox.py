"""The installed service under its own unit's sandbox: every feature the starter config turns
on must work there, not just parse.

The daemon runs as ``install-service`` installs it (the rendered unit's ExecStart, the starter
config, the unit's Environment with /var/lib mapped to a temporary folder, the folder as
working directory), restricted as the unit says (tests/sandbox.py: RestrictAddressFamilies,
SystemCallFilter, NoNewPrivileges, CapabilityBoundingSet, UMask) and told it runs under systemd
(INVOCATION_ID, NOTIFY_SOCKET). It must tell systemd READY=1, keep its journal, serve the table
page and the API on its port over loopback, and write invites with this machine's network
address.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.cli import install_service
from tests.mosquitto import free_port
from tests.paths import REPO

UNIT = REPO / "systemd" / "binaryon.service"
BINARYON = Path(sys.executable).parent / "binaryon"

pytest.importorskip(
    "pyseccomp", reason="pip install '.[dev]' (pyseccomp applies the unit's filters)"
)


def _libseccomp() -> bool:
    try:
        import pyseccomp

        pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    except Exception:
        return False
    return True


pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not _libseccomp(),
    reason="needs Linux and libseccomp (Debian: libseccomp2)",
)


@pytest.fixture(scope="module", autouse=True)
def _seccomp_loads():
    """Under qemu-user (scripts/pi-check's emulated Pi) no seccomp filter loads: one line,
    a skip there, a failure in CI."""
    from tests.sandbox import seccomp_refused

    reason = seccomp_refused()
    if reason:
        (pytest.fail if os.environ.get("CI") else pytest.skip)(reason)


def global_ipv4() -> str | None:
    """This machine's network address as `ip` sees it outside any sandbox."""
    try:
        out = subprocess.run(
            ["ip", "-4", "-o", "addr", "show", "scope", "global"],
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"\binet (\d+\.\d+\.\d+\.\d+)/", out)
    return found.group(1) if found else None


class Service:
    """The daemon started as systemd would start the unit at ``unit_text``."""

    def __init__(self, tmp: Path, unit_text: str):
        self.tmp = tmp
        self.port = free_port()
        self.unit = tmp / "binaryon.service"
        self.unit.write_text(install_service.render_unit(unit_text, str(BINARYON), "binaryon"))
        self.config = tmp / "etc" / "config.toml"
        self.config.parent.mkdir()
        starter = install_service.STARTER_CONFIG
        assert 'listen = "0.0.0.0:8080"' in starter  # what this test maps to a free port
        self.config.write_text(starter.replace("0.0.0.0:8080", f"0.0.0.0:{self.port}"))
        self.lib = tmp / "var" / "lib"
        self.state = self.lib / "binaryon"
        self.state.mkdir(parents=True)
        (tmp / "run").mkdir()
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(tmp / "notify"))
        self.notify.settimeout(1.0)
        self.messages: list[str] = []

    def env(self) -> dict[str, str]:
        from tests.sandbox import unit_environment

        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "NOTIFY_"))}
        env.update(unit_environment(self.unit))
        env["XDG_STATE_HOME"] = str(self.lib)  # the unit's /var/lib, here
        env["LG_WD"] = str(self.tmp / "run")
        env["PYTHONPATH"] = str(REPO)
        return env

    def command(self) -> list[str]:
        from tests.sandbox import directives

        exec_start = directives(self.unit)["ExecStart"][0].split()
        assert exec_start[0] == str(BINARYON)
        args = [str(self.config) if a == "/etc/binaryon/config.toml" else a for a in exec_start]
        return [sys.executable, "-m", "tests.sandbox", str(self.unit), "--", *args]

    output: str | None = None

    def start(self) -> None:
        env = {**self.env(), "INVOCATION_ID": "test", "NOTIFY_SOCKET": str(self.tmp / "notify")}
        self.proc = subprocess.Popen(
            self.command(),
            cwd=self.state,  # WorkingDirectory=/var/lib/binaryon
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                self.messages.append(self.notify.recv(4096).decode())
            if any("READY=1" in m for m in self.messages):
                return
            if self.proc.poll() is not None:
                break
        raise AssertionError(f"no READY=1 (exit {self.proc.poll()}):\n{self.stop()}")

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)  # TimeoutStopSec=15
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.notify.close()
        if self.output is None:  # stop() runs again in a test's finally after a failure
            with self.proc.stdout:
                self.output = self.proc.stdout.read()
        return self.output


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read().decode()


def get_when_up(url: str, timeout: float = 60.0) -> tuple[int, str]:
    """``get`` once the server listens (refused connections meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return get(url)
        except urllib.error.URLError as e:
            if not isinstance(e.reason, ConnectionRefusedError) or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_every_feature_of_the_starter_config_works_under_the_units_sandbox(tmp_path):
    service = Service(tmp_path, UNIT.read_text())
    service.start()
    log = ""
    try:
        service.wait_ready()
        # the web pages, over loopback, on the port the config names (READY=1 comes with the
        # first OLED frame, before the optional parts such as the pages are loaded)
        status, page = get_when_up(f"http://127.0.0.1:{service.port}/")
        assert status == 200 and "<html" in page.lower()
        status, body = get(f"http://127.0.0.1:{service.port}/api/state")
        assert status == 200 and json.loads(body)["game"] == "binaryon"
        # invites: the address other devices reach (the machine's own, found through netlink)
        address = json.loads((service.state / "journal.sqlite.web.json").read_text())
        ours = global_ipv4()
        if ours is not None:
            assert address["url"] == f"http://{ours}:{service.port}"
        invite = subprocess.run(
            [str(BINARYON), "invite", "--json", "--config", str(service.config)],
            env=service.env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert invite.returncode == 0, invite.stderr
        assert set(json.loads(invite.stdout)["players"]) == {"on", "off"}
        # the journal, in the state folder
        assert (service.state / "journal.sqlite").is_file()
    finally:
        log = service.stop()
    assert service.proc.returncode == 0, log
    assert "sandbox: " in log and "RestrictAddressFamilies" in log
    assert "web: serving on" in log and "cannot listen" not in log, log


def test_a_unit_that_blocks_the_web_says_so_and_keeps_refereeing(tmp_path):
    """The unit as it was (AF_UNIX only): one log line naming the cause, never "serving on";
    the referee keeps running; `binaryon invite` and `binaryon doctor` say why."""
    old = re.sub(
        r"(?m)^RestrictAddressFamilies=.*$", "RestrictAddressFamilies=AF_UNIX", UNIT.read_text()
    )
    service = Service(tmp_path, old)
    service.start()
    try:
        service.wait_ready()
        time.sleep(0.5)
        assert service.proc.poll() is None  # still refereeing
        with pytest.raises(OSError):
            get(f"http://127.0.0.1:{service.port}/")
        env = service.env()
        invite = subprocess.run(
            [str(BINARYON), "invite", "--config", str(service.config)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert invite.returncode == 2 and "pages are off" in invite.stderr
        doctor = subprocess.run(
            [str(BINARYON), "doctor", "--json", "--config", str(service.config)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        checks = {c["name"]: c for c in json.loads(doctor.stdout)}
        assert checks["web pages"]["status"] == "missing", doctor.stdout
        assert "AF_INET" in checks["web pages"]["detail"]
    finally:
        log = service.stop()
    lines = [ln for ln in log.splitlines() if "web:" in ln]
    assert len(lines) == 1, log
    assert "cannot listen on 0.0.0.0" in lines[0] and "RestrictAddressFamilies" in lines[0]
    assert "serving on" not in log


def test_the_service_reaches_a_club_broker_under_the_units_sandbox(tmp_path, broker):
    """[club] broker in the installed config: under the unit's restrictions the service
    connects, publishes its retained status, and says it goes offline when stopped."""
    from companion.club import topics
    from tests.mosquitto import Listener

    service = Service(tmp_path, UNIT.read_text())
    with service.config.open("a") as f:
        f.write(f'\n[club]\nbroker = "{broker.url}"\nboard = "pi1"\n')
    listener = Listener(broker.url)

    def online(heard) -> list[bool]:
        return [json.loads(h.payload)["online"] for h in heard if h.topic == topics.status("pi1")]

    service.start()
    try:
        service.wait_ready()
        listener.wait_for(lambda h: online(h) == [True], 60)
    finally:
        log = service.stop()
    assert service.proc.returncode == 0, log
    listener.wait_for(lambda h: online(h) == [True, False])
    assert "club: connected to mqtt://127.0.0.1" in log, log
    listener.close()
