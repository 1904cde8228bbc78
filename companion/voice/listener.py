"""Commands by voice: pocketsphinx (its US English model from the wheel) with the grammar of
``grammar`` for the game's state. A line is one stretch of speech cut by its loudness
(``segmenter``); it acts only with the wake word before it, or while push-to-talk is held."""

from __future__ import annotations

import importlib.util
import threading
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from companion.voice.grammar import Command, Context, command_of, jsgf
from companion.voice.microphone import RATE, Microphone, quiet
from companion.voice.push_to_talk import RELEASE_FRAMES, PushToTalk
from companion.voice.segmenter import FRAME, Segmenter


def pocketsphinx_missing() -> str | None:
    """Why nothing can be heard (one line), or None."""
    if importlib.util.find_spec("pocketsphinx") is None:
        return "pocketsphinx not installed (pip install 'binaryon[voice]')"
    return None


@dataclass(frozen=True)
class Heard:
    """One line heard: the recogniser's words ('' for nothing it could match) and the command
    they stand for (None: not understood, never acted on)."""

    words: str
    command: Command | None
    # said to the companion (its wake word, or push-to-talk held): only then is a line not
    # understood said back
    addressed: bool = False
    lead: int = 1  # the words of the wake word that start ``words`` (0 with push-to-talk)
    noisy: bool = False  # the line stood too little over the room's sound to be heard out
    loudness: float | None = None  # the line's level over the room's (None: not measured)

    @property
    def reply(self) -> str:
        """What is said back, once, for a line said to the companion that is not a command
        (never acted on); '' otherwise."""
        if self.command is not None or not self.addressed:
            return ""
        if self.noisy:
            return "Too noisy to hear that: say it again."
        words = " ".join(self.words.split()[self.lead :]) if self.words else ""
        return f"Not understood: {words}." if words else "Not understood."


# the wake word's spotting threshold (pocketsphinx's kws_threshold): lower hears it more
# often, in commands and, falsely, in other talk; bench_voice.py measures both
WAKE_THRESHOLD = 1e-60
# a line whose least sure word (its posterior) is under this is doubtful: not acted on, said
# back as not understood (bench_voice.py: it takes wrong digits and near words, keeps the rest)
SURE = 0.45
WAKE_WITHIN = 60  # frames (10 ms): the wake word starts the line, not somewhere in a sentence
# the quiet put around a line after the wake word: the model's silence around the words (the
# segmenter's cut is tight). Not around a push-to-talk line: that one is short, and with the
# pad it is mostly quiet (bench_voice.py --push-to-talk, clean: 91 % with it, 99 % without)
PAD = quiet(0.3)
HISS = array("h", quiet(1.0, seed=7))
LONGEST_LINE = 5 * RATE * 2  # bytes: a command is a few words; a longer line is other talk
# a line whose RMS is under this many times the room's level (the segmenter's ``loudness``) is
# not heard out: the words are about as loud as the room's own talk, and the grammar would
# still make a command of them (bench_voice.py: babble at 0 dB SNR gives lines of 1.5-2.9,
# at 10 dB of 3.6 and more). The same ratio as speech needs to start a line.
CLEAR = 3.0


def hissed(pcm: bytes) -> bytes:
    """``pcm`` with the quiet hiss of ``microphone.quiet`` added (clipped to 16 bits)."""
    samples = array("h", pcm)
    noise = HISS * (len(samples) // len(HISS) + 1)
    for i, (s, n) in enumerate(zip(samples, noise, strict=False)):
        samples[i] = max(-32768, min(32767, s + n))
    return samples.tobytes()


class Recogniser:
    """A pocketsphinx decoder with the grammar for one context at a time."""

    def __init__(self, ctx: Context | None = None, wake: str = "companion") -> None:
        from pocketsphinx import Decoder  # the voice extra: imported only to listen

        # dither: espeak-ng's and a quiet room's exact zeros otherwise spoil the features;
        # a fixed seed keeps a file's result the same every time.
        # bestpath off: the lattice's best path may end inside the grammar ("give me a" for
        # "give me a hint" under babble); the first pass only ends on a whole command.
        # topn 8 Gaussians a frame, not 4: pink noise at 10 dB 93 -> 99 % for 17 % more CPU.
        self._decoder = Decoder(
            lm=None, samprate=RATE, dither=True, seed=1, loglevel="FATAL",
            kws_threshold=WAKE_THRESHOLD, bestpath=False, topn=8,
        )  # fmt: skip
        self.wake = wake
        if wake:
            self._decoder.add_keyphrase("wake", wake)
        self.ctx = Context()
        self.set_context(ctx or Context())

    def set_context(self, ctx: Context) -> None:
        """Listen for what ``ctx`` allows (the game's state changed)."""
        self._decoder.add_jsgf_string("companion", jsgf(ctx, self.wake))
        self.ctx = ctx

    def hear(self, pcm: bytes, loudness: float | None = None) -> Heard:
        """One line's samples (16-bit mono, 16 kHz) -> what was heard. With a wake word, the
        line must start with it (spotted alone first) and be short, else it is not a command:
        the grammar would match any talk to its nearest command. A line of a ``loudness``
        (its level over the room's) under ``CLEAR`` is said back as too noisy."""
        # a room's hiss under the words: a file's digital silence between them spoils the
        # features
        pad = PAD if self.wake else b""
        pcm = hissed(pad + pcm + pad)
        if self.wake and not (len(pcm) <= LONGEST_LINE and self._wake_starts(pcm)):
            return Heard("", None, False)
        lead = len(self.wake.split())
        if loudness is not None and loudness < CLEAR:
            return Heard("", None, True, lead, noisy=True, loudness=loudness)
        words = self._decode(pcm, "companion")
        if self.least_sure() < SURE:  # never acted on: said back as not understood
            return Heard(words, None, True, lead, loudness=loudness)
        command = command_of(words, self.ctx, self.wake)
        return Heard(words, command, True, lead, loudness=loudness)

    def least_sure(self) -> float:
        """How sure the last decoding is of its least sure word after the wake word (the
        posterior of each word in the lattice, 0..1; silences and the wake word left out)."""
        skip = len(self.wake.split())
        sure = 1.0
        for s in self._decoder.seg() or ():
            word = s.word.split("(")[0]  # "zero(2)": a second pronunciation
            if word.startswith("<") or word.startswith("[") or word == "</s>":
                continue
            if skip:
                skip -= 1
                continue
            sure = min(sure, s.prob)
        return sure

    def _wake_starts(self, pcm: bytes) -> bool:
        if not self._decode(pcm, "wake"):
            return False
        return any(s.start_frame <= WAKE_WITHIN for s in self._decoder.seg() or ())

    def _decode(self, pcm: bytes, search: str) -> str:
        d = self._decoder
        d.activate_search(search)
        d.start_utt()
        d.process_raw(pcm, full_utt=True)
        d.end_utt()
        hyp = d.hyp()
        return hyp.hypstr if hyp is not None else ""


class Listener:
    """Reads a microphone in its own thread and hands each line heard to ``on_heard`` (the
    daemon's loop acts on a command and says back once a line it did not understand). With
    ``push_to_talk`` the microphone is open only while its button is held (and
    ``RELEASE_FRAMES`` after): nothing said otherwise reaches the recogniser."""

    def __init__(
        self,
        recogniser: Recogniser,
        source: Microphone,
        on_heard: Callable[[Heard], None],
        push_to_talk: PushToTalk | None = None,
    ) -> None:
        self.recogniser = recogniser
        self.source = source
        self.on_heard = on_heard
        self.push_to_talk = push_to_talk
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="listen", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.source.close()
        if self._thread is not None:
            self._thread.join(5)

    def run(self) -> None:
        """Until the stream ends or ``stop``: cut the stream into lines and hear each."""
        cutter = Segmenter()
        ptt = self.push_to_talk
        open_for = 0  # push-to-talk: frames the microphone stays open (held: always)
        while not self._stop.is_set():
            frame = self.source.read(FRAME * 2)
            if len(frame) < FRAME * 2:
                line = cutter.flush()
                if line and (ptt is None or open_for):
                    self.on_heard(self.recogniser.hear(line, cutter.loudness))
                return
            if ptt is not None:
                if ptt.held:
                    open_for = RELEASE_FRAMES
                elif open_for:
                    open_for -= 1
                    if not open_for:  # let go: the line so far is what was said
                        line = cutter.flush()
                        cutter.room_only(frame)
                        if line:
                            self.on_heard(self.recogniser.hear(line, cutter.loudness))
                        continue
                if not open_for:
                    cutter.room_only(frame)
                    continue
            was = cutter.in_speech
            line = cutter.feed(frame)
            started = line is not None or (cutter.in_speech and not was)
            if ptt is not None and ptt.held and started:
                ptt.spoke()
            if line is not None:
                self.on_heard(self.recogniser.hear(line, cutter.loudness))
