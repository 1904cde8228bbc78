"""The daemon's voice built from ``[voice]`` and the command line (``--voice``, ``--voice-to
DIR``, ``--listen-from FILE|DIR``): the speech queue and its sink, the table's voice hooked on
the daemon, and the listener in a thread of its own. A part that cannot work (no espeak-ng, no
pocketsphinx, no microphone) is one log line and one OLED line; the referee goes on."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import PROGRAM
from companion.core.config import Config
from companion.service.table_voice import TableVoice
from companion.service.voice_commands import VoiceCommands

log = logging.getLogger(PROGRAM)

DRAIN_SECONDS = 30.0  # at the end, a folder's lines are all written (a sound card's are cut)


def start_voice(
    config: Config, daemon: Any, voice_to: Path | None = None, listen_from: Any = None
) -> Callable[[], None]:
    """Hook the voice on ``daemon``; returns the function that stops it. ``listen_from``: a
    WAV file or folder (``--listen-from``), or a stream read as the microphone is (tests)."""
    from companion.voice.queue import SpeechQueue
    from companion.voice.sinks import AlsaSink, FolderSink
    from companion.voice.speaker_process import SpeakerProcess
    from companion.voice.speech import VoiceSettings, voice_problem

    v = config.voice
    speak = v.speak
    if voice_to is not None:
        FolderSink(voice_to)  # a folder that cannot be written: one line, before the start
    problem = voice_problem(v.voice) or (None if voice_to is not None else AlsaSink.missing())
    if problem and speak != "off":
        log.error("voice: %s; running without speech", problem)
        daemon.say(f"voice off: {problem}", kind="warning")
        speak = "off"
    settings = VoiceSettings(v.voice, v.rate, v.volume)
    # said in a process of its own: the referee's interpreter never works for a line said
    where = ("folder", str(voice_to)) if voice_to is not None else ("alsa", v.device)
    speaker = SpeakerProcess(*where, settings)
    queue = SpeechQueue(speaker.say, prepare=speaker.start)
    voice = TableVoice(daemon, speak, queue)
    daemon.voice = voice
    daemon.feedback.on_message = voice.message
    voice.started()  # said with the first frame
    stop_listening: Callable[[], None] = lambda: None  # noqa: E731
    if v.listen or listen_from is not None:
        stop_listening = _listen(config, daemon, voice, listen_from)

    def close() -> None:
        stop_listening()
        if voice_to is not None:
            queue.wait_idle(DRAIN_SECONDS)
        daemon.feedback.on_message = None
        daemon.voice = None
        voice.close()
        speaker.close()

    return close


def _listen(config: Config, daemon: Any, voice: TableVoice, listen_from: Any) -> Callable[[], None]:
    """The listener, started once the table's first frame is up (the recogniser takes a
    moment to load): each line heard is acted on in the loop before the next is heard."""
    from companion.voice.listener import Heard, Listener, Recogniser, pocketsphinx_missing
    from companion.voice.microphone import AlsaMicrophone, WavSource

    if missing := pocketsphinx_missing():
        log.error("voice: %s; not listening", missing)
        daemon.say(f"not listening: {missing}", kind="warning")
        return lambda: None
    if isinstance(listen_from, Path):
        source: Any = WavSource.of(listen_from)  # ValueError: one line, before the start
    elif listen_from is not None:
        source = listen_from
    elif missing := AlsaMicrophone.missing():
        log.error("voice: %s; not listening", missing)
        daemon.say(f"not listening: {missing}", kind="warning")
        return lambda: None
    else:
        source = AlsaMicrophone(config.voice.microphone)
    from companion.voice.push_to_talk import PushToTalk

    ptt = config.voice.push_to_talk
    push_to_talk = PushToTalk(ptt) if ptt != "off" else None
    wake = config.voice.wake if push_to_talk is None else ""  # held: no wake word
    commands = VoiceCommands(daemon, voice, wake, hold=ptt if push_to_talk else "")
    voice.commands = commands
    daemon.push_to_talk = push_to_talk  # the buttons' presses and releases reach it
    holder: dict[str, Listener] = {}
    stopped = threading.Event()

    class InContext:
        """The recogniser with the grammar of the game's state as it is when a line ends."""

        def __init__(self, recogniser: Recogniser) -> None:
            self.recogniser = recogniser
            self.wake = recogniser.wake

        def hear(self, pcm: bytes, loudness: float | None = None) -> Heard:
            ctx = daemon.call(commands.context, render=False)
            if ctx != self.recogniser.ctx:
                self.recogniser.set_context(ctx)
            return self.recogniser.hear(pcm, loudness)

    def heard(line: Heard) -> None:
        if stopped.is_set():
            return
        try:
            daemon.call(lambda: commands.act(line), timeout=30)
        except TimeoutError:
            log.warning("voice: the referee is busy: %r not acted on", line.words)
        if listen_from is not None:  # files are said as a person would: after the answer
            voice.queue.wait_idle(DRAIN_SECONDS)

    def run() -> None:
        try:
            recogniser = InContext(Recogniser(daemon.call(commands.context, render=False), wake))
        except Exception as e:  # a model that will not load: the referee goes on
            log.error("voice: the recogniser cannot start: %s", e)
            daemon.post_call(lambda: setattr(daemon, "push_to_talk", None))  # menu as before
            return
        listener = Listener(recogniser, source, heard, push_to_talk)  # type: ignore[arg-type]
        holder["listener"] = listener
        if stopped.is_set():
            return
        try:
            listener.run()
        except (ValueError, OSError) as e:  # a file that is no WAV: the referee goes on
            why = f"not listening: {e}"
            log.error("voice: %s", why)
            daemon.post_call(lambda: daemon.say(why, kind="warning"))

    thread = threading.Thread(target=run, name="listen", daemon=True)
    daemon.after_first_frame.append(thread.start)

    def stop() -> None:
        stopped.set()
        daemon.push_to_talk = None
        source.close()
        if thread.is_alive():
            thread.join(5)

    return stop
