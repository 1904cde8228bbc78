"""Speech out with the real espeak-ng: the folder sink's WAVs and said.txt, the queue's
priority (a more urgent line cuts the one being said) and its bound, and a caller that never
waits for the voice."""

from __future__ import annotations

import threading
import wave
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.voice.audio import AudioFormat
from companion.voice.queue import CHAT, MOVE, REFUSAL, URGENT, SpeechQueue
from companion.voice.sinks import AlsaSink, FolderSink
from companion.voice.speech import Speaker, VoiceSettings
from tests.voice_tools import NullSink, needs_espeak

pytestmark = needs_espeak


def said(folder: Path) -> list[str]:
    path = folder / "said.txt"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


class GateSink(FolderSink):
    """A folder sink whose first utterance holds at its first piece until ``gate`` opens:
    the test decides what is queued while a line is being said."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.gate = threading.Event()
        self.started = threading.Event()

    def write(self, pcm: bytes) -> None:
        self.started.set()
        self.gate.wait(30)
        super().write(pcm)


def test_a_line_becomes_a_numbered_wav_and_a_line_of_said_txt(tmp_path):
    speaker = Speaker(FolderSink(tmp_path), VoiceSettings("en-us", 170, 100))
    assert speaker.say("white a5 to b5.")
    assert speaker.say("-v is words here, not an option")
    assert said(tmp_path) == ["0001\twhite a5 to b5.", "0002\t-v is words here, not an option"]
    with wave.open(str(tmp_path / "0001.wav")) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
        assert w.getnframes() / w.getframerate() > 0.5  # a second or so of speech
    # a new sink in the same folder numbers on, overwriting nothing
    Speaker(FolderSink(tmp_path)).say("black passes.")
    assert said(tmp_path)[-1] == "0003\tblack passes."


def test_a_voice_espeak_ng_does_not_have_is_one_line(tmp_path):
    speaker = Speaker(NullSink(), VoiceSettings("no-such-voice"))
    with pytest.raises(ValueError, match="espeak-ng has no voice") as e:
        speaker.say("hello")
    assert "\n" not in str(e.value)


def test_the_null_sink_counts_what_it_was_handed():
    sink = NullSink()
    Speaker(sink).say("ten seconds, black.")
    assert sink.said == ["ten seconds, black."] and sink.samples > 10_000


def test_a_more_urgent_line_cuts_the_one_being_said(tmp_path):
    sink = GateSink(tmp_path)
    queue = SpeechQueue(Speaker(sink).say, bound=4)
    try:
        queue.say("a long account of the last resolution, read slowly", CHAT)
        assert sink.started.wait(30)
        queue.say("white wins on time.", URGENT)  # returns at once: the voice is held
        sink.gate.set()
        assert queue.wait_idle(60)
    finally:
        queue.close()
    lines = said(tmp_path)
    assert lines == [
        "0001\ta long account of the last resolution, read slowly [cut]",
        "0002\twhite wins on time.",
    ]
    assert queue.cut == ["a long account of the last resolution, read slowly"]


def test_the_queue_keeps_its_bound_dropping_the_least_urgent_oldest_first(tmp_path):
    sink = GateSink(tmp_path)
    queue = SpeechQueue(Speaker(sink).say, bound=3)
    try:
        queue.say("first", CHAT)
        assert sink.started.wait(30)
        for i in range(20):  # a flood while the voice is busy
            queue.say(f"chat {i}", CHAT)
        queue.say("refused", REFUSAL)
        queue.say("a move", MOVE)
        assert len(queue.pending()) == 3
        assert queue.pending() == ["refused", "a move", "chat 19"]
        assert queue.dropped == [f"chat {i}" for i in range(19)]
        sink.gate.set()
        assert queue.wait_idle(60)
    finally:
        queue.close()
    texts = [line.split("\t")[1] for line in said(tmp_path)]
    # the refusal cut "first" (more urgent), then the rest by urgency
    assert texts == ["first [cut]", "refused", "a move", "chat 19"]


def test_a_line_of_equal_urgency_waits_its_turn(tmp_path):
    sink = GateSink(tmp_path)
    queue = SpeechQueue(Speaker(sink).say, bound=4)
    try:
        queue.say("one", MOVE)
        assert sink.started.wait(30)
        queue.say("two", MOVE)
        sink.gate.set()
        assert queue.wait_idle(60)
    finally:
        queue.close()
    assert [line.split("\t")[1] for line in said(tmp_path)] == ["one", "two"]


class HeldVoice:
    """A ``say`` that holds each line until ``gate`` is set: a voice behind the table."""

    def __init__(self) -> None:
        self.gate, self.holding = threading.Event(), threading.Event()
        self.heard: list[str] = []

    def __call__(self, text: str, cut: threading.Event) -> bool:
        self.holding.set()
        self.gate.wait(30)
        self.heard.append(text)
        return True


def test_a_line_no_longer_true_when_its_turn_comes_is_passed_over():
    say = HeldVoice()
    gate, heard = say.gate, say.heard
    true = {"black to play": True, "white to play": True}
    queue = SpeechQueue(say, bound=8)
    try:
        queue.say("white a5", MOVE)
        assert say.holding.wait(30)
        queue.say("black to play", MOVE, lambda: true["black to play"])
        queue.say("black b6", MOVE)
        queue.say("white to play", MOVE, lambda: true["white to play"])
        true["black to play"] = False  # black moved while the voice was behind
        gate.set()
        assert queue.wait_idle(30)
    finally:
        gate.set()
        queue.close()
    assert heard == ["white a5", "black b6", "white to play"]
    assert queue.stale == ["black to play"]


def test_a_line_that_cannot_be_said_is_logged_and_the_voice_goes_on(tmp_path, caplog):
    sink = FolderSink(tmp_path)
    bad = Speaker(sink, VoiceSettings("no-such-voice"))
    queue = SpeechQueue(bad.say)
    try:
        queue.say("lost")
        assert queue.wait_idle(30)
        bad.settings = VoiceSettings()
        queue.say("heard")
        assert queue.wait_idle(30)
    finally:
        queue.close()
    assert [line.split("\t")[1] for line in said(tmp_path)] == ["heard"]
    assert any("cannot say 'lost'" in r.getMessage() for r in caplog.records)


def test_the_alsa_sink_says_why_it_cannot_play_in_one_line():
    why = AlsaSink.missing()
    assert why is None or (why.startswith("aplay not found") and "\n" not in why)


def test_a_bound_below_one_is_refused():
    with pytest.raises(ValueError):
        SpeechQueue(lambda text, cut: True, bound=0)


def test_the_folder_sink_writes_the_format_it_was_given(tmp_path):
    sink = FolderSink(tmp_path)
    sink.begin("x", AudioFormat(16000))
    sink.write(bytes(3200))
    sink.end(True)
    with wave.open(str(tmp_path / "0001.wav")) as w:
        assert (w.getframerate(), w.getnframes()) == (16000, 1600)


def test_a_very_long_line_is_cut_to_what_the_pipe_holds_and_never_hangs(tmp_path):
    from companion.voice.speech import LONGEST

    cut = threading.Event()

    class Stopping(NullSink):
        def write(self, pcm: bytes) -> None:
            super().write(pcm)
            cut.set()  # heard enough: the rest is cut

    sink = Stopping()
    assert not Speaker(sink).say("é " * 40_000, cut)  # 120 kB of UTF-8 given
    assert len(sink.said[0]) == 80_000 and LONGEST * 4 <= 64 * 1024
    assert sink.samples > 0


@settings(max_examples=40, deadline=None)
@given(
    bound=st.integers(1, 6),
    lines=st.lists(st.integers(CHAT, URGENT), min_size=1, max_size=30),
)
def test_the_queue_never_outgrows_its_bound_and_keeps_the_most_urgent(bound, lines):
    """Lines queued while the voice is held: at most ``bound`` wait, none dropped is more
    urgent than one kept, and every line is said, waiting, or dropped."""
    say = HeldVoice()
    gate, heard = say.gate, say.heard
    queue = SpeechQueue(say, bound=bound)
    try:
        queue.say("held", CHAT)
        assert say.holding.wait(30)
        for i, priority in enumerate(lines):
            queue.say(f"{priority}:{i}", priority)
            assert len(queue.pending()) <= bound
        waiting = queue.pending()
        kept = [int(t.split(":")[0]) for t in waiting]
        assert kept == sorted(kept, reverse=True)  # the most urgent first
        for text in queue.dropped:
            assert int(text.split(":")[0]) <= min(kept)
        assert sorted(waiting + queue.dropped) == sorted(f"{p}:{i}" for i, p in enumerate(lines))
        gate.set()
        assert queue.wait_idle(30)
    finally:
        gate.set()
        queue.close()
    assert heard == ["held", *waiting]
