"""Where heard audio comes from, through one stream interface (``Microphone.read``: 16-bit mono
samples at 16 kHz): the sound card through ``arecord``, or WAV files (``--listen-from``: a file
or a folder of them, in name order) with a pause after each so every file is one utterance."""

from __future__ import annotations

import random
import shutil
import subprocess
import wave
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from companion.voice.audio import read_wav

RATE = 16000
GAP_SECONDS = 0.8  # quiet after each file: the endpointer's end of speech


class Microphone(Protocol):
    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes of samples; b'' when the stream has ended."""
        ...

    def close(self) -> None: ...


def quiet(seconds: float, seed: int = 0) -> bytes:
    """A room's hiss, not digital silence (a recogniser's features need some energy)."""
    rng = random.Random(seed)
    return array("h", (rng.randint(-8, 8) for _ in range(int(seconds * RATE)))).tobytes()


class WavSource:
    """WAV files played into the listener as if said one after the other."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.paths = list(paths)
        self._buffer = bytearray(quiet(0.3))
        self._next = 0

    @classmethod
    def of(cls, path: Path) -> WavSource:
        """A file, or every ``*.wav`` of a folder in name order; ValueError when none."""
        if path.is_dir():
            files = sorted(path.glob("*.wav"))
            if not files:
                raise ValueError(f"{path}: no .wav files in the folder")
            return cls(files)
        if not path.is_file():
            raise ValueError(f"{path}: no such file")
        return cls([path])

    def check(self) -> None:
        """Each file opens as 16-bit PCM WAV; ValueError naming the first that does not."""
        for path in self.paths:
            try:
                with wave.open(str(path), "rb") as w:
                    width = w.getsampwidth()
            except (wave.Error, EOFError, OSError) as e:
                raise ValueError(f"{path}: not a WAV file ({e})") from None
            if width != 2:
                raise ValueError(f"{path}: {8 * width}-bit samples: use 16-bit PCM")

    def read(self, size: int) -> bytes:
        while len(self._buffer) < size and self._next < len(self.paths):
            path = self.paths[self._next]
            self._next += 1
            self._buffer += read_wav(path, RATE) + quiet(GAP_SECONDS, self._next)
        out = bytes(self._buffer[:size])
        del self._buffer[:size]
        return out

    def close(self) -> None:
        self._next = len(self.paths)
        self._buffer.clear()


class AlsaMicrophone:
    """The sound card's capture through ``arecord`` (alsa-utils)."""

    def __init__(self, device: str = "default") -> None:
        self.device = device
        self._proc = subprocess.Popen(
            ["arecord", "-q", "-D", device, "-t", "raw", "-f", "S16_LE", "-r", str(RATE),
             "-c", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    @staticmethod
    def missing() -> str | None:
        return None if shutil.which("arecord") else "arecord not found (apt install alsa-utils)"

    def read(self, size: int) -> bytes:
        assert self._proc.stdout is not None
        return self._proc.stdout.read(size)

    def close(self) -> None:
        self._proc.kill()
        self._proc.wait()
