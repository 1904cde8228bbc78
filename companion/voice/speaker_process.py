"""Speech in a process of its own: espeak-ng's audio is read and handed to the sink there, so
the daemon's interpreter never spends its time (or waits for its lock) on a line being said.
The daemon's voice thread writes one JSON line per utterance and waits, without the lock,
for the answer; a cut is one more line. Started once, at a lower priority, before the first
line (``start``), so a line costs one pipe hop, not a Python start.

    python -m companion.voice.speaker_process folder DIR|alsa DEVICE VOICE RATE VOLUME
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

from companion.voice.speech import Speaker, VoiceSettings

NICE = 10  # as the voice thread's: the referee's process goes first
POLL = 0.05  # seconds between looks at the cut while a line is said


class SpeakerProcess:
    """``say(text, cut)`` as ``Speaker.say``, said by a child process into ``sink``: "folder"
    (``target``: a folder of WAVs and said.txt) or "alsa" (``target``: the output device)."""

    def __init__(self, sink: str, target: str, settings: VoiceSettings | None = None) -> None:
        self.sink, self.target = sink, target
        self.settings = settings or VoiceSettings()
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines = 0

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def start(self) -> None:
        """Start the child (the speech queue's thread calls this first, already lowered)."""
        if self._proc is not None and self._proc.poll() is None:
            return
        s = self.settings
        self._proc = subprocess.Popen(
            [sys.executable, "-m", __name__, self.sink, self.target, s.voice, str(s.rate),
             str(s.volume)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip
        with contextlib.suppress(OSError):  # also where the caller is not lowered
            os.setpriority(os.PRIO_PROCESS, self._proc.pid, max(NICE, os.nice(0)))

    def say(self, text: str, cut: threading.Event | None = None) -> bool:
        """Speak ``text`` in the child; True when said whole. ValueError or OSError as
        ``Speaker.say`` raises them; OSError when the child has stopped (restarted next line)."""
        self.start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        self._lines += 1
        line = self._lines
        try:
            _send(proc.stdin, {"say": text, "line": line})
            sent_cut = False
            while True:
                if cut is not None and cut.is_set() and not sent_cut:
                    _send(proc.stdin, {"cut": line})
                    sent_cut = True
                ready, _, _ = select.select([proc.stdout], [], [], POLL)
                if ready:
                    break
            answer = proc.stdout.readline()
        except (BrokenPipeError, ValueError):
            answer = b""
        if not answer:
            self.close()
            raise OSError("the voice's process stopped")
        reply = json.loads(answer)
        if "error" in reply:
            raise (ValueError if reply.get("kind") == "value" else OSError)(reply["error"])
        return bool(reply["whole"])

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout is not None:
                proc.stdout.close()


def _send(pipe: IO[bytes], message: dict) -> None:
    pipe.write(json.dumps(message).encode() + b"\n")
    pipe.flush()


def serve(speaker: Speaker, inp: IO[bytes], out: IO[bytes]) -> None:
    """The child: say each line asked, cut it when asked, answer each once."""
    asked: queue.Queue[dict | None] = queue.Queue()
    cut = threading.Event()
    saying = [0]  # the line being said
    cuts: set[int] = set()  # the lines cut (a cut may come before its line is begun)

    def read() -> None:
        for raw in inp:
            message = json.loads(raw)
            if "cut" in message:
                cuts.add(message["cut"])
                if message["cut"] == saying[0]:
                    cut.set()
            else:
                asked.put(message)
        asked.put(None)

    threading.Thread(target=read, name="asked", daemon=True).start()
    while (message := asked.get()) is not None:
        cut.clear()
        saying[0] = message["line"]
        if saying[0] in cuts:
            cut.set()
        try:
            reply: dict = {"whole": speaker.say(message["say"], cut)}
        except ValueError as e:
            reply = {"error": str(e), "kind": "value"}
        except OSError as e:
            reply = {"error": str(e), "kind": "os"}
        saying[0] = 0
        _send(out, reply)


def main(argv: list[str]) -> None:
    from companion.voice.sinks import AlsaSink, FolderSink
    from companion.voice.speech import voice_problem

    kind, target, voice, rate, volume = argv
    voice_problem(voice)  # espeak-ng's voices listed now, not at the first line
    sink = FolderSink(Path(target)) if kind == "folder" else AlsaSink(target)
    serve(Speaker(sink, VoiceSettings(voice, int(rate), int(volume))), sys.stdin.buffer,
          sys.stdout.buffer)  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
