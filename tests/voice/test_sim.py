"""The voice end to end: ``binaryon sim`` driven by typed squares with ``--voice-to DIR`` writes
each line said as a real WAV of speech and its text in ``said.txt``; ``--listen-from`` feeds
WAVs said by espeak-ng through the microphone's stream, and the daemon acts on the commands
(an undo only after "yes") and says back once a line it did not understand, acting on none."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
import wave
from array import array
from pathlib import Path

from tests.voice_tools import needs_espeak, needs_pocketsphinx, speak_to


def cli(args: list[str], tmp_path: Path) -> list[str]:
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), NO_COLOR="1", SDL_VIDEODRIVER="dummy")
    return [sys.executable, "-m", "companion.cli.main", *args], env


def run_sim(args: list[str], lines: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    command, env = cli(["sim", *args], tmp_path)
    return subprocess.run(
        command,
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def said(folder: Path) -> list[tuple[str, str]]:
    path = folder / "said.txt"
    if not path.exists():
        return []
    return [tuple(line.split("\t", 1)) for line in path.read_text().splitlines()]


def speech_in(path: Path) -> tuple[float, float]:
    """(seconds, loudness as RMS) of a WAV file: it opens as 16-bit PCM WAV."""
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
        samples = array("h", w.readframes(w.getnframes()))
        seconds = w.getnframes() / w.getframerate()
    rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples)))
    return seconds, rms


@needs_espeak
def test_a_game_in_the_sim_is_said_into_wavs_and_said_txt(tmp_path):
    out = tmp_path / "voice"
    r = run_sim(
        ["--journal", "none", "--voice-to", str(out)],
        ["e5", "d4", "f5", "undo", "quit"],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    lines = said(out)
    texts = [t.removesuffix(" [cut]") for _, t in lines]
    for expected in ("on e5.", "off d4.", "No: f5: not in line with d4.", "took back d4"):
        assert expected in texts, texts
    # one numbered WAV per line, each a real WAV of speech, longer for longer lines
    assert [n for n, _ in lines] == [f"{i:04d}" for i in range(1, len(lines) + 1)]
    assert sorted(p.name for p in out.glob("*.wav")) == [f"{n}.wav" for n, _ in lines]
    whole = [(n, t) for n, t in lines if not t.endswith("[cut]")]
    figures = {t: speech_in(out / f"{n}.wav") for n, t in whole}
    assert all(seconds > 0.3 and rms > 300 for seconds, rms in figures.values()), figures
    refusal = figures.get("No: f5: not in line with d4.")
    if refusal and "off d4." in figures:
        assert refusal[0] > figures["off d4."][0]


@needs_espeak
def test_voice_to_a_file_is_one_line(tmp_path):
    (tmp_path / "f").write_text("")
    r = run_sim(["--journal", "none", "--voice-to", str(tmp_path / "f")], ["quit"], tmp_path)
    assert r.returncode == 2
    assert (
        r.stderr.strip()
        .splitlines()[-1]
        .endswith("--voice-to " + f"{tmp_path / 'f'}: not a folder")
    )


def test_listening_from_a_file_that_is_no_wav_is_one_line(tmp_path):
    (tmp_path / "heard").mkdir()
    (tmp_path / "heard" / "1.wav").write_text("not audio")
    r = run_sim(["--journal", "none", "--listen-from", str(tmp_path / "heard")], ["quit"], tmp_path)
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"binaryon: --listen-from {tmp_path / 'heard' / '1.wav'}: not a WAV")


def test_listening_from_nothing_is_one_line(tmp_path):
    r = run_sim(["--journal", "none", "--listen-from", str(tmp_path / "no")], ["quit"], tmp_path)
    assert r.returncode == 2
    err = r.stderr.strip().splitlines()
    assert err == [f"binaryon: --listen-from {tmp_path / 'no'}: no such file"]


@needs_espeak
@needs_pocketsphinx
def test_commands_heard_from_wavs_act_in_the_sim(tmp_path):
    journal = tmp_path / "j.sqlite"
    r = run_sim(["--journal", str(journal)], ["e5", "d4", "quit"], tmp_path)
    assert r.returncode == 0, r.stderr
    heard = tmp_path / "heard"
    heard.mkdir()
    for i, line in enumerate(
        (
            "companion read rank five",
            "companion undo",  # asked: nothing taken back yet
            "companion yes",  # now d4 is taken back
            "companion open the window please",  # not a command: said back, not acted on
            "whose turn is it",  # no wake word: not said to the companion, silence
            "companion whose turn is it",
        )
    ):
        speak_to(heard / f"{i:02d}.wav", line)
    out = tmp_path / "voice"
    command, env = cli(
        ["sim", "--journal", str(journal), "--voice-to", str(out), "--listen-from", str(heard)],
        tmp_path,
    )
    proc = subprocess.Popen(  # the terminal's drawing is not read: it goes nowhere
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while "off to play." not in [t for _, t in said(out)]:
            assert time.monotonic() < deadline, said(out)
            time.sleep(0.2)
        _, err = proc.communicate("quit\n", timeout=60)
    finally:
        proc.kill()
    texts = [t for _, t in said(out)]
    assert texts[0] == "on to play."  # the game taken up: whose turn
    assert texts[1].startswith("Rank 5:") and "e5 white" in texts[1]  # ON's e5
    assert texts[2] == "Take back the last move? Say yes, or press undo."
    assert texts[3] == "took back d4"
    assert texts[4].startswith("Not understood")
    assert texts[5:] == ["off to play."]  # who plays after the takeback: OFF again
    assert proc.returncode == 0, err
    # the journal holds e5 alone: the undo acted, the talk did not
    h = subprocess.run(
        [*cli(["history", "--journal", str(journal), "--json"], tmp_path)[0]],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert h.returncode == 0, h.stderr
    (game,) = json.loads(h.stdout)
    assert (game["moves"], game["takebacks"]) == (1, 1)


def in_a_fan(path: Path, snr_db: float = 10.0) -> None:
    """Rewrite the WAV ``path`` as said in a room with a fan: brown noise (seeded) for five
    seconds before the words and under them, ``snr_db`` below the words' RMS."""
    import random

    from companion.voice.audio import AudioFormat, read_wav, write_wav
    from companion.voice.microphone import RATE

    words = array("h", read_wav(path, RATE))
    level = math.sqrt(sum(x * x for x in words) / len(words))
    lead = 5 * RATE
    rng, walk, noise = random.Random(7), 0.0, []
    for _ in range(lead + len(words)):
        walk = 0.98 * walk + rng.uniform(-1, 1)  # white noise, leakily summed: brown
        noise.append(walk)
    scale = level / 10 ** (snr_db / 20) / math.sqrt(sum(x * x for x in noise) / len(noise))
    out = array("h", (round(x * scale) for x in noise))
    for i, x in enumerate(words):
        out[lead + i] = max(-32768, min(32767, out[lead + i] + x))
    write_wav(path, out.tobytes(), AudioFormat(RATE, 1))


def listen_in_sim(
    args: list[str], lines: list[str], tmp_path: Path, until, fan: tuple[int, ...] = ()
) -> list[str]:
    """``sim`` with ``args`` hearing ``lines`` said by espeak-ng (through --listen-from; those
    at the indexes ``fan`` in a room with a fan) and speaking into a folder; returns what it
    said once ``until(said lines)`` holds."""
    heard = tmp_path / "heard"
    heard.mkdir()
    for i, line in enumerate(lines):
        speak_to(heard / f"{i:03d}.wav", line)
        if i in fan:
            in_a_fan(heard / f"{i:03d}.wav")
    out = tmp_path / "voice"
    command, env = cli(
        ["sim", "--journal", "none", "--voice-to", str(out), "--listen-from", str(heard), *args],
        tmp_path,
    )
    proc = subprocess.Popen(  # the terminal's drawing is not read: it goes nowhere
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not until([t for _, t in said(out)]):
            assert time.monotonic() < deadline, said(out)
            time.sleep(0.2)
        _, err = proc.communicate("quit\n", timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    return [t for _, t in said(out)]


WRITTEN = ["companion next step"] * 16  # each digit written on the paper sheets


@needs_espeak
@needs_pocketsphinx
def test_binome_on_paper_sheets_by_voice_alone(tmp_path):
    texts = listen_in_sim(
        ["--game", "binome", "--rule", "paper=true", "--rule", "players=Ann,Bob"],
        [*WRITTEN, "companion i claim", "companion i pass", "companion claim four two"],
        tmp_path,
        lambda said: any(t.startswith("Ann: 42.") for t in said),
    )
    assert texts[0].startswith("The die shows")
    assert sum(t.startswith("The die shows") for t in texts) == 16
    assert texts.count("Ann wrote.") == 16 and texts.count("Bob wrote.") == 16
    postulate = next(i for i, t in enumerate(texts) if t.startswith("Postulate: "))
    assert texts[postulate + 1 : postulate + 3] == ["Ann claims.", "Bob passes. Ann, your number?"]
    # the number is told only when asked, and the turn resolves from it
    assert not any("42" in t for t in texts[: postulate + 3])
    told = texts[postulate + 3]
    assert told.startswith("Ann: 42. ") and "Scores: Ann " in told
    assert "42 wins" in told or "42 not eligible" in told  # a wrong claim: out of the turn


@needs_espeak
@needs_pocketsphinx
def test_binome_solo_on_paper_by_voice(tmp_path):
    texts = listen_in_sim(
        ["--game", "binome", "--rule", "paper=true", "--rule", "players=Ann",
         "--rule", "solo=1"],
        [*WRITTEN, "companion i claim", "companion i pass", "companion claim four two"],
        tmp_path,
        lambda said: any(t.startswith("Ann: 42.") for t in said),
    )  # fmt: skip
    assert texts.count("Ann wrote.") == 16 and "bot1 wrote." not in texts  # its sheet: inside
    asked = next(i for i, t in enumerate(texts) if t.endswith("Ann, your number?"))
    assert texts[asked + 1] == "No pass now."  # asked a number: a pass is no answer
    told = texts[asked + 2]
    assert told.startswith("Ann: 42. ") and "Scores: Ann " in told


@needs_espeak
@needs_pocketsphinx
def test_a_move_said_in_a_noisy_room_is_asked_back_before_it_is_made(tmp_path):
    lines = [*WRITTEN, "companion i claim", "companion yes", "companion i pass"]
    texts = listen_in_sim(
        ["--game", "binome", "--rule", "paper=true", "--rule", "players=Ann,Bob"],
        lines,
        tmp_path,
        lambda said: any(t.endswith("Ann, your number?") for t in said),
        fan=(len(WRITTEN),),  # "i claim" said over a fan: the words 10 dB over it
    )
    postulate = next(i for i, t in enumerate(texts) if t.startswith("Postulate: "))
    assert texts[postulate + 1 : postulate + 4] == [
        "Claim for Ann? Say yes or no.",  # asked, not made
        "Ann claims.",  # "yes", said in a quiet moment
        "Bob passes. Ann, your number?",  # a quiet room: made at once
    ]
