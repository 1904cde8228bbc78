"""Test aids for the voice tests: skip with one line where espeak-ng or pocketsphinx is not
there, and make a line of speech as WAV with the real espeak-ng."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.voice.audio import AudioFormat
from companion.voice.listener import pocketsphinx_missing
from companion.voice.speech import espeak_missing

needs_espeak = pytest.mark.skipif(
    espeak_missing() is not None, reason=espeak_missing() or "espeak-ng"
)
needs_pocketsphinx = pytest.mark.skipif(
    pocketsphinx_missing() is not None, reason=pocketsphinx_missing() or "pocketsphinx"
)


def speak_to(path: Path, text: str, voice: str = "en-us") -> Path:
    """``text`` said by espeak-ng into the WAV file ``path``."""
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(path), text], check=True)
    return path


class Pressed:
    """WAV files said one after the other into the listener's stream (the interface the
    microphone has), each with the push-to-talk button held down or not: the stream's reader
    presses and lets go (``press(down)``) as it reads, so what the button covers is exact
    whatever the speed. A path of None: the button held over a moment of quiet (a tap)."""

    def __init__(self, said: list[tuple[Path | None, bool]], press: Callable[[bool], None]):
        from companion.voice.audio import read_wav
        from companion.voice.microphone import RATE, quiet

        self.press = press
        self.parts: list[tuple[bool | None, bytes]] = [(None, quiet(1.0))]
        for path, held in said:
            words = read_wav(path, RATE) if path is not None else quiet(0.5, 5)
            if held:
                self.parts += [(True, words + quiet(0.1, 3)), (False, quiet(1.0, 4))]
            else:
                self.parts.append((None, words + quiet(1.0, 4)))
        self._at = 0
        self.ended = False

    def read(self, size: int) -> bytes:
        while self.parts and self._at >= len(self.parts[0][1]):
            self.parts.pop(0)
            self._at = 0
            if self.parts and self.parts[0][0] is not None:
                self.press(bool(self.parts[0][0]))
        if not self.parts:
            self.ended = True
            return b""
        pcm = self.parts[0][1]
        out = pcm[self._at : self._at + size]
        self._at += size
        return out + bytes(size - len(out))  # the part's last frame padded with zeros

    def close(self) -> None:
        self.parts.clear()


class NullSink:
    """Speech nowhere (counts what it was handed: ``said``, ``samples``)."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.samples = 0

    def begin(self, text: str, fmt: AudioFormat) -> None:
        self.said.append(text)

    def write(self, pcm: bytes) -> None:
        self.samples += len(pcm) // 2

    def end(self, completed: bool) -> None:
        pass
