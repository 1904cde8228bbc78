"""``binaryon say`` and the voice lines of ``binaryon doctor``."""

from __future__ import annotations

import wave

from companion.cli.doctor import INFO, MISSING, OK
from companion.cli.doctor_voice import voice_checks
from companion.cli.main import main
from companion.core.config import ButtonConfig, VoiceConfig
from tests.voice_tools import needs_espeak


@needs_espeak
def test_say_writes_the_line_as_a_wav(tmp_path, capsys):
    assert main(["say", "black places c2 and d3", "--to", str(tmp_path)]) == 0
    assert (tmp_path / "said.txt").read_text() == "0001\tblack places c2 and d3\n"
    with wave.open(str(tmp_path / "0001.wav")) as w:
        assert w.getnframes() > w.getframerate()  # over a second of speech
    assert main(["say", "swap", "--to", str(tmp_path), "--voice", "en-us+f3"]) == 0
    assert (tmp_path / "0002.wav").exists()


@needs_espeak
def test_say_with_a_voice_espeak_ng_lacks_is_one_line(tmp_path, capsys):
    assert main(["say", "x", "--to", str(tmp_path), "--voice", "klingon"]) == 1
    err = capsys.readouterr().err
    assert err == "binaryon: espeak-ng has no voice 'klingon' (espeak-ng --voices lists them)\n"
    assert not (tmp_path / "said.txt").exists()


def test_a_bad_config_for_say_is_one_line(tmp_path, capsys):
    bad = tmp_path / "c.toml"
    bad.write_text('[voice]\nspeak = "shout"\n')
    assert main(["say", "x", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "[voice] speak 'shout'" in err and err.count("\n") == 1


@needs_espeak
def test_doctor_says_espeak_the_output_and_the_microphone_one_line_each():
    checks = voice_checks(VoiceConfig())
    assert [c.name for c in checks] == ["espeak-ng", "sound out", "microphone"]
    assert checks[0].status == OK and "en-us" in checks[0].detail
    assert checks[2].status == INFO  # listening is off
    assert all("\n" not in c.detail for c in checks)
    # speaking with a voice espeak-ng lacks is a problem; silent, only information
    assert voice_checks(VoiceConfig(speak="all", voice="klingon"))[0].status == MISSING
    assert voice_checks(VoiceConfig(speak="off", voice="klingon"))[0].status == INFO
    listening = voice_checks(VoiceConfig(listen=True))
    assert [c.name for c in listening] == [
        "espeak-ng", "sound out", "microphone", "recogniser", "push-to-talk",
    ]  # fmt: skip
    assert "'companion'" in listening[-1].detail  # the wake word, without push-to-talk
    menu = voice_checks(VoiceConfig(listen=True, push_to_talk="menu"))[-1]
    assert menu.status == OK and menu.detail.startswith("GPIO13: hold menu and speak")
    talk = VoiceConfig(listen=True, push_to_talk="talk")
    assert voice_checks(talk, ButtonConfig(talk=16))[-1].detail.startswith("GPIO16: hold the talk")
    assert voice_checks(talk, ButtonConfig(enabled="no"))[-1].status == MISSING
