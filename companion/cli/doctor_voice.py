"""``binaryon doctor``'s voice lines: espeak-ng and its voice, the sound output, the
microphone and the recogniser, one line each. Missing parts are problems only where [voice]
uses them (speak not "off", listen on); otherwise they are said for information."""

from __future__ import annotations

import shutil
import subprocess

from companion.cli.doctor_check import INFO, MISSING, OK, Check
from companion.core.config import ButtonConfig, VoiceConfig
from companion.voice.listener import pocketsphinx_missing
from companion.voice.speech import voice_problem


def alsa_devices(program: str) -> list[str] | None:
    """The devices ``aplay -L`` / ``arecord -L`` name (None: the program is not there)."""
    if shutil.which(program) is None:
        return None
    out = subprocess.run([program, "-L"], capture_output=True, text=True, timeout=10).stdout
    return [line.strip() for line in out.splitlines() if line and not line[0].isspace()]


def device_check(name: str, program: str, device: str, used: bool) -> Check:
    devices = alsa_devices(program)
    bad = MISSING if used else INFO
    if devices is None:
        return Check(name, bad, f"{program} not found", "sudo apt install alsa-utils")
    if device not in devices and device.split(":", 1)[0] not in ("hw", "plughw"):
        known = ", ".join(devices[:6]) or "none found"
        return Check(
            name, bad, f"{device!r} is not one of {program} -L's devices",
            f"set [voice] to one of: {known}",
        )  # fmt: skip
    if devices == ["null"] or not devices:
        return Check(name, bad, "no sound card", "plug in a USB sound card or speaker")
    return Check(name, OK, f"{device} ({program})")


def listening_check(voice: VoiceConfig, buttons: ButtonConfig) -> Check:
    """How a command is said to the companion: after the wake word, or with a button held."""
    from companion.hardware import pinout

    if voice.push_to_talk == "off":
        return Check("push-to-talk", INFO, f"off: commands start with the wake word {voice.wake!r}")
    if voice.push_to_talk == "talk":
        pin = buttons.talk
        how = "hold the talk button and speak; menu as without a voice"
    else:
        pin = buttons.menu or pinout.BUTTONS["menu"]
        how = "hold menu and speak; a tap: the hint; the new-game menu: say 'open the menu'"
    if buttons.enabled == "no":
        return Check("push-to-talk", MISSING, "the buttons are off", "[buttons] enabled = auto")
    return Check("push-to-talk", OK, f"GPIO{pin}: {how}")


def voice_checks(voice: VoiceConfig, buttons: ButtonConfig | None = None) -> list[Check]:
    speaking = voice.speak != "off"
    problem = voice_problem(voice.voice)
    checks = [
        Check(
            "espeak-ng",
            MISSING if problem and speaking else INFO if problem else OK,
            problem or f"voice {voice.voice}, {voice.rate} words a minute",
            "sudo apt install espeak-ng" if problem else "",
        ),  # fmt: skip
        device_check("sound out", "aplay", voice.device, speaking),
    ]
    if voice.listen:
        missing = pocketsphinx_missing()
        checks.append(device_check("microphone", "arecord", voice.microphone, True))
        checks.append(
            Check(
                "recogniser",
                MISSING if missing else OK,
                missing or "pocketsphinx",
                "pip install 'binaryon[voice]'" if missing else "",
            )  # fmt: skip
        )
        checks.append(listening_check(voice, buttons or ButtonConfig()))
    else:
        checks.append(Check("microphone", INFO, "listening is off ([voice] listen = false)"))
    return checks
