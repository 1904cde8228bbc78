"""The shipped firmware on MicroPython's own rp2 port, in the RP2040 emulator rp2040js.

``../shared/rp2emu`` (beside the project root) holds the MicroPython v1.28.0 RPI_PICO flash
image and the RP2040 boot ROM; rp2040js (the npm package, pinned) is fetched once from the npm
registry like axe-core (tests/axe.py: integrity checked, kept in the test cache); the
filesystem image is made from firmware/ with littlefs-python. tests/rp2_board.mjs runs the chip
in Node with a modelled board around it; ``Rp2Board`` talks to it (simulated time only).

``missing()`` says in one line why the emulator cannot run here (the tests skip with it).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tarfile
import urllib.request
from pathlib import Path

from companion.hardware import link_protocol as lp
from tests import axe

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
SCRIPT = Path(__file__).resolve().parent / "rp2_board.mjs"
IMAGE = "micropython-1.28.0-rpi-pico.bin"
BOOTROM = "rp2040-bootrom-b1.mjs"
VERSION = "1.4.1"
URL = f"https://registry.npmjs.org/rp2040js/-/rp2040js-{VERSION}.tgz"
# `npm view rp2040js@1.4.1 dist.integrity`
INTEGRITY = (
    "sha512-Yzr5xG7ZwbtA50IYAU1k/oSoSyDAhPtT5qC/"
    "Q2eFApoLuAYE8DQbPIMPs/0kh4Ietd4P0OpKk3CIkfNqjcr56g=="
)
# The RPI_PICO build's filesystem: LittleFS at flash offset 0xA0000 (the .mjs places it).
FS_BLOCK = 4096
FS_BLOCKS = 352
FS_PROG = 256


def shared_dir() -> Path:
    """``$BINARYON_SHARED/rp2emu``, else ``shared/rp2emu`` beside the project root (or beside
    a folder above it: a git worktree kept under the project's parent)."""
    own = os.environ.get("BINARYON_SHARED")
    if own:
        return Path(own) / "rp2emu"
    for folder in ROOT.parents:
        if (folder / "shared" / "rp2emu").is_dir():
            return folder / "shared" / "rp2emu"
    return ROOT.parent / "shared" / "rp2emu"


def library() -> Path:
    """rp2040js's ESM entry point, unpacked into the test cache (fetched once)."""
    dest = axe.cache_dir() / f"rp2040js-{VERSION}"
    entry = dest / "package" / "dist" / "esm" / "index.js"
    if entry.exists():
        return entry
    path = axe.cache_dir() / f"rp2040js-{VERSION}.tgz"
    data = path.read_bytes() if path.exists() else b""
    if axe.integrity_of(data) != INTEGRITY:
        try:
            with urllib.request.urlopen(URL, timeout=30) as answer:
                data = answer.read()
        except OSError as e:
            raise axe.Offline(f"rp2040js {VERSION} could not be fetched from npm: {e}") from e
        if axe.integrity_of(data) != INTEGRITY:
            raise ValueError(f"{URL}: integrity {axe.integrity_of(data)} is not {INTEGRITY}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    partial = dest.with_suffix(".part")
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(partial, filter="data")
        else:  # the tarball's integrity was checked: its names are npm's package/...
            tar.extractall(partial)  # noqa: S202
    shutil.rmtree(dest, ignore_errors=True)
    partial.replace(dest)
    return entry


def missing() -> str | None:
    """Why the rp2 port cannot run here, in one line; None when it can."""
    if shutil.which("node") is None:
        return "rp2 emulator tests: node is not installed (Debian: apt-get install nodejs)"
    here = shared_dir()
    for name in (IMAGE, BOOTROM):
        if not (here / name).exists():
            return f"rp2 emulator tests: {here / name} is absent"
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "rp2 emulator tests: littlefs-python is not installed (the dev extras)"
    try:
        library()
    except (axe.Offline, ValueError, OSError) as e:
        return f"rp2 emulator tests: {e}"
    return None


def filesystem(config: str | None = None) -> bytes:
    """A LittleFS image of firmware/ (main.py, config.py, boardfw/), config.py replaced by
    ``config`` when given."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=FS_PROG)
    fs.mkdir("boardfw")
    files = [("main.py", FIRMWARE / "main.py")]
    files += [(f"boardfw/{p.name}", p) for p in sorted((FIRMWARE / "boardfw").glob("*.py"))]
    for name, path in files:
        with fs.open(name, "wb") as f:
            f.write(path.read_bytes())
    with fs.open("config.py", "wb") as f:
        f.write((config if config is not None else (FIRMWARE / "config.py").read_text()).encode())
    return bytes(fs.context.buffer)


def config_text(**changes: object) -> str:
    """firmware/config.py with some settings changed (NAME = value lines appended)."""
    text = (FIRMWARE / "config.py").read_text()
    return text + "".join(f"\n{k} = {v!r}" for k, v in changes.items()) + "\n"


class Rp2Board:
    """The emulated Pico on its board. Time is simulated: ``run(ms)`` advances it."""

    def __init__(self, tmp: Path, **config: object) -> None:
        cfg: dict = {}
        exec(config_text(**config), cfg)  # the settings the board is wired by
        self.size = cfg["SIZE"]
        self.polar = cfg["KIND"] == "polarity"
        fs_path = tmp / "fs.img"
        fs_path.write_bytes(filesystem(config_text(**config)))
        here = shared_dir()
        self.proc = subprocess.Popen(
            ["node", str(SCRIPT), str(library()), str(here / BOOTROM), str(here / IMAGE),
             str(fs_path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.text = ""  # everything the board sent
        self.split = lp.LineSplitter()
        self.msgs: list = []  # parsed board lines, in order
        self.seen = 0
        self.t_ms = 0.0
        self.boots = 0
        self.a = [0] * self.size
        self.b = [0] * self.size
        self.call(
            "board", rows=list(cfg["ROW_PINS"]), cols=list(cfg["COL_PINS"]),
            cols_b=list(cfg["COL_PINS_B"]) if self.polar else [], led=cfg["LED_PIN"],
        )  # fmt: skip

    def call(self, op: str, **args: object) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the emulator stopped (exit {self.proc.wait()})")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def run(self, ms: float) -> str:
        """Advance simulated time; returns what the board sent meanwhile."""
        got = self.call("run", ms=ms)
        self.t_ms = got["t_ms"]
        self.boots = got["boots"]
        out = got["out"]
        self.text += out
        for line in self.split.feed(out.encode("latin-1")):
            msg = lp.parse_board_line(line)
            if msg is not None:
                self.msgs.append(msg)
        return out

    def wait(self, pred, ms: float = 2000, step: float = 20):
        """The first new board message matching ``pred`` within ``ms`` of simulated time."""
        spent = 0.0
        while True:
            while self.seen < len(self.msgs):
                m = self.msgs[self.seen]
                self.seen += 1
                if pred(m):
                    return m
            if spent >= ms:
                raise AssertionError(f"not within {ms} ms; the board sent: {self.text[-600:]!r}")
            self.run(step)
            spent += step

    def skip_old(self) -> None:
        self.seen = len(self.msgs)

    def send(self, data: bytes) -> None:
        self.call("send", data=data.decode("latin-1"))

    def close(self, square: int, closed: bool = True, second: bool = False) -> None:
        """Close (or open) the sensor of ``square`` (a1 = 0; ``second``: the hall's B one)."""
        rows = self.b if second else self.a
        r, c = divmod(square, self.size)
        rows[r] = rows[r] | (1 << c) if closed else rows[r] & ~(1 << c)
        self.call("matrix", a=self.a, b=self.b)

    def recovery(self, us: float) -> None:
        """How long a released column line takes to read high again."""
        self.call("recover", us=us)

    def reading(self, on: bool) -> int:
        return self.call("reading", on=on)["held"]

    def max_feed_gap(self) -> float:
        """The longest simulated time (ms) the firmware went without feeding its watchdog
        since the last call."""
        return self.call("feedgap")["ms"]

    def stall(self) -> None:
        """Freeze the core (a hung loop): only the clock and the watchdog go on."""
        self.call("stall")

    def led_frames(self) -> list[list[int]]:
        return self.call("leds")["frames"]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()
