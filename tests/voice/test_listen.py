"""Commands by voice with real audio: espeak-ng says each command of the grammar on three
voices into WAV files, the files go through the same stream the microphone uses (WavSource),
the loudness cuts them into lines and pocketsphinx hears them back. Talk without the wake
word never acts; push-to-talk hears only what was said while it was held."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.voice.grammar import Command, Context, command_of, commands, every_command, jsgf
from companion.voice.grammar import spoken as said_for
from companion.voice.microphone import WavSource
from tests.voice_tools import Pressed, needs_espeak, needs_pocketsphinx, speak_to

FULL = Context(ranks=8, numbers=True, next=True, clock=True, confirm=True, pass_move=True)
VOICES = ("en-us", "en-us+f2", "en-us+f3")


contexts = st.builds(
    Context,
    ranks=st.integers(0, 16),
    numbers=st.booleans(),
    next=st.booleans(),
    clock=st.booleans(),
    confirm=st.booleans(),
    pass_move=st.booleans(),
)


@given(ctx=contexts, wake=st.sampled_from(["", "companion", "hey board"]))
def test_every_command_read_back_from_its_words_is_itself(ctx, wake):
    for command in every_command(ctx):
        assert command_of(said_for(command, wake), ctx, wake) == command
    assert command_of("", ctx, wake) is None


def test_what_a_state_does_not_allow_is_not_a_command():
    bare = Context()
    assert command_of("companion read rank three", bare, "companion") is None
    assert command_of("companion claim four two", bare, "companion") is None
    assert command_of("companion pause the clock", bare, "companion") is None
    assert command_of("read rank nine", Context(ranks=8), "") is None
    assert command_of("score", Context(), "companion") is None  # no wake word
    assert command_of("claim oh five", Context(numbers=True), "") == Command("claim", 5)
    assert "read rank" not in jsgf(bare, "companion") and "claim" not in jsgf(bare)
    assert set(commands(FULL)) >= {"repeat", "score", "turn", "time", "hint", "undo", "pause",
                                   "resume", "next", "pass", "new game", "help", "moves",
                                   "changed"}  # fmt: skip


def test_a_missing_or_bad_source_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        WavSource.of(tmp_path / "nothing.wav")
    with pytest.raises(ValueError, match="no .wav files"):
        WavSource.of(tmp_path)
    (tmp_path / "x.wav").write_text("not audio")
    with pytest.raises(ValueError, match="not a WAV file") as e:
        WavSource.of(tmp_path).read(64_000)
    assert "\n" not in str(e.value)


def listen(folder: Path, ctx: Context, wake: str = "companion") -> list:
    from companion.voice.listener import Listener, Recogniser

    heard: list = []
    Listener(Recogniser(ctx, wake), WavSource.of(folder), heard.append).run()
    return heard


@needs_espeak
@needs_pocketsphinx
def test_every_command_said_by_three_voices_comes_back(tmp_path):
    expected = []
    for v, voice in enumerate(VOICES):
        for i, command in enumerate(every_command(FULL)):
            speak_to(tmp_path / f"{v}-{i:03d}.wav", said_for(command, "companion"), voice)
            expected.append(command)
    heard = listen(tmp_path, FULL)
    assert len(heard) == len(expected)  # one line per file: the loudness cut them right
    right = [h.command == c for h, c in zip(heard, expected, strict=True)]
    wrong = [(c, h.words) for h, c in zip(heard, expected, strict=True)
             if h.command is not None and h.command != c]  # fmt: skip
    assert sum(right) >= 0.95 * len(expected), [h.words for h in heard]
    # a line heard as another command: digits are the weak point (README, "Voice")
    assert len(wrong) <= 1, wrong
    per_command = Counter(str(c) for c, ok in zip(expected, right, strict=True) if ok)
    assert set(per_command) == {str(c) for c in every_command(FULL)}  # each, by some voice
    assert all(h.addressed for h, ok in zip(heard, right, strict=True) if ok)


@needs_espeak
@needs_pocketsphinx
def test_every_command_said_by_push_to_talk_comes_back(tmp_path):
    from companion.voice.audio import read_wav
    from companion.voice.listener import Listener, Recogniser
    from companion.voice.microphone import RATE, quiet
    from companion.voice.push_to_talk import PushToTalk

    ptt = PushToTalk("menu")
    stream = Pressed([], lambda down: ptt.level("menu", down))
    stream.parts = [(None, quiet(5.0))]  # a quiet room before the first press
    expected = []
    for v, voice in enumerate(VOICES):
        for i, command in enumerate(every_command(FULL)):
            path = speak_to(tmp_path / f"{v}-{i:03d}.wav", said_for(command), voice)
            # as a player does: pressed a moment before speaking, let go as the words end
            words = quiet(0.3, 1) + read_wav(path, RATE) + quiet(0.1, 2)
            stream.parts += [(True, words), (False, quiet(1.0, 3))]
            expected.append(command)
    heard: list = []
    Listener(Recogniser(FULL, ""), stream, heard.append, ptt).run()
    assert len(heard) == len(expected)
    right = [h.command == c for h, c in zip(heard, expected, strict=True)]
    wrong = [(c, h.words) for h, c in zip(heard, expected, strict=True)
             if h.command is not None and h.command != c]  # fmt: skip
    assert sum(right) >= 0.95 * len(expected), [h.words for h in heard]
    # with the wake word's quiet pad around these short lines: 86 right, 3 heard as another
    assert len(wrong) <= 2, wrong


TALK = (
    "The board sits beside the players and watches every square.",
    "Each turn the die is rolled and everybody writes the digit on the sheet.",
    "When the game is over the score is shown for a few seconds.",
)


@needs_espeak
@needs_pocketsphinx
def test_talk_without_the_wake_word_never_acts(tmp_path):
    for i, line in enumerate(TALK):
        speak_to(tmp_path / f"{i}.wav", line)
    heard = listen(tmp_path, FULL)
    assert heard and all(h.command is None and not h.addressed for h in heard)


@needs_espeak
@needs_pocketsphinx
def test_push_to_talk_hears_only_what_is_said_while_held(tmp_path):
    from companion.voice.listener import Listener, Recogniser
    from companion.voice.push_to_talk import PushToTalk

    said = {"score": "what is the score", "moves": "where can i move", "turn": "whose turn is it",
            "help": "help"}  # fmt: skip
    for name, line in said.items():
        speak_to(tmp_path / f"{name}.wav", line)

    def hear(held: dict[str, bool]) -> tuple[list, list[bool]]:
        ptt = PushToTalk("menu")
        talked: list[bool] = []  # after each press: was it talk?

        def press(down: bool) -> None:
            if not down:
                talked.append(ptt.talked)
            ptt.level("menu", down)

        stream = Pressed([(tmp_path / f"{n}.wav", held[n]) for n in said], press)
        heard: list = []
        Listener(Recogniser(FULL, ""), stream, heard.append, ptt).run()
        return [h.command for h in heard], talked

    assert hear(dict.fromkeys(said, False)) == ([], [])  # never held: nothing heard
    commands, talked = hear({"score": True, "moves": False, "turn": True, "help": False})
    assert commands == [Command("score"), Command("turn")]
    assert talked == [True, True]
    assert hear(dict.fromkeys(said, True))[0] == [Command(n) for n in said]
    # another button going down is not the push-to-talk one
    ptt = PushToTalk("talk")
    ptt.level("menu", True)
    assert not ptt.held


def tone(seconds: float, amplitude: int = 6000) -> bytes:
    import math
    from array import array

    n = int(seconds * 16000)
    return array("h", (int(amplitude * math.sin(i / 5)) for i in range(n))).tobytes()


def test_the_loudness_cuts_a_stream_into_its_lines():
    from companion.voice.microphone import quiet
    from companion.voice.segmenter import FRAME, Segmenter

    stream = quiet(1) + tone(0.6) + quiet(1) + tone(0.9) + quiet(0.2)
    cutter = Segmenter()
    lines = []
    for i in range(0, len(stream) - 2 * FRAME + 1, 2 * FRAME):
        if (line := cutter.feed(stream[i : i + 2 * FRAME])) is not None:
            lines.append(line)
    if (last := cutter.flush()) is not None:  # the stream ended mid-line
        lines.append(last)
    seconds = [len(line) / 32000 for line in lines]
    assert len(lines) == 2
    assert 0.6 <= seconds[0] <= 0.6 + 0.3 + 0.6  # the tone, what came before, the tail
    assert 0.9 <= seconds[1] <= 0.9 + 0.3 + 0.3


def test_a_line_not_understood_is_said_back_and_not_acted_on():
    from companion.voice.listener import Heard

    assert Heard("companion what", None, True).reply == "Not understood: what."
    assert Heard("", None, True).reply == "Not understood."
    assert Heard("companion help", Command("help"), True).reply == ""
    assert Heard("", None, False).reply == ""  # talk not addressed to it: silence


def test_a_steady_noise_raises_the_rooms_level_and_words_stand_out_of_it():
    import random
    from array import array

    from companion.voice.segmenter import FRAME, Segmenter

    rng = random.Random(3)

    def noise(seconds: float) -> bytes:
        return array("h", (rng.randint(-700, 700) for _ in range(int(seconds * 16000)))).tobytes()

    stream = noise(5) + tone(0.8, 8000) + noise(1.5)
    cutter = Segmenter()
    lines = []
    for i in range(0, len(stream) - 2 * FRAME + 1, 2 * FRAME):
        if (line := cutter.feed(stream[i : i + 2 * FRAME])) is not None:
            lines.append(len(line) / 32000)
    # the fan is the room's level, not a line; the words alone are one
    assert cutter.room > 300 and len(lines) == 1
    assert 0.8 <= lines[0] <= 0.8 + 0.3 + 0.6
    # its loudness: the line's RMS (the tone's 5,657 over 0.8 s of 1.56 s, the fan's 404 over
    # the rest) over the room's level as it started
    assert 9.5 < cutter.loudness < 11


@needs_espeak
@needs_pocketsphinx
def test_words_barely_louder_than_the_room_are_said_back_as_too_noisy(tmp_path):
    from companion.voice.audio import read_wav
    from companion.voice.listener import CLEAR, Recogniser
    from companion.voice.microphone import RATE

    pcm = read_wav(speak_to(tmp_path / "score.wav", "companion what is the score"), RATE)
    recogniser = Recogniser(FULL, "companion")
    heard = recogniser.hear(pcm, loudness=CLEAR * 3)
    assert heard.command == Command("score")
    noisy = recogniser.hear(pcm, loudness=CLEAR * 0.8)  # as loud as a crowd's talk
    assert noisy.command is None and noisy.addressed
    assert noisy.reply == "Too noisy to hear that: say it again."
    # talk without the wake word is still not answered, however loud the room
    quiet_talk = read_wav(speak_to(tmp_path / "talk.wav", "what is the score"), RATE)
    assert recogniser.hear(quiet_talk, loudness=CLEAR * 0.8).reply == ""


HEAR_IN_A_FRESH_PROCESS = """
import json, os, sys
from pathlib import Path
from companion.voice import listener
from companion.voice.grammar import Context
from companion.voice.listener import Listener, Recogniser
listener.SURE = float(os.environ.get("SURE", listener.SURE))
from companion.voice.microphone import WavSource
ctx = Context(ranks=8, numbers=True, next=True, clock=True, confirm=True, pass_move=True)
heard = []
for path in sys.argv[1:]:
    Listener(Recogniser(ctx, "companion"), WavSource.of(Path(path)), heard.append).run()
print(json.dumps([[h.words, str(h.command) if h.command else None, h.reply] for h in heard]))
"""


@needs_espeak
@needs_pocketsphinx
@pytest.mark.skipif(shutil.which("sox") is None, reason="sox not installed")
def test_a_doubtful_hearing_is_said_back_and_never_acted_on(tmp_path):
    # as bench_voice.py hears them (sox makes 16 kHz; each line alone, in a fresh process).
    # Which near word comes out at a low posterior depends on the recogniser's dither, so the
    # doubt is set here: at a posterior every word is under, no line is acted on and each is
    # said back by what was heard; at the shipped threshold a clear command is acted on.
    paths = []
    for i, line in enumerate(("companion no", "companion claim nine zero", "companion help")):
        raw = speak_to(tmp_path / f"raw{i}.wav", line)
        paths.append(tmp_path / f"{i}.wav")
        subprocess.run(["sox", str(raw), "-r", "16000", str(paths[-1])], check=True)

    def hear(sure: str | None) -> list:
        env = {**os.environ, **({"SURE": sure} if sure else {})}
        out = subprocess.run(
            [sys.executable, "-c", HEAR_IN_A_FRESH_PROCESS, *map(str, paths)],
            capture_output=True, text=True, check=True, env=env,
        )  # fmt: skip
        return json.loads(out.stdout)

    doubtful = hear("1.01")
    assert len(doubtful) == 3
    for words, command, reply in doubtful:
        assert words.startswith("companion") and command is None
        assert reply == f"Not understood: {words.removeprefix('companion').strip()}."
    assert hear(None)[2][:2] == ["companion help", "help"]


class Marked:
    """A stream of frames, loud (a tone) or quiet, each carrying its number in its first
    sample; the push-to-talk button is pressed and let go as the frames are read."""

    def __init__(self, loud: list[bool], held: list[bool], ptt) -> None:
        self.loud, self.held, self.ptt = loud, held, ptt
        self.i = 0

    def read(self, size: int) -> bytes:
        import math
        from array import array

        from companion.voice.segmenter import FRAME

        if self.i >= len(self.loud):
            return b""
        if self.held[self.i] != self.ptt.held:
            self.ptt.level("menu", self.held[self.i])
        amp = 6000 if self.loud[self.i] else 4
        frame = array("h", (int(amp * math.sin(k / 5)) for k in range(FRAME)))
        frame[0] = self.i
        self.i += 1
        return frame.tobytes()

    def close(self) -> None:
        pass


@given(
    pattern=st.lists(
        st.tuples(st.integers(1, 40), st.booleans(), st.booleans()), min_size=1, max_size=12
    )
)
def test_push_to_talk_hands_on_only_what_came_while_held_or_just_after(pattern):
    """Whatever the talk and the presses, every frame the recogniser gets was read while the
    button was held or in the ``RELEASE_FRAMES`` after it was let go (that what is said while
    held is heard: test_push_to_talk_hears_only_what_is_said_while_held)."""
    from array import array

    from companion.voice.listener import Heard, Listener
    from companion.voice.push_to_talk import RELEASE_FRAMES, PushToTalk
    from companion.voice.segmenter import FRAME

    loud = [is_loud for n, is_loud, _ in pattern for _ in range(n)]
    held = [is_held for n, _, is_held in pattern for _ in range(n)]
    allowed = set()
    since = None  # frames since the button was let go
    for i, h in enumerate(held):
        since = 0 if h else (None if since is None else since + 1)
        if since is not None and since < RELEASE_FRAMES:
            allowed.add(i)
    got: list[int] = []

    class Recording:
        wake = ""

        def hear(self, pcm: bytes, loudness: float | None = None) -> Heard:
            samples = array("h", pcm)
            got.extend(samples[k] for k in range(0, len(samples), FRAME))
            return Heard("", None, True, 0)

    ptt = PushToTalk("menu")
    Listener(Recording(), Marked(loud, held, ptt), lambda h: None, ptt).run()  # type: ignore[arg-type]
    assert set(got) <= allowed
    assert len(got) == len(set(got))  # no frame heard twice
