"""Speech in a process of its own (voice/speaker_process.py): the daemon's interpreter hands a
line over a pipe and never reads espeak-ng's audio itself; the child runs at a lower priority,
says lines into the sink, cuts one when asked, answers a voice it lacks with one line, and is
started again after it died."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from companion.core.config import Config
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.daemon import Daemon
from companion.service.voice_setup import start_voice
from companion.voice.speaker_process import NICE, SpeakerProcess
from companion.voice.speech import Speaker, VoiceSettings
from tests.conftest import FakeClock, step
from tests.voice_tools import needs_espeak


def said(folder) -> list[str]:
    path = folder / "said.txt"
    if not path.exists():
        return []
    return [line.split("\t", 1)[1] for line in path.read_text(encoding="utf-8").splitlines()]


@needs_espeak
def test_lines_are_said_by_a_lowered_child_and_a_cut_stops_one(tmp_path):
    speaker = SpeakerProcess("folder", str(tmp_path))
    try:
        speaker.start()
        pid = speaker.pid
        assert pid is not None and pid != os.getpid()
        assert os.getpriority(os.PRIO_PROCESS, pid) >= NICE
        assert speaker.say("black places c2 and d3.")
        cut = threading.Event()
        cut.set()  # asked to stop as soon as it starts
        assert not speaker.say("a long account of the last resolution, read slowly", cut)
        assert speaker.say("white wins.")
        assert speaker.pid == pid  # one process for every line
    finally:
        speaker.close()
    assert said(tmp_path) == [
        "black places c2 and d3.",
        "a long account of the last resolution, read slowly [cut]",
        "white wins.",
    ]
    assert len(list(tmp_path.glob("*.wav"))) == 3


@needs_espeak
def test_a_voice_it_lacks_is_one_line_and_a_dead_child_is_started_again(tmp_path):
    bad = SpeakerProcess("folder", str(tmp_path), VoiceSettings("no-such-voice"))
    try:
        with pytest.raises(ValueError, match="no voice 'no-such-voice'") as e:
            bad.say("hello")
        assert "\n" not in str(e.value)
    finally:
        bad.close()
    speaker = SpeakerProcess("folder", str(tmp_path))
    try:
        speaker.start()
        first = speaker.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        try:  # found dead before the line (started again at once) or while it is asked
            speaker.say("maybe lost")
        except OSError as e:
            assert str(e) == "the voice's process stopped"
        assert speaker.say("said by the next one")
        assert speaker.pid not in (None, first)
    finally:
        speaker.close()
    assert said(tmp_path)[-1] == "said by the next one"


@needs_espeak
def test_the_daemons_interpreter_never_reads_the_audio_it_says(tmp_path, monkeypatch):
    def not_here(self, text, cut=None):
        raise AssertionError(f"{text!r} said in the daemon's process")

    monkeypatch.setattr(Speaker, "say", not_here)  # the child is a fresh interpreter
    clock = FakeClock()
    config = Config.default().with_overrides(voice={"speak": "all"})
    d = Daemon(config, board=MockBoard(8, "switch", clock), clock=clock)
    close = start_voice(config, d, voice_to=tmp_path)
    try:
        d.board.start(d.loop.post)
        step(d, clock)
        assert d.voice.queue.wait_idle(60)  # the first line said before the press
        d.board.tap(d.map.square_named("e5"))
        step(d, clock)
    finally:
        close()
    assert said(tmp_path) == ["on to play.", "on e5.", "off to play."]
