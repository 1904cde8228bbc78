"""PCM audio as the voice handles it: signed 16-bit little-endian mono, a WAV header read from a
stream, and a linear resampler (espeak-ng speaks at 22050 Hz, the recogniser hears 16000 Hz)."""

from __future__ import annotations

import struct
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

WIDTH = 2  # bytes per sample: S16_LE


@dataclass(frozen=True)
class AudioFormat:
    rate: int  # samples a second
    channels: int = 1
    width: int = WIDTH


def read_wav_header(stream: BinaryIO) -> AudioFormat:
    """The format of a WAV stream, read up to the start of its samples (espeak-ng's ``--stdout``
    writes its header before it knows the length, so the sizes in it are not used)."""
    head = _exactly(stream, 12)
    if head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        raise ValueError("not a WAV stream")
    fmt: AudioFormat | None = None
    while True:
        kind, size = struct.unpack("<4sI", _exactly(stream, 8))
        if kind == b"data":
            if fmt is None:
                raise ValueError("WAV stream: data before its format")
            return fmt
        body = _exactly(stream, size + (size & 1))
        if kind == b"fmt ":
            tag, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            if tag != 1 or bits != 16:
                raise ValueError(f"WAV stream: {bits}-bit format {tag}: only 16-bit PCM is read")
            fmt = AudioFormat(rate, channels)


def _exactly(stream: BinaryIO, n: int) -> bytes:
    data = stream.read(n)
    if len(data) != n:
        raise ValueError("WAV stream ended in its header")
    return data


def to_mono(pcm: bytes, channels: int) -> bytes:
    """The first channel of interleaved 16-bit samples."""
    if channels == 1:
        return pcm
    samples = array("h", pcm)
    return array("h", samples[::channels]).tobytes()


def resample(pcm: bytes, rate: int, to: int) -> bytes:
    """16-bit mono samples at ``rate`` as samples at ``to``, by linear interpolation (enough for
    speech into a recogniser that hears up to 8 kHz)."""
    if rate == to or not pcm:
        return pcm
    src = array("h", pcm)
    n = len(src)
    count = n * to // rate
    out = array("h", bytes(2 * count))
    step = rate / to
    last = n - 1
    for i in range(count):
        pos = i * step
        j = int(pos)
        if j >= last:
            out[i] = src[last]
            continue
        frac = pos - j
        out[i] = int(src[j] + (src[j + 1] - src[j]) * frac)
    return out.tobytes()


def read_wav(path: Path, rate: int) -> bytes:
    """A WAV file's samples as 16-bit mono at ``rate``; ValueError with the reason otherwise."""
    try:
        with wave.open(str(path), "rb") as w:
            if w.getsampwidth() != WIDTH:
                raise ValueError(f"{path}: {8 * w.getsampwidth()}-bit samples: use 16-bit PCM")
            pcm = to_mono(w.readframes(w.getnframes()), w.getnchannels())
            return resample(pcm, w.getframerate(), rate)
    except (wave.Error, EOFError) as e:
        raise ValueError(f"{path}: not a WAV file ({e})") from None


def write_wav(path: Path, pcm: bytes, fmt: AudioFormat) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(fmt.channels)
        w.setsampwidth(fmt.width)
        w.setframerate(fmt.rate)
        w.writeframes(pcm)
