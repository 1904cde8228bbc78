"""[voice] in the config file: each value checked alone, a bad one is one line."""

from __future__ import annotations

import pytest

from companion.core.config import Config, ConfigError, VoiceConfig


def test_the_voice_is_off_by_default_and_reads_its_section(tmp_path):
    assert Config.default().voice == VoiceConfig(speak="off", listen=False)
    path = tmp_path / "c.toml"
    path.write_text(
        '[voice]\nspeak = "moves"\nvoice = "en-us+f3"\nrate = 150\nvolume = 120\n'
        'device = "plughw:1,0"\nlisten = true\nmicrophone = "hw:2"\nwake = ""\n'
        'push_to_talk = "menu"\n'
    )
    v = Config.load(path).voice
    assert (v.speak, v.voice, v.rate, v.volume, v.device) == (
        "moves", "en-us+f3", 150, 120, "plughw:1,0"
    )  # fmt: skip
    assert v.listen and v.microphone == "hw:2" and v.wake == "" and v.push_to_talk == "menu"


@pytest.mark.parametrize(
    "text, words",
    [
        ('speak = "loud"', "[voice] speak 'loud' is not one of off, moves, all"),
        ("rate = 20", "[voice] rate 20 must be 80..450"),
        ("volume = 300", "[voice] volume 300 must be 0..200"),
        ('voice = "en us; rm"', "[voice] voice 'en us; rm'"),
        ('device = ""', "[voice] device ''"),
        ('wake = "hey 2"', "[voice] wake 'hey 2'"),
        ("listen = 1", "[voice] listen: expected true or false"),
        ("pitch = 3", "[voice] unknown key 'pitch'"),
    ],
)
def test_a_bad_voice_value_is_one_line(tmp_path, text, words):
    path = tmp_path / "c.toml"
    path.write_text(f"[voice]\n{text}\n")
    with pytest.raises(ConfigError) as e:
        Config.load(path)
    assert words in str(e.value) and "\n" not in str(e.value)
