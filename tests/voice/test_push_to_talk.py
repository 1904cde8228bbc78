"""Push-to-talk end to end: the daemon built from the config with its buttons on gpiozero's
MockFactory and its voice listening to real speech (espeak-ng, pocketsphinx). The menu or a
talk button held: what is said meanwhile is acted on; what is said while it is not held never
is; a tap of menu with nothing said is still the hint; the config's bad values are one line."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.core.config import Config, ConfigError
from companion.hardware import pinout
from companion.service.app import build_daemon
from tests.conftest import wait_until
from tests.voice_tools import Pressed, needs_espeak, needs_pocketsphinx, speak_to

TALK_PIN = 16  # a free GPIO on the Pico build


@pytest.fixture
def factory():
    old, Device.pin_factory = Device.pin_factory, MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = old


def run_with(tmp_path: Path, factory, push_to_talk: str, said: list[tuple[str | None, bool]]):
    """The daemon hearing ``said`` (a line, or None for a moment of quiet; held or not) with
    the push-to-talk button pressed on its mock pin: (what it acted on, what it said)."""
    files: list[tuple[Path | None, bool]] = []
    for i, (line, held) in enumerate(said):
        files.append((speak_to(tmp_path / f"{i}.wav", line) if line else None, held))
    config = Config.default().with_overrides(
        board={"driver": "mock"},
        buttons={"enabled": "yes", "talk": TALK_PIN if push_to_talk == "talk" else 0},
        journal={"path": "none"},
        voice={"speak": "all", "listen": True, "push_to_talk": push_to_talk},
    )
    pin_number = TALK_PIN if push_to_talk == "talk" else pinout.PI_BUTTONS["menu"]
    pins: list = []

    def press(down: bool) -> None:
        pin = pins[0]
        if down:
            pin.drive_low()
        else:
            time.sleep(0.05)  # longer than a contact's bounce: a press, not noise
            pin.drive_high()

    stream = Pressed(files, press)
    out = tmp_path / "said"
    out.mkdir()
    daemon, closers = build_daemon(config, simulated=True, voice_to=out, listen_from=stream)
    pins.append(factory.pin(pin_number))
    daemon.start()
    try:
        wait_until(lambda: stream.ended, timeout=120)
        assert daemon.wait_idle(10)
        acted = list(daemon.voice.commands.acted)
    finally:
        daemon.stop()
        for close in closers:
            close()
    texts = (out / "said.txt").read_text(encoding="utf-8").splitlines()
    return acted, [t.split("\t", 1)[1] for t in texts]


@needs_espeak
@needs_pocketsphinx
def test_holding_menu_hears_a_command_and_letting_go_closes_the_microphone(tmp_path, factory):
    acted, texts = run_with(
        tmp_path,
        factory,
        "menu",
        [
            ("what is the score", True),
            ("whose turn is it", False),  # not held: never heard
            ("companion whose turn is it", False),  # the wake word is not push-to-talk
            ("where can i move", True),
            (None, True),  # a tap of menu, nothing said: the hint
        ],
    )
    assert acted == ["score", "moves"]
    assert not any(t.startswith("Not understood") for t in texts), texts
    # the tap's hint (the moves ON has), said once: the presses that were talk gave none
    assert [t for t in texts if t.endswith("moves for ON")] == [texts[-1]], texts


@needs_espeak
@needs_pocketsphinx
def test_a_talk_button_of_its_own_leaves_menu_as_it_was(tmp_path, factory):
    acted, texts = run_with(
        tmp_path,
        factory,
        "talk",
        [("whose turn is it", True), ("what is the score", False), ("open the menu", True)],
    )
    assert acted == ["turn", "menu"]
    assert any(t.startswith("menu:") for t in texts), texts


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[voice]\npush_to_talk = "button"', "[voice] push_to_talk 'button' is not one of off"),
        ('[voice]\npush_to_talk = "talk"', '[voice] push_to_talk = "talk" needs the button\'s'),
        ('[voice]\nwake = ""', '[voice] wake "": without a wake word, set push_to_talk'),
        ("[buttons]\ntalk = -3", "[buttons] talk: GPIO -3 is negative"),
    ],
)
def test_a_bad_push_to_talk_is_one_line(tmp_path, text, words):
    path = tmp_path / "c.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError) as e:
        Config.load(path)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_the_talk_button_shares_no_gpio():
    from companion.service.config_check import check_config

    config = Config.default().with_overrides(
        buttons={"enabled": "yes", "talk": pinout.PI_BUTTONS["undo"]},
        voice={"push_to_talk": "talk"},
    )
    with pytest.raises(ConfigError, match="the undo button and the talk button"):
        check_config(config)


def test_the_hold_of_the_push_to_talk_button_is_the_microphones():
    from companion.hardware.simulated.mock_board import MockBoard
    from companion.service.daemon import Daemon
    from companion.voice.push_to_talk import PushToTalk
    from tests.conftest import FakeClock

    clock = FakeClock()
    d = Daemon(Config.default(), board=MockBoard(8, "switch", clock), clock=clock)
    d.button("menu", long=True)  # no push-to-talk: the new-game menu, as ever
    assert d.menu.is_open
    d.button("undo")
    assert not d.menu.is_open
    d.command("talk")
    assert d.message.startswith("talk: no push-to-talk")
    d.push_to_talk = ptt = PushToTalk("menu")
    d.button_level("menu", True)
    assert ptt.held
    d.button("menu", long=True)  # the microphone's: no menu
    d.button_level("menu", False)
    assert not ptt.held and not d.menu.is_open
    d.command("talk")  # the simulator's key: held until typed again
    assert ptt.held and d.message.startswith("talk: held")
    d.command("talk")
    assert not ptt.held
    d.push_to_talk = PushToTalk("talk")
    d.button("menu", long=True)  # a talk button of its own: menu is as it was
    assert d.menu.is_open


def test_help_names_the_button_to_hold_and_open_the_menu_is_a_command():
    from companion.service.voice_commands import VoiceCommands
    from companion.voice.grammar import Command, Context, command_of
    from companion.voice.listener import Heard
    from tests.conftest import FakeClock
    from tests.voice.test_daemon import lines, voiced

    clock = FakeClock()
    d, voice, queue, said = voiced(clock)
    lines(queue, said)
    voice.commands = VoiceCommands(d, voice, "", hold="talk")
    d.call(lambda: voice.commands.act(Heard("help", Command("help"), True, 0)))
    (told,) = lines(queue, said)
    assert told.startswith("Hold talk and say: ") and "open the menu" in told
    assert command_of("open the menu", Context(), "") == Command("menu")
    d.call(lambda: voice.commands.act(Heard("open the menu", Command("menu"), True, 0)))
    assert d.menu.is_open
    assert Heard("open the window", None, True, 0).reply == "Not understood: open the window."


@needs_pocketsphinx
def test_push_to_talk_with_no_buttons_says_nothing_opens_the_microphone(tmp_path, caplog):
    """A board with its buttons turned off: the one line says so, and the referee runs."""
    config = Config.default().with_overrides(
        board={"driver": "mock"},
        buttons={"enabled": "no"},
        journal={"path": "none"},
        voice={"speak": "all", "listen": True, "push_to_talk": "menu"},
    )
    out = tmp_path / "said"
    out.mkdir()
    daemon, closers = build_daemon(
        config, simulated=False, voice_to=out, listen_from=Pressed([], None)
    )
    try:
        notes = [r.getMessage() for r in caplog.records if "nothing opens" in r.getMessage()]
        assert notes == [
            "voice: push-to-talk on menu, but no buttons: nothing opens the microphone"
            " ([buttons] enabled)"
        ]
    finally:
        for close in closers:
            close()
