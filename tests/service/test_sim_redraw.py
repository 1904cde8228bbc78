"""The terminal simulator redraws on every change, whoever made it: ``binaryon sim
--web`` in a pseudo-terminal, a move made on a player's page over the real web server on
loopback, and the emulated OLED, board and status line drawn again with nothing typed."""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from companion.service.simulator import Simulator
from tests.conftest import FakeClock, step
from tests.paths import REPO
from tests.service.test_clock import button, clocked_daemon, press_move

ROOT = REPO
WAIT = 60.0  # seconds: generous, for a busy machine; every wait ends on what it waits for


class Terminal:
    """A child process on a pseudo-terminal, its output collected by a reader thread."""

    def __init__(self, args: list[str], env: dict[str, str], rows: int = 60, cols: int = 120):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, close_fds=True
        )
        os.close(slave)
        self.output = b""
        self._grew = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the child closed its side
                chunk = b""
            with self._grew:
                if not chunk:
                    self.output += b"\0EOF"
                    self._grew.notify_all()
                    return
                self.output += chunk
                self._grew.notify_all()

    def wait_for(self, text: str, start: int = 0) -> int:
        """Wait until ``text`` appears in the output after byte ``start``; where it ends."""
        wanted = text.encode()
        deadline = time.monotonic() + WAIT
        with self._grew:
            while (at := self.output.find(wanted, start)) < 0:
                left = deadline - time.monotonic()
                if left <= 0 or self.output.endswith(b"\0EOF"):
                    tail = self.output[-3000:].decode("utf-8", "replace")
                    raise AssertionError(f"{text!r} not shown; the terminal ends with:\n{tail}")
                self._grew.wait(left)
            return at + len(wanted)

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=WAIT)
        os.close(self.master)


@pytest.fixture
def sim_with_web(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "BINARYON_CONFIG"}
    env.update(HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path), TERM="xterm", NO_COLOR="1")
    code = "import sys; from companion.cli.main import main; sys.exit(main(sys.argv[1:]))"
    journal = tmp_path / "journal.sqlite"
    args = [sys.executable, "-c", code, "sim", "--web", "127.0.0.1:0", "--journal", str(journal)]
    term = Terminal(args, env)
    try:
        yield term, tmp_path
    finally:
        term.close()


def post_move(tmp_path: Path, player: str, move: str) -> dict:
    url = json.loads((tmp_path / "journal.sqlite.web.json").read_text())["url"]
    tokens = json.loads((tmp_path / "journal.sqlite.web-tokens.json").read_text())["tokens"]
    token = tokens[player]
    request = urllib.request.Request(
        url.rstrip("/") + "/api/move",
        data=json.dumps({"move": move}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=WAIT) as answer:
        return json.loads(answer.read())


def test_a_move_on_a_web_page_is_drawn_in_the_terminal_without_typing(sim_with_web):
    term, folder = sim_with_web
    shown = term.wait_for("moves: (none yet)")
    shown = term.wait_for("> ", shown)  # the prompt: the simulator waits for a line
    assert post_move(folder, "on", "e5")["ok"] is True
    after = term.wait_for("moves: e5", shown)  # drawn again: nothing was typed
    term.wait_for("turn: OFF", after - len("moves: e5"))
    picture = term.output[shown:after].decode("utf-8", "replace")
    assert "a  b  c  d  e  f  g  h" in picture  # the board too, not only the status line
    term.type("quit\n")
    assert term.proc.wait(timeout=WAIT) == 0


def test_a_change_from_elsewhere_or_a_message_running_out_redraws_once(make_daemon, clock):
    """In the daemon's own thread (stepped by hand here): a move that did not come from the
    keyboard, then the clock ending its message, each draw the picture once; a render that
    changes nothing draws nothing, and nothing is drawn while a typed line is handled."""
    import io

    from companion.service.simulator import Simulator
    from tests.conftest import step

    d = make_daemon()
    out = io.StringIO()
    sim = Simulator(d, d.board, out=out, colour=False)
    sim.draw()
    d.listeners.append(sim.changed)
    drawn = out.getvalue().count("moves:")
    d.call(lambda: d.submit("e5", "on"))  # as the web server hands a move over
    assert out.getvalue().count("moves:") == drawn + 1
    assert "moves: e5" in out.getvalue().rstrip().splitlines()[-3:]
    d.call(lambda: None)  # nothing changed: nothing drawn
    assert out.getvalue().count("moves:") == drawn + 1
    d.say("a message")
    d.render()
    assert out.getvalue().rstrip().endswith("turn: OFF | a message")
    step(d, clock, d.config.display.message_seconds + 1)  # the clock ends the message
    assert out.getvalue().rstrip().endswith("turn: OFF")
    with sim.typing():  # a typed line draws by itself when it is done
        d.call(lambda: d.say("while typing"))
        assert "while typing" not in out.getvalue()
    step(d, clock)  # the line is done: what changed meanwhile is drawn
    assert out.getvalue().rstrip().endswith("turn: OFF | while typing")


def test_a_redraw_while_typing_starts_on_a_line_of_its_own(tmp_path, monkeypatch):
    """A flag falls while the prompt waits: the picture does not start after the "> "."""
    monkeypatch.setenv("TERM", "xterm")
    clock = FakeClock()
    d = clocked_daemon(clock, "0:30+2")
    out = io.StringIO()
    s = Simulator(d, d.board, out=out, colour=False)
    s.interactive = True
    d.listeners.append(s.changed)
    press_move(d, clock)
    print("> ", end="", file=out)  # the prompt, waiting
    step(d, clock, 31)  # the flag falls: the table is drawn again by itself
    after_prompt = out.getvalue().rsplit("> ", 2)[-2]
    assert after_prompt.startswith("\r\x1b[K")  # back to the line's start, cleared
    assert "OFF's time ran out" in out.getvalue()
    monkeypatch.setenv("TERM", "dumb")  # a terminal that takes no escapes: a new line
    print("> ", end="", file=out)
    button(d, clock, "undo")  # the flag taken back: drawn again
    assert out.getvalue().rsplit("> ", 2)[-2].startswith("\n")
