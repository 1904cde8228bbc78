"""Speech out: espeak-ng (``--stdout``: a WAV stream) read in small pieces and handed to a sink
as it comes, so the first sample is out long before the line is synthesised; a line can be cut
between two pieces."""

from __future__ import annotations

import functools
import shutil
import subprocess
import threading
from dataclasses import dataclass

from companion.voice.audio import read_wav_header
from companion.voice.sinks import Sink

PIECE = 2048  # bytes handed to the sink at a time: 46 ms at 22050 Hz
# the longest line said: its text fits the pipe to espeak-ng whole (64 KiB), so writing it
# never waits for espeak-ng's audio to be read
LONGEST = 8000


@dataclass(frozen=True)
class VoiceSettings:
    voice: str = "en-us"
    rate: int = 165  # words a minute
    volume: int = 100  # espeak-ng's amplitude, 0..200


def espeak_missing() -> str | None:
    """Why nothing can be said (one line), or None."""
    if shutil.which("espeak-ng") is None:
        return "espeak-ng not found (apt install espeak-ng)"
    return None


@functools.cache
def known_voices() -> frozenset[str]:
    """The voices espeak-ng has: languages ("en-us"), files ("gmw/en") and names."""
    out = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True).stdout
    names: set[str] = set()
    for line in out.splitlines()[1:]:
        cols = line.split()
        if len(cols) >= 5:
            names.update((cols[1], cols[3], cols[4], cols[4].rsplit("/", 1)[-1]))
    return frozenset(names)


def voice_problem(voice: str) -> str | None:
    """Why espeak-ng cannot speak with ``voice`` (it would fall back to its default without a
    word), or None. A variant after '+' ("en-us+f3") is espeak-ng's own."""
    if missing := espeak_missing():
        return missing
    base = voice.split("+", 1)[0]
    if base not in known_voices():
        return f"espeak-ng has no voice {base!r} (espeak-ng --voices lists them)"
    return None


def espeak_command(settings: VoiceSettings) -> list[str]:
    """The command that reads one line on its standard input (never as an argument, so a line
    that starts with '-' is words, not an option)."""
    return ["espeak-ng", "--stdout", "-v", settings.voice, "-s", str(settings.rate),
            "-a", str(settings.volume)]  # fmt: skip


class Speaker:
    """Says lines into a sink, one at a time (the queue's thread calls ``say``)."""

    def __init__(self, sink: Sink, settings: VoiceSettings | None = None) -> None:
        self.sink = sink
        self.settings = settings or VoiceSettings()

    def say(self, text: str, cut: threading.Event | None = None) -> bool:
        """Speak ``text``; stop early when ``cut`` is set. True when it was said whole.
        Raises OSError (espeak-ng missing) or ValueError (a voice espeak-ng does not have)."""
        if problem := voice_problem(self.settings.voice):
            raise ValueError(problem)
        proc = subprocess.Popen(
            espeak_command(self.settings),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(text[:LONGEST].encode("utf-8"))
        proc.stdin.close()
        try:
            fmt = read_wav_header(proc.stdout)
        except ValueError:
            err = proc.stderr.read().decode(errors="replace").strip().splitlines()
            proc.wait()
            raise ValueError(f"espeak-ng: {err[0] if err else 'no audio'}") from None
        self.sink.begin(text, fmt)
        completed = True
        try:
            while piece := proc.stdout.read1(PIECE):  # type: ignore[attr-defined]
                if cut is not None and cut.is_set():
                    completed = False
                    break
                self.sink.write(piece)
        finally:
            if not completed:
                proc.kill()
            proc.stdout.close()
            proc.stderr.close()
            proc.wait()
            self.sink.end(completed)
        return completed
