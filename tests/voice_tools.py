"""Test aids for the voice tests: skip with one line where espeak-ng or pocketsphinx is not
there, and make a line of speech as WAV with the real espeak-ng."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

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
