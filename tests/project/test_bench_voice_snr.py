"""The voice bench's SNR is the words' active speech level (ITU-T P.56) against the noise:
the silence around and between the words does not lower the words' level, so a line is not
mixed with less noise than its SNR says."""

from __future__ import annotations

import importlib.util
import math
import shutil
import wave
from array import array
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_voice.py"
RATE = 16000


def bench():
    spec = importlib.util.spec_from_file_location("bench_voice", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write(path: Path, seconds_before: float, tone: float, seconds_after: float) -> Path:
    """Silence, a 440 Hz tone of amplitude 8000 for ``tone`` seconds, silence."""
    samples = [0] * int(seconds_before * RATE)
    step = 2 * math.pi * 440 / RATE
    samples += [round(8000 * math.sin(step * i)) for i in range(int(tone * RATE))]
    samples += [0] * int(seconds_after * RATE)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(array("h", samples).tobytes())
    return path


def db(a: float, b: float) -> float:
    return 20 * math.log10(a / b)


def test_the_words_level_leaves_the_silence_around_them_out(tmp_path):
    b = bench()
    alone = b.speech_level(write(tmp_path / "alone.wav", 0, 1.0, 0))
    assert abs(db(alone, 8000 / math.sqrt(2))) < 0.2  # a steady tone: its RMS
    padded = write(tmp_path / "padded.wav", 5.0, 1.0, 0.5)
    longer = write(tmp_path / "longer.wav", 2.0, 1.0, 3.0)
    level = b.speech_level(padded)
    assert abs(db(b.speech_level(longer), level)) < 0.05  # however long the silence
    # the 0.2 s the level holds on after the words (P.56's hangover) is counted as spoken
    assert -1.5 < db(level, alone) < -0.5
    assert db(level, b.rms(padded)) > 6  # the plain RMS would count the silence: 6.7 dB lower


@pytest.mark.skipif(shutil.which("sox") is None, reason="sox not installed (apt install sox)")
def test_a_line_is_mixed_at_the_snr_of_its_words(tmp_path):
    import random

    b = bench()
    speech = write(tmp_path / "speech.wav", 5.0, 1.0, 0.5)
    mixed = b.mixed(speech, "pink", 10.0, tmp_path, random.Random(1))
    with wave.open(str(mixed)) as w:
        both = array("h", w.readframes(w.getnframes()))
    before = both[: 4 * RATE]  # the room before the words: the noise alone
    noise = math.sqrt(sum(x * x for x in before) / len(before))
    assert abs(db(b.speech_level(speech), noise) - 10.0) < 0.5
