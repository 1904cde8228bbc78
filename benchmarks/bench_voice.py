"""The voice's figures: text -> first audio sample handed to the sink (here, and with
--pi-zero under the Pi Zero CPU quota of cpu_quota.py), press -> OLED frame through the daemon
with its voice speaking every move (espeak-ng into WAV files) and without, command recognition
on three espeak-ng voices with pink, brown (a fan) and babble noise mixed in by sox at 10 dB
and 0 dB SNR of the words' active speech level (after the wake word, and with --push-to-talk
by push-to-talk too; with how many wrong hearings the daemon would ask about first), and false
actions over minutes of read text that is not a command.

    python benchmarks/bench_voice.py [--lines 30] [--presses 300] [--talk-minutes 3] [--pi-zero]
                                     [--push-to-talk]
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave
from array import array
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from companion.service.voice_commands import asked_first  # noqa: E402
from companion.voice.audio import AudioFormat, read_wav  # noqa: E402
from companion.voice.grammar import Context, every_command, spoken  # noqa: E402
from companion.voice.listener import Listener, Recogniser  # noqa: E402
from companion.voice.microphone import RATE, WavSource  # noqa: E402
from companion.voice.push_to_talk import PushToTalk  # noqa: E402
from companion.voice.speech import Speaker  # noqa: E402

VOICES = ("en-us", "en-us+f2", "en-us+f3")
BABBLE = ("en-us+m3", "en-gb-x-rp", "en-us+f4", "en")
CTX = Context(ranks=8, numbers=True, next=True, clock=True, confirm=True, pass_move=True)
LINES = (
    "white a5 to b5.",
    "No: e4 is not in line with d5.",
    "The die shows six.",
    "Postulate: Contains 5, for 3 points. Claim or pass.",
    "black places c2 and d3.",
    "ten seconds, black.",
)


class FirstSample:
    """A sink that notes when the first samples of each line arrive."""

    def __init__(self) -> None:
        self.first: float | None = None

    def begin(self, text: str, fmt: AudioFormat) -> None:
        self.first = None

    def write(self, pcm: bytes) -> None:
        if self.first is None:
            self.first = time.perf_counter()

    def end(self, completed: bool) -> None:
        pass


def first_sample_ms(lines: int) -> list[float]:
    sink = FirstSample()
    speaker = Speaker(sink)
    out = []
    for i in range(lines):
        t0 = time.perf_counter()
        speaker.say(LINES[i % len(LINES)], threading.Event())
        assert sink.first is not None
        out.append((sink.first - t0) * 1000)
    return out


def press_frames(presses: int, speaking: bool, work: Path, seed: int = 1) -> list[float]:
    """Press -> OLED frame (ms) over random Binaryon games through the daemon, with the voice
    saying every move, refusal and turn ([voice] speak = "all", into WAV files) or without a
    voice. A press every 30 ms: the lines of the last presses are being said meanwhile."""
    from companion.core.config import Config
    from companion.service.daemon import Daemon
    from companion.service.voice_setup import start_voice

    rng = random.Random(seed)
    config = Config.default().with_overrides(board={"driver": "mock"}, voice={"speak": "all"})
    now = [0.0]  # the daemon's clock: debounce lock-outs pass without sleeping
    d = Daemon(config, clock=lambda: now[0])
    close = start_voice(config, d, voice_to=work / f"said-{seed}") if speaking else None
    d.board.start(d.loop.post)
    d.loop.run_pending()
    if close is not None:  # the voice's process up and its first line said: a board is up
        d.voice.queue.wait_idle(30)  # long before its first press
    done: list[float] = []
    d.on_frame = lambda: done.append(time.perf_counter())
    times: list[float] = []
    try:
        while len(times) < presses:
            state = d.session.state
            if state.is_over():
                d.new_game()
                d.loop.run_pending()
                continue
            moves = [m for m in state.legal_moves() if not m.is_pass]
            square = rng.choice(moves).cells[0]
            done.clear()
            start = time.perf_counter()
            d.board.press(square)
            d.loop.run_pending()
            if done:
                times.append((done[0] - start) * 1000)
            now[0] += 0.05
            d.board.release(square)
            d.loop.run_pending()
            time.sleep(0.03)
    finally:
        if close is not None:
            close()
    return times


def frames_line(label: str, values: list[float]) -> str:
    return (
        f"press -> OLED frame, {label}: p50 {statistics.median(values):.2f} ms, "
        f"p95 {pct(values, 95):.2f} ms, p99 {pct(values, 99):.2f} ms ({len(values)} presses)"
    )


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def latency_line(values: list[float]) -> str:
    return (
        f"text -> first audio sample: p50 {statistics.median(values):.1f} ms, "
        f"p95 {pct(values, 95):.1f} ms, max {max(values):.1f} ms ({len(values)} lines)"
    )


def rms(path: Path) -> float:
    with wave.open(str(path)) as w:
        s = array("h", w.readframes(w.getnframes()))
    return math.sqrt(sum(x * x for x in s) / max(1, len(s)))


def speech_level(path: Path) -> float:
    """The active speech level of ITU-T P.56 (method B), as an RMS in sample units: the power
    of the words over the time they are spoken, pauses and the silence around them left out,
    as SNRs in speech recognition are stated."""
    with wave.open(str(path)) as w:
        rate = w.getframerate()
        x = [s / 32768 for s in array("h", w.readframes(w.getnframes()))]
    energy = sum(v * v for v in x)
    if energy == 0:
        return 0.0
    g = math.exp(-1 / (rate * 0.03))  # the envelope's time constant: 0.03 s
    p = q = 0.0
    envelope = []
    for v in x:
        p = g * p + (1 - g) * abs(v)
        q = g * q + (1 - g) * p
        envelope.append(q)
    hangover = int(0.2 * rate)
    margin = 15.9  # dB between the level and the threshold that finds it
    before: tuple[float, float] | None = None
    for j in range(16):  # thresholds a factor of 2 apart, 2^-15 to 1
        threshold = 2.0 ** (j - 15)
        active, since = 0, hangover
        for e in envelope:
            since = 0 if e >= threshold else since + 1
            active += since <= hangover
        if active == 0:
            break
        level = 10 * math.log10(energy / active)
        over = level - 20 * math.log10(threshold)
        if over <= margin:
            if before is not None:  # between the two thresholds, where `over` is the margin
                level = before[0] + (level - before[0]) * (before[1] - margin) / (before[1] - over)
            return 32768 * 10 ** (level / 20)
        before = (level, over)
    return 32768 * math.sqrt(energy / len(x))


def sox(*args: str) -> None:
    subprocess.run(["sox", *args], check=True, stderr=subprocess.DEVNULL)


BABBLE_SECONDS = 90.0


def babble_track(work: Path) -> Path:
    """A table's talk: four espeak-ng voices, each reading the club chatter of babble.txt from
    its own sentence on, mixed into BABBLE_SECONDS of babble. Made once per run."""
    track = work / "babble-track.wav"
    if track.exists():
        return track
    sentences = (HERE / "babble.txt").read_text(encoding="utf-8").splitlines()
    parts = []
    for i, voice in enumerate(BABBLE):
        raw = work / f"babble-{i}.wav"
        start = i * len(sentences) // len(BABBLE)
        line = " ".join(sentences[start:] + sentences[:start])
        subprocess.run(["espeak-ng", "-v", voice, "-w", str(raw), line], check=True)
        part = work / f"babble-{i}-16k.wav"
        sox(str(raw), "-r", str(RATE), str(part), "trim", "0", f"{BABBLE_SECONDS:g}")
        parts.append(str(part))
    sox("-m", *parts, str(track))
    return track


def make_noise(kind: str, seconds: float, out: Path, work: Path, rng: random.Random) -> None:
    """pink or brown noise from sox's synth (drawn afresh each time); babble: a stretch of
    ``babble_track`` from a random point, so that each line meets other words."""
    if kind in ("pink", "brown"):
        sox("-n", "-r", str(RATE), "-b", "16", "-c", "1", str(out), "synth", f"{seconds:.2f}",
            f"{kind}noise")  # fmt: skip
        return
    start = rng.uniform(0, BABBLE_SECONDS - seconds - 1)
    sox(str(babble_track(work)), str(out), "trim", f"{start:.3f}", f"{seconds:.3f}")


def mixed(speech: Path, kind: str, snr_db: float, work: Path, rng: random.Random) -> Path:
    """``speech`` (after the room's lead-in of silence) with noise at ``snr_db``: the words'
    active speech level (``speech_level``) against the noise's RMS, mixed by sox."""
    with wave.open(str(speech)) as w:
        seconds = w.getnframes() / w.getframerate()
    noise = work / f"noise-{kind}.wav"
    make_noise(kind, seconds, noise, work, rng)
    gain = speech_level(speech) / (max(rms(noise), 1.0) * 10 ** (snr_db / 20))
    out = work / f"mix-{kind}-{snr_db:g}.wav"
    sox("-m", "-v", "1", str(speech), "-v", f"{gain:.5f}", str(noise), str(out))
    return out


class HeldStream:
    """A WAV file as the microphone's stream, with the push-to-talk button held from
    ``held_from`` to ``held_to`` seconds into it (the listener reads the button every frame)."""

    def __init__(self, path: Path, ptt: PushToTalk, held_from: float, held_to: float) -> None:
        self.pcm = read_wav(path, RATE)
        self.ptt = ptt
        self.span = (int(held_from * RATE) * 2, int(held_to * RATE) * 2)
        self.at = 0

    def read(self, size: int) -> bytes:
        down = self.span[0] <= self.at < self.span[1]
        if down and not self.ptt.held:
            self.ptt.press()
        elif not down and self.ptt.held:
            self.ptt.release()
        out = self.pcm[self.at : self.at + size]
        self.at += size
        return out

    def close(self) -> None:
        pass


def accuracy(work: Path, snrs: list[float], kinds: list[str], limit: int, talk: bool) -> None:
    """Each command on each voice, alone and in each noise; with ``talk``, by push-to-talk (no
    wake word; the button held from 0.3 s before the words to their end), else after the wake
    word."""
    wake = "" if talk else "companion"
    recogniser = Recogniser(CTX, wake)
    commands = every_command(CTX)[:limit]
    rng = random.Random(1)  # where in the babble each line falls: the same every run
    lead = 5.0  # seconds of the room before the words (of quiet when clean, by push-to-talk)
    for kind in ["clean", *kinds]:
        for snr in [None] if kind == "clean" else snrs:
            right = wrong = asked = total = 0
            spent = 0.0
            for voice in VOICES:
                for command in commands:
                    raw = work / "say.wav"
                    subprocess.run(["espeak-ng", "-v", voice, "-w", str(raw),
                                    spoken(command, wake)], check=True)  # fmt: skip
                    speech = work / "say-16k.wav"
                    if snr is None and not talk:
                        sox(str(raw), "-r", str(RATE), str(speech))
                        path = speech
                    else:  # the noise runs on before the words, as a fan or a crowd does
                        sox(str(raw), "-r", str(RATE), str(speech), "pad", f"{lead:g}", "0.5")
                        path = speech if snr is None else mixed(speech, kind, snr, work, rng)
                    heard: list = []  # through the microphone's stream, as it is used
                    t0 = time.process_time()
                    if talk:
                        ptt = PushToTalk("menu")
                        words_end = len(read_wav(speech, RATE)) / 2 / RATE - 0.5
                        stream = HeldStream(path, ptt, lead - 0.3, words_end)
                        Listener(recogniser, stream, heard.append, ptt).run()
                    else:
                        Listener(recogniser, WavSource.of(path), heard.append).run()
                    spent += time.process_time() - t0
                    total += 1
                    got = [h.command for h in heard if h.command is not None]
                    right += got == [command]
                    wrong += any(c != command for c in got)
                    asked += any(
                        h.command not in (None, command) and asked_first(h.command.name, h.loudness)
                        for h in heard
                    )  # wrong hearings the daemon asks about before acting (voice_commands)
            where = "clean" if snr is None else f"{kind} noise at {snr:g} dB SNR"
            how = "push-to-talk" if talk else "commands"
            print(
                f"{how}, {where}: {100 * right / total:.1f} % right, {wrong} wrong actions, "
                f"{asked} of them asked first ({total} lines, {len(VOICES)} voices; "
                f"{1000 * spent / total:.0f} ms CPU a line)",
                flush=True,
            )


def false_actions(work: Path, minutes: float) -> None:
    """Read text that is not a command (the docs, the wake word taken out), through the
    microphone's stream, and count what would have been acted on."""
    text = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for sentence in doc.read_text(encoding="utf-8").replace("\n", " ").split(". "):
            words = [w for w in sentence.replace("`", "").split() if w.isalpha()]
            if len(words) >= 4:
                text.append(" ".join(words).replace("companion", "").replace("Companion", ""))
    folder = work / "talk"
    folder.mkdir()
    seconds = 0.0
    for i, line in enumerate(text):
        if seconds >= minutes * 60:
            break
        path = folder / f"{i:05d}.wav"
        voice = VOICES[i % len(VOICES)]
        subprocess.run(["espeak-ng", "-v", voice, "-w", str(path), line], check=True)
        with wave.open(str(path)) as w:
            seconds += w.getnframes() / w.getframerate()
    heard = []
    Listener(Recogniser(CTX, "companion"), WavSource.of(folder), heard.append).run()
    acted = [h for h in heard if h.command is not None]
    said_back = [h for h in heard if h.command is None and h.addressed]
    print(
        f"read text, not commands: {seconds / 60:.1f} minutes, {len(heard)} lines heard, "
        f"{len(acted)} false actions, {len(said_back)} said back as not understood",
        flush=True,
    )
    for h in acted:
        print(f"  acted on: {h.words!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=30, help="lines timed to the first sample")
    parser.add_argument("--presses", type=int, default=300, help="presses timed each way")
    parser.add_argument("--commands", type=int, default=100, help="commands per voice (at most)")
    parser.add_argument("--snr", type=float, nargs="+", default=[10.0, 0.0])
    parser.add_argument("--noise", nargs="+", default=["pink", "brown", "babble"])
    parser.add_argument("--talk-minutes", type=float, default=3.0)
    parser.add_argument("--push-to-talk", action="store_true",
                        help="also the commands by push-to-talk, in the same noises")  # fmt: skip
    parser.add_argument("--pi-zero", action="store_true",
                        help="also time the first sample under the Pi Zero CPU quota")  # fmt: skip
    parser.add_argument("--latency-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from companion.voice.listener import pocketsphinx_missing
    from companion.voice.speech import espeak_missing

    if why := espeak_missing() or pocketsphinx_missing():
        print(f"voice: not measured ({why})")
        return
    print(latency_line(first_sample_ms(args.lines)), flush=True)
    if args.latency_only:
        return
    if args.pi_zero:
        from cpu_quota import SHARE_OF_A_CORE, CpuQuota

        why = CpuQuota.unavailable()
        if why:
            print(f"under the Pi Zero quota: not measured ({why})")
        else:
            launcher = (
                "import os, sys; sys.stdin.readline(); os.execv(sys.executable, sys.argv[1:])"
            )
            with CpuQuota(SHARE_OF_A_CORE) as quota:
                proc = subprocess.Popen(
                    [sys.executable, "-c", launcher, sys.executable, __file__, "--latency-only",
                     "--lines", str(args.lines)],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                )  # fmt: skip
                quota.add(proc.pid)  # espeak-ng, started by it, runs in the quota too
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write("go\n")
                proc.stdin.close()
                out = proc.stdout.read().strip()
                proc.wait()
            print(f"under the Pi Zero quota ({SHARE_OF_A_CORE:g} of a core): {out}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        off: list[float] = []
        on: list[float] = []
        for seed in range(1, 4):  # alternated, so both ways share the machine's moods
            off += press_frames(args.presses // 3 or 1, False, work, seed)
            on += press_frames(args.presses // 3 or 1, True, work, seed)
        print(frames_line("speech off", off), flush=True)
        print(frames_line('speech on ("all", espeak-ng running)', on), flush=True)
        if shutil.which("sox") is None:  # it resamples and mixes the lines
            print("commands: not measured (sox is not installed: apt install sox)", flush=True)
        else:
            accuracy(work, args.snr, args.noise, args.commands, talk=False)
            if args.push_to_talk:
                accuracy(work, args.snr, args.noise, args.commands, talk=True)
        false_actions(work, args.talk_minutes)


if __name__ == "__main__":
    main()
