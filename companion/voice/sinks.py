"""Where spoken audio goes: one small interface (``Sink``) with an ALSA sink (``aplay``), a
folder sink (``--voice-to DIR``: numbered WAV files and ``said.txt``) and a null sink."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Protocol

from companion.voice.audio import AudioFormat, write_wav


class Sink(Protocol):
    """One utterance at a time: ``begin``, its samples in pieces, then ``end`` (``completed``
    False when a more urgent utterance cut it)."""

    def begin(self, text: str, fmt: AudioFormat) -> None: ...

    def write(self, pcm: bytes) -> None: ...

    def end(self, completed: bool) -> None: ...


class FolderSink:
    """Each utterance as ``DIR/NNNN.wav`` and a line ``NNNN<TAB>text`` in ``DIR/said.txt`` (an
    utterance that was cut gets `` [cut]`` after its text). Numbering goes on after the files
    already there, so nothing is overwritten."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.stem) for p in folder.glob("*.wav") if p.stem.isdigit()]
        self.count = max(numbers, default=0)
        self._text = ""
        self._fmt = AudioFormat(22050)
        self._pcm: list[bytes] = []
        self._lock = threading.Lock()

    def begin(self, text: str, fmt: AudioFormat) -> None:
        self._text, self._fmt, self._pcm = text, fmt, []

    def write(self, pcm: bytes) -> None:
        self._pcm.append(pcm)

    def end(self, completed: bool) -> None:
        with self._lock:
            self.count += 1
            name = f"{self.count:04d}"
            write_wav(self.folder / f"{name}.wav", b"".join(self._pcm), self._fmt)
            line = self._text.replace("\n", " ") + ("" if completed else " [cut]")
            with open(self.folder / "said.txt", "a", encoding="utf-8") as f:
                f.write(f"{name}\t{line}\n")
            self._pcm = []


class AlsaSink:
    """The sound card through ``aplay`` (alsa-utils): raw samples on its standard input; an
    utterance that is cut stops at once."""

    def __init__(self, device: str = "default") -> None:
        self.device = device
        self._proc: subprocess.Popen[bytes] | None = None

    @staticmethod
    def missing() -> str | None:
        """Why it cannot play (one line), or None."""
        return None if shutil.which("aplay") else "aplay not found (apt install alsa-utils)"

    def begin(self, text: str, fmt: AudioFormat) -> None:
        self._proc = subprocess.Popen(
            ["aplay", "-q", "-D", self.device, "-t", "raw", "-f", "S16_LE",
             "-r", str(fmt.rate), "-c", str(fmt.channels)],
            stdin=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def write(self, pcm: bytes) -> None:
        proc = self._proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                proc.stdin.write(pcm)

    def end(self, completed: bool) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if not completed:
            proc.kill()
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except BrokenPipeError:
            pass
        proc.wait()
